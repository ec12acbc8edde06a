import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { PENDING_DIR, runFileName } from './run-requests';
import { WaitingRuns } from './waiting-runs';

function writeRun(dataDir: string, n: number): void {
  const dir = join(dataDir, PENDING_DIR);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(
      dir,
      runFileName({
        id: `r${n}`,
        trigger: 'a/b',
        target: 'a/x',
        input: { text: null },
        fired_at: new Date(Date.UTC(2026, 11, 1, 10, 0, n)).toISOString(),
        cause: 'webhook',
      }),
    ),
    '{}',
  );
}

describe('runs waiting, counted without reading the folder at every fire', () => {
  it('never counts low while the folder is being read: the limit holds for writes finished before and during a read', async () => {
    const dataDir = tempDir('apollia-waiting-');
    const waiting = new WaitingRuns(dataDir);
    await waiting.refresh();
    // Two runs written (reserved, then done) since the last read.
    for (const n of [1, 2]) {
      expect(await waiting.reserve('a/b', 3)).toBeNull();
      writeRun(dataDir, n);
      waiting.done('a/b', true);
    }
    // A read starts; while it runs, the two are still counted: one more fits, the fourth does not.
    const read = waiting.refresh();
    expect(waiting.view.byTrigger.get('a/b')).toBe(2);
    expect(await waiting.reserve('a/b', 3)).toBeNull();
    writeRun(dataDir, 3);
    waiting.done('a/b', true);
    await read;
    expect(await waiting.reserve('a/b', 3)).toBe(3);
    expect(waiting.view.total).toBeGreaterThanOrEqual(3);
  });

  it('frees a slot whose write failed, and sees runs the runtime took once at the limit', async () => {
    const dataDir = tempDir('apollia-waiting-');
    const waiting = new WaitingRuns(dataDir);
    expect(await waiting.reserve('a/b', 1)).toBeNull();
    expect(await waiting.reserve('a/b', 1)).toBe(1);
    waiting.done('a/b', false);
    expect(await waiting.reserve('a/b', 1)).toBeNull();
    writeRun(dataDir, 1);
    waiting.done('a/b', true);
    expect(await waiting.reserve('a/b', 1)).toBe(1);
  });
});
