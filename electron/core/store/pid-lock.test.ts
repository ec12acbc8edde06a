import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { releaseLock, tryTakeLock } from './pid-lock';

describe('tryTakeLock: one pid lock rule for the store and the trigger host', () => {
  it('takes a free lock, writing its pid; a second take answers the holder', async () => {
    const path = join(tempDir('apollia-lock-'), 'x.lock');
    expect(await tryTakeLock(path)).toEqual({ taken: true });
    expect(readFileSync(path, 'utf8')).toBe(`${process.pid}\n`);
    expect(await tryTakeLock(path)).toEqual({ taken: false, holder: process.pid });
  });

  it('takes over a stale lock (its pid no longer runs), but never one whose taker has not written it yet', async () => {
    const dir = tempDir('apollia-lock-');
    const stale = join(dir, 'stale.lock');
    writeFileSync(stale, '2147483646\n');
    expect(await tryTakeLock(stale)).toEqual({ taken: true });
    const writing = join(dir, 'writing.lock');
    writeFileSync(writing, '');
    expect(await tryTakeLock(writing)).toEqual({ taken: false, holder: null });
    expect(existsSync(writing)).toBe(true);
  });

  it('releases only a lock this process holds', async () => {
    const dir = tempDir('apollia-lock-');
    const other = join(dir, 'other.lock');
    writeFileSync(other, '1\n');
    await releaseLock(other);
    expect(existsSync(other)).toBe(true);
    const mine = join(dir, 'mine.lock');
    await tryTakeLock(mine);
    await releaseLock(mine);
    expect(existsSync(mine)).toBe(false);
  });
});
