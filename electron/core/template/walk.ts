/**
 * Walking a template folder without following links, under the spec's limits (spec:
 * agentrun-template-packages.md "agent.md" last paragraph; DESIGN.md "Reading without running").
 *
 * Every entry is `lstat`ed: a link or a special file (FIFO, socket, device) anywhere is refused
 * before anything is read. Files are opened with `O_NOFOLLOW | O_NONBLOCK` and checked again with
 * `fstat`, so a file swapped for a link or a FIFO between the two calls is refused too, never
 * followed or waited on. A limit is refused as soon as it is crossed, before the file is read.
 *
 * Folders are read through handles (DESIGN.md "A folder swapped for a link while it is being read
 * is refused, never followed"): each folder is opened with `O_DIRECTORY |
 * O_NOFOLLOW`, its device and inode checked against what `lstat` saw when its parent was listed,
 * and kept open while the walk lasts. On Linux everything below it is reached through
 * `/proc/self/fd/<handle>`, which names the opened folder itself, so a folder swapped for a link
 * after it was checked is never followed: the walk reads the folder it checked. Where there is no
 * such path (macOS, Windows) the folder's path is used and its device and inode are checked again
 * after it is listed and after each of its files is read, and the walk is refused when they moved.
 * Every file's device and inode, from `fstat` on its handle, must also be the ones its listing saw.
 */
import { constants, existsSync } from 'node:fs';
import { type FileHandle, lstat, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Problem } from '../../../shared/manifests/inspection';
import type { RefusalCode } from '../../../shared/contract/refusal-codes';

/** The spec's limits: 256 files, 256 KiB each, 1 MiB together (`POST /v2/agents`' body limit). */
export const TEMPLATE_LIMITS = {
  files: 256,
  fileBytes: 256 * 1024,
  totalBytes: 1024 * 1024,
  directories: 256,
  depth: 16,
} as const;

/** What the walk read: files by `/`-separated path, and every folder's path. */
export interface TemplateTree {
  files: Map<string, Uint8Array>;
  directories: string[];
}

/** The walk's answer: the tree, or the first problem. */
export type WalkResult = { ok: true; tree: TemplateTree } | { ok: false; problem: Problem };

// eslint-disable-next-line no-control-regex
const BAD_NAME = /[\u0000-\u001f\u007f\\]/;

function kindOf(stats: {
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}): string {
  if (stats.isSymbolicLink()) return 'a link';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'a special file';
}

/** What `lstat` saw of an entry: the identity a handle opened later must still have. */
interface Identity {
  dev: number;
  ino: number;
}

const same = (a: Identity, b: Identity) => a.dev === b.dev && a.ino === b.ino;

/** Hooks for tests that swap a folder between its check and its reading (the race the handles close). */
export interface WalkHooks {
  /** Called after a folder's identity was taken from its parent's listing and before it is opened and listed. */
  beforeFolderRead?: (rel: string) => Promise<void> | void;
}

/** A folder held open while the walk lasts, and the path that reaches the opened folder itself. */
interface OpenFolder {
  handle: FileHandle | null;
  via: string;
}

