/**
 * One trigger host per data folder: `trigger-host.lock`, created exclusively with the holder's pid,
 * held for the host's life. A lock whose pid is not running (a crash) is taken over; a live one is
 * refused as `host.busy`, naming the process that holds it. Same rule as the store's write lock
 * (`store/lock.ts`), held for a lifetime instead of one write.
 */
import { open, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** The host lock's name in the data folder. */
export const HOST_LOCK_FILE = 'trigger-host.lock';

/** A refusal of the trigger host, with a stable code. */
export class HostError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

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

/** The pid holding the host lock of `dataDir` when that process runs, else null. */
export async function hostLockHolder(dataDir: string): Promise<number | null> {
  const pid = Number.parseInt(await readFile(join(dataDir, HOST_LOCK_FILE), 'utf8').catch(() => ''), 10);
  return processAlive(pid) ? pid : null;
}

/** Takes the host lock of `dataDir`; returns its release. Throws `host.busy` when a live process holds it. */
export async function takeHostLock(dataDir: string): Promise<() => Promise<void>> {
  const path = join(dataDir, HOST_LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, 'wx', 0o600);
      try {
        await handle.writeFile(`${process.pid}\n`);
      } finally {
        await handle.close();
      }
      return async () => {
        const holder = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
        if (holder === process.pid) await unlink(path).catch(() => undefined);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
      if (processAlive(holder)) {
        throw new HostError('host.busy', `another trigger host (pid ${holder}) is already running on ${dataDir}; stop it first`);
      }
      await unlink(path).catch(() => undefined);
    }
  }
  throw new HostError('host.busy', `the trigger host lock ${path} keeps being taken; another host may be starting`);
}
