/**
 * `apollia-desktop apply DIR [--param NAME=VALUE ...] [--grant mcp:<server>/<tool> ...] [--withhold TOOL ...] [--approvals ask|never] [--arm TRIGGER ...] [--json]`:
 * applies a template folder as the app's apply screen does (spec "Apply"): it is previewed, then the
 * preview is checked and recorded as it is, or nothing is made.
 */
import { terminalJson } from './terminal-text';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Approvals } from '../../../shared/apply-preview';
import { approvalsSummary } from '../../../shared/approvals-words';
import { type CliIo, EXIT } from './cli-io';
import { cliApi } from './install-command';
import { refused } from './cli-data';
import { PROGRAM, usageError } from './usage';

/** Usage of this command. */
export const APPLY_USAGE = [
  `Usage: ${PROGRAM} [--data-dir DIR] apply DIR [--param NAME=VALUE ...] [--grant mcp:<server>/<tool> ...] [--withhold TOOL ...] [--approvals ask|never] [--arm TRIGGER ...] [--json]`,
  '',
  '  --param NAME=VALUE  A parameter of the template (repeat it)',
  '  --grant GATE        Allow one of its MCP tools, e.g. mcp:slack/slack_send_message (repeat it)',
  '  --withhold TOOL     Leave out one of its built-in tools, e.g. shell: the agent gets it denied (repeat it)',
  "  --approvals MODE    ask: it asks you before a tool runs; never: it runs unattended (default: the template's)",
  '  --arm TRIGGER       Arm one of its schedule or date triggers when the agent is made (repeat it); none is armed otherwise',
  '  --json              Print the receipt as JSON',
  '',
].join('\n');

/** Runs `apply` with the arguments after the command name. */
export async function run(args: string[], io: CliIo): Promise<number> {
  const parameters: Record<string, string> = {};
  const grants: string[] = [];
  const withhold: string[] = [];
  const arm: string[] = [];
  let approvals: Approvals | undefined;
  const dirs: string[] = [];
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-h' || arg === '--help') {
      io.stdout(APPLY_USAGE);
      return EXIT.accepted;
    } else if (arg === '--json') json = true;
    else if (arg === '--param' || arg === '--grant' || arg === '--withhold' || arg === '--approvals' || arg === '--arm') {
      const value = args[++i];
      if (value === undefined || value === '') return usageError(io, `${arg} needs a value`, APPLY_USAGE);
      if (arg === '--grant') grants.push(value);
      else if (arg === '--withhold') withhold.push(value);
      else if (arg === '--arm') arm.push(value);
      else if (arg === '--approvals') {
        if (value !== 'ask' && value !== 'never') return usageError(io, `--approvals takes ask or never, got \`${value}\``, APPLY_USAGE);
        approvals = value;
      } else {
        const eq = value.indexOf('=');
        if (eq <= 0) return usageError(io, `--param takes NAME=VALUE, got \`${value}\``, APPLY_USAGE);
        parameters[value.slice(0, eq)] = value.slice(eq + 1);
      }
    } else if (arg.startsWith('-')) return usageError(io, `unknown option \`${arg}\` for apply`, APPLY_USAGE);
    else dirs.push(arg);
  }
  if (dirs.length !== 1) return usageError(io, dirs.length === 0 ? 'apply needs a template DIR' : `apply takes one DIR, got ${dirs.length}`, APPLY_USAGE);
  const dir = isAbsolute(dirs[0] as string) ? (dirs[0] as string) : resolve(io.cwd, dirs[0] as string);
  if (!existsSync(dir)) return usageError(io, `no such folder: ${dirs[0]}`, APPLY_USAGE);
  const api = cliApi(io);
  const source = await api.registerSource(dir, 'command-line');
  if (!source.ok) return refused(io, source.error);
  // The Api applies only what was previewed: the preview is this command's "look".
  const asked = { sourceId: source.value.id, parameters, grants, ...(withhold.length > 0 ? { withhold } : {}), ...(approvals ? { approvals } : {}) };
  const preview = await api.previewApply(asked);
  const result = preview.ok ? await api.apply({ ...asked, requestId: randomUUID(), ...(arm.length > 0 ? { arm } : {}) }) : preview;
  if (!result.ok) {
    io.stderr(`${PROGRAM}: ${result.error.message}\n`);
    for (const problem of result.error.problems ?? []) io.stderr(`  - ${problem.path ? `${problem.path}: ` : ''}${problem.message}\n`);
    return EXIT.refused;
  }
  const receipt = result.value;
  if (json) {
    io.stdout(`${terminalJson(receipt)}\n`);
    return EXIT.accepted;
  }
  io.stdout(`Applied: ${receipt.displayName} [${receipt.agentId}]\n`);
  const { chosen, recommended } = receipt.preview.approvals;
  io.stdout(`  approvals: ${chosen} (${approvalsSummary(chosen)})${chosen === recommended ? ', as the template recommends' : `; the template recommends ${recommended}`}\n`);
  for (const tool of receipt.preview.withheld) io.stdout(`  left out: ${tool} (denied; allow it later on the dashboard)\n`);
  for (const warning of receipt.preview.warnings) io.stdout(`  warning: ${warning.message}\n`);
  for (const trigger of receipt.preview.triggers) {
    const state = trigger.type === 'webhook' ? 'off: arm it in the app, which makes its secret' : arm.includes(trigger.name) ? 'armed' : 'off until you arm it (--arm, or on the dashboard)';
    io.stdout(`  trigger ${trigger.name} (${trigger.type})${trigger.words ? `: ${trigger.words}` : ''}: ${state}\n`);
  }
  return EXIT.accepted;
}
