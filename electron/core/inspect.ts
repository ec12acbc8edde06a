/**
 * One entry point for "what is this path?" (DESIGN.md "Validation contract"): a folder is a
 * template, a tar or gzip'd tar is an `.apo`, a JSON document is a plugin manifest; the kind is
 * decided by content, never by extension. Used by the CLI's `inspect` and by the Api.
 */
import { open, stat } from 'node:fs/promises';
import type { Inspection } from '../../shared/inspection';
import { inspectApo } from './apollia/index';
import { inspectPluginManifest } from './plugin/index';
import { inspectTemplateFolder } from './template/index';

/** What a path's first bytes say it is. */
export type SniffedKind = 'apo' | 'json' | 'directory' | 'unknown';

/** Thrown by {@link inspectPath} when nothing exists at the path. */
export class InputNotFoundError extends Error {
  /** Stable code for the CLI: a path that does not exist is a usage error, not a refusal. */
  readonly code = 'input.not_found';
}

/**
 * Sniffs a path by content: gzip magic (`1f 8b`), or `ustar` at offset 257 of a tar header, is an
 * archive; a first non-blank character `{` (after a UTF-8 BOM) is JSON. A local twin of the archive
 * module's `sniffInputKind`, kept here until that one is committed.
 */
export async function sniffPath(path: string): Promise<SniffedKind> {
  const info = await stat(path);
  if (info.isDirectory()) return 'directory';
  if (!info.isFile()) return 'unknown';
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(512);
    const { bytesRead } = await handle.read(head, 0, 512, 0);
    const bytes = head.subarray(0, bytesRead);
    if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return 'apo';
    if (bytes.length >= 262 && bytes.subarray(257, 262).toString('latin1') === 'ustar') return 'apo';
    const text = bytes.toString('utf8').replace(/^\uFEFF/, '').trimStart();
    if (text.startsWith('{')) return 'json';
    return 'unknown';
  } finally {
    await handle.close();
  }
}

/**
 * Inspects whatever `path` is. Throws {@link InputNotFoundError} when nothing is there (the CLI
 * turns that into a usage error); any other problem with the input is a refusal value.
 */
export async function inspectPath(path: string): Promise<Inspection> {
  let kind: SniffedKind;
  try {
    kind = await sniffPath(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new InputNotFoundError(`no such file or folder: ${path}`);
    return refused('input.unreadable', `\`${path}\` cannot be read: ${code ?? (error instanceof Error ? error.message : String(error))}`);
  }
  switch (kind) {
    case 'directory':
      return inspectTemplateFolder(path);
    case 'apo':
      return inspectApo(path);
    case 'json':
      return inspectPluginManifest(path);
    default:
      return refused(
        'input.not_a_package',
        `\`${path}\` is not a package: it is neither an .apo archive (tar or gzip'd tar), a template folder, nor a plugin manifest (JSON)`,
      );
  }
}

/** A refusal of an input no reader accepts; reported as an `.apo` attempt, the CLI's main input. */
function refused(code: string, message: string): Inspection {
  return { kind: 'apo', ok: false, errors: [{ code, message }], warnings: [], summary: null, details: null };
}
