import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { type Claim, readLegacySeen, replayKey, SEEN_WINDOW_MS, SeenIds } from './seen-ids';

/** Claims then, when new, commits: a delivery whose run was written. */
async function admit(seen: SeenIds, key: string, id: string): Promise<Claim> {
  const claim = seen.claim(key, id);
  if (claim === 'new') seen.commit(key, id);
  return claim;
}

describe('seen webhook ids', () => {
  it('refuses a replay inside the window, after a restore from the journal too, and forgets ids once outside it', async () => {
    let now = Date.parse('2026-12-01T10:00:00Z');
    const seen = new SeenIds(() => new Date(now));
    expect(await admit(seen, 'k1', 'm1')).toBe('new');
    expect(await admit(seen, 'k1', 'm1')).toBe('replay');
    expect(await admit(seen, 'k2', 'm1')).toBe('new');
    const marks = [
      { k: 'k1', id: 'm1', at: now },
      { k: 'k2', id: 'old', at: now - SEEN_WINDOW_MS - 1 },
    ];
    const restored = new SeenIds(() => new Date(now));
    restored.restore(marks);
    expect(restored.size).toBe(1);
    expect(await admit(restored, 'k1', 'm1')).toBe('replay');
    expect(await admit(restored, 'k2', 'old')).toBe('new');
    now += SEEN_WINDOW_MS + 1;
    const later = new SeenIds(() => new Date(now));
    later.restore(marks);
    expect(later.size).toBe(0);
    expect(await admit(later, 'k1', 'm1')).toBe('new');
  });

  it("reads an earlier version's replay file: its ids inside the window, none when missing", async () => {
    const dir = tempDir('apollia-seen-');
    const path = join(dir, 'webhook-seen.jsonl');
    const now = Date.parse('2026-12-01T10:00:00Z');
    expect(await readLegacySeen(path, now)).toEqual([]);
    writeFileSync(path, `${now - 1000} ["k","a"]\n${now - SEEN_WINDOW_MS - 1} ["k","b"]\ntorn`);
    expect(await readLegacySeen(path, now)).toEqual([{ key: '["k","a"]', at: now - 1000 }]);
  });

  it('is bounded: when full of live ids a new one is refused as full, never by forgetting a live one', async () => {
    let now = Date.parse('2026-12-01T10:00:00Z');
    const seen = new SeenIds(() => new Date(now), 3);
    for (const id of ['a', 'b', 'c']) expect(await admit(seen, 't', id)).toBe('new');
    expect(await admit(seen, 't', 'd')).toBe('full');
    expect(await admit(seen, 't', 'a')).toBe('replay');
    now += SEEN_WINDOW_MS + 1;
    expect(await admit(seen, 't', 'd')).toBe('new');
    expect(seen.size).toBe(1);
  });

  it('counts an id as seen only once committed: held meanwhile (busy), forgotten on release so a retry is new', async () => {
    const seen = new SeenIds(() => new Date('2026-12-01T10:00:00Z'));
    expect(seen.claim('k', 'm1')).toBe('new');
    expect(seen.claim('k', 'm1')).toBe('busy');
    seen.release('k', 'm1');
    expect(seen.claim('k', 'm1')).toBe('new');
    seen.commit('k', 'm1');
    expect(seen.claim('k', 'm1')).toBe('replay');
  });

  it('keys replays by a hash of the secret, never the secret itself', () => {
    const secret = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;
    expect(replayKey(secret)).toBe(replayKey(secret));
    expect(replayKey(secret)).not.toBe(replayKey(`${secret}x`));
    expect(replayKey(secret)).not.toContain(secret.slice(6, 20));
  });
});
