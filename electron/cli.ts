/**
 * The headless entry (`apollia-desktop inspect|…`), built by `npm run build:cli` to `out/cli/cli.js`.
 * Thin on purpose: everything lives in `electron/core/cli/`, which tests run in-process.
 */

import { resolve } from 'node:path';

/** Commands that read a package in the bounded worker (`core/bounded/`). */
const CHECKING = new Set(['inspect', 'install', 'apply']);

// Such a command starts the worker first, so that its start (and the loading of the reader its
// path needs) overlaps the loading of the command (issue 17). Only a hint: the command parses its
// arguments as always, and a wrong guess costs an idle worker or a reader loaded for nothing.
const argv = process.argv.slice(2);
const at = argv.findIndex((arg) => CHECKING.has(arg));
if (at >= 0) {
  const path = argv.slice(at + 1).find((arg) => !arg.startsWith('-'));
  (await import('./core/bounded/checker')).sharedChecker().start(path === undefined ? undefined : resolve(path));
}
const { runCli } = await import('./core/cli/dispatcher');

process.exitCode = await runCli(argv, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  env: process.env,
});
