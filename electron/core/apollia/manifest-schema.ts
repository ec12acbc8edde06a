/**
 * The strict JSON Schema of `apollia.toml` (spec: apollia-package-manifest.md, "Tables" and
 * "Strict schema"). Every table refuses keys it does not know (`additionalProperties: false`).
 *
 * Identifier patterns, semver and the sdk requirement are deliberately NOT checked here: the spec's
 * "Validation" rules own them and have their own messages, so the schema must not pre-empt them.
 * Cron schedules and intervals are checked here (formats `cron` and `interval`): they are the
 * shape of a `[triggers.source]` value, not one of the seven rules.
 */
import { ACTION_FAMILIES, AUTONOMY_TIERS, MCP_TRANSPORTS, PLANNING_MODES } from '../../../shared/apollia-manifest';
import { MAX_ACCESS_PER_AGENT, MAX_AGENTS, MAX_TRIGGERS } from '../../../shared/limits';

const str = { type: 'string' } as const;
const nonEmpty = { type: 'string', minLength: 1 } as const;
const strList = { type: 'array', items: { type: 'string' } } as const;
const positiveInt = { type: 'integer', minimum: 1 } as const;
const table = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

/** A free-form table: the JSON Schema of a tool's or workflow's inputs, checked separately. */
const inputsTable = { type: 'object' } as const;

const request = table({
  temperature: { type: 'number', minimum: 0 },
  top_p: { type: 'number', minimum: 0, maximum: 1 },
  top_k: { type: 'integer', minimum: 0 },
  repetition_penalty: { type: 'number', minimum: 0 },
  max_tokens: positiveInt,
  seed: { type: 'integer' },
});

const agent = table(
  {
    id: str,
    name: nonEmpty,
    mission: nonEmpty,
    examples: strList,
    defaults: table({
      access: { type: 'array', maxItems: MAX_ACCESS_PER_AGENT, items: str },
      sources: strList,
      autonomy: { type: 'string', enum: [...AUTONOMY_TIERS] },
      planning: { type: 'string', enum: [...PLANNING_MODES] },
      model: table({ model: str, preset: str, request }),
    }),
  },
  ['id', 'name', 'mission'],
);

const toolProperties = {
  name: str,
  module: nonEmpty,
  description: nonEmpty,
  action: { type: 'string', enum: [...ACTION_FAMILIES] },
  inputs: inputsTable,
};

const mcpServer = table(
  {
    name: str,
    command: str,
    args: strList,
    env: { type: 'object', additionalProperties: str },
    transport: { type: 'string', enum: [...MCP_TRANSPORTS] },
    url: str,
    init_timeout_secs: positiveInt,
    call_timeout_secs: positiveInt,
    max_response_bytes: positiveInt,
    max_tools: positiveInt,
    tags: strList,
    // Retired (spec "[[mcp_servers]]": "is still read, logs a package.manifest.retired_key warning
    // and does nothing"): any value is read, warned about, and ignored. The spec gives it no type,
    // and one that does nothing cannot be of a wrong one (`requires_approval = "yes"`).
    requires_approval: {},
  },
  ['name'],
);

/** The trigger source types (spec: "[triggers.source] is tagged by type"). */
export const TRIGGER_SOURCE_TYPES = ['cron', 'interval', 'file_watch', 'webhook'] as const;

const source = {
  type: 'object',
  discriminator: { propertyName: 'type' },
  required: ['type'],
  oneOf: [
    table({ type: { const: 'cron' }, schedule: { type: 'string', format: 'cron' } }, ['type', 'schedule']),
    table({ type: { const: 'interval' }, every: { type: 'string', format: 'interval' } }, ['type', 'every']),
    table({ type: { const: 'file_watch' }, recursive: { type: 'boolean' } }, ['type']),
    table({ type: { const: 'webhook' } }, ['type']),
  ],
};

const trigger = table({ id: str, target: str, input: str, source }, ['id', 'target', 'source']);

/**
 * The ajv options the manifest schema is compiled with (at build time, `scripts/compile-schemas.ts`):
 * every error (the report lists them all, in document order), `discriminator` for the trigger
 * sources, strict mode so the schema itself cannot carry a typo.
 */
export const MANIFEST_AJV_OPTIONS = {
  allErrors: true,
  discriminator: true,
  strict: true,
  strictRequired: false,
} as const;

/** The whole manifest. */
export const MANIFEST_SCHEMA = table(
  {
    package: table({ name: str, version: str, publisher: nonEmpty, description: str, sdk: str }, [
      'name',
      'version',
      'publisher',
      'sdk',
    ]),
    agents: { type: 'array', maxItems: MAX_AGENTS, items: agent },
    tools: { type: 'array', items: table(toolProperties, ['name', 'module', 'description', 'action']) },
    workflows: {
      type: 'array',
      items: table({ ...toolProperties, steps: strList }, ['name', 'module', 'description', 'action']),
    },
    requires: { type: 'array', items: table({ type: nonEmpty, reason: str }, ['type']) },
    mcp_servers: { type: 'array', items: mcpServer },
    pip: table({ packages: strList }),
    triggers: { type: 'array', maxItems: MAX_TRIGGERS, items: trigger },
  },
  ['package'],
);
