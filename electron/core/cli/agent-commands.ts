/**
 * The dashboard's agent actions, headless, through the Api's own use cases:
 * `grant AGENT ENTRY...` and `revoke AGENT ENTRY...` (`setToolAccess`, once per entry) and
 * `remove AGENT` (`archiveAgent`: an agent a template made; a package's agents leave with
 * `uninstall`).
 */
import type { AgentView } from '../../../shared/contract/api';
import { own } from '../../../shared/base/own';
import { refused } from './cli-data';
import { type CliIo, EXIT } from './cli-io';
import { cliApi } from './install-command';
import { terminalJson } from './terminal-text';
import { PROGRAM, usageError } from './usage';

/** Usage of `grant` or `revoke`. */
export function accessUsage(verb: 'grant' | 'revoke'): string {
  return [
    `Usage: ${PROGRAM} [--data-dir DIR] ${verb} AGENT ENTRY... [--json]`,
    '',
    verb === 'grant'
      ? 'Allows an agent entries it is offered (a package agent: its defaults.access; a template agent: its tools).'
      : 'Withdraws entries from an agent: it is denied them until granted again.',
    'AGENT is its id as `list` shows it (e.g. invoices/invoice-clerk); ENTRY as `list` shows its access,',
    'e.g. file_read or mcp:slack/slack_send_message. Every ENTRY is checked before any is changed.',
    '  --json  Print the agent as it is afterwards, as JSON',
    '',
  ].join('\n');
}

/** Usage of `remove`. */
export const REMOVE_USAGE = [
  `Usage: ${PROGRAM} [--data-dir DIR] remove AGENT [--json]`,
  '',
  'Removes an agent a template made: it is archived (kept in the activity log) and its triggers are disarmed.',
  "A package's agents leave with their package: `uninstall NAME`.",
  '  --json  Print the archived agent as JSON',
  '',
].join('\n');

/** Splits `args` into `--json`, help and the rest; a usage problem for any other option. */
function parse(
  args: string[],
  command: string,
): { json: boolean; help: boolean; rest: string[] } | { problem: string } {
  let json = false;
  const rest: string[] = [];
  for (const arg of args) {
    if (arg === '-h' || arg === '--help') return { json, help: true, rest };
    if (arg === '--json') json = true;
    else if (arg.startsWith('-')) return { problem: `unknown option \`${arg}\` for ${command}` };
    else rest.push(arg);
  }
  return { json, help: false, rest };
}

/** What the agent may do with `entry` now, in the dashboard's words. */
function accessWords(agent: AgentView, entry: string): string {
  const row = agent.access.find((a) => a.tool === entry);
  if (!row) return '';
  return row.permission === 'allow'
    ? 'runs without asking'
    : row.permission === 'ask'
      ? 'asks you before each use'
      : 'denied';
}

async function setAccess(verb: 'grant' | 'revoke', args: string[], io: CliIo): Promise<number> {
  const usage = accessUsage(verb);
  const parsed = parse(args, verb);
  if ('problem' in parsed) return usageError(io, parsed.problem, usage);
  if (parsed.help) {
    io.stdout(usage);
    return EXIT.accepted;
  }
  const [agentId, ...entries] = parsed.rest;
  if (agentId === undefined || entries.length === 0)
    return usageError(io, `${verb} needs an AGENT and at least one ENTRY`, usage);
  const api = cliApi(io);
  // Every entry is checked first, so a typo in the third changes nothing (the use case checks each again).
  const agent = own((await api.store.read()).agents, agentId);
  if (agent && !agent.archived) {
    const offered = new Set(
      agent.origin === 'package' ? agent.access.map((a) => a.entry) : Object.keys(agent.toolSettings),
    );
    const unknown = entries.filter((e) => !offered.has(e));
    if (unknown.length > 0) {
      return refused(io, {
        code: 'grant.not_offered',
        message: `${agent.displayName} is not offered ${unknown.map((e) => `\`${e}\``).join(', ')}; nothing was changed. It is offered: ${[...offered].join(', ') || 'nothing'}`,
      });
    }
  }
  let view: AgentView | undefined;
  for (const tool of [...new Set(entries)]) {
    const result = await api.setToolAccess({ agentId, tool, granted: verb === 'grant' });
    if (!result.ok) return refused(io, result.error);
    view = result.value;
  }
  if (!view) return EXIT.accepted;
  if (parsed.json) {
    io.stdout(`${terminalJson(view)}\n`);
    return EXIT.accepted;
  }
  for (const entry of new Set(entries))
    io.stdout(
      `${verb === 'grant' ? 'Granted' : 'Revoked'} ${entry} for ${view.displayName} [${view.id}]: ${accessWords(view, entry)}\n`,
    );
  return EXIT.accepted;
}

/** Runs `grant`. */
export const runGrant = (args: string[], io: CliIo) => setAccess('grant', args, io);
/** Runs `revoke`. */
export const runRevoke = (args: string[], io: CliIo) => setAccess('revoke', args, io);

/** Runs `remove`. */
export async function runRemove(args: string[], io: CliIo): Promise<number> {
  const parsed = parse(args, 'remove');
  if ('problem' in parsed) return usageError(io, parsed.problem, REMOVE_USAGE);
  if (parsed.help) {
    io.stdout(REMOVE_USAGE);
    return EXIT.accepted;
  }
  if (parsed.rest.length !== 1)
    return usageError(
      io,
      parsed.rest.length === 0
        ? 'remove needs an AGENT (as `list` shows it)'
        : `remove takes one AGENT, got ${parsed.rest.length}`,
      REMOVE_USAGE,
    );
  const api = cliApi(io);
  const agentId = parsed.rest[0] as string;
  const armed = Object.values((await api.store.read()).triggers)
    .filter((t) => t.agentId === agentId && t.armed)
    .map((t) => t.id);
  const result = await api.archiveAgent({ agentId });
  // Archived already: done (a rerun after a kill, DESIGN.md "Commit points"), exit 0.
  if (!result.ok && result.error.code === 'agent.archived' && !parsed.json) {
    io.stdout(`${result.error.message.replace(/\.$/, '')}: removed already; nothing to do.\n`);
    return EXIT.accepted;
  }
  if (!result.ok) return refused(io, result.error);
  if (parsed.json) {
    io.stdout(`${terminalJson(result.value)}\n`);
    return EXIT.accepted;
  }
  io.stdout(`Removed ${result.value.displayName} [${result.value.id}]: archived, it no longer runs.\n`);
  io.stdout(armed.length > 0 ? `  Triggers disarmed: ${armed.join(', ')}\n` : '  No trigger was armed.\n');
  return EXIT.accepted;
}
