/**
 * Installed-file integrity (DESIGN.md "Trust after install": install records the SHA-256 of every
 * file it writes; the app re-checks them at start, on the dashboard and with `verify`). The folder
 * is walked without following links: a link or special file where install writes only regular
 * files and folders is itself a change, and is never read through. Bounded by the archive limits.
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import type { Dirent } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Problem } from '../../../shared/manifests/inspection';
import type { IntegrityReport } from '../../../shared/trust/trust';
import { DEFAULT_ARCHIVE_LIMITS } from '../archive/index';

/** Refusals of computing a folder's digests (README.md "Error codes"). */
export const INTEGRITY_ERROR = {
  /** More entries than an archive may hold. */
  tooManyEntries: 'integrity.too_many_entries',
  /** A file larger than an archive entry may be. */
  fileTooLarge: 'integrity.file_too_large',
  /** A link, FIFO, socket or device in a folder install just wrote. */
  notRegular: 'integrity.not_regular',
  /** The folder or a file in it cannot be read. */
  unreadable: 'integrity.unreadable',
} as const;

/**
 * The recorded SHA-256 (hex) of every installed file, by path relative to the package folder with
 * `/` separators. A null-prototype object, so `__proto__` is a file name like any other and the
 * store can keep it as JSON.
 */
export type FileDigests = Record<string, string>;

/** Re-exported from `shared/trust/trust.ts`, where the renderer reads it too. */
export type { IntegrityReport };

/** Bounds of a walk: the archive's entry and per-file limits (DESIGN.md "Reading without running"). */
export interface IntegrityLimits {
  maxEntries: number;
  maxFileBytes: number;
}

const LIMITS: IntegrityLimits = {
  maxEntries: DEFAULT_ARCHIVE_LIMITS.maxEntries,
  maxFileBytes: DEFAULT_ARCHIVE_LIMITS.maxFileBytes,
};

type Found = { kind: 'file'; size: number } | { kind: 'dir' } | { kind: 'other'; what: string };

/** One walked entry: its relative path and what it is (from lstat / dirent, never following a link). */
interface WalkEntry {
  path: string;
  found: Found;
}

/** What a non-file, non-folder entry is, for messages. */
function describe(info: {
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isBlockDevice(): boolean;
  isCharacterDevice(): boolean;
}): string {
  if (info.isSymbolicLink()) return 'a link';
  if (info.isFIFO()) return 'a FIFO';
  if (info.isSocket()) return 'a socket';
  if (info.isBlockDevice() || info.isCharacterDevice()) return 'a device';
  return 'a special file';
}

/**
 * Walks `root` breadth-first without following links. Stops after `maxEntries` entries (answering
 * `truncated`). A folder that is swapped for a link between its lstat and its listing is caught by
 * comparing its device and inode before and after, and reported as `other`.
 */
