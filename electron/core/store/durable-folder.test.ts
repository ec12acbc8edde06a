import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { DurableFolder, type DurableFolderFaults } from './durable-folder';

const folders: DurableFolder[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => folder.close()));
});

/** A folder whose worker reports its steps, with folder fsyncs held at a gate the test opens. */
function watched(faults: Omit<DurableFolderFaults, 'onTrace' | 'gate'> = {}) {
  const dir = join(tempDir('apollia-durable-'), 'pending');
  const steps: string[] = [];
  const gate = new Int32Array(new SharedArrayBuffer(4));
  const folder = new DurableFolder(dir, { ...faults, gate, onTrace: (batch) => steps.push(...batch) });
  folders.push(folder);
  /** Lets the next held folder fsync run. */
  const open = () => {
    Atomics.add(gate, 0, 1);
    Atomics.notify(gate, 0);
  };
  return { dir, folder, steps, open };
}

const tempOf = (step: string) => step.split(' ')[1]?.split('.tmp-')[0];

describe('a durable folder (run files written by a worker thread, one folder fsync per batch)', () => {
  it('resolves a write only once its file is fsynced, renamed in and a folder fsync begun after the rename is done; the writes that come meanwhile, in any number of turns, share the next one', async () => {
    const { dir, folder, steps, open } = watched();
    const done: string[] = [];
    const first = folder.write('a.json', '{"a":1}').then(() => done.push('a'));
    // a is held at its folder fsync: not durable yet, so not resolved.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(done).toEqual([]);
    // b–e come in four turns (four messages) while a is held: the worker takes all four as one batch.
    const rest: Promise<number>[] = [];
    for (const n of ['b', 'c', 'd', 'e']) {
      rest.push(folder.write(`${n}.json`, `{"${n}":1}`).then(() => done.push(n)));
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    expect(done).toEqual([]);
    open();
    await first;
    expect(done).toEqual(['a']);
    open();
    await Promise.all(rest);
    expect(done.sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    // a alone in the first batch; b–e, which came while it was held, in one batch with one folder fsync.
    expect(steps).toEqual([
      expect.stringMatching(/^synced \.a\.json\.tmp-/),
      'renamed a.json',
      'dir-start 0',
      'dir-done 0',
      ...['b', 'c', 'd', 'e'].flatMap((n) => [
        expect.stringMatching(`^synced \\.${n}\\.json\\.tmp-`),
        `renamed ${n}.json`,
      ]),
      'dir-start 1',
      'dir-done 1',
    ]);
    expect(steps.filter((s) => s.startsWith('synced')).map(tempOf)).toEqual([
      '.a.json',
      '.b.json',
      '.c.json',
      '.d.json',
      '.e.json',
    ]);
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'b.json', 'c.json', 'd.json', 'e.json']);
    expect(readFileSync(join(dir, 'c.json'), 'utf8')).toBe('{"c":1}');
  });

  it('fails one write alone: its temp file is gone, nothing is named for it, the others of its batch are durable', async () => {
    const { dir, folder, open } = watched({ failData: 'BAD' });
    const opener = setInterval(open, 5);
    try {
      const results = await Promise.allSettled(
        ['x', 'bad', 'y'].map((n) => folder.write(`${n}.json`, n === 'bad' ? '{"BAD":1}' : `{"${n}":1}`)),
      );
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'EIO' });
      expect(readdirSync(dir).sort()).toEqual(['x.json', 'y.json']);
      expect(readFileSync(join(dir, 'x.json'), 'utf8')).toBe('{"x":1}');
    } finally {
      clearInterval(opener);
    }
  });

  it('makes the folder again when it was removed since the last write, and syncs the new one', async () => {
    const dir = join(tempDir('apollia-durable-'), 'pending');
    const folder = new DurableFolder(dir);
    folders.push(folder);
    await folder.write('one.json', '1');
    rmSync(dir, { recursive: true });
    await folder.write('two.json', '2');
    expect(readdirSync(dir)).toEqual(['two.json']);
  });

  it('writes a large file whole (no short write left behind), and many at once, each exactly once', async () => {
    const dir = join(tempDir('apollia-durable-'), 'pending');
    const folder = new DurableFolder(dir);
    folders.push(folder);
    const big = 'ü'.repeat(600_000);
    const names = Array.from({ length: 200 }, (_, i) => `run-${i}.json`);
    await Promise.all([folder.write('big.json', big), ...names.map((n) => folder.write(n, n))]);
    expect(readFileSync(join(dir, 'big.json'), 'utf8')).toBe(big);
    expect(readdirSync(dir).sort()).toEqual(['big.json', ...names].sort());
    for (const n of names) expect(readFileSync(join(dir, n), 'utf8')).toBe(n);
  });

  it('close waits for the writes queued, and a write after it starts a new worker', async () => {
    const dir = join(tempDir('apollia-durable-'), 'pending');
    const folder = new DurableFolder(dir);
    folders.push(folder);
    const writes = Array.from({ length: 20 }, (_, i) => folder.write(`${i}.json`, String(i)));
    await folder.close();
    expect(await Promise.all(writes)).toHaveLength(20);
    expect(readdirSync(dir)).toHaveLength(20);
    await folder.write('after.json', 'later');
    expect(readFileSync(join(dir, 'after.json'), 'utf8')).toBe('later');
  });

  it('a folder that cannot be made fails every write of the batch with its reason, and nothing is named', async () => {
    const file = join(tempDir('apollia-durable-'), 'not-a-folder');
    writeFileSync(file, 'x');
    const folder = new DurableFolder(join(file, 'pending'));
    folders.push(folder);
    const results = await Promise.allSettled([folder.write('a.json', '1'), folder.write('b.json', '2')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'ENOTDIR' });
  });
});

describe('a durable folder in a process with nothing else to do', () => {
  it('a write resolves and close() finishes (the busy worker holds the process), then the process ends (the idle one does not)', () => {
    const dir = tempDir('apollia-durable-');
    const script = join(dir, 'write.mts');
    const module = new URL('./durable-folder.ts', import.meta.url).pathname;
    writeFileSync(
      script,
      [
        `const { DurableFolder } = await import(${JSON.stringify(module)});`,
        `const folder = new DurableFolder(${JSON.stringify(join(dir, 'pending'))});`,
        `console.log('written', (await folder.write('a.json', '1')).endsWith('a.json'));`,
        `await folder.write('b.json', '2');`,
        'await folder.close();',
        `console.log('closed');`,
      ].join('\n'),
    );
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 60_000 });
    expect([run.status, run.signal, run.stdout]).toEqual([0, null, 'written true\nclosed\n']);
    expect(readdirSync(join(dir, 'pending')).sort()).toEqual(['a.json', 'b.json']);
  });
});
