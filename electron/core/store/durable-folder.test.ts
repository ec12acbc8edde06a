import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { DurableFolder, type DurableFolderIo, NodeFolderIo } from './atomic-file';

/** The real calls, each logged once done; folder fsyncs wait at a gate the test opens. */
function watched(fail: (path: string) => boolean = () => false) {
  const real = new NodeFolderIo();
  const log: string[] = [];
  const gates: (() => void)[] = [];
  let syncs = 0;
  const io: DurableFolderIo = {
    async writeSynced(path, data) {
      if (fail(path)) throw Object.assign(new Error('injected'), { code: 'EIO' });
      await real.writeSynced(path, data);
      log.push(`synced ${path.split('/').at(-1)?.split('.tmp-')[0]}`);
    },
    async rename(from, to) {
      await real.rename(from, to);
      log.push(`renamed ${to.split('/').at(-1)}`);
    },
    remove: (path) => real.remove(path),
    async syncDir(dir) {
      const n = syncs++;
      log.push(`dir-start ${n}`);
      await new Promise<void>((resolve) => gates.push(resolve));
      await real.syncDir(dir);
      log.push(`dir-done ${n}`);
    },
    close: () => real.close(),
  };
  return { io, log, gates, syncs: () => syncs };
}

/** Waits until `ready()` holds (the file system's calls finish in their own time). */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('a durable folder (group commit of the folder fsync)', () => {
  it('resolves a write only once its file is fsynced, renamed in and a folder fsync begun after the rename is done; the writes that land meanwhile share one next fsync', async () => {
    const dir = join(tempDir('apollia-durable-'), 'pending');
    const { io, log, gates, syncs } = watched();
    const folder = new DurableFolder(dir, io);
    const done: string[] = [];
    const first = folder.write('a.json', '{"a":1}').then(() => done.push('a'));
    await until(() => log.includes('dir-start 0'));
    // a is renamed in and waits for the folder fsync it started.
    expect(log).toEqual(['synced .a.json', 'renamed a.json', 'dir-start 0']);
    const rest = ['b', 'c', 'd', 'e'].map((n) => folder.write(`${n}.json`, `{"${n}":1}`).then(() => done.push(n)));
    await until(() => log.filter((e) => e.startsWith('renamed ')).length === 5);
    expect(done).toEqual([]);
    expect(syncs()).toBe(1);
    gates.shift()?.();
    await first;
    expect(done).toEqual(['a']);
    await until(() => log.includes('dir-start 1'));
    // b–e renamed while fsync 0 ran: one fsync, begun after their renames, covers all four.
    expect(syncs()).toBe(2);
    expect(log.indexOf('dir-start 1')).toBeGreaterThan(
      Math.max(...['b', 'c', 'd', 'e'].map((n) => log.indexOf(`renamed ${n}.json`))),
    );
    expect(done).toEqual(['a']);
    gates.shift()?.();
    await Promise.all(rest);
    expect(done.sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'b.json', 'c.json', 'd.json', 'e.json']);
    await folder.close();
  });

  it('fails one write alone: its temp file is gone, nothing is named for it, the others of its round are durable', async () => {
    const dir = join(tempDir('apollia-durable-'), 'pending');
    const { io, gates } = watched((path) => path.includes('.bad.json.tmp-'));
    const folder = new DurableFolder(dir, io);
    const open = setInterval(() => gates.shift()?.(), 5);
    try {
      const results = await Promise.allSettled(['x', 'bad', 'y'].map((n) => folder.write(`${n}.json`, `{"${n}":1}`)));
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(readdirSync(dir).sort()).toEqual(['x.json', 'y.json']);
      expect(readFileSync(join(dir, 'x.json'), 'utf8')).toBe('{"x":1}');
    } finally {
      clearInterval(open);
    }
    await folder.close();
  });

  it('makes the folder again when it was removed since the last write', async () => {
    const dir = join(tempDir('apollia-durable-'), 'pending');
    const folder = new DurableFolder(dir);
    await folder.write('one.json', '1');
    rmSync(dir, { recursive: true });
    await folder.write('two.json', '2');
    expect(readdirSync(dir)).toEqual(['two.json']);
    await folder.close();
  });
});
