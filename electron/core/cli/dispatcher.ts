/**
 * The CLI dispatcher: global flags, then one command module per command (see `commands.ts`).
 * `electron/cli.ts` is a thin shell around {@link runCli}; tests call it in-process.
 */
import { isAbsolute, resolve } from 'node:path';
import { type CliIo, EXIT } from './cli-io';
import { COMMANDS } from './commands';
import { terminalSafe } from './terminal-text';
import { PROGRAM, usageError } from './usage';

/** The usage text of the whole program. */
export function programUsage(): string {
  const width = Math.max(...COMMANDS.map((c) => `${c.name} ${c.args}`.length));
  const lines = COMMANDS.map((c) => `  ${`${c.name} ${c.args}`.padEnd(width)}  ${c.summary}`);
  return [
    `Usage: ${PROGRAM} [--data-dir DIR] <command> [arguments]`,
    '',
    'Commands:',
    ...lines,
    '',
    'Global options:',
    '  --data-dir DIR  Folder of the local store (for commands that read or change what is installed)',
    '  -h, --help      Show this help',
    '',
    'Exit status: 0 accepted, 1 refused, 2 usage error.',
    '',
  ].join('\n');
}

/**
 * Runs the CLI with `argv` (without the node and script paths). Returns the exit code: 0 accepted,
 * 1 refused, 2 usage error (unknown command or flag, missing argument, no such path).
 * `--data-dir DIR` (or `--data-dir=DIR`) is global and may stand anywhere before `--`.
 */
export async function runCli(argv: string[], rawIo: CliIo): Promise<number> {
  // Every line printed may hold package text: shown, never obeyed by the terminal.
  const io: CliIo = { ...rawIo, stdout: (text) => rawIo.stdout(terminalSafe(text)), stderr: (text) => rawIo.stderr(terminalSafe(text)) };
  const rest: string[] = [];
  let dataDir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (arg === '--data-dir' || arg.startsWith('--data-dir=')) {
      const value = arg === '--data-dir' ? argv[++i] : arg.slice('--data-dir='.length);
      if (value === undefined || value === '') return usageError(io, '--data-dir needs a folder', programUsage());
      dataDir = isAbsolute(value) ? value : resolve(io.cwd, value);
      continue;
    }
    rest.push(arg);
  }
  const [name, ...args] = rest;
  if (name === undefined) return usageError(io, 'no command given', programUsage());
  if (name === '-h' || name === '--help' || name === 'help') {
    io.stdout(programUsage());
    return EXIT.accepted;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    return usageError(io, name.startsWith('-') ? `unknown option \`${name}\`` : `unknown command \`${name}\``, programUsage());
  }
  const { run } = await command.load();
  return run(args, dataDir === undefined ? io : { ...io, dataDir });
}
