/**
 * One entry point for "what is this path?" (DESIGN.md "Validation contract"): a folder is a
 * template, a tar or gzip'd tar is an `.apo`, a JSON document is a plugin manifest; the kind is
 * decided by content, never by extension (`sourceKindOf`, which the Api asks too). Used by the CLI's `inspect`.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import type { Inspection } from '../../shared/inspection';
import { inspectApo } from './apollia/index';
import { inspectPluginManifest } from './plugin/index';
import { notAPackage, sourceKindOf } from './source-kind';
import { inspectTemplateFolder } from './template/index';

/** Thrown by {@link inspectPath} when nothing exists at the path. */
export class InputNotFoundError extends Error {
  /** Stable code for the CLI: a path that does not exist is a usage error, not a refusal. */
  readonly code = 'input.not_found';
}

/**
 * Inspects whatever `path` is. Throws {@link InputNotFoundError} when nothing is there (the CLI
 * turns that into a usage error); any other problem with the input is a refusal value.
 */
export async function inspectPath(path: string): Promise<Inspection> {
  try {
    const info = await stat(path);
    if (!info.isDirectory()) await access(path, constants.R_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new InputNotFoundError(`no such file or folder: ${path}`);
    return refused('input.unreadable', `\`${path}\` cannot be read: ${code ?? (error instanceof Error ? error.message : String(error))}`);
  }
  switch (await sourceKindOf(path)) {
    case 'template':
      return inspectTemplateFolder(path);
    case 'apo':
      return inspectApo(path);
    case 'plugin':
      return inspectPluginManifest(path);
    default:
      return notAPackage(path);
  }
}

/** A refusal of an input no reader is asked about; reported as an `.apo` attempt, the CLI's main input. */
function refused(code: string, message: string): Inspection {
  return { kind: 'apo', ok: false, errors: [{ code, message }], warnings: [], summary: null, details: null };
}
