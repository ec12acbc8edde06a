/**
 * The headless entry (`apollia-desktop inspect|…`), built by `npm run build:cli` to `out/cli/cli.cjs`.
 * Thin on purpose: everything lives in `electron/core/cli/`, which tests run in-process.
 *
 * Built as CommonJS (vite.cli.config.mts): Node starts a CommonJS entry without its ES module
 * loader, which a start of about a tenth of a second feels (issue 17). Hence no top-level await.
 */

import { resolve } from 'node:path';

/** Commands that read a package in the bounded worker (`core/bounded/`). */
const CHECKING = new Set(['inspect', 'install', 'apply']);

/**
 * A reader that leaves early (`list | head -1`) closes the pipe: the next write fails with EPIPE,
 * an error event nobody listens to, which Node prints as a stack trace. It is no failure of the
 * command: stop quietly, with the exit status set so far (0 unless the command already refused).
 * Any other write error is still thrown.
 */
function quietOnBrokenPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
}

async function main(argv: string[]): Promise<number> {
  quietOnBrokenPipe(process.stdout);
  quietOnBrokenPipe(process.stderr);
  // Such a command starts the worker first, so that its start (and the loading of the reader its
  // path needs) overlaps the loading of the command (issue 17). Only a hint: the command parses its
  // arguments as always, and a wrong guess costs an idle worker or a reader loaded for nothing.
  const at = argv.findIndex((arg) => CHECKING.has(arg));
  if (at >= 0) {
    const path = argv.slice(at + 1).find((arg) => !arg.startsWith('-'));
    (await import('./core/bounded/checker')).sharedChecker().start(path === undefined ? undefined : resolve(path));
  }
  const { runCli } = await import('./core/cli/dispatcher');
  return runCli(argv, {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
  });
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
