/**
 * One writer at a time across processes: a lock file holding the writer's pid.
 *
 * Decision (DESIGN.md "one writer at a time"): inside one process the store serialises its own
 * operations with a promise queue; across processes (the app and the CLI on the same data folder)
 * each write takes `state.lock`, created exclusively (`wx`) with the pid in it, for the length of
 * one read-modify-write, then removes it. A lock whose pid is no longer running is stale (a crash)
 * and is taken over; a live one is waited for, up to a timeout, then refused as `store.busy`.
 */
import { open, readFile, unlink } from 'node:fs/promises';
import { CoreError } from '../errors';

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `fn` holding the lock file at `path`. */
export async function withLockFile<T>(path: string, fn: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const handle = await open(path, 'wx', 0o600);
      try {
        await handle.writeFile(`${process.pid}\n`);
      } finally {
        await handle.close();
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
      if (!Number.isNaN(holder) && holder !== process.pid && !alive(holder)) {
        await unlink(path).catch(() => undefined);
        continue;
      }
      if (Date.now() > deadline) {
        throw new CoreError('store.busy', `another Apollia Desktop process (pid ${Number.isNaN(holder) ? 'unknown' : holder}) is changing the data folder; try again in a moment`);
      }
      await sleep(20);
    }
  }
  try {
    return await fn();
  } finally {
    await unlink(path).catch(() => undefined);
  }
}
