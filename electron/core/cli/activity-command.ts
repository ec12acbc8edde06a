/**
 * `apollia-desktop [--data-dir DIR] activity [--json] [--agent ID] [--limit N]`: the activity log,
 * newest first. `--json` prints `{ "events": [{ at, kind, package?, agent?, trigger?, outcome, detail }] }`.
 */
import { ActivityLog } from '../activity/activity-log';
import { type CliIo, EXIT } from './cli-io';
import { defaultDataDir } from './cli-data';
import { terminalJson } from './terminal-text';
import { PROGRAM, usageError } from './usage';

/** Usage of this command. */
export const ACTIVITY_USAGE = [
  `Usage: ${PROGRAM} [--data-dir DIR] activity [--json] [--agent ID] [--limit N]`,
  '',
  'What changed what an agent may do, and what happened to it, newest first.',
  '  --agent ID  Only the events of this agent (its store id, e.g. invoices/invoice-clerk)',
  '  --limit N   At most N events',
  '',
].join('\n');

/** Runs `activity` with the arguments after the command name. */
export async function run(args: string[], io: CliIo): Promise<number> {
  let json = false;
  let agent: string | undefined;
  let limit: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--json') json = true;
    else if (arg === '-h' || arg === '--help') {
      io.stdout(ACTIVITY_USAGE);
      return EXIT.accepted;
    } else if (arg === '--agent') {
      agent = args[++i];
      if (agent === undefined || agent === '') return usageError(io, '--agent needs an agent id', ACTIVITY_USAGE);
    } else if (arg === '--limit') {
      const value = args[++i];
      if (value === undefined || !/^[1-9]\d{0,6}$/.test(value)) return usageError(io, `--limit needs a whole number above 0${value === undefined ? '' : `, not \`${value}\``}`, ACTIVITY_USAGE);
      limit = Number(value);
    } else return usageError(io, arg.startsWith('-') ? `unknown option \`${arg}\` for activity` : 'activity takes no argument', ACTIVITY_USAGE);
  }
  const log = new ActivityLog(io.dataDir ?? defaultDataDir(io.env));
  const events = await log.list({ ...(agent !== undefined ? { agent } : {}), ...(limit !== undefined ? { limit } : {}) });
  if (json) {
    io.stdout(`${terminalJson({ events })}\n`);
    return EXIT.accepted;
  }
  if (events.length === 0) {
    // An agent is named by its id, package/agent: a bare name finds nothing, and says so.
    const hint = agent !== undefined && !agent.includes('/') ? ` for \`${agent}\`: an agent is named by its id as \`list\` shows it, package/agent (e.g. invoices/invoice-clerk)` : '';
    io.stdout(`No activity recorded${hint}.\n`);
  }
  for (const event of events) {
    const who = event.trigger ?? event.agent ?? event.package ?? '';
    io.stdout(`${event.at}  ${event.kind.padEnd(17)} ${event.outcome.padEnd(7)} ${who}${who ? '  ' : ''}${event.detail}\n`);
  }
  return EXIT.accepted;
}
