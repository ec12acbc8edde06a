/**
 * The installed app's command line (DESIGN.md "Security of the app itself": one CLI, two channels).
 * When the app binary is started and its first argument that is not a switch is a CLI command name
 * (`apollia-desktop inspect FILE`), the main process runs the same CLI entry as the npm package
 * (`core/cli/entry.ts`) and exits with its code: before the single-instance lock (a command must
 * not hand its argv to a running window), with no window, no menu, no trigger host. A double-click
 * passes a file path (or a `file://` URI) instead, which is never a command name, so the window
 * opens as before.
 *
 * The `runAsNode` fuse stays off: the CLI runs as the app's own main-process code, not as Node.
 * No `electron` import: tested with a faked `app`; `index.ts` passes the real one.
 */
import { COMMANDS } from '../core/cli/commands';
import type { CliIo } from '../core/cli/cli-io';
import type { CommandSession } from './command-session';
import { HEADLESS_WINDOW_REFUSAL } from './headless';

/** What the CLI may be asked by name; `help` prints the usage. */
export const CLI_COMMAND_NAMES: ReadonlySet<string> = new Set([...COMMANDS.map((command) => command.name), 'help']);

/** CLI options that take the next argument as their value (global options of `dispatcher.ts`). */
const CLI_OPTIONS_WITH_VALUE = new Set(['--data-dir']);

/**
 * The arguments a person typed after the program: Electron's `process.argv` is `[binary, …]` in
 * the packaged app and `[electron, appFolder, …]` when started as `electron .` (`process.defaultApp`).
 */
export function typedArguments(argv: readonly string[], defaultApp: boolean): string[] {
  return argv.slice(defaultApp ? 2 : 1);
}

/**
 * The CLI's argv when `typed` asks for a CLI command, else null (start the app). Switches before
 * the command are Chromium's or Electron's (`--ozone-platform=headless`, `--no-sandbox`, `--enable-logging`) and
 * are dropped, except the CLI's own `--data-dir DIR`, kept with its value; everything from the
 * command name on is the CLI's. `--help` / `-h` alone print the CLI's usage.
 */
export function cliArgumentsOf(typed: readonly string[]): string[] | null {
  const kept: string[] = [];
  for (let i = 0; i < typed.length; i++) {
    const arg = typed[i] as string;
    if (arg === '--') return null;
    if (CLI_OPTIONS_WITH_VALUE.has(arg)) {
      const value = typed[i + 1];
      if (value === undefined) return null;
      kept.push(arg, value);
      i++;
      continue;
    }
    if (arg.startsWith('--data-dir=')) {
      kept.push(arg);
      continue;
    }
    if (arg.startsWith('-')) continue;
    // The first argument that is not a switch decides: a command name, or anything else (a path).
    return CLI_COMMAND_NAMES.has(arg) ? [...kept, ...typed.slice(i)] : null;
  }
  if (typed.includes('--help') || typed.includes('-h')) return [...kept, '--help'];
  return null;
}

