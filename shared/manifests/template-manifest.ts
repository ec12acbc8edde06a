/**
 * The typed shape of a template package (spec: agentrun-template-packages.md, "agent.md"), and the
 * small pure helpers both the folder check (electron/core/template) and the apply preview
 * (shared/decisions/apply-preview.ts) use, so both read placeholders and pins the same way.
 */
import type { Inspection } from './inspection';

/** `model` of agent.md: a tier, with an optional preferred `provider/model-id`. */
export interface TemplateModel {
  tier: 'fast' | 'balanced' | 'strong';
  prefer?: string;
}

/** `author` of agent.md. */
export interface TemplateAuthor {
  name: string;
  email?: string;
  url?: string;
}

/** A scalar a pin may fix an argument to: `null` means the argument must be left out. */
export type PinScalar = string | number | boolean | null;
/** One pinned argument: a scalar, or a canonical list (each once, null first, then by JSON text). */
export type PinValue = PinScalar | PinScalar[];
/** `pin` of an `mcp` entry: tool → argument → value. */
export type TemplatePin = Record<string, Record<string, PinValue>>;

/** One `mcp` entry: a server the owner saves in Settings → MCP servers, and the tools used of it. */
export interface TemplateMcpEntry {
  server: string;
  tools: string[];
  required?: boolean;
  /** The tools the package asks the owner to allow (shown as `asks: allow`); never a grant by itself. */
  allow?: string[];
  pin?: TemplatePin;
}

/** The value types a parameter may take. */
export type ParameterType = 'string' | 'number' | 'integer' | 'boolean';
/** A parameter's value. */
export type ParameterValue = string | number | boolean;

/** One `parameters.<name>` definition. `description` is what a person reads beside the field. */
export interface TemplateParameter {
  type: ParameterType;
  required?: boolean;
  /** Strings only; a JavaScript regular expression (with `u`), unanchored unless it anchors itself. */
  pattern?: string;
  enum?: ParameterValue[];
  default?: ParameterValue;
  description: string;
}

/** A trigger's target: always a run of the agent apply makes. */
export interface TemplateTriggerTarget {
  type: 'start_run';
  input?: string;
}

/** A `schedule` trigger (DESIGN.md "Template triggers"): 5-field cron in an IANA zone (UTC when absent). */
export interface TemplateScheduleTrigger {
  name: string;
  type: 'schedule';
  cron: string;
  timezone?: string;
  target: TemplateTriggerTarget;
}

/** An `at` trigger: one RFC 3339 date-time. */
export interface TemplateAtTrigger {
  name: string;
  type: 'at';
  at: string;
  target: TemplateTriggerTarget;
}

/** A `webhook` trigger (Standard Webhooks): its secret is made after apply, never in the file. */
export interface TemplateWebhookTrigger {
  name: string;
  type: 'webhook';
  events?: string[];
  max_concurrent?: number;
  target: TemplateTriggerTarget;
}

/** A trigger of agent.md: a `POST /v2/triggers` body with no `agent_id`. */
export type TemplateTrigger = TemplateScheduleTrigger | TemplateAtTrigger | TemplateWebhookTrigger;

/** The whole front matter of agent.md, as checked. Every field of the spec's table, and no other. */
export interface TemplateManifest {
  name: string;
  display_name?: string;
  version: string;
  description: string;
  license?: string;
  author?: TemplateAuthor;
  repository?: string;
  harness?: string[];
  model?: TemplateModel;
  effort?: 'low' | 'medium' | 'high' | 'xhigh' | 'max';
  tools?: string[];
  mcp?: TemplateMcpEntry[];
  computer?: 'default';
  parameters?: Record<string, TemplateParameter>;
  secrets?: string[];
  budget?: { per_run_usd: number };
  learning?: boolean;
  approvals?: 'ask' | 'never';
  triggers?: TemplateTrigger[];
  output?: { schema: string };
  checks?: string[];
}

/** A trigger as the template summary lists it. */
export interface TemplateTriggerSummary {
  id: string;
  type: TemplateTrigger['type'];
  /** `secret` for a webhook (its signing secret is made on this machine), else null. */
  needs: 'secret' | null;
}

/** `summary` of a template inspection (DESIGN.md "Validation contract"). */
export interface TemplateSummary {
  name: string;
  version: string;
  /** `author.name`, or null: nothing is signed, so this is what the package says of itself. */
  publisher: string | null;
  mcp_servers: string[];
  /** Parameter names, in the manifest's order. */
  parameters: string[];
  triggers: TemplateTriggerSummary[];
}

/** One skill: `skills/<name>/SKILL.md`. */
export interface TemplateSkill {
  name: string;
  description: string;
  body: string;
}

/** One rule file: `rules/<file>`. */
export interface TemplateRule {
  file: string;
  body: string;
}

/** One eval case, as listed (evals are checked for layout only and never run here). */
export interface TemplateEvalCase {
  case: string;
  description: string;
}

/** One file of the folder as the walk saw it (no contents). */
export interface TemplateFileInfo {
  /** Path relative to the folder, `/`-separated. */
  path: string;
  size: number;
}

