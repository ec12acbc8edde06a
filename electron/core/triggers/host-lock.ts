/**
 * One trigger host per data folder: `trigger-host.lock`, held for the host's life. A lock left by a
 * process that no longer runs (killed, an earlier boot, an empty or torn file) never blocks; a live
 * one is refused as `host.busy`, naming the process that holds it (`serve` exits 3: DESIGN.md "Commit
 * points"). The store's write lock's rule (`store/pid-lock.ts`), held for a lifetime instead of one write.
 */
import { join } from 'node:path';
import { lockPid, releaseLock, tryTakeLock } from '../store/pid-lock';

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

/** The pid holding the host lock of `dataDir` when that process runs, else null. */
export async function hostLockHolder(dataDir: string): Promise<number | null> {
  return lockPid(join(dataDir, HOST_LOCK_FILE));
}

/** Takes the host lock of `dataDir`; returns its release. Throws `host.busy` when a live process holds it. */
export async function takeHostLock(dataDir: string): Promise<() => Promise<void>> {
  const path = join(dataDir, HOST_LOCK_FILE);
  const attempt = await tryTakeLock(path);
  if (attempt.taken) return () => releaseLock(path);
  if (attempt.holder === null)
    throw new HostError('host.busy', `the trigger host lock ${path} is being taken; another host may be starting`);
  throw new HostError(
    'host.busy',
    `another trigger host (pid ${attempt.holder}) is already running on ${dataDir}; stop it first`,
  );
}
