/**
 * A lock file holding its holder's pid, created exclusively (`wx`): the one rule behind the store's
 * write lock (`lock.ts`, held for one read-modify-write) and the trigger host's lock
 * (`triggers/host-lock.ts`, held for the host's life). A lock whose pid no longer runs (a crash) is
 * stale and taken over; a file without a pid yet is being written by its taker and is left alone.
 */
import { open, readFile, unlink } from 'node:fs/promises';

/** Whether a process with this pid runs (EPERM: it runs, as another user). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid written in the lock file at `path`; null when there is none, or none written yet. */
export async function lockPid(path: string): Promise<number | null> {
  const pid = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
  return Number.isNaN(pid) ? null : pid;
}

/**
 * Takes the lock file at `path` for this process, taking over a stale one. Answers whether it was
 * taken and, when not, the pid that holds it (null: its taker has not written it yet).
 */
export async function tryTakeLock(path: string): Promise<{ taken: true } | { taken: false; holder: number | null }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, 'wx', 0o600);
      try {
        await handle.writeFile(`${process.pid}\n`);
      } finally {
        await handle.close();
      }
      return { taken: true };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = await lockPid(path);
      if (holder === null || holder === process.pid || processAlive(holder)) return { taken: false, holder };
      await unlink(path).catch(() => undefined);
    }
  }
  return { taken: false, holder: await lockPid(path) };
}

/** Removes the lock file at `path` when this process holds it. */
export async function releaseLock(path: string): Promise<void> {
  if ((await lockPid(path)) === process.pid) await unlink(path).catch(() => undefined);
}