/** `details` of a template inspection: everything the apply screen and the preview need. */
export interface TemplateDetails {
  manifest: TemplateManifest;
  /** agent.md's body: the agent's instructions, placeholders unfilled. */
  body: string;
  skills: TemplateSkill[];
  rules: TemplateRule[];
  evals: TemplateEvalCase[];
  files: TemplateFileInfo[];
  /**
   * The bytes the agent's files (each skill's files, each rule and the output schema beside each
   * SKILL.md) take in its `POST /v2/agents` body (shared/manifests/agent-body.ts), as the check counted them;
   * the preview adds them to the filled instructions it measures. Absent: none.
   */
  agentFilesJsonBytes?: number;
}

/** A template inspection. */
export type TemplateInspection = Inspection<TemplateSummary, TemplateDetails> & { kind: 'template' };

/** Where `${parameters.<name>}` may appear in agent.md (spec: agent.md `parameters`). */
export const PLACEHOLDER_FIELDS = [
  'display_name',
  'body',
  'triggers[i].target.input',
  'triggers[i].cron',
  'triggers[i].timezone',
  'mcp[i].pin',
] as const;

// A name stops at `}` or at the next `$`: with `[^}]*`, each of 20 000 unclosed `${parameters.`
// scanned to the end of the text (60 s for 260 KB; "no package text costs more than
// linear time"). A `$` inside a name leaves the placeholder unclosed, which the check refuses.
const PLACEHOLDER = /\$\{parameters\.([^}$]*)\}/g;
const ONLY_PLACEHOLDER = /^\$\{parameters\.([^}]*)\}$/;

/**
 * The parameter names `text` refers to as `${parameters.<name>}`, in order, each once.
 * A `${parameters.` with no closing brace is returned as `''` so the check can refuse it.
 */
export function placeholderNames(text: string): string[] {
  const names = new Set<string>();
  let closed = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    names.add(match[1] ?? '');
    closed++;
  }
  const opened = text.split('${parameters.').length - 1;
  if (opened > closed) names.add('');
  return [...names];
}

/** Whether `text` holds a `${parameters.` placeholder at all. */
export function hasPlaceholder(text: string): boolean {
  return text.includes('${parameters.');
}

/** The parameter a text names when it is one placeholder alone (it then takes the value's type), else null. */
export function soloPlaceholder(text: string): string | null {
  const match = ONLY_PLACEHOLDER.exec(text);
  return match ? (match[1] ?? null) : null;
}

/** Fills every `${parameters.<name>}` of `text` with the value's text; a name without a value is left as it is. */
export function fillText(text: string, values: Record<string, ParameterValue | undefined>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    // Own keys only: `${parameters.constructor}` must not find `Object` on the prototype.
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    return value === undefined ? whole : String(value);
  });
}

/** The JSON text of a pin scalar: the order key of a pin list (spec: "null first, then by its JSON text"). */
function pinKey(value: PinScalar): string {
  return JSON.stringify(value);
}

/** Sorts pin scalars into the spec's canonical order and drops repeats: null first, then by JSON text. */
export function canonicalPinList(values: readonly PinScalar[]): PinScalar[] {
  const seen = new Set<string>();
  const unique: PinScalar[] = [];
  for (const value of values) {
    const key = pinKey(value);
    if (!seen.has(key)) {
      seen.add(key);
      unique.push(value);
    }
  }
  return unique.sort((a, b) => {
    if (a === null) return b === null ? 0 : -1;
    if (b === null) return 1;
    const ka = pinKey(a);
    const kb = pinKey(b);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
}

/** Whether a pin list is exactly in canonical order with each value once. */
export function isCanonicalPinList(values: readonly PinScalar[]): boolean {
  const canonical = canonicalPinList(values);
  return (
    canonical.length === values.length && canonical.every((value, i) => pinKey(value) === pinKey(values[i] ?? null))
  );
}

/** The parameters a template's pins name (`${parameters.<name>}` in an `mcp` entry's `pin`), by the tools they pin. */
export function pinnedParameters(mcp: readonly TemplateMcpEntry[] | undefined): Map<string, Set<string>> {
  const pinned = new Map<string, Set<string>>();
  for (const entry of mcp ?? []) {
    for (const [tool, args] of Object.entries(entry.pin ?? {})) {
      for (const value of Object.values(args)) {
        for (const scalar of Array.isArray(value) ? value : [value]) {
          if (typeof scalar !== 'string') continue;
          for (const name of placeholderNames(scalar)) {
            const tools = pinned.get(name) ?? new Set<string>();
            tools.add(tool);
            pinned.set(name, tools);
          }
        }
      }
    }
  }
  return pinned;
}

/** The gate name of an MCP tool, as grants and tool settings name it. */
export function mcpGateName(server: string, tool: string): string {
  return `mcp:${server}/${tool}`;
}

// A built-in template as the template list shows it: defined once with its schema (shared/contract/api-replies.ts).
export type { BuiltinTemplateCard } from './template-card-schema';
