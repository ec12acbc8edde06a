/**
 * `pause TRIGGER`, `resume TRIGGER` and `approvals AGENT ask|never [--tool TOOL]`: the dashboard's Pause and Resume,
 * its approvals switch and its "Ask first" on a tool, headless, through the Api's own use cases (`pauseTrigger`,
 * `resumeTrigger`, `setApprovals`, `setToolAsks`), so the CLI refuses what the dashboard refuses, with the same words.
 */
import type { AgentView, ApiResult, TriggerView } from '../../../shared/contract/api';
import { approvalsSummary } from '../../../shared/decisions/approvals-words';
import { triggerLine } from './arm-command';
import { refused } from './cli-data';
import { type CliIo, EXIT } from './cli-io';
import { cliApi } from './install-command';
import { terminalJson } from './terminal-text';
import { PROGRAM, usageError } from './usage';

/** Usage of `pause` or `resume`. */
export function pauseUsage(verb: 'pause' | 'resume'): string {
  return [
    `Usage: ${PROGRAM} [--data-dir DIR] ${verb} TRIGGER [--json]`,
    '',
    verb === 'pause'
      ? 'Pauses an armed trigger: it stays armed, its watched folder and webhook secret kept, and does not fire until resumed.'
      : 'Resumes a trigger you paused: it fires again with the folder and secret it kept (checked as arming is).',
    'TRIGGER is its id as `list` shows it (e.g. invoices/first-monday).',
    '  --json  Print the trigger as JSON',
    '',
  ].join('\n');
}

/** Usage of `approvals`. */
export const APPROVALS_USAGE = [
  `Usage: ${PROGRAM} [--data-dir DIR] approvals AGENT ask|never [--tool TOOL] [--json]`,
  '',
  'How an agent’s tools run. An agent made from a template: `ask` (it asks you before a tool runs) or',
  '`never` (it runs unattended). A package’s agent: one granted tool at a time, with --tool TOOL:',
  '`ask` (it asks you first) or `never` (it runs without asking, where that is allowed).',
  'Your organization’s policy may forbid running without asking: then `never` is refused, with its reason.',
  '  --tool TOOL  The tool of a package’s agent (as `list` shows its access)',
  '  --json       Print the agent as JSON',
  '',
].join('\n');

/** Splits `args` into `--json`, help, `--tool` and the rest; a usage problem for any other option. */
function parse(
  args: string[],
  command: string,
  takesTool: boolean,
): { json: boolean; help: boolean; tool: string | undefined; rest: string[] } | { problem: string } {
  let json = false;
  let tool: string | undefined;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-h' || arg === '--help') return { json, help: true, tool, rest };
    if (arg === '--json') json = true;
    else if (takesTool && arg === '--tool') {
      const value = args[++i];
      if (value === undefined || value === '' || value.startsWith('-')) return { problem: '--tool needs a TOOL' };
      tool = value;
    } else if (arg.startsWith('-')) return { problem: `unknown option \`${arg}\` for ${command}` };
    else rest.push(arg);
  }
  return { json, help: false, tool, rest };
}

async function runPauseOrResume(verb: 'pause' | 'resume', args: string[], io: CliIo): Promise<number> {
  const usage = pauseUsage(verb);
  const parsed = parse(args, verb, false);
  if ('problem' in parsed) return usageError(io, parsed.problem, usage);
  if (parsed.help) {
    io.stdout(usage);
    return EXIT.accepted;
  }
  if (parsed.rest.length !== 1)
    return usageError(
      io,
      parsed.rest.length === 0
        ? `${verb} needs a TRIGGER (as \`list\` shows it)`
        : `${verb} takes one TRIGGER, got ${parsed.rest.length}`,
      usage,
    );
  const triggerId = parsed.rest[0] as string;
  const api = cliApi(io);
  const before = await api.dashboard();
  const result: ApiResult<TriggerView> =
    verb === 'pause' ? await api.pauseTrigger({ triggerId }) : await api.resumeTrigger({ triggerId });
  if (!result.ok) return refused(io, result.error);
  const trigger = result.value;
  if (parsed.json) {
    io.stdout(`${terminalJson(trigger)}\n`);
    return EXIT.accepted;
  }
  const wasPaused = before.ok ? pausedIn(before.value, triggerId) : null;
  if (verb === 'pause')
    io.stdout(
      wasPaused === true
        ? `${trigger.id} was already paused: nothing changed.\n`
        : `Paused ${triggerLine(trigger)}.\n  Still armed, ${keptWords(trigger)}; it does not fire until \`${PROGRAM} resume ${trigger.id}\`.\n`,
    );
  else
    io.stdout(
      wasPaused === false
        ? `${trigger.id} was not paused: nothing changed.\n`
        : `Resumed ${triggerLine(trigger)}.\n  It fires again while a trigger host runs: the app, or \`serve\`.\n`,
    );
  return EXIT.accepted;
}

/** Whether the dashboard shows `triggerId` paused by the person (null: not found). */
function pausedIn(
  dashboard: { packages: { triggers: TriggerView[] }[]; agents: { triggers: TriggerView[] }[] },
  triggerId: string,
): boolean | null {
  for (const owner of [...dashboard.packages, ...dashboard.agents])
    for (const trigger of owner.triggers) if (trigger.id === triggerId) return trigger.pausedAt !== null;
  return null;
}

/** What a paused trigger keeps, in words. */
function keptWords(trigger: TriggerView): string {
  if (trigger.type === 'webhook') return 'its signing secret kept (its sender’s calls are not taken while paused)';
  if (trigger.type === 'file_watch') return `its folder kept${trigger.folder ? ` (${trigger.folder})` : ''}`;
  return 'its schedule kept';
}

/** Runs `pause` with the arguments after the command name. */
export function runPause(args: string[], io: CliIo): Promise<number> {
  return runPauseOrResume('pause', args, io);
}

/** Runs `resume` with the arguments after the command name. */
export function runResume(args: string[], io: CliIo): Promise<number> {
  return runPauseOrResume('resume', args, io);
}

/** Runs `approvals` with the arguments after the command name. */
export async function runApprovals(args: string[], io: CliIo): Promise<number> {
  const parsed = parse(args, 'approvals', true);
  if ('problem' in parsed) return usageError(io, parsed.problem, APPROVALS_USAGE);
  if (parsed.help) {
    io.stdout(APPROVALS_USAGE);
    return EXIT.accepted;
  }
  const [agentId, choice, ...more] = parsed.rest;
  if (agentId === undefined || choice === undefined || more.length > 0)
    return usageError(io, 'approvals takes an AGENT and ask or never', APPROVALS_USAGE);
  if (choice !== 'ask' && choice !== 'never')
    return usageError(io, `\`${choice}\` is not a choice: give ask or never`, APPROVALS_USAGE);
  const api = cliApi(io);
  const result: ApiResult<AgentView> =
    parsed.tool === undefined
      ? await api.setApprovals({ agentId, approvals: choice })
      : await api.setToolAsks({ agentId, tool: parsed.tool, asks: choice === 'ask' });
  if (!result.ok) return refused(io, result.error);
  const agent = result.value;
  if (parsed.json) {
    io.stdout(`${terminalJson(agent)}\n`);
    return EXIT.accepted;
  }
  if (parsed.tool === undefined) io.stdout(`${agent.displayName} [${agent.id}] ${approvalsSummary(choice)}.\n`);
  else
    io.stdout(
      `${parsed.tool} for ${agent.displayName} [${agent.id}] ${choice === 'ask' ? 'asks you first' : 'runs without asking'}.\n`,
    );
  return EXIT.accepted;
}
