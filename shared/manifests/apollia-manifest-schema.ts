/**
 * The `apollia.toml` manifest of an `.apo` package (spec: apollia-package-manifest.md, "Tables" and
 * "Strict schema"), defined once with TypeBox: the strict JSON Schema that `scripts/compile-schemas.ts`
 * compiles ahead of time (`electron/core/generated/manifest-validator.js`, through
 * `electron/core/apollia/manifest-schema.ts`) and, as each part's static type, the typed data the
 * manifest reader hands on once that schema accepted it (`shared/manifests/apollia-manifest.ts` re-exports the types).
 * Every table refuses keys it does not know (`additionalProperties: false`).
 *
 * Identifier patterns, semver and the sdk requirement are deliberately NOT checked here: the spec's
 * "Validation" rules own them and have their own messages, so the schema must not pre-empt them.
 * Cron schedules and intervals are checked here (formats `cron` and `interval`): they are the
 * shape of a `[triggers.source]` value, not one of the seven rules.
 *
 * The JSON is written exactly as the hand-written schema before it was (its key order, `required`
 * on every table, even empty): `electron/core/apollia/manifest-schema.test.ts` holds it to that
 * schema, so the compiled validator does not change with the move.
 *
 * Like `api-replies.ts`, loaded only by the schema compiler and tests: the app imports only its types.
 */
import { type TObject, type TProperties, type TSchema, Type } from 'typebox';
import { ACTION_FAMILIES, AUTONOMY_TIERS, MCP_TRANSPORTS, PLANNING_MODES } from './apollia-vocabulary';
import { MAX_ACCESS_PER_AGENT, MAX_AGENTS, MAX_TRIGGERS } from '../base/limits';
import { exactly, mapOf, type Static, shaped } from '../base/schema-kit';

const str = Type.String();
const nonEmpty = Type.String({ minLength: 1 });
const strList = Type.Array(str);
const positiveInt = Type.Integer({ minimum: 1 });

/**
 * A table: its keys, `required` naming those not `Type.Optional` (written even when empty), and
 * every other key refused. Written by hand: TypeBox's object puts `required` first and leaves it out
 * when empty, which is the same check in other JSON.
 */
function table<P extends TProperties>(properties: P) {
  const required = Type.Object(properties).required ?? [];
  return Type.Unsafe<Static<TObject<P>>>({ type: 'object', properties, required, additionalProperties: false });
}

/** One of these strings: `{ type: 'string', enum }` (a wrong type and a wrong value are two messages). */
function oneOfStrings<const V extends readonly string[]>(values: V) {
  return Type.Unsafe<V[number]>({ type: 'string', enum: [...values] });
}

/** A list of at most `maxItems` items (`maxItems` written before `items`, as TypeBox does not). */
function boundedList<S extends TSchema>(items: S, maxItems: number) {
  return Type.Unsafe<Static<S>[]>({ type: 'array', maxItems, items });
}

const optional = Type.Optional;

/** `[package]`: the identity of the package. */
export const PackageTableSchema = table({
  name: str,
  version: str,
  publisher: nonEmpty,
  description: optional(str),
  sdk: str,
});
export type PackageTable = Static<typeof PackageTableSchema>;

/** `[agents.defaults.model.request]`: the request settings themselves. */
export const ModelRequestSchema = table({
  temperature: optional(Type.Number({ minimum: 0 })),
  top_p: optional(Type.Number({ minimum: 0, maximum: 1 })),
  top_k: optional(Type.Integer({ minimum: 0 })),
  repetition_penalty: optional(Type.Number({ minimum: 0 })),
  max_tokens: optional(positiveInt),
  seed: optional(Type.Integer()),
});
export type ModelRequest = Static<typeof ModelRequestSchema>;

/**
 * `[agents.defaults]`: every value a default the package recommends, never a constraint (spec
 * "[agents.defaults]").
 */
export const AgentDefaultsSchema = table({
  access: optional(boundedList(str, MAX_ACCESS_PER_AGENT)),
  sources: optional(strList),
  autonomy: optional(oneOfStrings(AUTONOMY_TIERS)),
  planning: optional(oneOfStrings(PLANNING_MODES)),
  /** `[agents.defaults.model]`. */
  model: optional(table({ model: optional(str), preset: optional(str), request: optional(ModelRequestSchema) })),
});
export type AgentDefaults = Static<typeof AgentDefaultsSchema>;

