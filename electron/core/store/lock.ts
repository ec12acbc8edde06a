/**
 * One writer at a time across processes: a lock file naming the writer (`pid-lock.ts`).
 *
 * Decision (DESIGN.md "one writer at a time", "Commit points"): inside one process the store
 * serialises its own operations with a promise queue; across processes (the app and the CLI on the
 * same data folder) each write takes `state.lock`, linked into place whole with the writer's pid,
 * boot and start time, for the length of one read-modify-write, then removes it. A lock left by a
 * killed process (empty, torn, an earlier boot, a dead pid) is stale and removed by one process;
 * a live one is waited for, up to a timeout, then refused as `store.busy`.
 */
import { CoreError } from '../errors/index';
import { releaseLock, tryTakeLock } from './pid-lock';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `fn` holding the lock file at `path`. */
export async function withLockFile<T>(path: string, fn: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const attempt = await tryTakeLock(path);
    if (attempt.taken) break;
    if (Date.now() > deadline) {
      throw new CoreError(
        'store.busy',
        `another Apollia Desktop process (pid ${attempt.holder ?? 'unknown'}) is changing the data folder; try again in a moment`,
      );
    }
    await sleep(20);
  }
  try {
    return await fn();
  } finally {
    await releaseLock(path);
  }
}
