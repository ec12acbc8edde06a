/**
 * One entry point for "what is this path?" (DESIGN.md "Validation contract"): a folder is a
 * template, a tar or gzip'd tar is an `.apo`, a JSON document is a plugin manifest; the kind is
 * decided by content, never by extension (`sourceKindOf`, which the Api asks too), in the bounded worker
 * (`bounded/jobs.ts`). Used by the CLI's `inspect`.
 * Imports only the checker, never the readers: on the main thread they would be loaded twice.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import type { Inspection } from '../../../shared/manifests/inspection';
import { checkPath, refusedInspection } from '../bounded/checker';
import type { TrustedKey } from '../trust/index';

/** Thrown by {@link inspectPath} when nothing exists at the path. */
export class InputNotFoundError extends Error {
  /** Stable code for the CLI: a path that does not exist is a usage error, not a refusal. */
  readonly code = 'input.not_found';
}

/**
 * Inspects whatever `path` is. Throws {@link InputNotFoundError} when nothing is there (the CLI
 * turns that into a usage error); any other problem with the input is a refusal value. The path is
 * looked at here; its content is read in the bounded worker (`bounded/`), so a package over the
 * time or memory budget is refused `inspect.too_slow` / `inspect.too_large`. An `.apo`'s signature
 * is checked against `trustedKeys` (and the keys installed packages are pinned to, `pinnedKeys`).
 */
export async function inspectPath(
  path: string,
  trustedKeys: readonly TrustedKey[] = [],
  pinnedKeys: readonly string[] = [],
): Promise<Inspection> {
  try {
    const info = await stat(path);
    if (!info.isDirectory()) await access(path, constants.R_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new InputNotFoundError(`no such file or folder: ${path}`);
    return refusedInspection('apo', {
      code: 'input.unreadable',
      message: `\`${path}\` cannot be read: ${code ?? (error instanceof Error ? error.message : String(error))}`,
    });
  }
  return checkPath(path, trustedKeys, undefined, pinnedKeys);
}
