/**
 * Runs the CLI in-process, as the tests of its commands do, capturing what it prints. `io` overrides
 * the defaults (the repository as the working folder, a HOME of no one's): a folder to run in, an
 * environment, standard input.
 */
import type { CliIo } from '../../electron/core/cli/cli-io';
import { runCli } from '../../electron/core/cli/dispatcher';

/** The exit code and everything printed to standard output and standard error. */
export async function runCliCaptured(
  argv: string[],
  io: Partial<CliIo> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    cwd: process.cwd(),
    env: { HOME: '/home/someone' },
    ...io,
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}
