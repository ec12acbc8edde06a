/**
 * The headless entry (`apollia-desktop inspect|…`), built by `npm run build:cli` to `out/cli/cli.js`.
 * Thin on purpose: everything lives in `electron/core/cli/`, which tests run in-process.
 */
import { runCli } from './core/cli/dispatcher';

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  env: process.env,
});
