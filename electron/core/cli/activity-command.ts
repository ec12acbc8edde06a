/**
 * `apollia-desktop [--data-dir DIR] activity [--json] [--decisions] [--agent ID] [--limit N]`: the
 * activity record, newest first. `--json` prints `{ "events": [{ at, kind, package?, agent?,
 * trigger?, outcome, detail }] }`.
 *
 * `apollia-desktop [--data-dir DIR] activity verify [--json]`: whether each chain of the record
 * (decisions, traffic) is intact, and where it breaks; exit 0 when intact, 1 when not.
 *
 * `apollia-desktop [--data-dir DIR] activity export [--since TIME] [--decisions] [--json | --otlp URL]`:
 * the record for a collector, as JSON Lines (`--json`), in words, or sent over OTLP/HTTP (`activity-otlp.ts`).
 *
 * `apollia-desktop [--data-dir DIR] activity collector [URL | --off] [--json]`: the collector the trigger host ships
 * the record to (`activity-collector-command.ts`).
 *
 * Every entry is printed through `terminalLine`: an entry written before fields were cleaned, or a
 * file edited by hand, still cannot move the cursor or print a line of its own.
 */
import {
  ACTIVITY_KIND_WORDS,
  activityOutcomeWords,
  type ActivityOutcome,
} from '../../../shared/activity/activity-kinds';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ActivityLog } from '../activity/activity-log';
import { STATE_FILE } from '../store/store';
import { recordVerdict } from '../activity/record-words';
import { otlpEndpointProblem } from '../activity/otlp-export';
import { sendToCollector } from './activity-otlp';
import { run as runCollector } from './activity-collector-command';
import { type CliIo, EXIT } from './cli-io';
import { defaultDataDir, refused } from './cli-data';
import { terminalJson, terminalLine, terminalSafe } from './terminal-text';
import { PROGRAM, usageError } from './usage';

/** Usage of this command. */
export const ACTIVITY_USAGE = [
  `Usage: ${PROGRAM} [--data-dir DIR] activity [--json] [--decisions] [--agent ID] [--limit N]`,
  `       ${PROGRAM} [--data-dir DIR] activity verify [--json]`,
  `       ${PROGRAM} [--data-dir DIR] activity export [--since TIME] [--decisions] [--json | --otlp URL]`,
  `       ${PROGRAM} [--data-dir DIR] activity collector [URL | --off] [--json]`,
  '',
  'What changed what an agent may do, and what happened to it, newest first.',
  '  --decisions  Only what the person decided, and what changed it without them (no traffic)',
  '  --agent ID   Only the entries of this agent (its store id, e.g. invoices/invoice-clerk)',
  '  --limit N    At most N entries',
  '',
  'verify: what the record proves (each line carries an HMAC of the one before under record.key, and the head is sealed),',
  '        or where it breaks and how: a changed line, lines missing at the end, a record deleted or replaced, a chain recomputed.',
  'export: the record for a collector, oldest first (decisions, then traffic); --json: JSON Lines, each line as',
  '        stored with its seq and hmac, so the chain can be verified and heads compared; --since TIME (ISO 8601);',
  '        --otlp URL: sent once to a collector as OpenTelemetry logs over OTLP/HTTP (https://, or http:// to',
  '        127.0.0.1 or localhost), e.g. https://otel.example.com/v1/logs.',
  "collector: where the record is sent while the app or serve runs (your organization's collector, else yours);",
  '        URL names yours, --off removes it (`activity collector --help`).',
  '',
].join('\n');

/** What the store says, read only: its packages and each agent's package (nothing when there is no store, or it is unreadable). */
async function storeFacts(dataDir: string): Promise<{ packages: number; agents: Map<string, string | undefined> }> {
  try {
    const state = JSON.parse(await readFile(join(dataDir, STATE_FILE), 'utf8')) as {
      packages?: Record<string, unknown>;
      agents?: Record<string, { origin?: string; packageName?: unknown }>;
    };
    const agents = new Map<string, string | undefined>();
    for (const [id, agent] of Object.entries(state.agents ?? {}))
      agents.set(
        id,
        agent?.origin === 'package' && typeof agent.packageName === 'string' ? agent.packageName : undefined,
      );
    return { packages: Object.keys(state.packages ?? {}).length, agents };
  } catch {
    return { packages: 0, agents: new Map() };
  }
}

