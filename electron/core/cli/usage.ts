/**
 * The CLI's usage text and usage errors (exit 2, DESIGN.md "Validation contract").
 */
import { type CliIo, EXIT } from './cli-io';

/** The program name people type (package.json `bin`). */
export const PROGRAM = 'apollia-desktop';

/** Prints `problem` and the usage to standard error; returns the usage exit code (2). */
export function usageError(io: CliIo, problem: string, usage: string): number {
  io.stderr(`${PROGRAM}: ${problem}\n\n${usage}`);
  return EXIT.usage;
}
