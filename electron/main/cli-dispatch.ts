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
 * the command are Chromium's or Electron's (`--headless`, `--no-sandbox`, `--enable-logging`) and
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

/** The part of Electron's `app` the entry uses. */
export interface EntryApp {
  requestSingleInstanceLock(): boolean;
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

/** How the entry went: ran a CLI command, handed over to the running instance, or started the app. */
export type EntryOutcome = 'cli' | 'second-instance' | 'app';

/**
 * The main process's first decision: a CLI command runs and exits with its code (never taking
 * the single-instance lock); otherwise the lock, then the app (or quit: another instance has it).
 */
export function startEntry(app: EntryApp, deps: EntryDeps): EntryOutcome {
  const cliArgs = cliArgumentsOf(typedArguments(deps.argv, deps.defaultApp));
  if (cliArgs) {
    app.dock?.hide();
    // `serve` runs until stopped: a signal, or the app asked to quit (Electron turns SIGINT and
    // SIGTERM into a quit on some platforms): the command stops its host, then the process exits.
    const stopped = new Promise<string>((resolve) => {
      deps.onSignal(resolve);
      app.once('before-quit', (event) => {
        event.preventDefault();
        resolve('quit');
      });
    });
    const io: CliIo = {
      ...deps.io,
      // The app's own resources folder, handed over as a value: never through the environment, which the person sets.
      resourcesDir: deps.resourcesDir,
      untilStopped: () => stopped,
    };
    const exit = (code: number) => {
      const done = () => app.exit(code);
      deps.flushOutput().then(done, done);
    };
    deps.onBrokenPipe(() => app.exit(0));
    deps.runCli(cliArgs, io).then(exit, (error: unknown) => {
      deps.io.stderr(`apollia-desktop: ${error instanceof Error ? error.message : String(error)}\n`);
      exit(1);
    });
    return 'cli';
  }
  if (!app.requestSingleInstanceLock()) {
    // Another instance runs: it receives our argv through `second-instance`.
    app.quit();
    return 'second-instance';
  }
  deps.startApp();
  return 'app';
}
