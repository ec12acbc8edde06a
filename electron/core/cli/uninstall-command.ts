/**
 * `apollia-desktop uninstall NAME`: removes an installed package's files and records, and disarms
 * its triggers, in the same store the app uses.
 */
import { plural } from './terminal-text';
import { type CliIo, EXIT } from './cli-io';
import { cliApi } from './install-command';
import { refused } from './cli-data';
import { PROGRAM, usageError } from './usage';

/** Usage of this command. */
export const UNINSTALL_USAGE = `Usage: ${PROGRAM} [--data-dir DIR] uninstall NAME\n`;

/** Runs `uninstall` with the arguments after the command name. */
export async function run(args: string[], io: CliIo): Promise<number> {
  if (args.includes('-h') || args.includes('--help')) {
    io.stdout(UNINSTALL_USAGE);
    return EXIT.accepted;
  }
  const option = args.find((a) => a.startsWith('-'));
  if (option !== undefined) return usageError(io, `unknown option \`${option}\` for uninstall`, UNINSTALL_USAGE);
  if (args.length !== 1)
    return usageError(
      io,
      args.length === 0 ? 'uninstall needs a NAME' : `uninstall takes one NAME, got ${args.length}`,
      UNINSTALL_USAGE,
    );
  const result = await cliApi(io).uninstallPackage({ name: args[0] });
  if (!result.ok) return refused(io, result.error);
  const { name, version, removedAgents, removedTriggers } = result.value;
  io.stdout(
    `Uninstalled ${name} ${version}: ${plural(removedAgents.length, 'agent')} and ${plural(removedTriggers.length, 'trigger')} removed.\n`,
  );
  return EXIT.accepted;
}
