/**
 * Atomic replacement of a small file: write a temp file beside it, fsync, rename over, fsync the
 * folder (DESIGN.md "Consent, install, apply": "Writes are atomic (write, fsync, rename)").
 * A crash at any point leaves either the old file or the new one, never a torn mix.
 */
import { randomUUID } from 'node:crypto';
import { type FileHandle, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

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
    throw error;
  }
  await syncDir(dirname(path));
}

/** The file system calls of a {@link DurableFolder}: a test replaces them to watch their order or to fail one. */
export interface DurableFolderIo {
  /** Creates `path` exclusively (mode 0600), writes `data`, fsyncs and closes it. */
  writeSynced(path: string, data: string | Uint8Array): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  remove(path: string): Promise<void>;
  /** fsyncs the folder `dir`, so the renames made into it before the call survive a power cut. */
  syncDir(dir: string): Promise<void>;
  /** Releases what it holds open (the folder's handle). */
  close(): Promise<void>;
}

/**
 * The real calls. The folder's handle is opened once and kept (one call per fsync instead of three);
 * each fsync checks, alongside, that the path still names the folder the handle holds, and syncs
 * the new one when it was replaced.
 */
export class NodeFolderIo implements DurableFolderIo {
  private dir: { path: string; handle: FileHandle; ino: number; dev: number } | null = null;
  /** The platform cannot open a folder (Windows): there, a folder has no fsync of its own. */
  private noFolderSync = false;

  async writeSynced(path: string, data: string | Uint8Array): Promise<void> {
    const handle = await open(path, 'wx', 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  rename(from: string, to: string): Promise<void> {
    return rename(from, to);
  }

  remove(path: string): Promise<void> {
    return unlink(path);
  }

  async syncDir(dir: string): Promise<void> {
    if (this.noFolderSync) return;
    try {
      const held = this.dir?.path === dir ? this.dir : await this.openDir(dir);
      if (held === null) return;
      const [, now] = await Promise.all([held.handle.sync(), stat(dir)]);
      if (now.ino === held.ino && now.dev === held.dev) return;
      // The folder was replaced since the handle was opened: the renames went into the new one.
      const fresh = await this.openDir(dir);
      await fresh?.handle.sync();
    } catch (error) {
      // Whatever failed, the next fsync starts from a fresh handle.
      await this.forget();
      throw error;
    }
  }

  private async openDir(dir: string): Promise<NodeFolderIo['dir']> {
    await this.forget();
    let handle: FileHandle;
    try {
      handle = await open(dir, 'r');
    } catch (error) {
      if (!FOLDER_SYNC_UNSUPPORTED.includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
      this.noFolderSync = true;
      return null;
    }
    const { ino, dev } = await handle.stat().catch(async (error) => {
      await handle.close();
      throw error;
    });
    this.dir = { path: dir, handle, ino, dev };
    return this.dir;
  }

  private async forget(): Promise<void> {
    const held = this.dir;
    this.dir = null;
    await held?.handle.close().catch(() => undefined);
  }

  close(): Promise<void> {
    return this.forget();
  }
}

/**
 * Files made durable in one folder with a group commit (the trigger host's run files): each file is
 * written to a temp name, fsynced, closed and renamed in on its own, at once; the folder's fsync is
 * shared. A write resolves only once an fsync of the folder that started after its rename is done,
 * so its file and its name are both durable; the writes whose renames land while one folder fsync
 * runs all share the next. Many files written at once cost one folder fsync per round, not one each.
 * A write that fails removes its temp file and rejects; the others of its round are not affected.
 */
export class DurableFolder {
  private running: Promise<void> | null = null;
  private next: Promise<void> | null = null;

  constructor(
    readonly dir: string,
    private readonly io: DurableFolderIo = new NodeFolderIo(),
  ) {}

  /** Writes `data` as `name` in the folder (made when missing); resolves with its path once it is durable. */
  async write(name: string, data: string | Uint8Array): Promise<string> {
    const path = join(this.dir, name);
    const temp = join(this.dir, `.${name}.tmp-${process.pid}-${randomUUID()}`);
    try {
      await this.io.writeSynced(temp, data).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        await mkdir(this.dir, { recursive: true, mode: 0o700 });
        await this.io.writeSynced(temp, data);
      });
      await this.io.rename(temp, path);
    } catch (error) {
      await this.io.remove(temp).catch(() => undefined);
      throw error;
    }
    await this.sync();
    return path;
  }

  /** Resolves once an fsync of the folder that started after this call is done. */
  private sync(): Promise<void> {
    if (this.next) return this.next;
    if (this.running) {
      this.next = this.running
        .catch(() => undefined)
        .then(() => {
          this.next = null;
          return this.start();
        });
      return this.next;
    }
    return this.start();
  }

  private start(): Promise<void> {
    const run = this.io.syncDir(this.dir).finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
    return run;
  }

  /** Waits for the fsync under way, then releases the folder's handle. */
  async close(): Promise<void> {
    await Promise.allSettled([this.running, this.next]);
    await this.io.close();
  }
}

/** The errors of opening a folder where folders cannot be opened or fsynced (e.g. Windows). */
const FOLDER_SYNC_UNSUPPORTED = ['EISDIR', 'EPERM', 'EACCES', 'EINVAL'];

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
