import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { placeFromStaging, removeThroughStaging } from './staging';

/** A package folder with one file, as install leaves it. */
function packageFolder(dataDir: string): string {
  const dir = join(dataDir, 'packages', 'invoices');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'manifest.json'), '{}');
  return dir;
}

describe('staging: the state never names files that are gone', () => {
  it('a removal is recorded before its folder is touched: a failed record leaves the folder in place', async () => {
    const dataDir = tempDir();
    const dir = packageFolder(dataDir);
    let sawFolder = false;
    const failing = removeThroughStaging(dataDir, dir, async () => {
      sawFolder = existsSync(join(dir, 'manifest.json'));
      throw new Error('the store write failed');
    });
    await expect(failing).rejects.toThrow('the store write failed');
    expect(sawFolder).toBe(true);
    expect(existsSync(join(dir, 'manifest.json'))).toBe(true);
  });

  it('a recorded removal deletes the folder and leaves nothing in staging', async () => {
    const dataDir = tempDir();
    const dir = packageFolder(dataDir);
    expect(await removeThroughStaging(dataDir, dir, async () => 'recorded')).toBe('recorded');
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(join(dataDir, 'staging'))).toBe(false);
  });

  it('a fault after the commit (the folder fsync) keeps the placed folder the new state names', async () => {
    const dataDir = tempDir();
    const finalDir = join(dataDir, 'packages', 'invoices');
    const afterCommit = Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO', apolliaWhen: 'after_commit' });
    const placing = placeFromStaging({
      dataDir,
      finalDir,
      fill: async (staging) => {
        mkdirSync(staging, { recursive: true });
        writeFileSync(join(staging, 'manifest.json'), '{}');
      },
      record: async (place) => {
        await place();
        throw afterCommit;
      },
    });
    await expect(placing).rejects.toBe(afterCommit);
    expect(existsSync(join(finalDir, 'manifest.json'))).toBe(true);
  });

  it('a fault before the commit rolls the placed folder back', async () => {
    const dataDir = tempDir();
    const finalDir = join(dataDir, 'packages', 'invoices');
    const placing = placeFromStaging({
      dataDir,
      finalDir,
      fill: async (staging) => {
        mkdirSync(staging, { recursive: true });
        writeFileSync(join(staging, 'manifest.json'), '{}');
      },
      record: async (place) => {
        await place();
        expect(existsSync(join(finalDir, 'manifest.json'))).toBe(true);
        throw Object.assign(new Error('ENOSPC'), { code: 'ENOSPC', apolliaWhen: 'before_commit' });
      },
    });
    await expect(placing).rejects.toThrow('ENOSPC');
    expect(existsSync(finalDir)).toBe(false);
  });
});
