/**
 * One entry point for "what is this path?" (DESIGN.md "Validation contract"): a folder is a
 * template, a tar or gzip'd tar is an `.apo`, a JSON document is a plugin manifest; the kind is
 * decided by content, never by extension. Used by the CLI's `inspect` and by the Api.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import type { Inspection } from '../../shared/inspection';
import { inspectApo } from './apollia/index';
import { sniffInputKind } from './archive/index';
import { inspectPluginManifest } from './plugin/index';
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
  switch (await sniffInputKind(path)) {
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
