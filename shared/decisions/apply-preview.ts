/**
 * What applying a template would make, computed without making anything (spec:
 * agentrun-template-packages.md "Apply"; DESIGN.md "Consent, install, apply").
 *
 * One pure function, so the apply screen shows exactly what the store's apply records: the same
 * object is rendered, then recorded. Nothing here reads the disk, the clock or the network: the
 * machine's state (saved MCP servers, saved secrets, whether secrets can be kept, now) is passed in.
 */
import { type EffectivePolicy, POLICY_REFUSAL, toolBlockedBy } from '../policy/policy';
import { setOwn } from '../base/own-data';
import { andList } from '../base/word-lists';
import {
  MAX_PATTERNED_VALUE_LENGTH,
  isAnchoredPattern,
  packagePatternProblem,
  testPackagePattern,
} from '../manifests/package-pattern';
import { cronProblem, isTimeZone, nextCronTimes } from '../triggers/cron';
import { describeCron } from '../words/cron-words';
import {
  AGENT_BODY_LIMIT,
  type AgentToolSetting,
  agentBodyBytes,
  agentRecord,
  agentTooLargeMessage,
  filledJsonTextBytes,
} from '../manifests/agent-body';
import {
  canonicalPinList,
  fillText,
  mcpGateName,
  pinnedParameters,
  placeholderNames,
  soloPlaceholder,
  type ParameterValue,
  type PinScalar,
  type PinValue,
  type TemplateDetails,
  type TemplateParameter,
  type TemplateTrigger,
} from '../manifests/template-manifest';
// The preview's shape is defined once with its schema (shared/contract/api-replies.ts): the Api answers it, a test checks it.
export type {
  PreviewTrigger,
  PreviewProblem,
  PreviewParameter,
  PreviewMcpTool,
  PreviewMcpServer,
  ApplyPreview,
} from './apply-preview-schema';
import type {
  PreviewTrigger,
  PreviewProblem,
  PreviewParameter,
  PreviewMcpTool,
  PreviewMcpServer,
  ApplyPreview,
} from './apply-preview-schema';

/** What the owner answered on the apply form. */
export interface ApplyRequest {
  /** Values by parameter name; one left out (or empty text) takes its default. */
  parameters: Record<string, unknown>;
  /** Gate names (`mcp:<server>/<tool>`) the owner allows; only these become `allow`. */
  grants: string[];
  /**
   * Built-in tools of the template (its `tools`) the owner unticked ("a template's
   * built-in tools can be unticked like any other"). Each is recorded as `deny` on the agent, so the
   * dashboard shows it and the owner can allow it later; a name that is not one of them is refused.
   */
  withhold?: string[];
  /**
   * The owner's choice for the agent's approvals (spec agent.md `approvals`: the template's value is
   * "the package's recommendation, shown as `approvals_default` for the apply screen"). Absent: the
   * recommendation.
   */
  approvals?: Approvals;
}

/** Spec agent.md `approvals`: `ask` (the agent asks its person before a tool runs) or `never` (it runs unattended). */
export type Approvals = 'ask' | 'never';

/** What the machine holds, passed in so the preview stays pure. */
export interface ApplyMachine {
  savedMcpServers: string[];
  savedSecrets: string[];
  /** Whether a webhook trigger's secret can be kept (the OS keychain works). */
  canKeepSecrets: boolean;
  now: Date;
  /** Gate names the owner denies on this machine: they stay denied, whatever the grants say. */
  deniedTools?: string[];
  /** The organization's policy in force: the tools it blocks stay denied, as the owner's do (`policy.ts`). */
  policy?: EffectivePolicy | null;
}

/** A tool's setting in the agent's tool settings. */
export type ToolSetting = 'allow' | 'ask' | 'deny';

/**
 * A number as JSON writes it (decimal digits, an optional fraction and exponent). Decision where the
 * spec is silent: a number parameter given as text (the form, `--param`) is read only in
 * this form, never as JavaScript's `Number()` reads text, which takes `0x10` as 16, `0b11` as 3 and
 * `1e3` alike: `--param max_items=0x10` is refused, not applied as 16.
 */