async function verify(args: string[], io: CliIo): Promise<number> {
  let json = false;
  for (const arg of args) {
    if (arg === '--json') json = true;
    else
      return usageError(
        io,
        arg.startsWith('-') ? `unknown option \`${arg}\` for activity verify` : 'activity verify takes no argument',
        ACTIVITY_USAGE,
      );
  }
  const dataDir = io.dataDir ?? defaultDataDir(io.env);
  // A store that holds packages kept a record: an empty one there was deleted (even with its key gone).
  const report = await new ActivityLog(dataDir).verify({ expectRecord: (await storeFacts(dataDir)).packages > 0 });
  const verdict = recordVerdict(report);
  if (json) io.stdout(`${terminalJson({ ...report, verdict })}\n`);
  else {
    io.stdout(`${verdict.lines.map((line) => terminalSafe(line)).join('\n')}\n`);
    io.stdout(
      report.intact
        ? `The activity record is intact: ${terminalSafe(verdict.summary)}.\n`
        : 'The activity record has been changed since it was written, or parts of it are gone (see above).\n',
    );
  }
  return report.intact ? EXIT.accepted : EXIT.refused;
}

/** `activity export`: the stored lines (JSON Lines with `--json`), or each in words. */
async function exportRecord(args: string[], io: CliIo): Promise<number> {
  let json = false;
  let decisionsOnly = false;
  let since: string | undefined;
  let otlp: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--json') json = true;
    else if (arg === '--decisions') decisionsOnly = true;
    else if (arg === '--otlp') {
      otlp = args[++i];
      const problem =
        otlp === undefined || otlp.startsWith('-')
          ? "--otlp needs the collector's address (e.g. https://otel.example.com/v1/logs)"
          : otlpEndpointProblem(otlp);
      if (problem !== null) return usageError(io, terminalSafe(problem), ACTIVITY_USAGE);
    } else if (arg === '--since') {
      const value = args[++i];
      const time = value === undefined ? Number.NaN : Date.parse(value);
      if (Number.isNaN(time))
        return usageError(
          io,
          `--since needs a time (ISO 8601, e.g. 2026-11-30T14:02:00Z)${value === undefined ? '' : `, not \`${terminalSafe(value)}\``}`,
          ACTIVITY_USAGE,
        );
      since = new Date(time).toISOString();
    } else
      return usageError(
        io,
        arg.startsWith('-')
          ? `unknown option \`${terminalSafe(arg)}\` for activity export`
          : 'activity export takes no argument',
        ACTIVITY_USAGE,
      );
  }
  if (json && otlp !== undefined)
    return usageError(
      io,
      '--json prints the lines here and --otlp sends them to a collector: give one of them',
      ACTIVITY_USAGE,
    );
  const log = new ActivityLog(io.dataDir ?? defaultDataDir(io.env));
  const filter = { ...(since !== undefined ? { since } : {}), decisionsOnly };
  if (otlp !== undefined) return sendToCollector(io, log, otlp, filter);
  const lines = await log.exportLines(filter);
  for (const { text } of lines) {
    if (json) {
      // Byte for byte as stored (the next line's HMAC is over these bytes); JSON holds no raw control character.
      io.stdout(`${text}\n`);
      continue;
    }
    const event = JSON.parse(text) as {
      at: string;
      kind: string;
      outcome: ActivityOutcome;
      detail: string;
      trigger?: string;
      agent?: string;
      package?: string;
    };
    io.stdout(
      `${terminalLine(`${event.at}  ${activityLine(event, event.trigger ?? event.agent ?? event.package ?? '')}`)}\n`,
    );
  }
  return EXIT.accepted;
}