async function walk(root: string, limits: IntegrityLimits): Promise<{ entries: WalkEntry[]; truncated: boolean }> {
  const entries: WalkEntry[] = [];
  const queue: string[] = [''];
  while (queue.length > 0) {
    const relative = queue.shift()!;
    const absolute = relative === '' ? root : join(root, relative);
    let items: Dirent[];
    let problem: string | null = null;
    try {
      const before = await lstat(absolute);
      items = await readdir(absolute, { withFileTypes: true });
      const after = await lstat(absolute);
      if (!before.isDirectory()) problem = `not a folder (${describe(before)})`;
      else if (!after.isDirectory() || after.ino !== before.ino || after.dev !== before.dev)
        problem = 'a folder replaced while it was checked';
    } catch (error) {
      if (relative === '') throw error;
      items = [];
      problem = `a folder that cannot be listed (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
    }
    if (problem !== null) {
      if (relative === '') throw Object.assign(new Error(problem), { code: 'ECHANGED' });
      const index = entries.findIndex((entry) => entry.path === relative);
      entries[index] = { path: relative, found: { kind: 'other', what: problem } };
      continue;
    }
    items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const item of items) {
      if (entries.length >= limits.maxEntries) return { entries, truncated: true };
      const path = relative === '' ? item.name : `${relative}/${item.name}`;
      if (item.isDirectory()) {
        entries.push({ path, found: { kind: 'dir' } });
        queue.push(path);
      } else if (item.isFile()) {
        entries.push({ path, found: { kind: 'file', size: (await lstat(join(root, path))).size } });
      } else {
        entries.push({ path, found: { kind: 'other', what: describe(item) } });
      }
    }
  }
  return { entries, truncated: false };
}

/**
 * SHA-256 of the regular file at `path`, opened with O_NOFOLLOW and checked on the handle: a file
 * swapped for a link or a FIFO after the walk saw it answers null (a change), never its target.
 */
async function hashFile(path: string, maxBytes: number): Promise<string | null> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENOENT' || code === 'ENXIO') return null;
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > maxBytes) return null;
    const hash = createHash('sha256');
    let total = 0;
    for await (const chunk of handle.createReadStream({ highWaterMark: 1024 * 1024, autoClose: false })) {
      total += (chunk as Buffer).length;
      if (total > maxBytes) return null;
      hash.update(chunk as Buffer);
    }
    return hash.digest('hex');
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function unreadable(root: string, error: unknown): Problem {
  const code = (error as NodeJS.ErrnoException).code;
  const why = code === undefined || code === 'ECHANGED' ? (error as Error).message : code;
  return { code: INTEGRITY_ERROR.unreadable, message: `the folder ${root} cannot be checked: ${why}` };
}

/**
 * The digests of every file in a folder install has just written (recorded with the install).
 * Refuses a link or special file, more than `maxEntries` entries, or a file over `maxFileBytes`:
 * install writes none of those, so finding one means the folder is not what install wrote.
 */
export async function computeFileDigests(
  root: string,
  limits: IntegrityLimits = LIMITS,
): Promise<{ ok: true; files: FileDigests } | { ok: false; error: Problem }> {
  let walked: Awaited<ReturnType<typeof walk>>;
  try {
    walked = await walk(root, limits);
  } catch (error) {
    return { ok: false, error: unreadable(root, error) };
  }
  if (walked.truncated)
    return {
      ok: false,
      error: {
        code: INTEGRITY_ERROR.tooManyEntries,
        message: `the folder ${root} holds more than ${limits.maxEntries} entries`,
      },
    };
  const files: FileDigests = Object.create(null);
  for (const { path, found } of walked.entries) {
    if (found.kind === 'dir') continue;
    if (found.kind === 'other')
      return {
        ok: false,
        error: {
          code: INTEGRITY_ERROR.notRegular,
          message: `\`${path}\` in ${root} is ${found.what}: an installed package holds only files and folders`,
          path,
        },
      };
    if (found.size > limits.maxFileBytes)
      return {
        ok: false,
        error: {
          code: INTEGRITY_ERROR.fileTooLarge,
          message: `\`${path}\` in ${root} is ${found.size} bytes: at most ${limits.maxFileBytes}`,
          path,
        },
      };
    let digest: string | null;
    try {
      digest = await hashFile(join(root, path), limits.maxFileBytes);
    } catch (error) {
      return { ok: false, error: unreadable(root, error) };
    }
    if (digest === null)
      return {
        ok: false,
        error: { code: INTEGRITY_ERROR.notRegular, message: `\`${path}\` in ${root} changed while it was read`, path },
      };
    files[path] = digest;
  }
  return { ok: true, files };
}

/**
 * Re-checks `root` against `recorded`. A missing folder makes every recorded file missing; a
 * recorded file that is now a link, folder or special file, or whose bytes differ (or that grew
 * past `maxFileBytes`), is changed; a link or special file anywhere is changed; an unrecorded
 * regular file is added. Only own properties of `recorded` count. Never follows a link.
 */
export async function checkIntegrity(
  root: string,
  recorded: Readonly<FileDigests>,
  limits: IntegrityLimits = LIMITS,
): Promise<IntegrityReport> {
  const expected = new Map<string, string>();
  for (const path of Object.keys(recorded)) expected.set(path, String(recorded[path]));
  let walked: Awaited<ReturnType<typeof walk>>;
  try {
    const top = await lstat(root);
    walked = top.isDirectory() ? await walk(root, limits) : { entries: [], truncated: false };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'ECHANGED')
      return {
        state: 'unreadable',
        changed: [],
        missing: [],
        added: [],
        truncated: false,
        error: unreadable(root, error),
      };
    walked = { entries: [], truncated: false };
  }
  const changed: string[] = [];
  const added: string[] = [];
  const seen = new Set<string>();
  for (const { path, found } of walked.entries) {
    if (found.kind === 'dir') {
      if (expected.has(path)) {
        changed.push(path);
        seen.add(path);
      }
      continue;
    }
    if (found.kind === 'other') {
      changed.push(path);
      seen.add(path);
      continue;
    }
    const want = expected.get(path);
    if (want === undefined) {
      added.push(path);
      continue;
    }
    seen.add(path);
    const digest =
      found.size > limits.maxFileBytes ? null : await hashFile(join(root, path), limits.maxFileBytes).catch(() => null);
    if (digest !== want.toLowerCase()) changed.push(path);
  }
  const missing = walked.truncated ? [] : [...expected.keys()].filter((path) => !seen.has(path));
  const sort = (list: string[]) => list.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const state = changed.length + missing.length + added.length > 0 || walked.truncated ? 'changed' : 'ok';
  return { state, changed: sort(changed), missing: sort(missing), added: sort(added), truncated: walked.truncated };
}