/** `[[agents]]`: an agent is data; the package ships no code for it. */
export const AgentEntrySchema = table({
  id: str,
  name: nonEmpty,
  mission: nonEmpty,
  examples: optional(strList),
  defaults: optional(AgentDefaultsSchema),
});
export type AgentEntry = Static<typeof AgentEntrySchema>;

/** A free-form table: the JSON Schema of a tool's or workflow's inputs, checked separately. */
const inputsTable = shaped<Record<string, unknown>>({ type: 'object' });

const toolProperties = {
  name: str,
  module: nonEmpty,
  description: nonEmpty,
  action: oneOfStrings(ACTION_FAMILIES),
  inputs: optional(inputsTable),
};

/** `[[tools]]`: one entry per Python tool. */
export const ToolEntrySchema = table(toolProperties);
export type ToolEntry = Static<typeof ToolEntrySchema>;

/** `[[workflows]]`: a tool's keys and the names of its steps, in order. */
export const WorkflowEntrySchema = table({ ...toolProperties, steps: optional(strList) });
export type WorkflowEntry = Static<typeof WorkflowEntrySchema>;

/** `[[requires]]`: a connection the package needs. */
export const RequiresEntrySchema = table({ type: nonEmpty, reason: optional(str) });
export type RequiresEntry = Static<typeof RequiresEntrySchema>;

/** `[[mcp_servers]]`: the keys of a server in mcp.toml. */
export const McpServerEntrySchema = table({
  name: str,
  command: optional(str),
  args: optional(strList),
  env: optional(mapOf(str)),
  transport: optional(oneOfStrings(MCP_TRANSPORTS)),
  url: optional(str),
  init_timeout_secs: optional(positiveInt),
  call_timeout_secs: optional(positiveInt),
  max_response_bytes: optional(positiveInt),
  max_tools: optional(positiveInt),
  tags: optional(strList),
  /**
   * Retired (spec "[[mcp_servers]]": "is still read, logs a package.manifest.retired_key warning
   * and does nothing"): any value is read, warned about (`package.manifest.retired_key`), and ignored.
   * The spec gives it no type, and one that does nothing cannot be of a wrong one (`requires_approval = "yes"`).
   */
  requires_approval: optional(Type.Unknown()),
});
export type McpServerEntry = Static<typeof McpServerEntrySchema>;

/**
 * `[triggers.source]`, tagged by `type` (spec: "[triggers.source] is tagged by type"): ajv's
 * `discriminator` names the allowed types when the tag is unknown, then exactly that type's keys are
 * allowed (`webhook` takes none). One table per type of `TRIGGER_SOURCE_TYPES` (`shared/manifests/apollia-manifest.ts`),
 * in its order.
 */
export const TriggerSourceSchema = (() => {
  const sources = [
    table({ type: exactly('cron'), schedule: Type.String({ format: 'cron' }) }),
    table({ type: exactly('interval'), every: Type.String({ format: 'interval' }) }),
    table({ type: exactly('file_watch'), recursive: optional(Type.Boolean()) }),
    table({ type: exactly('webhook') }),
  ] as const;
  return Type.Unsafe<Static<(typeof sources)[number]>>({
    type: 'object',
    discriminator: { propertyName: 'type' },
    required: ['type'],
    oneOf: [...sources],
  });
})();
export type TriggerSource = Static<typeof TriggerSourceSchema>;

/** `[[triggers]]`: a trigger the package proposes; installing it does not arm it. */
export const TriggerEntrySchema = table({ id: str, target: str, input: optional(str), source: TriggerSourceSchema });
export type TriggerEntry = Static<typeof TriggerEntrySchema>;

/** The whole manifest (spec "Tables"): `[package]` is the one required table. */
export const ApolliaManifestSchema = table({
  package: PackageTableSchema,
  agents: optional(boundedList(AgentEntrySchema, MAX_AGENTS)),
  tools: optional(Type.Array(ToolEntrySchema)),
  workflows: optional(Type.Array(WorkflowEntrySchema)),
  requires: optional(Type.Array(RequiresEntrySchema)),
  mcp_servers: optional(Type.Array(McpServerEntrySchema)),
  /** `[pip]`: requirements installed in the package's environment. */
  pip: optional(table({ packages: optional(strList) })),
  triggers: optional(boundedList(TriggerEntrySchema, MAX_TRIGGERS)),
});
export type ApolliaManifest = Static<typeof ApolliaManifestSchema>;