/** Opens a folder without following a link; null when it is not the folder `expected` names (swapped, gone, a link). */
async function openFolder(abs: string, expected: Identity): Promise<OpenFolder | null> {
  if (process.platform === 'win32') {
    const stats = await lstat(abs).catch(() => null);
    return stats && stats.isDirectory() && same(stats, expected) ? { handle: null, via: abs } : null;
  }
  let handle: FileHandle;
  try {
    handle = await open(abs, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  const stats = await handle.stat();
  if (!stats.isDirectory() || !same(stats, expected)) {
    await handle.close();
    return null;
  }
  const through = `/proc/self/fd/${handle.fd}`;
  return { handle, via: process.platform === 'linux' && existsSync(through) ? through : abs };
}

/** Whether the folder's path still reaches the folder that was opened (the check where no handle path exists). */
async function stillSame(folder: OpenFolder, abs: string, expected: Identity): Promise<boolean> {
  if (folder.via !== abs) return true;
  const stats = await lstat(abs).catch(() => null);
  return stats !== null && stats.isDirectory() && !stats.isSymbolicLink() && same(stats, expected);
}

/** A problem of the walk, naming the entry. */
type WalkProblem = { code: string; path: string; message: string };

/**
 * An entry's name: no control characters or backslashes, and not the same name as another on some systems (case and
 * Unicode normalization folded). A name that passes is noted in `folded`.
 */
function nameProblem(name: string, rel: string, folded: Map<string, string>): WalkProblem | null {
  if (BAD_NAME.test(name))
    return {
      code: 'template.bad_name',
      path: rel,
      message: `${JSON.stringify(rel)}: a file name may not hold control characters or backslashes`,
    };
  const key = rel.normalize('NFC').toLowerCase();
  const clash = folded.get(key);
  if (clash !== undefined)
    return {
      code: 'template.name_collision',
      path: rel,
      message: `${rel} and ${clash} are the same name on some systems: rename one`,
    };
  folded.set(key, rel);
  return null;
}

/** A file over the limits before it is read: one file too many, over the size of a file, or past the total. */
function fileLimitProblem(rel: string, size: number, count: number, total: number): WalkProblem | null {
  if (count + 1 > TEMPLATE_LIMITS.files)
    return {
      code: 'template.too_many_files',
      path: rel,
      message: `the folder holds more than ${TEMPLATE_LIMITS.files} files (at ${rel})`,
    };
  if (size > TEMPLATE_LIMITS.fileBytes)
    return {
      code: 'template.too_large',
      path: rel,
      message: `${rel} is ${size} bytes: each file is at most ${TEMPLATE_LIMITS.fileBytes} bytes (256 KiB)`,
    };
  if (total + size > TEMPLATE_LIMITS.totalBytes)
    return {
      code: 'template.too_large',
      path: rel,
      message: `the files pass ${TEMPLATE_LIMITS.totalBytes} bytes (1 MiB) together at ${rel}`,
    };
  return null;
}

/**
 * Reads `dir` whole, refusing links, special files, odd names, name collisions, crossed limits, and
 * a folder that changed while it was read (`template.changed`).
 */
export async function walkTemplateFolder(dir: string, hooks: WalkHooks = {}): Promise<WalkResult> {
  const fail = (code: RefusalCode, path: string, message: string): WalkResult => ({
    ok: false,
    problem: { code, path, message },
  });
  const changed = (rel: string): WalkResult =>
    fail(
      'template.changed',
      rel === '' ? '.' : rel,
      `${rel === '' ? dir : rel} changed while it was read (a folder swapped or replaced by a link): read the template again once it is still`,
    );
  let rootStats;
  try {
    rootStats = await lstat(dir);
  } catch {
    return fail('template.not_found', '.', `${dir}: no such folder`);
  }
  if (rootStats.isSymbolicLink())
    return fail('template.link', '.', `${dir} is a link: a template folder is read without following links`);
  if (!rootStats.isDirectory())
    return fail('template.not_a_folder', '.', `${dir} is not a folder: a template is a folder with agent.md`);

  const files = new Map<string, Uint8Array>();
  const directories: string[] = [];
  const folded = new Map<string, string>();
  const opened: OpenFolder[] = [];
  let total = 0;
  // `at` is how the folder is reached: through its parent's handle path where there is one.
  const pending: { at: string; rel: string; depth: number; identity: Identity }[] = [
    { at: dir, rel: '', depth: 0, identity: rootStats },
  ];
  try {
    while (pending.length > 0) {
      const current = pending.shift() as (typeof pending)[number];
      await hooks.beforeFolderRead?.(current.rel);
      const folder = await openFolder(current.at, current.identity);
      if (folder === null) return changed(current.rel);
      opened.push(folder);
      const names = (await readdir(folder.via)).sort();
      if (!(await stillSame(folder, current.at, current.identity))) return changed(current.rel);
      for (const name of names) {
        const rel = current.rel === '' ? name : `${current.rel}/${name}`;
        const abs = join(folder.via, name);
        const badName = nameProblem(name, rel, folded);
        if (badName) return { ok: false, problem: badName };
        const stats = await lstat(abs).catch(() => null);
        if (stats === null) return changed(rel);
        if (stats.isDirectory()) {
          if (current.depth + 1 > TEMPLATE_LIMITS.depth)
            return fail('template.too_deep', rel, `${rel}: folders nest at most ${TEMPLATE_LIMITS.depth} deep`);
          directories.push(rel);
          if (directories.length > TEMPLATE_LIMITS.directories)
            return fail(
              'template.too_many_files',
              rel,
              `the folder holds more than ${TEMPLATE_LIMITS.directories} folders`,
            );
          pending.push({ at: abs, rel, depth: current.depth + 1, identity: stats });
          continue;
        }
        if (!stats.isFile()) {
          const kind = kindOf(stats);
          return fail(
            kind === 'a link' ? 'template.link' : 'template.special_file',
            rel,
            `${rel} is ${kind}: a template holds only regular files and folders`,
          );
        }
        const overLimit = fileLimitProblem(rel, stats.size, files.size, total);
        if (overLimit) return { ok: false, problem: overLimit };
        const bytes = await readRegularFile(abs, stats);
        if (bytes === null)
          return fail(
            'template.special_file',
            rel,
            `${rel} changed while it was read: a template holds only regular files`,
          );
        if (!(await stillSame(folder, current.at, current.identity))) return changed(current.rel);
        if (bytes.length > TEMPLATE_LIMITS.fileBytes)
          return fail('template.too_large', rel, `${rel} is over ${TEMPLATE_LIMITS.fileBytes} bytes (256 KiB)`);
        total += bytes.length;
        if (total > TEMPLATE_LIMITS.totalBytes)
          return fail(
            'template.too_large',
            rel,
            `the files pass ${TEMPLATE_LIMITS.totalBytes} bytes (1 MiB) together at ${rel}`,
          );
        files.set(rel, bytes);
      }
    }
  } finally {
    await Promise.all(opened.map((folder) => folder.handle?.close()));
  }
  return { ok: true, tree: { files, directories } };
}

/**
 * Reads a regular file without following a link or blocking on a FIFO; null when it is not one, or
 * not the file its listing saw (`expected`'s device and inode). Reads at most one byte past the limit.
 */
async function readRegularFile(abs: string, expected: Identity): Promise<Uint8Array | null> {
  let handle;
  try {
    handle = await open(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || !same(stats, expected)) return null;
    const buffer = Buffer.alloc(Math.min(stats.size, TEMPLATE_LIMITS.fileBytes) + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return new Uint8Array(buffer.subarray(0, length));
  } finally {
    await handle.close();
  }
}
