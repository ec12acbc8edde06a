/**
 * An I/O failure said as a sentence: the file and what the error means for the person (DESIGN.md
 * "Commit points": "the disk is full: nothing was changed", exit 1; stack traces only with
 * `APOLLIA_DEBUG=1`). The store marks where a fault struck: before its commit nothing was changed;
 * after it the change was made and only its flush to the disk is in doubt.
 */

/** What an errno means, in words a person can act on. */
const MEANINGS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EIO: 'the disk reported an input/output error',
  EROFS: 'the disk is read-only',
  EACCES: 'permission is denied',
  EPERM: 'the operation is not permitted',
  EMFILE: 'too many files are open',
  ENFILE: 'too many files are open on this system',
  EBUSY: 'the file is in use',
  ENOTDIR: 'a part of its path is not a folder',
  EISDIR: 'a folder stands where a file should be',
  ENAMETOOLONG: 'its name is too long',
  EFBIG: 'the file is too large',
};

/** Where a fault struck relative to the store's commit (the rename of `state.json`). */
export type FaultWhen = 'before_commit' | 'after_commit';

/** An errno error, as Node's `fs` throws it, with what this app adds. */
interface ErrnoFault extends NodeJS.ErrnoException {
  apolliaWhen?: FaultWhen;
}

/** Whether `error` is an operating system I/O failure this module can say. */
export function isIoFault(error: unknown): error is NodeJS.ErrnoException {
  return (
    error instanceof Error && typeof (error as ErrnoFault).code === 'string' && (error as ErrnoFault).code! in MEANINGS
  );
}

/**
 * Marks `error` (when it is an I/O failure) with the file it concerns and where it struck, then
 * answers it, to be thrown on. A file already named is kept (the deepest one is the most exact).
 */
export function markIoFault(error: unknown, path: string, when: FaultWhen): unknown {
  if (error instanceof Error && typeof (error as ErrnoFault).code === 'string') {
    const fault = error as ErrnoFault;
    fault.path ??= path;
    fault.apolliaWhen ??= when;
  }
  return error;
}

/**
 * Whether `error` struck after the store's commit: the new state is in place, so what it names must
 * stay (DESIGN.md "Commit points": reported, never undone).
 */
export function struckAfterCommit(error: unknown): boolean {
  return error instanceof Error && (error as ErrnoFault).apolliaWhen === 'after_commit';
}

/** The sentence for an I/O failure, or null when `error` is none. */
export function ioFaultSentence(error: unknown): string | null {
  if (!isIoFault(error)) return null;
  const fault = error as ErrnoFault;
  const meaning = MEANINGS[fault.code as string];
  const where = fault.path ? `${fault.path}: ` : '';
  const after =
    fault.apolliaWhen === 'before_commit'
      ? 'nothing was changed'
      : fault.apolliaWhen === 'after_commit'
        ? 'the change was made, but the disk did not confirm it is kept; run the command again once the disk is fixed'
        : 'the command stopped';
  return `${where}${meaning} (${fault.code}): ${after}`;
}

/** Whether stack traces are asked for (`APOLLIA_DEBUG=1`). */
export function debugWanted(env: Record<string, string | undefined>): boolean {
  return env.APOLLIA_DEBUG === '1';
}
