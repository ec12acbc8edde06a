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

/** An in-process `serve`: {@link listening} once it says it serves, {@link stop} to signal it, then {@link done}. */
export interface ServeInProcess {
  /** Resolves once serve printed that it listens; rejects with its stderr if it ended before. */
  listening: Promise<void>;
  stop: (signal: string) => void;
  done: Promise<{ code: number; stdout: string; stderr: string }>;
}

/**
 * Starts `argv` (a `serve` command) in-process until {@link ServeInProcess.stop}, capturing what it prints. Waited
 * for by its own line, not a fixed time: loading its modules takes longer on a busy machine.
 */
export function serveInProcess(argv: string[], io: Partial<CliIo> = {}): ServeInProcess {
  let stop: (signal: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => (stop = resolve));
  let started: () => void = () => undefined;
  const serving = new Promise<void>((resolve) => (started = resolve));
  let stdout = '';
  let stderr = '';
  const done = runCli(argv, {
    cwd: process.cwd(),
    env: { HOME: '/home/someone' },
    ...io,
    stdout: (text) => {
      stdout += text;
      if (stdout.includes('stop with Ctrl-C')) started();
    },
    stderr: (text) => {
      stderr += text;
    },
    untilStopped: () => stopped,
  }).then((code) => ({ code, stdout, stderr }));
  const listening = Promise.race([
    serving,
    done.then((ended) => Promise.reject(new Error(`serve ended (${ended.code}) before it listened: ${ended.stderr}`))),
  ]);
  return { listening, stop, done };
}
