import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { SEEN_WINDOW_MS, SeenIds } from './seen-ids';

describe('seen webhook ids', () => {
  it('refuses a replay inside the window, after a reload too, and forgets ids once outside it', async () => {
    const path = join(tempDir('apollia-seen-'), 'triggers', 'webhook-seen.jsonl');
    let now = Date.parse('2026-12-01T10:00:00Z');
    const seen = new SeenIds(path, () => new Date(now));
    await seen.load();
    expect(await seen.admit('a/hook', 'm1')).toBe('new');
    expect(await seen.admit('a/hook', 'm1')).toBe('replay');
    expect(await seen.admit('b/hook', 'm1')).toBe('new');
    const reloaded = new SeenIds(path, () => new Date(now));
    await reloaded.load();
    expect(await reloaded.admit('a/hook', 'm1')).toBe('replay');
    now += SEEN_WINDOW_MS + 1;
    const later = new SeenIds(path, () => new Date(now));
    await later.load();
    expect(later.size).toBe(0);
    expect(await later.admit('a/hook', 'm1')).toBe('new');
  });

  it('is bounded: when full of live ids a new one is refused as full, never by forgetting a live one', async () => {
    const path = join(tempDir('apollia-seen-'), 'seen.jsonl');
    let now = Date.parse('2026-12-01T10:00:00Z');
    const seen = new SeenIds(path, () => new Date(now), 3);
    await seen.load();
    for (const id of ['a', 'b', 'c']) expect(await seen.admit('t', id)).toBe('new');
    expect(await seen.admit('t', 'd')).toBe('full');
    expect(await seen.admit('t', 'a')).toBe('replay');
    now += SEEN_WINDOW_MS + 1;
    expect(await seen.admit('t', 'd')).toBe('new');
    expect(seen.size).toBe(1);
  });
});