/** Runs `activity` with the arguments after the command name. */
export async function run(args: string[], io: CliIo): Promise<number> {
  if (args[0] === 'verify') return verify(args.slice(1), io);
  if (args[0] === 'export') return exportRecord(args.slice(1), io);
  if (args[0] === 'collector') return runCollector(args.slice(1), io);
  let json = false;
  let decisionsOnly = false;
  let agent: string | undefined;
  let limit: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--json') json = true;
    else if (arg === '--decisions') decisionsOnly = true;
    else if (arg === '-h' || arg === '--help') {
      io.stdout(ACTIVITY_USAGE);
      return EXIT.accepted;
    } else if (arg === '--agent') {
      agent = args[++i];
      if (agent === undefined || agent === '') return usageError(io, '--agent needs an agent id', ACTIVITY_USAGE);
    } else if (arg === '--limit') {
      const value = args[++i];
      if (value === undefined || !/^[1-9]\d{0,6}$/.test(value))
        return usageError(
          io,
          `--limit needs a whole number above 0${value === undefined ? '' : `, not \`${terminalSafe(value)}\``}`,
          ACTIVITY_USAGE,
        );
      limit = Number(value);
    } else
      return usageError(
        io,
        arg.startsWith('-')
          ? `unknown option \`${terminalSafe(arg)}\` for activity`
          : 'activity takes no argument (or `verify`, `export`, `collector`)',
        ACTIVITY_USAGE,
      );
  }
  const dataDir = io.dataDir ?? defaultDataDir(io.env);
  const log = new ActivityLog(dataDir);
  const facts = agent !== undefined ? await storeFacts(dataDir) : null;
  // An agent's entries include its package's that name no agent (its install, update, removal):
  // the package from the store, or, for a removed agent, from its id (package/agent).
  const pkg =
    agent === undefined ? undefined : facts?.agents.has(agent) ? facts.agents.get(agent) : agent.split('/')[0];
  const events = await log.list({
    ...(agent !== undefined ? { agent } : {}),
    ...(pkg !== undefined && agent?.includes('/') ? { package: pkg } : {}),
    ...(limit !== undefined ? { limit } : {}),
    ...(decisionsOnly ? { decisionsOnly } : {}),
  });
  if (agent !== undefined && !facts?.agents.has(agent) && !(await log.list({ agent })).some((e) => e.agent === agent)) {
    return refused(io, {
      code: 'activity.unknown_agent',
      message: `no agent \`${terminalSafe(agent)}\` is known: none is installed by that id and the record never named it (an agent is named by its id as \`list\` shows it, package/agent, e.g. invoices/invoice-clerk)`,
      path: '--agent',
    });
  }
  if (json) {
    io.stdout(`${terminalJson({ events })}\n`);
    return EXIT.accepted;
  }
  if (events.length === 0) {
    // An agent is named by its id, package/agent: a bare name finds nothing, and says so.
    const hint =
      agent !== undefined && !agent.includes('/')
        ? ` for \`${agent}\`: an agent is named by its id as \`list\` shows it, package/agent (e.g. invoices/invoice-clerk)`
        : '';
    io.stdout(`No activity recorded${hint}.\n`);
  }
  for (const event of events) {
    const who = event.trigger ?? event.agent ?? event.package ?? '';
    io.stdout(`${terminalLine(`${event.at}  ${activityLine(event, who)}`)}\n`);
  }
  return EXIT.accepted;
}

/**
 * An entry in the activity record's words, as the Activity screen says it: what happened, how it
 * ended, who it is about, then its detail (`Accepted a new signing key · Done · invoices: …`). The
 * kind's code is for `--json`.
 */
function activityLine(event: { kind: string; outcome: ActivityOutcome; detail: string }, who: string): string {
  const words = (ACTIVITY_KIND_WORDS as Record<string, string>)[event.kind] ?? event.kind;
  return `${words} · ${activityOutcomeWords(event.kind, event.outcome)}${who ? ` · ${who}` : ''}: ${event.detail}`;
}