const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** The value a parameter field holds, read from a form (numbers and booleans may arrive as text). */
function coerce(def: TemplateParameter, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if ((def.type === 'number' || def.type === 'integer') && JSON_NUMBER.test(text) && Number.isFinite(Number(text)))
    return Number(text);
  if (def.type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return value;
}

/** Whether a field counts as not given: absent, null, or empty text. */
function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * Checks one parameter value against its definition; returns the sentence the form shows, or
 * null when it fits. The description is the hint, never the pattern (spec: agent.md `parameters`).
 * A blank value is only a problem for a required parameter with no default.
 */
export function checkParameter(def: TemplateParameter, value: unknown): string | null {
  if (isBlank(value)) {
    return def.required && def.default === undefined ? `Required: ${def.description}` : null;
  }
  const v = coerce(def, value);
  switch (def.type) {
    case 'string':
      if (typeof v !== 'string') return `Must be text: ${def.description}`;
      break;
    case 'number':
      if (typeof v !== 'number' || !Number.isFinite(v)) return `Must be a number: ${def.description}`;
      break;
    case 'integer':
      if (typeof v !== 'number' || !Number.isInteger(v)) return `Must be a whole number: ${def.description}`;
      break;
    case 'boolean':
      if (typeof v !== 'boolean') return `Must be true or false: ${def.description}`;
      break;
  }
  if (def.enum && !def.enum.some((choice) => choice === v)) {
    return `Must be one of ${def.enum.map((choice) => JSON.stringify(choice)).join(', ')}`;
  }
  if (def.pattern !== undefined && typeof v === 'string') {
    // RE2, never a backtracking engine: the form checks this on every keystroke.
    switch (testPackagePattern(def.pattern, v)) {
      case 'refused_pattern':
        return `Cannot be checked: the template's pattern ${packagePatternProblem(def.pattern) ?? 'is refused'}`;
      case 'too_long':
        return `Too long: at most ${MAX_PATTERNED_VALUE_LENGTH} characters`;
      case 'no_match':
        return `Not in the expected form: ${def.description}`;
      case 'match':
        break;
    }
  }
  return null;
}

/**
 * The value apply uses for a parameter: the given one (coerced from form text), else its default,
 * else null (not given).
 */
export function parameterValue(def: TemplateParameter, value: unknown): ParameterValue | null {
  if (isBlank(value)) return def.default ?? null;
  const v = coerce(def, value);
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;
}

/** Fills one pin value; `missing` collects parameters that had no value. */
function fillPinScalar(value: PinScalar, values: Record<string, ParameterValue>, missing: Set<string>): PinScalar {
  if (typeof value !== 'string') return value;
  const own = (name: string) => (Object.hasOwn(values, name) ? values[name] : undefined);
  for (const name of placeholderNames(value)) if (own(name) === undefined) missing.add(name);
  const solo = soloPlaceholder(value);
  if (solo !== null) return own(solo) ?? null;
  return fillText(value, values);
}

function code(value: PinScalar): string {
  return value === null ? 'left out' : `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
}

/** The pin in one sentence: "`slack_send_message` can post only to channel_id `C0123ABCD`". */
function pinSentence(tool: string, pin: Record<string, PinValue>): string {
  const fixed: string[] = [];
  const omitted: string[] = [];
  for (const [arg, value] of Object.entries(pin)) {
    if (value === null) omitted.push(arg);
    else if (Array.isArray(value)) {
      fixed.push(`${arg} ${value.map(code).join(' or ')}`);
    } else fixed.push(`${arg} ${code(value)}`);
  }
  const verb = /send|post|message|mail/i.test(tool) ? 'can post only to' : 'can run only with';
  const head = fixed.length > 0 ? `\`${tool}\` ${verb} ${andList(fixed)}` : `\`${tool}\` can run only`;
  return omitted.length > 0 ? `${head}, with ${andList(omitted)} left out` : head;
}

/** What the form says of a pinned parameter whose pattern is unanchored. */
export function unanchoredPinnedWords(name: string, pattern: string, tools: string[]): string {
  const shown = tools.slice(0, 3).map((tool) => `\`${tool}\``);
  const more = tools.length > 3 ? ` and ${tools.length - 3} more` : '';
  return `\`${name}\` is checked by the pattern \`${pattern}\`, which is not anchored (no ^ … $): any value that contains a match passes, and ${andList(shown)}${more} will be pinned to the whole value you give. Check it is exactly the destination you mean`;
}

/** Whether an RFC 3339 date-time string is before `now`. */
function isPast(at: string, now: Date): boolean {
  const time = Date.parse(at);
  return Number.isFinite(time) && time <= now.getTime();
}

/** What the parts of one preview share: the template, the request, the machine, and the problems found so far. */
interface PreviewContext {
  manifest: TemplateDetails['manifest'];
  request: ApplyRequest;
  machine: ApplyMachine;
  warnings: PreviewProblem[];
  blockers: ApplyPreview['blockers'];
  /** Whether a tool stays denied (the owner never allows it, or the organization's policy blocks it), and where. */
  denied: (tool: string) => boolean;
  deniedWhere: (tool: string) => string;
}

/**
 * Computes what applying `template` with `request` on `machine` would make (spec: "Apply" steps 1
 * and 2), without making anything. Blockers are the spec's `422`/`409` answers, each naming its
 * field (`parameters.<name>`, `grants[i]`, `secrets[i]`, `mcp[i]`, `triggers.<i>`); warnings are
 * its `mcp.<server>`, `pins.mcp:<server>/<tool>` and `grants.<tool>` warnings.
 */
export function previewApply(template: TemplateDetails, request: ApplyRequest, machine: ApplyMachine): ApplyPreview {
  const ctx = previewContext(template, request, machine);
  const { manifest, warnings, blockers } = ctx;
  // 1. Parameters, per field; grants, by gate name; the secrets the server must hold.
  const { parameters, values, textValues } = previewParameters(ctx);
  const grants = checkedGrants(ctx);
  const secrets = (manifest.secrets ?? []).map((name) => ({ name, saved: machine.savedSecrets.includes(name) }));
  secrets.forEach((secret, i) => {
    if (!secret.saved)
      blockers.push({
        code: 'apply.secret_missing',
        path: `secrets[${i}]`,
        message: `${manifest.name} needs the secret \`${secret.name}\`: save it in Settings first`,
      });
  });
  // A pin's text is filled only when all of it, filled, fits in the agent's 1 MiB body: a long
  // value named many times in a pin is counted first, never built ("without unbounded work").
  const pinBytes = pinTextBytes(manifest, values);
  const pinsTooLarge = pinBytes > AGENT_BODY_LIMIT;
  // 2. MCP servers and their tools, at the owner's setting; only grants become allow.
  const mcp = (manifest.mcp ?? []).map((entry, i) => previewMcpServer(ctx, entry, i, { grants, values, pinsTooLarge }));
  const { tools, withheld } = previewNativeTools(ctx);
  const recommended: Approvals = manifest.approvals ?? 'ask';
  const approvals = request.approvals ?? recommended;
  if (machine.policy?.unattended === false && approvals === 'never') {
    blockers.push({
      code: 'policy.unattended',
      path: 'approvals',
      message: `The agent cannot run without asking: ${POLICY_REFUSAL}`,
    });
  }
  const triggers = previewTriggers(ctx, textValues);
  // 2. The agent's body, held to POST /v2/agents' 1 MiB limit (413), measured before the
  // instructions are filled: an apply over it makes nothing, and its instructions are never built.
  const displayName = fillText(manifest.display_name ?? manifest.name, textValues);
  const bodyBytes =
    agentBodyBytes({
      record: agentRecord({
        name: displayName,
        description: manifest.description,
        model: manifest.model,
        effort: manifest.effort,
        budgetPerRunUsd: manifest.budget?.per_run_usd,
        learning: manifest.learning,
        approvals,
        tools,
        toolSettings: agentToolSettings(mcp, withheld),
      }),
      body: template.body,
      values: textValues,
      filesJsonBytes: template.agentFilesJsonBytes ?? 0,
    }) + (pinsTooLarge ? pinBytes : 0);
  const tooLarge = bodyBytes > AGENT_BODY_LIMIT;
  if (tooLarge) {
    blockers.push({
      code: 'apply.agent_too_large',
      path: 'body',
      message: `${manifest.name}: ${agentTooLargeMessage(bodyBytes, 'this apply makes')}: give shorter parameters`,
    });
  }
  return {
    displayName,
    instructions: tooLarge ? '' : fillText(template.body, textValues),
    parameters,
    tools,
    withheld,
    approvals: { chosen: approvals, recommended },
    mcp,
    triggers,
    secrets,
    warnings,
    blockers,
    canApply: blockers.length === 0,
  };
}

function previewContext(template: TemplateDetails, request: ApplyRequest, machine: ApplyMachine): PreviewContext {
  const ownerDenied = new Set(machine.deniedTools ?? []);
  const policy = machine.policy ?? null;
  return {
    manifest: template.manifest,
    request,
    machine,
    warnings: [],
    blockers: [],
    // A tool the organization's policy blocks is denied like one the owner never allows, whatever the grants say.
    denied: (tool) => ownerDenied.has(tool) || toolBlockedBy(policy, tool, null) !== null,
    deniedWhere: (tool) =>
      ownerDenied.has(tool)
        ? 'on your list of tools you never allow (Settings → Tools you never allow)'
        : `blocked by your organization's policy (${toolBlockedBy(policy, tool, null)})`,
  };
}

/**
 * Each parameter checked, with the value apply uses; a value not declared is refused under its own name. Text
 * (instructions, inputs) reads a parameter not given as empty (`textValues`), never as a raw placeholder.
 */
function previewParameters(ctx: PreviewContext): {
  parameters: Record<string, PreviewParameter>;
  values: Record<string, ParameterValue>;
  textValues: Record<string, ParameterValue>;
} {
  const { manifest, request, blockers, warnings } = ctx;
  const defs = manifest.parameters ?? {};
  const parameters: Record<string, PreviewParameter> = {};
  const values: Record<string, ParameterValue> = {};
  for (const [name, def] of Object.entries(defs)) {
    // Own keys only, set as own keys: a parameter may be named `constructor` or `__proto__`.
    const given = Object.hasOwn(request.parameters, name) ? request.parameters[name] : undefined;
    const error = checkParameter(def, given);
    const value = error === null ? parameterValue(def, given) : null;
    setOwn(parameters, name, error === null ? { value } : { value, error });
    if (error !== null)
      blockers.push({ code: 'apply.parameter', path: `parameters.${name}`, message: `\`${name}\`: ${error}` });
    else if (value !== null) setOwn(values, name, value);
  }
  // A pin's destination checked by an unanchored pattern (a decision where the spec is
  // silent): the pattern is searched anywhere in the value, as JSON Schema's `pattern` is, so the
  // form says that any value containing a match passes; the pin then holds exactly that value.
  for (const [name, tools] of pinnedParameters(manifest.mcp)) {
    const def = Object.hasOwn(defs, name) ? defs[name] : undefined;
    if (def?.pattern === undefined || isAnchoredPattern(def.pattern)) continue;
    warnings.push({
      code: `pattern.${name}`,
      path: `parameters.${name}`,
      message: unanchoredPinnedWords(name, def.pattern, [...tools]),
    });
  }
  const textValues: Record<string, ParameterValue> = {};
  for (const name of Object.keys(defs))
    setOwn(textValues, name, Object.hasOwn(values, name) ? (values[name] as ParameterValue) : '');
  for (const name of Object.keys(request.parameters)) {
    if (!Object.hasOwn(defs, name)) {
      blockers.push({
        code: 'apply.unknown_parameter',
        path: `parameters.${name}`,
        message: `\`${name}\` is not a parameter of ${manifest.name}`,
      });
    }
  }
  return { parameters, values, textValues };
}

/** The grants that name one of the package's MCP tools (by gate name); any other is a blocker. */
function checkedGrants(ctx: PreviewContext): Set<string> {
  const { manifest } = ctx;
  const packageTools = new Set(
    (manifest.mcp ?? []).flatMap((entry) => entry.tools.map((tool) => mcpGateName(entry.server, tool))),
  );
  const grants = new Set<string>();
  ctx.request.grants.forEach((grant, i) => {
    if (!packageTools.has(grant)) {
      ctx.blockers.push({
        code: 'apply.grant_unknown',
        path: `grants[${i}]`,
        message: `\`${grant}\` is not one of ${manifest.name}'s MCP tools (a grant names one as mcp:<server>/<tool>)`,
      });
    } else grants.add(grant);
  });
  return grants;
}

/** The bytes every pin's text takes once filled, counted without building it. */
function pinTextBytes(manifest: TemplateDetails['manifest'], values: Record<string, ParameterValue>): number {
  let bytes = 0;
  for (const entry of manifest.mcp ?? []) {
    for (const args of Object.values(entry.pin ?? {})) {
      for (const value of Object.values(args)) {
        for (const scalar of Array.isArray(value) ? value : [value])
          if (typeof scalar === 'string') bytes += filledJsonTextBytes(scalar, values);
      }
    }
  }
  return bytes;
}

type McpEntry = NonNullable<TemplateDetails['manifest']['mcp']>[number];

/** What every MCP tool of a preview is set from. */
interface McpInputs {
  grants: ReadonlySet<string>;
  values: Record<string, ParameterValue>;
  pinsTooLarge: boolean;
}

/** One MCP server: a required one not saved is a blocker, another one not saved is skipped with a warning. */
function previewMcpServer(ctx: PreviewContext, entry: McpEntry, i: number, inputs: McpInputs): PreviewMcpServer {
  const { manifest } = ctx;
  const saved = ctx.machine.savedMcpServers.includes(entry.server);
  const required = entry.required === true;
  if (!saved && required) {
    ctx.blockers.push({
      code: 'apply.mcp_server_missing',
      path: `mcp[${i}]`,
      message: `${manifest.name} needs the MCP server \`${entry.server}\`: save it in Settings → MCP servers first`,
    });
  } else if (!saved) {
    ctx.warnings.push({
      code: `mcp.${entry.server}`,
      message: `No MCP server \`${entry.server}\` is saved in Settings → MCP servers: its tools are skipped (${entry.tools.join(', ')})`,
    });
  }
  const allowed = new Set(entry.allow ?? []); // a set: both lists may hold thousands of names
  const tools = entry.tools.map((tool) => previewMcpTool(ctx, entry, tool, { saved, asks: allowed.has(tool) }, inputs));
  return { server: entry.server, saved, required, tools };
}

/**
 * One MCP tool at the owner's setting: `allow` only when granted; `deny` when its pin cannot be filled (a parameter
 * not given, or over the body limit) or the owner or the policy denies it.
 */
function previewMcpTool(
  ctx: PreviewContext,
  entry: McpEntry,
  tool: string,
  server: { saved: boolean; asks: boolean },
  inputs: McpInputs,
): PreviewMcpTool {
  const gateName = mcpGateName(entry.server, tool);
  let setting: ToolSetting = inputs.grants.has(gateName) ? 'allow' : 'ask';
  const result: PreviewMcpTool = { name: tool, gateName, asks: server.asks ? 'allow' : 'ask', setting, pin: null };
  const pinDef = entry.pin?.[tool];
  if (pinDef) {
    const missing = new Set<string>();
    const pinnedBy = new Set<string>();
    const filled: Record<string, PinValue> = {};
    for (const [arg, value] of Object.entries(pinDef)) {
      const scalars = Array.isArray(value) ? value : [value];
      for (const scalar of scalars)
        if (typeof scalar === 'string') placeholderNames(scalar).forEach((n) => pinnedBy.add(n));
      filled[arg] = Array.isArray(value)
        ? canonicalPinList(value.map((s) => fillPinScalar(s, inputs.values, missing)))
        : fillPinScalar(value, inputs.values, missing);
    }
    if (pinnedBy.size > 0) result.pinnedBy = [...pinnedBy];
    if (inputs.pinsTooLarge) {
      // Not filled: the agent is over its 1 MiB body, a blocker below; nothing is made.
      setting = 'deny';
      result.pinText = `\`${tool}\` is denied: its pin, filled, is over the agent's 1 MiB limit`;
    } else if (missing.size > 0) {
      // Spec "Apply": a pin whose parameter was not given sets the tool to deny, granted or not.
      const names = [...missing].map((n) => `\`${n}\``).join(', ');
      setting = 'deny';
      result.pinText = `\`${tool}\` is denied: give ${names} to let it run`;
      if (server.saved)
        ctx.warnings.push({
          code: `pins.${gateName}`,
          message: `\`${tool}\` is set to deny because its pin needs ${names}: give ${missing.size === 1 ? 'it' : 'them'} to let it run`,
        });
    } else {
      result.pin = filled;
      result.pinText = pinSentence(tool, filled);
    }
  }
  if (ctx.denied(gateName)) {
    if (inputs.grants.has(gateName) && server.saved) {
      ctx.warnings.push({
        code: `grants.${gateName}`,
        message: `You allowed \`${tool}\`, but \`${gateName}\` is ${ctx.deniedWhere(gateName)}: it stays denied`,
      });
    }
    setting = 'deny';
    result.ownerDenied = true;
  }
  result.setting = setting;
  return result;
}

/** Native tools: the owner's and the policy's denied ones are left out; those the owner unticked are withheld. */
function previewNativeTools(ctx: PreviewContext): { tools: string[]; withheld: string[] } {
  const { manifest } = ctx;
  const templateTools = manifest.tools ?? [];
  const templateToolSet = new Set(templateTools);
  const withhold = new Set<string>();
  (ctx.request.withhold ?? []).forEach((tool, i) => {
    if (!templateToolSet.has(tool)) {
      ctx.blockers.push({
        code: 'apply.withhold_unknown',
        path: `withhold[${i}]`,
        message: `\`${tool}\` is not one of ${manifest.name}'s built-in tools, so it cannot be left out`,
      });
    } else withhold.add(tool);
  });
  const tools: string[] = [];
  const withheld: string[] = [];
  for (const tool of templateTools) {
    if (ctx.denied(tool))
      ctx.warnings.push({
        code: `grants.${tool}`,
        message: `The template gives its agent \`${tool}\`, but it is ${ctx.deniedWhere(tool)}: the agent does not get it`,
      });
    else if (withhold.has(tool)) withheld.push(tool);
    else tools.push(tool);
  }
  return { tools, withheld };
}

/** The agent's tool settings: every tool of a saved MCP server, and each withheld native tool as `deny`. */
function agentToolSettings(mcp: PreviewMcpServer[], withheld: string[]): Record<string, AgentToolSetting> {
  const toolSettings: Record<string, AgentToolSetting> = {};
  for (const server of mcp) {
    if (!server.saved) continue;
    for (const tool of server.tools)
      setOwn(
        toolSettings,
        tool.gateName,
        tool.pin === null ? { permission: tool.setting } : { permission: tool.setting, pin: tool.pin },
      );
  }
  for (const tool of withheld) setOwn(toolSettings, tool, { permission: 'deny' });
  return toolSettings;
}

const NO_SEAL_KEY = 'a webhook needs a signing secret, and this machine has no keychain to keep one';

/**
 * The triggers, their parameters filled, checked as POST /v2/triggers would (blockers under triggers.<i>). The seal
 * key (409) before the trigger checks (422), as the spec orders them ("Apply" step 1: "...its required MCP servers
 * and, for a webhook trigger, the server's seal key (`409`), then every trigger as `POST /v2/triggers` checks it, its
 * parameters filled (`422` under `triggers.<i>`)"): a webhook's missing keychain is said before an earlier trigger's
 * bad cron.
 */
function previewTriggers(ctx: PreviewContext, textValues: Record<string, ParameterValue>): PreviewTrigger[] {
  const triggers = ctx.manifest.triggers ?? [];
  const sealKeyMissing = new Set<number>();
  if (!ctx.machine.canKeepSecrets) {
    triggers.forEach((trigger, i) => {
      if (trigger.type !== 'webhook') return;
      sealKeyMissing.add(i);
      ctx.blockers.push({
        code: 'apply.webhook_no_secret_store',
        path: `triggers.${i}`,
        message: `Trigger \`${trigger.name}\`: ${NO_SEAL_KEY}`,
      });
    });
  }
  return triggers.map((trigger, i) => previewTrigger(ctx, trigger, i, textValues, sealKeyMissing.has(i)));
}

/** One trigger, filled and checked; a problem is a blocker under `triggers.<i>` and the row's `error`. */
function previewTrigger(
  ctx: PreviewContext,
  trigger: TemplateTrigger,
  i: number,
  textValues: Record<string, ParameterValue>,
  sealKeyMissing: boolean,
): PreviewTrigger {
  const block = (blockCode: string, message: string, preview: PreviewTrigger): PreviewTrigger => {
    ctx.blockers.push({ code: blockCode, path: `triggers.${i}`, message: `Trigger \`${trigger.name}\`: ${message}` });
    return { ...preview, error: message };
  };
  // A trigger's text is counted before it is filled, as the agent's is (a decision where the spec
  // is silent: `POST /v2/triggers` is held to the same 1 MiB as `POST /v2/agents`), so a long value
  // named many times in an input or a schedule is refused, never built.
  const texts = [
    trigger.target.input,
    trigger.type === 'schedule' ? trigger.cron : undefined,
    trigger.type === 'schedule' ? trigger.timezone : undefined,
  ];
  const triggerBytes = texts.reduce(
    (sum, text) => sum + (text === undefined ? 0 : filledJsonTextBytes(text, textValues)),
    0,
  );
  if (triggerBytes > AGENT_BODY_LIMIT) {
    return block(
      'apply.trigger_too_large',
      `filled, it would be ${triggerBytes.toLocaleString('en-US')} bytes, over the 1 MiB limit of ${AGENT_BODY_LIMIT.toLocaleString('en-US')} bytes: give shorter parameters`,
      {
        name: trigger.name,
        type: trigger.type,
        ...(trigger.type === 'at' ? { at: trigger.at } : {}),
        next: [],
        input: null,
      },
    );
  }
  const input = trigger.target.input === undefined ? null : fillText(trigger.target.input, textValues);
  if (trigger.type === 'schedule') {
    const cron = fillText(trigger.cron, textValues);
    const timezone = trigger.timezone === undefined ? 'UTC' : fillText(trigger.timezone, textValues);
    const base: PreviewTrigger = { name: trigger.name, type: 'schedule', cron, timezone, next: [], input };
    const problem = cronProblem(cron);
    if (problem !== null) return block('apply.trigger_cron', problem, base);
    if (!isTimeZone(timezone))
      return block(
        'apply.trigger_timezone',
        `\`${timezone}\` is not an IANA time zone (like Europe/Paris or UTC)`,
        base,
      );
    const options = { dayRule: 'or' as const, timezone };
    return {
      ...base,
      words: describeCron(cron, options),
      next: nextCronTimes(cron, options, ctx.machine.now, 3).map((d) => d.toISOString()),
    };
  }
  if (trigger.type === 'at') {
    const base: PreviewTrigger = { name: trigger.name, type: 'at', at: trigger.at, next: [], input };
    if (isPast(trigger.at, ctx.machine.now)) return block('apply.trigger_at_past', `${trigger.at} has passed`, base);
    return { ...base, next: [new Date(Date.parse(trigger.at)).toISOString()] };
  }
  const base: PreviewTrigger = { name: trigger.name, type: 'webhook', next: [], input };
  if (trigger.events) base.events = trigger.events;
  if (trigger.max_concurrent !== undefined) base.max_concurrent = trigger.max_concurrent;
  // Its blocker was said above, before the trigger checks; the row still shows why.
  return sealKeyMissing ? { ...base, error: NO_SEAL_KEY } : base;
}
