/**
 * What a PATH argument of `inspect` and `apply` means (DESIGN.md "The command line": a built-in template by its name
 * wherever a path is taken, and a name always means the built-in; a folder is given as a path). Read from the
 * resources folder alone, so `inspect` still starts without the Api.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve, sep } from 'node:path';
import { cliResourcesDir } from './cli-data';
import type { CliIo } from './cli-io';

/** The argument, resolved: a built-in template (by its name) or a path. */
export type TemplateArgument =
  | {
      kind: 'builtin';
      name: string;
      /** The shipped folder. */
      path: string;
      /** Said when a file or folder of the same name is here too: which one was used, and how to name the other. */
      note: string | null;
    }
  | { kind: 'path'; path: string };

/** The names of the templates that ship with the app (`resources/templates/<name>/`). */
export function builtinTemplateNames(io: Pick<CliIo, 'resourcesDir'>): string[] {
  const root = join(cliResourcesDir(io), 'templates');
  try {
    return readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}

/** Whether `given` is a bare name (no folder separator, not `.` or `..`): only such a word can name a built-in. */
export function isBareName(given: string): boolean {
  return given !== '' && given !== '.' && given !== '..' && !given.includes('/') && !given.includes(sep);
}

/**
 * `given` as `inspect` and `apply` take it: a bare name of a built-in template is that template, even when a folder
 * of that name is here (then a note says which was used, and that `./NAME` is the folder); anything else is a path.
 */
export function templateArgument(io: CliIo, given: string): TemplateArgument {
  const path = isAbsolute(given) ? given : resolve(io.cwd, given);
  if (isBareName(given) && builtinTemplateNames(io).includes(given)) {
    const local = existsSync(path) ? (statSync(path).isDirectory() ? 'folder' : 'file') : null;
    return {
      kind: 'builtin',
      name: given,
      path: join(cliResourcesDir(io), 'templates', given),
      note: local
        ? `\`${given}\` is the built-in template of that name, not the ${local} ${given} here: give the ${local} as a path (./${given}) to use it`
        : null,
    };
  }
  return { kind: 'path', path };
}

/**
 * Whether `path` is a plain folder: neither a template (agent.md at its root) nor a package folder (apollia.toml at
 * its root). Such a folder is called what it is, never "a template" (the reader checks it as one only to refuse it).
 */
export function isPlainFolder(path: string): boolean {
  try {
    return (
      statSync(path).isDirectory() && !existsSync(join(path, 'agent.md')) && !existsSync(join(path, 'apollia.toml'))
    );
  } catch {
    return false;
  }
}

/** The words for a plain folder given where a template or a package was wanted. */
export const PLAIN_FOLDER_WORDS =
  'a plain folder, neither a template (agent.md at its root) nor a package folder (apollia.toml at its root)';
