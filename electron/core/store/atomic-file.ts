/**
 * Atomic replacement of a small file: write a temp file beside it, fsync, rename over, fsync the
 * folder (DESIGN.md "Consent, install, apply": "Writes are atomic (write, fsync, rename)").
 * A crash at any point leaves either the old file or the new one, never a torn mix.
 */
import { randomUUID } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { markIoFault } from '../errors/io-fault';

/** Test hooks: a fault injected between the temp file's fsync and the rename. */
export interface AtomicWriteFaults {
  beforeRename?: (tempPath: string) => void | Promise<void>;
}

/**
 * Writes `data` to `path` atomically; on any failure the temp file is removed and `path` is
 * untouched.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  faults: AtomicWriteFaults = {},
): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.tmp-${process.pid}-${randomUUID()}`);
  try {
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await faults.beforeRename?.(temp);
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw markIoFault(error, path, 'before_commit');
  }
  try {
    await syncDir(dirname(path));
  } catch (error) {
    // The rename happened: the new file is in place, only its flush is in doubt.
    throw markIoFault(error, path, 'after_commit');
  }
}

/** The errors of opening a folder where folders cannot be opened or fsynced (e.g. Windows). */
export const FOLDER_SYNC_UNSUPPORTED: readonly string[] = ['EISDIR', 'EPERM', 'EACCES', 'EINVAL'];

/** fsyncs a folder so a rename in it survives a power cut (a no-op where folders cannot be opened, e.g. Windows). */
export async function syncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (error) {
    if (!FOLDER_SYNC_UNSUPPORTED.includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    await handle?.close();
  }
}
