/**
 * The CLI's commands, one module each (`<command>-command.ts` exporting `run(args, io)`). To add a
 * command, add one entry here: the dispatcher and the usage text are derived from this list.
 */
import type { CliCommandRun } from './cli-io';
import { run as inspect } from './inspect-command';

/** A command as the dispatcher sees it. */
export interface CliCommand {
  name: string;
  /** Arguments as shown in the usage text, e.g. `PATH [--json]`. */
  args: string;
  /** One line for the usage text. */
  summary: string;
  run: CliCommandRun;
}

/** Every command, in the order the usage text lists them. */
export const COMMANDS: readonly CliCommand[] = [
  { name: 'inspect', args: 'PATH [--json]', summary: 'Check a .apo package, a template folder or a plugin manifest without running any of it', run: inspect },
];
