/**
 * Which `.apo` files a launch asks the app to open: the pure part of file-open routing (DESIGN.md
 * "What it is": the user double-clicks a `.apo`). No `electron` import: unit-tested in plain Node.
 */
import { extname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A `file://` URI as its local path (a desktop entry's `%U`, some file managers' double-click), or
 * null when it is no local file URI (`file://host/…` off Windows, a malformed one). Other
 * arguments: unchanged.
 */
export function localPathOf(arg: string): string | null {
  if (!/^file:/i.test(arg)) return arg;
  try {
    return fileURLToPath(arg);
  } catch {
    return null;
  }
}

/**
 * The `.apo` paths named on a command line (first launch's `process.argv`, or a second instance's
 * `argv` with its `workingDirectory`). Flags (`-x`, `--flag`, `--flag=value`) are skipped; a
 * relative path is resolved against `workingDirectory`, the folder the *launching* process ran
 * in; a `file://` URI is its local path (`localPathOf`), never `<cwd>/file:/…`; only names ending
 * in `.apo` (any case) that are existing regular files are kept, each once.
 * `isFile` is injected so tests need no real files.
 *
 * The executable and the app folder (`electron .` in development) are never `.apo` files, so
 * they fall out without knowing where argv's own arguments start on each platform.
 */
export function apoPathsFromArgv(
  argv: readonly string[],
  workingDirectory: string,
  isFile: (absolutePath: string) => boolean,
): string[] {
  const paths: string[] = [];
  for (const given of argv) {
    if (given === '' || given.startsWith('-')) continue;
    const arg = localPathOf(given);
    if (arg === null) continue;
    if (extname(arg).toLowerCase() !== '.apo') continue;
    const absolute = isAbsolute(arg) ? resolve(arg) : resolve(workingDirectory, arg);
    if (!paths.includes(absolute) && isFile(absolute)) paths.push(absolute);
  }
  return paths;
}
