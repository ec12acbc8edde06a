/**
 * `apollia-desktop apply NAME|DIR [--param NAME=VALUE ...] [--grant mcp:<server>/<tool> ...] [--withhold TOOL ...]
 * [--approvals ask|never] [--arm TRIGGER ...] [--another] [--yes] [--json]`:
 * applies a template folder, or one of the built-in templates by name, as the app's apply screen
 * does (spec "Apply"): it is previewed, and without `--yes` only the preview is printed (verdict first, as the
 * consent form; DESIGN.md "The command line"), nothing changed; with it the preview is checked and recorded as it is,
 * or nothing is made. The approvals are `ask` unless the person chooses `never` (the decision function's rule: the
 * template's `approvals` is only its recommendation). A built-in is opened by the Api's own `openBuiltinTemplate`, so it is the
 * shipped folder wherever the command runs. Run again with the same answers, it says "already applied" and makes
 * nothing (exit 0: the rerun of an apply that completed); `--another` makes a second agent.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Approvals } from '../../../shared/decisions/apply-context';
import type { ApplyPreview } from '../../../shared/decisions/apply-preview-schema';
import { type ApplyReceipt, DEFAULT_WEBHOOK_PORT } from '../../../shared/contract/api';
import { LOCAL_ONLY_WORDS, listenerOrigin, webhookAddress } from '../../../shared/triggers/webhook-address';
import type { TemplateDetails } from '../../../shared/manifests/template-manifest';
import { approvalsSummary } from '../../../shared/decisions/approvals-words';
import { templateVerdict } from '../../../shared/decisions/template-verdict';
import { VERDICT_LABELS } from '../../../shared/decisions/verdict';
import { type CliIo, EXIT } from './cli-io';
import { cliApi } from './install-command';
import { problemWords, refused } from './cli-data';
import { builtinTemplateNames, isPlainFolder, PLAIN_FOLDER_WORDS, templateArgument } from './template-name';
import { terminalJson } from './terminal-text';
import { PROGRAM, usageError } from './usage';

/** Usage of this command. */
export const APPLY_USAGE = [
  `Usage: ${PROGRAM} [--data-dir DIR] apply NAME|DIR [--param NAME=VALUE ...] [--grant GATE ...]`,
  '         [--withhold TOOL ...] [--approvals ask|never] [--arm TRIGGER ...] [--another] [--yes] [--json]',
  '',
  'NAME is a built-in template (code-review, kyb, market-monitor, inbound-lead, release-notes), always;',
  'DIR a template folder, given as a path (./kyb for a folder called kyb here).',
  'Without --yes, prints what it would make, verdict first, and changes nothing.',
  '  --yes               Apply it',
  '  --param NAME=VALUE  A parameter of the template (repeat it)',
  '  --grant GATE        Allow one of its MCP tools, e.g. mcp:slack/slack_send_message (repeat it);',
  '                      the server must be saved first: `mcp add slack ...`',
  '  --withhold TOOL     Leave out one of its built-in tools, e.g. shell: it is denied (repeat it)',
  '  --approvals MODE    ask: it asks before a tool runs (the default); never: unattended',
  '  --arm TRIGGER       Arm one of its schedule or date triggers when it is made (repeat it);',
  '                      none is armed otherwise (a webhook: `arm` it afterwards)',
  '  --another           Make a second agent even when one of this template already has exactly',
  '                      these parameters, tools, approvals, MCP servers and armed triggers (without',
  '                      it, that apply again says "already applied" and makes nothing)',
  '  --json              Print one JSON document: { ok, applied, preview } (or the receipt, applied)',
  '',
].join('\n');

/** What the flags of `apply` say. */
interface ApplyFlags {
  given: string;
  yes: boolean;
  json: boolean;
  another: boolean;
  parameters: Record<string, string>;
  grants: string[];
  withhold: string[];
  arm: string[];
  approvals: Approvals;
}

