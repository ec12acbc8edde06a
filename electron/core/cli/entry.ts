/**
 * The one CLI entry both channels run (DESIGN.md "Security of the app itself": one CLI, two
 * channels): `electron/cli.ts` (the npm package, under Node) and the installed app's main process
 * when its binary is started with a CLI command (`electron/main/cli-dispatch.ts`). Takes the
 * arguments without the program's own path(s), returns the exit code.
 */
import { resolve } from 'node:path';
import { CoreError } from '../errors/index';
import { debugWanted, ioFaultSentence } from '../errors/io-fault';
import { type CliIo, EXIT } from './cli-io';
import { PROGRAM } from './usage';

/** Commands that read a package in the bounded worker (`core/bounded/`). */
const CHECKING = new Set(['inspect', 'install', 'apply']);

/**
 * A reader that leaves early (`list | head -1`) closes the pipe: the next write fails with EPIPE,
 * an error event nobody listens to, which Node prints as a stack trace (and Electron's main process
 * shows in a dialog). It is no failure of the command: `exit` stops quietly, with the status set so
 * far. Output that cannot be written for another reason (a redirect to a full disk, a failing
 * device: ENOSPC, EIO) cannot say so there either: `exit` stops with status 1 (unless a failure
 * was already set), never a stack trace (DESIGN.md "Commit points": an I/O failure is a sentence,
 * and a stop at any write leaves the store whole).
 */
export function quietOnBrokenPipe(
  stream: Pick<NodeJS.WriteStream, 'on'>,
  exit: () => void,
  status: { exitCode?: number | string | null | undefined } = process,
): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && !(typeof status.exitCode === 'number' && status.exitCode !== 0))
      status.exitCode = EXIT.refused;
    exit();
  });
}

/** Runs one CLI invocation: `argv` as typed after the program name. */
export async function runCliEntry(argv: string[], io: CliIo): Promise<number> {
  // Such a command starts the worker first, so that its start (and the loading of the reader its
  // path needs) overlaps the loading of the command. Only a hint: the command parses its
  // arguments as always, and a wrong guess costs an idle worker or a reader loaded for nothing.
  const at = argv.findIndex((arg) => CHECKING.has(arg));
  if (at >= 0) {
    const path = argv.slice(at + 1).find((arg) => !arg.startsWith('-'));
    (await import('../bounded/checker')).sharedChecker().start(path === undefined ? undefined : resolve(io.cwd, path));
  }
  const { runCli } = await import('./dispatcher');
  try {
    return await runCli(argv, io);
  } catch (error) {
    return faultExit(error, io);
  }
}

/**
 * What escaped a command, said as one sentence with exit 1 (DESIGN.md "Commit points": every fault
 * a sentence naming the file and what it means); its stack trace only with `APOLLIA_DEBUG=1`.
 */
export function faultExit(error: unknown, io: Pick<CliIo, 'stderr' | 'env'>): number {
  const sentence =
    ioFaultSentence(error) ??
    (error instanceof CoreError
      ? error.message
      : `something went wrong: ${error instanceof Error ? error.message : String(error)}`);
  io.stderr(`${PROGRAM}: ${sentence}\n`);
  if (debugWanted(io.env) && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
  return EXIT.refused;
}
