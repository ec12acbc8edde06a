/**
 * `apollia-desktop apply NAME|DIR [--param NAME=VALUE ...] [--grant mcp:<server>/<tool> ...] [--withhold TOOL ...]
 * [--approvals ask|never] [--arm TRIGGER ...] [--json]`:
 * applies a template folder, or one of the built-in templates by name, as the app's apply screen
 * does (spec "Apply"): it is previewed, then the preview is checked and recorded as it is, or
 * nothing is made. A built-in is opened by the Api's own `openBuiltinTemplate`, so it is the
 * shipped folder wherever the command runs.
 */
import { terminalJson } from './terminal-text';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Approvals } from '../../../shared/decisions/apply-context';
import { approvalsSummary } from '../../../shared/decisions/approvals-words';
import { type CliIo, EXIT } from './cli-io';
import { cliApi } from './install-command';
import { refused } from './cli-data';
import { PROGRAM, usageError } from './usage';

/** Usage of this command. */
export const APPLY_USAGE = [
  `Usage: ${PROGRAM} [--data-dir DIR] apply NAME|DIR [--param NAME=VALUE ...] [--grant GATE ...]`,
  '         [--withhold TOOL ...] [--approvals ask|never] [--arm TRIGGER ...] [--json]',
  '',
  'NAME is a built-in template (code-review, kyb, market-monitor, inbound-lead, release-notes);',
  'DIR a template folder (a path that exists is taken as a folder).',
  '  --param NAME=VALUE  A parameter of the template (repeat it)',
  '  --grant GATE        Allow one of its MCP tools, e.g. mcp:slack/slack_send_message (repeat it);',
  '                      the server must be saved first: `mcp add slack ...`',
  '  --withhold TOOL     Leave out one of its built-in tools, e.g. shell: it is denied (repeat it)',
  "  --approvals MODE    ask: it asks before a tool runs; never: unattended (default: the template's)",
  '  --arm TRIGGER       Arm one of its schedule or date triggers when it is made (repeat it);',
  '                      none is armed otherwise (a webhook: `arm` it afterwards)',
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
    else if (
      arg === '--param' ||
      arg === '--grant' ||
      arg === '--withhold' ||
      arg === '--approvals' ||
      arg === '--arm'
    ) {
      const value = args[++i];
      if (value === undefined || value === '') return usageError(io, `${arg} needs a value`, APPLY_USAGE);
      if (arg === '--grant') grants.push(value);
      else if (arg === '--withhold') withhold.push(value);
      else if (arg === '--arm') arm.push(value);
      else if (arg === '--approvals') {
        if (value !== 'ask' && value !== 'never')
          return usageError(io, `--approvals takes ask or never, got \`${value}\``, APPLY_USAGE);
        approvals = value;
      } else {
        const eq = value.indexOf('=');
        if (eq <= 0) return usageError(io, `--param takes NAME=VALUE, got \`${value}\``, APPLY_USAGE);
        parameters[value.slice(0, eq)] = value.slice(eq + 1);
      }
    } else if (arg.startsWith('-')) return usageError(io, `unknown option \`${arg}\` for apply`, APPLY_USAGE);
    else dirs.push(arg);
  }
  if (dirs.length !== 1)
    return usageError(
      io,
      dirs.length === 0
        ? 'apply needs a built-in template NAME or a template DIR'
        : `apply takes one NAME or DIR, got ${dirs.length}`,
      APPLY_USAGE,
    );
  const given = dirs[0] as string;
  const dir = isAbsolute(given) ? given : resolve(io.cwd, given);
  const api = cliApi(io);
  let source: Awaited<ReturnType<typeof api.registerSource>>;
  if (existsSync(dir)) source = await api.registerSource(dir, 'command-line');
  else {
    const builtins = await api.listBuiltinTemplates();
    const names = builtins.ok ? builtins.value.map((t) => t.name) : [];
    if (!names.includes(given))
      return usageError(
        io,
        `no such folder, nor a built-in template: ${given} (built in: ${names.join(', ')})`,
        APPLY_USAGE,
      );
    source = await api.openBuiltinTemplate({ name: given });
  }
  if (!source.ok) return refused(io, source.error);
  // The Api applies only what was previewed: the preview is this command's "look".
  const asked = {
    sourceId: source.value.id,
    parameters,
    grants,
    ...(withhold.length > 0 ? { withhold } : {}),
    ...(approvals ? { approvals } : {}),
  };
  const preview = await api.previewApply(asked);
  const result = preview.ok
    ? await api.apply({ ...asked, requestId: randomUUID(), ...(arm.length > 0 ? { arm } : {}) })
    : preview;
  if (!result.ok) {
    io.stderr(`${PROGRAM}: ${result.error.message}\n`);
    // A problem the message already says (the first, usually) is not printed twice.
    for (const problem of (result.error.problems ?? []).filter((p) => !result.error.message.includes(p.message)))
      io.stderr(`  - ${problem.path ? `${problem.path}: ` : ''}${problem.message}\n`);
    return EXIT.refused;
  }
  const receipt = result.value;
  if (json) {
    io.stdout(`${terminalJson(receipt)}\n`);
    return EXIT.accepted;
  }
  io.stdout(`Applied: ${receipt.displayName} [${receipt.agentId}]\n`);
  const { chosen, recommended } = receipt.preview.approvals;
  io.stdout(
    `  approvals: ${chosen} (${approvalsSummary(chosen)})${chosen === recommended ? ', as the template recommends' : `; the template recommends ${recommended}`}\n`,
  );
  for (const tool of receipt.preview.withheld)
    io.stdout(`  left out: ${tool} (denied; allow it later on the dashboard)\n`);
  for (const warning of receipt.preview.warnings) io.stdout(`  warning: ${warning.message}\n`);
  for (const trigger of receipt.preview.triggers) {
    const id = `${receipt.agentId}/${trigger.name}`;
    const state =
      trigger.type === 'webhook'
        ? `off: \`arm ${id}\` makes its secret (or takes your sender's)`
        : arm.includes(trigger.name)
          ? 'armed'
          : `off until you arm it (\`arm ${id}\`, or on the dashboard)`;
    io.stdout(`  trigger ${trigger.name} (${trigger.type})${trigger.words ? `: ${trigger.words}` : ''}: ${state}\n`);
  }
  return EXIT.accepted;
}
