/**
 * What a CLI command may touch of the outside world, injected so every command runs in-process
 * in tests exactly as it runs from a terminal.
 */

/** Output streams, working folder and environment of one CLI run. */
export interface CliIo {
  /** Writes text as-is to standard output (commands add their own newlines). */
  stdout(text: string): void;
  /** Writes text as-is to standard error. */
  stderr(text: string): void;
  /** Folder relative paths are resolved against. */
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /**
   * The global `--data-dir DIR` flag, resolved against `cwd`, when given (the store's folder for
   * `install`, `apply`, `list`, `uninstall`). Set by the dispatcher; commands never parse it.
   */
  dataDir?: string;
  /**
   * For long-running commands (`serve`): resolves with the signal's name when the command should
   * stop. Absent, `serve` waits for SIGINT or SIGTERM of this process; tests pass their own.
   */
  untilStopped?: () => Promise<string>;
  /**
   * Reads all of standard input as text (`--webhook-secret-stdin`). Absent, commands read
   * this process's standard input; tests pass their own.
   */
  readStdin?: () => Promise<string>;
  /**
   * Asks the person a question in the terminal and answers their line, or null when no one can be asked (standard
   * input is not a terminal). Absent, commands ask on this process's terminal; tests pass their own.
   */
  ask?: (question: string) => Promise<string | null>;
}

/** One CLI command module: `electron/core/cli/<command>-command.ts` exports `run` of this shape. */
export type CliCommandRun = (args: string[], io: CliIo) => Promise<number>;

/**
 * Exit codes of DESIGN.md "Validation contract"; `busy` (3) is `serve`'s one documented exception
 * (DESIGN.md "Commit points": another trigger host holds the data folder), so a service manager does
 * not restart it.
 */
export const EXIT = { accepted: 0, refused: 1, usage: 2, busy: 3 } as const;