/** The command `cliArgs` (from `cliArgumentsOf`) runs: its first argument that is neither a switch nor `--data-dir`'s value. */
export function commandOf(cliArgs: readonly string[]): string | undefined {
  for (let i = 0; i < cliArgs.length; i++) {
    const arg = cliArgs[i] as string;
    if (CLI_OPTIONS_WITH_VALUE.has(arg)) i++;
    else if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}

/**
 * The exit code of a command ended by a signal (the shell's 128 + signal number): Ctrl-C (SIGINT)
 * 130, SIGTERM 143. A quit Electron was asked for from outside (it turns both signals into a quit
 * on POSIX) counts as Ctrl-C.
 */
export function signalExitCode(signal: string): number {
  return signal === 'SIGTERM' ? 143 : 130;
}

/** The part of Electron's `app` the entry uses. */
export interface EntryApp {
  requestSingleInstanceLock(): boolean;
  /** A command draws nothing: no GPU process (before `ready`, as Electron requires). */
  disableHardwareAcceleration(): void;
  /** A command's Chromium session data apart from the window's profile (command-session.ts). */
  setPath(name: 'sessionData', path: string): void;
  quit(): void;
  exit(exitCode?: number): void;
  once(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  /** macOS only: a command shows no Dock icon. */
  dock?: { hide(): void } | undefined;
}

/** What the entry needs besides `app`. */
export interface EntryDeps {
  /** `process.argv` and `process.defaultApp`. */
  argv: readonly string[];
  defaultApp: boolean;
  /** The CLI entry (`runCliEntry`). */
  runCli(argv: string[], io: CliIo): Promise<number>;
  /** Standard streams, working folder and environment of this process. */
  io: CliIo;
  /**
   * Where the app's resources are (`process.resourcesPath` when packaged): the CLI reads the built-in templates there.
   */
  resourcesDir: string;
  /** Starts the window app (after the lock was taken). */
  startApp(): void;
  /** Chromium runs on Ozone's headless platform (`headless.ts`): no window can show. */
  headless: boolean;
  /** A private folder for a command's Chromium session data (`makeCommandSession`). */
  commandSession(): CommandSession;
  /** SIGINT / SIGTERM of this process, for `serve`. */
  onSignal(listener: (signal: string) => void): void;
  /**
   * Resolves once what was written to stdout and stderr has left the process: `app.exit` ends it
   * at once, and a pipe is written asynchronously on macOS and Windows (`inspect --json | jq`).
   */
  flushOutput(): Promise<void>;
  /**
   * Stops quietly (`stop`) when a reader closes the pipe early (`list | head -1`): EPIPE is no failure of the command.
   */
  onBrokenPipe(stop: () => void): void;
}

/**
 * How the entry went: ran a CLI command, handed over to the running instance, started the app, or
 * refused the window (no display).
 */
export type EntryOutcome = 'cli' | 'second-instance' | 'app' | 'no display';

/**
 * The main process's first decision: a CLI command runs and exits with its code (never taking
 * the single-instance lock); otherwise the lock, then the app (or quit: another instance has it).
 */
export function startEntry(app: EntryApp, deps: EntryDeps): EntryOutcome {
  const cliArgs = cliArgumentsOf(typedArguments(deps.argv, deps.defaultApp));
  if (cliArgs) {
    runCommand(app, deps, cliArgs);
    return 'cli';
  }
  if (deps.headless) {
    deps.io.stderr(HEADLESS_WINDOW_REFUSAL);
    app.exit(1);
    return 'no display';
  }
  if (!app.requestSingleInstanceLock()) {
    // Another instance runs: it receives our argv through `second-instance`.
    app.quit();
    return 'second-instance';
  }
  deps.startApp();
  return 'app';
}

/**
 * Runs one CLI command and exits with its code. `serve` runs until stopped: a signal, or the app
 * asked to quit (Electron turns SIGINT and SIGTERM into a quit on POSIX): the command stops its
 * host, then the process exits with the command's code. Any other command ends at the first
 * Ctrl-C with 130 (SIGTERM: 143), as a shell's commands do: its writes are single atomic steps
 * of the store (DESIGN.md "Durability"), so stopping between them leaves nothing half-written.
 */
function runCommand(app: EntryApp, deps: EntryDeps, cliArgs: string[]): void {
  app.disableHardwareAcceleration();
  const session = deps.commandSession();
  app.setPath('sessionData', session.path);
  app.dock?.hide();
  const exit = (code: number) => {
    const done = () => {
      session.remove();
      app.exit(code);
    };
    deps.flushOutput().then(done, done);
  };
  const serve = commandOf(cliArgs) === 'serve';
  const stopped = new Promise<string>((resolve) => {
    deps.onSignal((signal) => (serve ? resolve(signal) : exit(signalExitCode(signal))));
    app.once('before-quit', (event) => {
      event.preventDefault();
      if (serve) resolve('quit');
      else exit(signalExitCode('SIGINT'));
    });
  });
  const io: CliIo = {
    ...deps.io,
    // The app's own resources folder, handed over as a value: never through the environment, which the person sets.
    resourcesDir: deps.resourcesDir,
    ...(serve ? { untilStopped: () => stopped } : {}),
  };
  deps.onBrokenPipe(() => {
    session.remove();
    app.exit(0);
  });
  deps.runCli(cliArgs, io).then(exit, (error: unknown) => {
    deps.io.stderr(`apollia-desktop: ${error instanceof Error ? error.message : String(error)}\n`);
    exit(1);
  });
}
