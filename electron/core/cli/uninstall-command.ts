/**
 * `apollia-desktop uninstall NAME`: removes an installed package's files and records, and disarms
 * its triggers, in the same store the app uses.
 */
import { plural } from './terminal-text';
import { type CliIo, EXIT } from './cli-io';
import { cliApi } from './install-command';
import { ActivityLog } from '../activity/activity-log';
import { cliDataDir, refused } from './cli-data';
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
  if (!result.ok) {
    const done = result.error.code === 'package.unknown' ? await uninstalledAt(io, args[0] as string) : null;
    if (done === null) return refused(io, result.error);
    // Already done (a rerun after a kill, DESIGN.md "Commit points"): said, exit 0.
    io.stdout(`${args[0]} is not installed: it was uninstalled at ${done}; nothing to do.\n`);
    return EXIT.accepted;
  }
  const { name, version, removedAgents, removedTriggers } = result.value;
  io.stdout(
    `Uninstalled ${name} ${version}: ${plural(removedAgents.length, 'agent')} and ${plural(removedTriggers.length, 'trigger')} removed.\n`,
  );
  return EXIT.accepted;
}

/** When the record says `name` was last uninstalled (its newest install, update or uninstall is one), or null. */
async function uninstalledAt(io: CliIo, name: string): Promise<string | null> {
  const entries = await new ActivityLog(cliDataDir(io)).list({ decisionsOnly: true }).catch(() => []);
  const last = entries.find(
    (e) =>
      e.package === name &&
      e.agent === undefined &&
      ['install', 'update', 'uninstall'].includes(e.kind) &&
      e.outcome === 'ok',
  );
  return last?.kind === 'uninstall' ? last.at : null;
}
