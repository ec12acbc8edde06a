import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { type Claim, replayKey, SEEN_WINDOW_MS, SeenIds } from './seen-ids';

/** Claims then, when new, commits: a delivery whose run was written. */
async function admit(seen: SeenIds, key: string, id: string): Promise<Claim> {
  const claim = seen.claim(key, id);
  if (claim === 'new') await seen.commit(key, id);
  return claim;
}

describe('seen webhook ids', () => {
  it('refuses a replay inside the window, after a reload too, and forgets ids once outside it', async () => {
    const path = join(tempDir('apollia-seen-'), 'triggers', 'webhook-seen.jsonl');
    let now = Date.parse('2026-12-01T10:00:00Z');
    const seen = new SeenIds(path, () => new Date(now));
    await seen.load();
    expect(await admit(seen, 'k1', 'm1')).toBe('new');
    expect(await admit(seen, 'k1', 'm1')).toBe('replay');
    expect(await admit(seen, 'k2', 'm1')).toBe('new');
    const reloaded = new SeenIds(path, () => new Date(now));
    await reloaded.load();
    expect(await admit(reloaded, 'k1', 'm1')).toBe('replay');
    now += SEEN_WINDOW_MS + 1;
    const later = new SeenIds(path, () => new Date(now));
    await later.load();
    expect(later.size).toBe(0);
    expect(await admit(later, 'k1', 'm1')).toBe('new');
  });

  it('is bounded: when full of live ids a new one is refused as full, never by forgetting a live one', async () => {
    const path = join(tempDir('apollia-seen-'), 'seen.jsonl');
    let now = Date.parse('2026-12-01T10:00:00Z');
    const seen = new SeenIds(path, () => new Date(now), 3);
    await seen.load();
    for (const id of ['a', 'b', 'c']) expect(await admit(seen, 't', id)).toBe('new');
    expect(await admit(seen, 't', 'd')).toBe('full');
    expect(await admit(seen, 't', 'a')).toBe('replay');
    now += SEEN_WINDOW_MS + 1;
    expect(await admit(seen, 't', 'd')).toBe('new');
    expect(seen.size).toBe(1);
  });

  it('counts an id as seen only once committed: held meanwhile (busy), forgotten on release so a retry is new', async () => {
    const path = join(tempDir('apollia-seen-'), 'seen.jsonl');
    const seen = new SeenIds(path, () => new Date('2026-12-01T10:00:00Z'));
    await seen.load();
    expect(seen.claim('k', 'm1')).toBe('new');
    expect(seen.claim('k', 'm1')).toBe('busy');
    seen.release('k', 'm1');
    expect(seen.claim('k', 'm1')).toBe('new');
    await seen.commit('k', 'm1');
    expect(seen.claim('k', 'm1')).toBe('replay');
  });

  it('keys replays by a hash of the secret, never the secret itself', () => {
    const secret = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;
    expect(replayKey(secret)).toBe(replayKey(secret));
    expect(replayKey(secret)).not.toBe(replayKey(`${secret}x`));
    expect(replayKey(secret)).not.toContain(secret.slice(6, 20));
  });
});
