/**
 * Atomic replacement of a small file: write a temp file beside it, fsync, rename over, fsync the
 * folder (DESIGN.md "Consent, install, apply": "Writes are atomic (write, fsync, rename)").
 * A crash at any point leaves either the old file or the new one, never a torn mix.
 */
import { randomUUID } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Test hooks: a fault injected between the temp file's fsync and the rename. */
export interface AtomicWriteFaults {
  beforeRename?: (tempPath: string) => void | Promise<void>;
}

/**
 * Writes `data` to `path` atomically; on any failure the temp file is removed and `path` is
 * untouched. `folderSync` replaces the folder's fsync (a {@link FolderSync} shares one fsync among
 * many files renamed into one folder at once).
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  faults: AtomicWriteFaults = {},
  folderSync: (dir: string) => Promise<void> = syncDir,
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
    throw error;
  }
  await folderSync(dirname(path));
}

/**
 * One folder's fsync shared by every rename that waits for it (a group commit): a caller waits for
 * an fsync that starts after its call, so its rename is covered, and callers arriving while one
 * runs share the next. Many run files written at once cost one folder fsync, not one each.
 */
export class FolderSync {
  private running: Promise<void> | null = null;
  private next: Promise<void> | null = null;

  /** Resolves once an fsync of `dir` that started after this call is done. */
  sync(dir: string): Promise<void> {
    if (this.next) return this.next;
    if (this.running) {
      this.next = this.running
        .catch(() => undefined)
        .then(() => {
          this.next = null;
          return this.start(dir);
        });
      return this.next;
    }
    return this.start(dir);
  }

  private start(dir: string): Promise<void> {
    const run = syncDir(dir).finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
    return run;
  }
}

/** fsyncs a folder so a rename in it survives a power cut (a no-op where folders cannot be opened, e.g. Windows). */
export async function syncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EACCES' && code !== 'EINVAL') throw error;
  } finally {
    await handle?.close();
  }
}
