/**
 * Walking a template folder without following links, under the spec's limits (spec:
 * agentrun-template-packages.md "agent.md" last paragraph; DESIGN.md "Reading without running").
 *
 * Every entry is `lstat`ed: a link or a special file (FIFO, socket, device) anywhere is refused
 * before anything is read. Files are opened with `O_NOFOLLOW | O_NONBLOCK` and checked again with
 * `fstat`, so a file swapped for a link or a FIFO between the two calls is refused too, never
 * followed or waited on. A limit is refused as soon as it is crossed, before the file is read.
 */
import { constants } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Problem } from '../../../shared/inspection';

/** The spec's limits: 256 files, 256 KiB each, 1 MiB together (`POST /v2/agents`' body limit). */
export const TEMPLATE_LIMITS = { files: 256, fileBytes: 256 * 1024, totalBytes: 1024 * 1024, directories: 256, depth: 16 } as const;

/** What the walk read: files by `/`-separated path, and every folder's path. */
export interface TemplateTree {
  files: Map<string, Uint8Array>;
  directories: string[];
}

/** The walk's answer: the tree, or the first problem. */
export type WalkResult = { ok: true; tree: TemplateTree } | { ok: false; problem: Problem };

// eslint-disable-next-line no-control-regex
const BAD_NAME = /[\u0000-\u001f\u007f\\]/;

function kindOf(stats: { isSymbolicLink(): boolean; isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
  if (stats.isSymbolicLink()) return 'a link';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'a special file';
}

/** Reads `dir` whole, refusing links, special files, odd names, name collisions and crossed limits. */
export async function walkTemplateFolder(dir: string): Promise<WalkResult> {
  const fail = (code: string, path: string, message: string): WalkResult => ({ ok: false, problem: { code, path, message } });
  let rootStats;
  try {
    rootStats = await lstat(dir);
  } catch {
    return fail('template.not_found', '.', `${dir}: no such folder`);
  }
  if (rootStats.isSymbolicLink()) return fail('template.link', '.', `${dir} is a link: a template folder is read without following links`);
  if (!rootStats.isDirectory()) return fail('template.not_a_folder', '.', `${dir} is not a folder: a template is a folder with agent.md`);

  const files = new Map<string, Uint8Array>();
  const directories: string[] = [];
  const folded = new Map<string, string>();
  let total = 0;
  const pending: { abs: string; rel: string; depth: number }[] = [{ abs: dir, rel: '', depth: 0 }];
  while (pending.length > 0) {
    const current = pending.shift() as { abs: string; rel: string; depth: number };
    const names = (await readdir(current.abs)).sort();
    for (const name of names) {
      const rel = current.rel === '' ? name : `${current.rel}/${name}`;
      const abs = join(current.abs, name);
      if (BAD_NAME.test(name)) return fail('template.bad_name', rel, `${JSON.stringify(rel)}: a file name may not hold control characters or backslashes`);
      const key = rel.normalize('NFC').toLowerCase();
      const clash = folded.get(key);
      if (clash !== undefined) return fail('template.name_collision', rel, `${rel} and ${clash} are the same name on some systems: rename one`);
      folded.set(key, rel);
      const stats = await lstat(abs);
      if (stats.isDirectory()) {
        if (current.depth + 1 > TEMPLATE_LIMITS.depth) return fail('template.too_deep', rel, `${rel}: folders nest at most ${TEMPLATE_LIMITS.depth} deep`);
        directories.push(rel);
        if (directories.length > TEMPLATE_LIMITS.directories) return fail('template.too_many_files', rel, `the folder holds more than ${TEMPLATE_LIMITS.directories} folders`);
        pending.push({ abs, rel, depth: current.depth + 1 });
        continue;
      }
      if (!stats.isFile()) {
        const kind = kindOf(stats);
        return fail(kind === 'a link' ? 'template.link' : 'template.special_file', rel, `${rel} is ${kind}: a template holds only regular files and folders`);
      }
      if (files.size + 1 > TEMPLATE_LIMITS.files) return fail('template.too_many_files', rel, `the folder holds more than ${TEMPLATE_LIMITS.files} files (at ${rel})`);
      if (stats.size > TEMPLATE_LIMITS.fileBytes) return fail('template.too_large', rel, `${rel} is ${stats.size} bytes: each file is at most ${TEMPLATE_LIMITS.fileBytes} bytes (256 KiB)`);
      if (total + stats.size > TEMPLATE_LIMITS.totalBytes) return fail('template.too_large', rel, `the files pass ${TEMPLATE_LIMITS.totalBytes} bytes (1 MiB) together at ${rel}`);
      const bytes = await readRegularFile(abs);
      if (bytes === null) return fail('template.special_file', rel, `${rel} changed while it was read: a template holds only regular files`);
      if (bytes.length > TEMPLATE_LIMITS.fileBytes) return fail('template.too_large', rel, `${rel} is over ${TEMPLATE_LIMITS.fileBytes} bytes (256 KiB)`);
      total += bytes.length;
      if (total > TEMPLATE_LIMITS.totalBytes) return fail('template.too_large', rel, `the files pass ${TEMPLATE_LIMITS.totalBytes} bytes (1 MiB) together at ${rel}`);
      files.set(rel, bytes);
    }
  }
  return { ok: true, tree: { files, directories } };
}

/** Reads a regular file without following a link or blocking on a FIFO; null when it is not one. Reads at most one byte past the limit. */
async function readRegularFile(abs: string): Promise<Uint8Array | null> {
  let handle;
  try {
    handle = await open(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return null;
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
