/**
 * The headless entry (`apollia-desktop inspect|…`), built by `npm run build:cli` to `out/cli/cli.cjs`.
 * Thin on purpose: everything lives in `electron/core/cli/` (`entry.ts`, which the installed app's
 * main process runs too), and tests run it in-process.
 *
 * Built as CommonJS (vite.cli.config.mts): Node starts a CommonJS entry without its ES module
 * loader, which a start of about a tenth of a second feels. Hence no top-level await.
 */

import { quietOnBrokenPipe, runCliEntry } from './core/cli/entry';

const exit = () => process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
quietOnBrokenPipe(process.stdout, exit);
quietOnBrokenPipe(process.stderr, exit);

void runCliEntry(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  env: process.env,
}).then((code) => {
  process.exitCode = code;
});
