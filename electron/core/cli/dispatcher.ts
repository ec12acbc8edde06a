/**
 * The CLI dispatcher: global flags, then one command module per command (see `commands.ts`).
 * `electron/cli.ts` is a thin shell around {@link runCli}; tests call it in-process.
 */
import { isAbsolute, resolve } from 'node:path';
import { version } from '../../../package.json';
import { type CliIo, EXIT } from './cli-io';
import { COMMANDS } from './commands';
import { terminalSafe } from './terminal-text';
import { fitUsage, PROGRAM, USAGE_WIDTH, usageError } from './usage';

/**
 * `text` wrapped at spaces to {@link USAGE_WIDTH} columns, the first line indented by `first`, the
 * others by `rest`. A bracketed option (`[--grant ENTRY ...]`) is kept on one line where it fits.
 */
export function wrapUsage(text: string, first: string, rest: string): string[] {
  const words = text.match(/\[[^[\]]*(?:\[[^[\]]*\][^[\]]*)*\]|\([^()]*\)|\S+/g) ?? [];
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of words) {
    if (!empty && line.length + 1 + word.length > USAGE_WIDTH) {
      lines.push(line);
      line = rest;
      empty = true;
    }
    line += empty ? word : ` ${word}`;
    empty = false;
  }
  lines.push(line);
  return lines;
}

/** The usage text of the whole program: every command with every option, then what it does. */
export function programUsage(): string {
  const lines = COMMANDS.flatMap((c) => [
    ...wrapUsage(`${c.name} ${c.args}`, '  ', '      '),
    ...wrapUsage(c.summary, '      ', '      '),
  ]);
  return [
    `Usage: ${PROGRAM} [--data-dir DIR] <command> [arguments]`,
    '',
    'Commands:',
    ...lines,
    '',
    'Global options:',
    '  --data-dir DIR  Folder of the local store (for commands that read or change what is installed)',
    '  -h, --help      Show this help',
    '  --version       Show the version of this program',
    '  --json          (with a command that takes it) print one JSON document; a refusal is',
    '                  { "ok": false, "errors": [{ "code", "message", "path" }] } on standard output',
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
  // What the CLI creates in the data folder is its owner's alone (DESIGN.md "Consent, install, apply": created 0700,
  // its files 0600, by every writer): a umask of 077 makes every folder and file this process creates so.
  if (process.platform !== 'win32') process.umask(0o077);
  // Every line printed may hold package text: shown, never obeyed by the terminal.
  // A usage error of a run given --json is the refusal document too, even before the command is known (`usageError`).
  const options = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  const io: CliIo = {
    ...rawIo,
    stdout: (text) => rawIo.stdout(terminalSafe(text)),
    stderr: (text) => rawIo.stderr(terminalSafe(text)),
    ...(options.includes('--json') ? { json: true } : {}),
  };
  const rest: string[] = [];
  let dataDir: string | undefined;
  let jsonFirst = false;
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
    // `--json` before the command is the command's (`apollia-desktop --json list`).
    if (arg === '--json' && rest.length === 0) {
      jsonFirst = true;
      continue;
    }
    rest.push(arg);
  }
  const [name, ...given] = rest;
  let args = given;
  if (jsonFirst) args = args.includes('--') ? args.toSpliced(args.indexOf('--'), 0, '--json') : [...args, '--json'];
  if (name === undefined) return usageError(io, 'no command given', programUsage());
  if (name === '-h' || name === '--help' || name === 'help') {
    // `help COMMAND` is `COMMAND --help`.
    const asked = name === 'help' ? given.find((arg) => arg !== '--json') : undefined;
    const about = asked === undefined ? undefined : COMMANDS.find((c) => c.name === asked);
    if (asked !== undefined && about === undefined)
      return usageError(
        io,
        `unknown command \`${asked}\``,
        programUsage(),
        COMMANDS.map((c) => c.name),
      );
    if (about === undefined) {
      io.stdout(programUsage());
      return EXIT.accepted;
    }
    return (await about.load()).run(['--help'], { ...io, stdout: (text) => io.stdout(fitUsage(text)) });
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    io.stdout(`${PROGRAM} ${version}\n`);
    return EXIT.accepted;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    return usageError(
      io,
      name.startsWith('-') ? `unknown option \`${name}\`` : `unknown command \`${name}\``,
      programUsage(),
      COMMANDS.map((c) => c.name),
    );
  }
  // A refusal of a command given --json is one JSON document on standard output (`refused` in cli-data.ts).
  const end = args.indexOf('--');
  const flags = end === -1 ? args : args.slice(0, end);
  const json = flags.includes('--json');
  if (json && command.printsJson?.(args) === false)
    args = [...flags.filter((arg) => arg !== '--json'), ...(end === -1 ? [] : args.slice(end))];
  const { run } = await command.load();
  // A command's help fits the terminal's 100 columns, whatever the width its text was written at.
  const help = args.includes('-h') || args.includes('--help');
  const commandIo = help ? { ...io, stdout: (text: string) => io.stdout(fitUsage(text)) } : io;
  return run(args, { ...commandIo, json, ...(dataDir === undefined ? {} : { dataDir }) });
}