/** The flags of `apply`, or the exit code of `--help` or of a usage error (already printed). */
function parseApplyFlags(args: string[], io: CliIo): ApplyFlags | number {
  const flags = { yes: false, json: false, another: false, parameters: {} as Record<string, string> };
  const lists = { '--grant': [] as string[], '--withhold': [] as string[], '--arm': [] as string[] };
  let approvals: Approvals = 'ask';
  const dirs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-h' || arg === '--help') {
      io.stdout(APPLY_USAGE);
      return EXIT.accepted;
    } else if (arg === '--json') flags.json = true;
    else if (arg === '--yes' || arg === '-y') flags.yes = true;
    else if (arg === '--another') flags.another = true;
    else if (arg === '--param' || arg === '--approvals' || arg in lists) {
      const value = args[++i];
      if (value === undefined || value === '') return usageError(io, `${arg} needs a value`, APPLY_USAGE);
      if (arg in lists) lists[arg as keyof typeof lists].push(value);
      else if (arg === '--approvals') {
        if (value !== 'ask' && value !== 'never')
          return usageError(io, `--approvals takes ask or never, got \`${value}\``, APPLY_USAGE);
        approvals = value;
      } else {
        const eq = value.indexOf('=');
        if (eq <= 0) return usageError(io, `--param takes NAME=VALUE, got \`${value}\``, APPLY_USAGE);
        flags.parameters[value.slice(0, eq)] = value.slice(eq + 1);
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
  const { '--grant': grants, '--withhold': withhold, '--arm': arm } = lists;
  return { ...flags, given: dirs[0] as string, grants, withhold, arm, approvals };
}

/** Runs `apply` with the arguments after the command name. */
export async function run(args: string[], io: CliIo): Promise<number> {
  const flags = parseApplyFlags(args, io);
  if (typeof flags === 'number') return flags;
  const { given, parameters, grants, withhold, arm, approvals } = flags;
  const api = cliApi(io);
  const argument = templateArgument(io, given);
  if (argument.kind === 'builtin' && argument.note) io.stderr(`${PROGRAM}: note: ${argument.note}\n`);
  if (argument.kind === 'path' && !existsSync(argument.path))
    return usageError(
      io,
      `no such folder, nor a built-in template: ${given} (built in: ${builtinTemplateNames(io).join(', ')})`,
      APPLY_USAGE,
    );
  if (argument.kind === 'path' && isPlainFolder(argument.path))
    return refused(io, {
      code: 'apply.not_a_template',
      message: `${given} is ${PLAIN_FOLDER_WORDS}: nothing to apply`,
    });
  const source =
    argument.kind === 'builtin'
      ? await api.openBuiltinTemplate({ name: argument.name })
      : await api.registerSource(argument.path, 'command-line');
  if (!source.ok) return refused(io, source.error);
  const inspected = await api.inspect({ sourceId: source.value.id });
  if (!inspected.ok) return refused(io, inspected.error);
  if (inspected.value.kind !== 'template' || !inspected.value.ok) {
    const first = inspected.value.errors[0];
    return refused(io, {
      code: 'apply.not_a_template',
      message: `${given} cannot be applied: ${first ? problemWords({ message: first.message, path: first.path ?? null }) : `it is a ${inspected.value.kind}, not a template`}`,
      problems: inspected.value.errors,
    });
  }
  const manifest = (inspected.value.details as TemplateDetails).manifest;
  // The Api applies only what was previewed: the preview is this command's "look".
  const asked = {
    sourceId: source.value.id,
    parameters,
    grants,
    ...(withhold.length > 0 ? { withhold } : {}),
    approvals,
  };
  const preview = await api.previewApply(asked);
  if (!preview.ok) return refused(io, preview.error);
  if (!preview.value.canApply) return refused(io, blockedError(manifest.name, preview.value));
  if (!flags.yes) {
    if (flags.json) io.stdout(`${terminalJson({ ok: true, applied: false, preview: preview.value })}\n`);
    else printWouldApply(io, { ...manifest, approvals: preview.value.approvals.chosen }, preview.value, arm);
    return EXIT.accepted;
  }
  // Each run is its own request; without --another, an agent already holding exactly this is the answer (a rerun).
  const result = await api.apply({
    ...asked,
    requestId: randomUUID(),
    ...(arm.length > 0 ? { arm } : {}),
    ...(flags.another ? {} : { once: true }),
  });
  if (!result.ok) return refused(io, result.error);
  const { alreadyApplied, ...receipt } = result.value;
  if (flags.json)
    io.stdout(
      `${terminalJson({ ok: true, applied: alreadyApplied !== true, ...(alreadyApplied ? { alreadyApplied } : {}), ...receipt })}\n`,
    );
  else if (alreadyApplied)
    io.stdout(
      `Already applied: ${receipt.displayName} [${receipt.agentId}], made ${receipt.createdAt}, has exactly these parameters, tools, approvals, MCP servers and armed triggers: nothing to do (add --another to make a second agent)\n`,
    );
  else {
    // Where a webhook trigger's sender will post once it is armed, as `serve` will listen (Settings' port, else the default).
    const settings = await api.settings();
    printApplied(io, receipt, arm, settings.ok ? settings.value.webhookPort.port : DEFAULT_WEBHOOK_PORT);
  }
  return EXIT.accepted;
}

/** The refusal of a blocked preview: each blocker with its field; an unknown parameter lists the template's own. */
function blockedError(name: string, preview: ApplyPreview) {
  const known = Object.keys(preview.parameters);
  const problems = preview.blockers.map((b) =>
    b.code === 'apply.unknown_parameter'
      ? {
          ...b,
          message: `${b.message} (its parameters: ${known.length > 0 ? known.join(', ') : 'none'})`,
        }
      : b,
  );
  return {
    code: 'apply.blocked' as const,
    message: `Can't apply ${name} yet: ${problems[0]?.message ?? 'something is missing'}`,
    problems,
  };
}

/** The approvals line of a preview or a receipt. */
function approvalsLine(preview: ApplyPreview): string {
  const { chosen, recommended } = preview.approvals;
  return `  approvals: ${chosen} (${approvalsSummary(chosen)})${chosen === recommended ? ', as the template recommends' : `; the template recommends ${recommended}`}\n`;
}

/** Without `--yes`: the verdict (of the approvals chosen), then what would be made; nothing is changed. */
function printWouldApply(io: CliIo, manifest: TemplateDetails['manifest'], preview: ApplyPreview, arm: string[]): void {
  const verdict = templateVerdict(manifest);
  io.stdout(`${VERDICT_LABELS[verdict.level]}: ${verdict.headline}\n`);
  for (const fact of verdict.facts) io.stdout(`  - ${fact}\n`);
  io.stdout(`\nWould make the agent ${preview.displayName}:\n`);
  io.stdout(approvalsLine(preview));
  for (const [name, parameter] of Object.entries(preview.parameters))
    io.stdout(`  parameter ${name}: ${parameter.value === null ? '(none)' : JSON.stringify(parameter.value)}\n`);
  if (preview.tools.length > 0) io.stdout(`  built-in tools: ${preview.tools.join(', ')}\n`);
  for (const tool of preview.withheld) io.stdout(`  left out: ${tool} (denied; allow it later on the dashboard)\n`);
  for (const server of preview.mcp)
    for (const tool of server.tools)
      io.stdout(
        `  ${tool.gateName}: ${server.saved ? tool.setting : 'not granted (the server is not saved)'}${tool.pinText ? `, ${tool.pinText}` : ''}\n`,
      );
  for (const warning of preview.warnings) io.stdout(`  warning: ${warning.message}\n`);
  for (const trigger of preview.triggers) {
    const state =
      trigger.type === 'webhook'
        ? 'off (`arm` it afterwards: it gets its secret then)'
        : arm.includes(trigger.name)
          ? 'armed with --yes'
          : 'off until you arm it';
    io.stdout(`  trigger ${trigger.name} (${trigger.type})${trigger.words ? `: ${trigger.words}` : ''}: ${state}\n`);
  }
  io.stdout('\nNothing was changed: add --yes to do it\n');
}

/** What was made: the agent, its approvals, what was left out, and each trigger's state. */
function printApplied(io: CliIo, receipt: ApplyReceipt, arm: string[], port: number): void {
  io.stdout(`Applied: ${receipt.displayName} [${receipt.agentId}]\n`);
  io.stdout(approvalsLine(receipt.preview));
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
    if (trigger.type === 'webhook')
      io.stdout(`  Its address, once armed: ${webhookAddress(listenerOrigin(port), id)} (${LOCAL_ONLY_WORDS})\n`);
  }
}
