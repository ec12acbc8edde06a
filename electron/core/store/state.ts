/**
 * The store's one state file (`state.json` in the data folder): its records and its schema.
 *
 * DESIGN.md "Consent, install, apply": the store records the user's answers, never the package's
 * defaults; it is versioned and validated on load. Paths inside it are relative to the data folder,
 * except a watched folder, which is the absolute path the user picked.
 */
import type { ValidateFunction } from 'ajv';
import {
  type ApplyReceipt,
  type SavedMcpServer,
  type StoreDamage,
  type TriggerView,
  WEBHOOK_PORT_RANGE,
} from '../../../shared/api';
import type { ApolliaManifest } from '../../../shared/apollia-manifest';
import type { ApplyPreview, ToolSetting } from '../../../shared/apply-preview';
import type { AccessDecision } from '../../../shared/consent';
import type { PinValue, TemplateModel } from '../../../shared/template-manifest';
import type { ActionFamily } from '../../../shared/apollia-manifest';
import type { WebhookSecretOrigin } from '../../../shared/webhook-secret';
import type { SignatureSummary } from '../../../shared/inspection';
import type { KeyPin, TrustedKey } from '../../../shared/trust';
import { ownRecord } from '../../../shared/own-data';
import { validateState } from '../generated/store-state-validator';
import { migrateFrom3 } from './format-4-permissions';
import { migrateFrom4 } from './format-5-pins';
import { isObject } from './migration-values';

// ---- Trust (format 3) ---------------------------------------------------------------

/**
 * What trust records of one installed package, beside its {@link PackageRecord} (a block of its
 * own, so other format-3 fields merge without touching it).
 */
export interface PackageTrustRecord {
  /** The key (or "unsigned") pinned at first install; an update must keep it or be accepted explicitly. */
  pin: KeyPin;
  /** The signature state of the installed bytes, as inspect saw them (`list --json`, the dashboard). */
  signature: SignatureSummary;
  /**
   * SHA-256 of every file install wrote, by path relative to the package folder; null for a
   * package installed before format 3, whose files are recorded at its first check.
   */
  files: Record<string, string> | null;
  /** The last integrity check: `changed` once any file differed (stays until reinstalled or uninstalled). */
  integrity: {
    state: 'ok' | 'changed';
    checkedAt: string | null;
    changed: string[];
    missing: string[];
    added: string[];
    /**
     * The triggers this check disarmed, each with the folder it watched: what a reinstall of the
     * same version arms again. Absent in a file written before it was kept (nothing to re-arm).
     */
    disarmed?: DisarmedByCheck[];
  };
}

/** A trigger the integrity check disarmed, and the folder it watched (null for other types). */
export interface DisarmedByCheck {
  trigger: string;
  folder: string | null;
}

// Format 5: the pin holds the whole public key (`key`), or only the id an unknown key claimed
// (`claimed_key`), or a format-3 key id whose key was gone at migration (`key_id_only`).
const pinSchema = {
  oneOf: [
    closedSchema({ kind: { const: 'key' }, keyId: { type: 'string' }, publicKey: { type: 'string' } }),
    closedSchema({ kind: { const: 'claimed_key' }, keyId: { type: 'string' } }),
    closedSchema({ kind: { const: 'key_id_only' }, keyId: { type: 'string' } }),
    closedSchema({ kind: { const: 'unsigned' } }),
  ],
};
const signatureSummarySchema = closedSchema({
  state: { enum: ['verified', 'unknown_key', 'unsigned', 'builtin'] },
  key_id: { type: ['string', 'null'] },
  trusted_comment: { type: ['string', 'null'] },
  signer: { type: ['string', 'null'] },
  public_key: { type: ['string', 'null'] },
  reason: { type: 'null' },
  message: { type: 'null' },
});
const stringList = { type: 'array', items: { type: 'string' } };
const packageTrustSchema = closedSchema({
  pin: pinSchema,
  signature: signatureSummarySchema,
  files: { type: ['object', 'null'], additionalProperties: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
  integrity: {
    ...closedSchema({
      state: { enum: ['ok', 'changed'] },
      checkedAt: { type: ['string', 'null'] },
      changed: stringList,
      missing: stringList,
      added: stringList,
    }),
    properties: {
      state: { enum: ['ok', 'changed'] },
      checkedAt: { type: ['string', 'null'] },
      changed: stringList,
      missing: stringList,
      added: stringList,
      disarmed: {
        type: 'array',
        items: closedSchema({ trigger: { type: 'string' }, folder: { type: ['string', 'null'] } }),
      },
    },
  },
});
/** The trusted keys' shape; `parseTrustedKeys` re-checks each key on load. */
const trustedKeysSchema = {
  type: 'array',
  maxItems: 256,
  items: closedSchema({
    keyId: { type: 'string' },
    publicKey: { type: 'string' },
    name: { type: 'string' },
    addedAt: { type: 'string' },
  }),
};

function closedSchema(properties: Record<string, unknown>) {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

// ---- end of the trust block -------------------------------------------------------------------

/**
 * The state file's format version. A newer file is refused, never rewritten; an older one is
 * migrated on load (`migrateState`) and written in this format by the next change.
 *
 * 2: `settings.deniedTools`. A bump rather than an optional field: every object of the format is
 * closed, so an app of format 1 would take a file holding the new field for damaged and set it
 * aside; with the bump it refuses it as `store.future_version` and leaves it as it is.
 *
 * 3 (webhook secret origin): each trigger's `secretOrigin` and `secretSetAt`.
 * 3 (trust): `trustedKeys` and `packageTrust` (see their block below).
 * 3 (live triggers): `settings.webhookPort`.
 * 3: `settings.mcpServers[*].sealed` (MCP server credentials).
 *
 * 4: (one decision model) each package agent's `access[*].permission`: how a granted entry runs,
 * decided once by `shared/decisions.ts` and kept (`migrateFrom3`).
 *
 * 5: key pins hold the whole public key, not only its id (DESIGN.md "Trust after install"), and
 * each package's signature summary its `public_key` (`migrateFrom4`).
 */
export const STATE_VERSION = 5;

// ---- Format 3, live triggers: the webhook listener's port ----
/** The closed sub-schema of `settings.webhookPort`: a port of `WEBHOOK_PORT_RANGE`, or null for the default. */
const webhookPortSchema = {
  type: ['integer', 'null'],
  minimum: WEBHOOK_PORT_RANGE.min,
  maximum: WEBHOOK_PORT_RANGE.max,
};
/**
 * The webhook port's step from format 2: no port chosen yet (the trigger host uses its default). Settings that
 * are not an object, or already hold a port, are left for `stateProblem`.
 */
function withWebhookPort(file: Record<string, unknown>): Record<string, unknown> {
  const settings = file.settings;
  if (
    typeof settings !== 'object' ||
    settings === null ||
    Array.isArray(settings) ||
    Object.hasOwn(settings, 'webhookPort')
  )
    return file;
  return { ...file, settings: { ...settings, webhookPort: null } };
}
// ---- end of format 3, the webhook listener's port ----

/** An installed `.apo` package. */
export interface PackageRecord {
  name: string;
  version: string;
  publisher: string;
  description: string;
  sha256: string;
  installedAt: string;
  updatedAt: string | null;
  /** The extracted package, relative to the data folder (`packages/<name>/<version>`). */
  dir: string;
  /** The manifest as inspected: what the user consented to, for the next update's diff. */
  manifest: ApolliaManifest;
}

/** An agent of an installed package: its data comes from the manifest, its access from the user. */
export interface PackageAgentRecord {
  origin: 'package';
  /** `<package>/<agent id>`. */
  id: string;
  packageName: string;
  agentId: string;
  displayName: string;
  description: string;
  access: AccessDecision[];
  model: string | null;
  createdAt: string;
  archived: boolean;
}

/** One tool of a template agent's tool settings. */
export interface ToolSettingRecord {
  family: ActionFamily | null;
  setting: ToolSetting;
  pin: Record<string, PinValue> | null;
  /** The pin's parameters were not given: the tool stays denied (spec "Apply"). */
  pinMissing: boolean;
}

/** An agent made by applying a template: exactly what the apply preview showed. */
export interface TemplateAgentRecord {
  origin: 'template';
  id: string;
  templateName: string;
  templateVersion: string;
  displayName: string;
  description: string;
  /**
   * Its folder, relative to the data folder (`agents/<id>`): `instructions.md`, and each skill's folder
   * (`skills/<name>/SKILL.md` …) with every rule and the output schema beside its SKILL.md.
   */
  dir: string;
  files: string[];
  toolSettings: Record<string, ToolSettingRecord>;
  model: TemplateModel | null;
  effort: string | null;
  budgetPerRunUsd: number | null;
  learning: boolean | null;
  approvals: 'ask' | 'never';
  preview: ApplyPreview;
  requestId: string;
  createdAt: string;
  archived: boolean;
}

export type AgentRecord = PackageAgentRecord | TemplateAgentRecord;

/** A trigger: proposed by a package or made by an apply; armed only by the user. */
export interface TriggerRecord {
  /** `<package>/<trigger id>` or `<agent id>/<trigger name>`. */
  id: string;
  name: string;
  packageName: string | null;
  /** The agent it starts (a store agent id), or null when it starts a package workflow. */
  agentId: string | null;
  target: string;
  input: string | null;
  type: TriggerView['type'];
  schedule: string | null;
  every: string | null;
  timezone: string | null;
  at: string | null;
  recursive: boolean | null;
  events: string[] | null;
  maxConcurrent: number | null;
  /** `and` for `.apo` triggers, `or` for template schedules (DESIGN.md "Cron"). */
  dayRule: 'and' | 'or';
  armed: boolean;
  armedAt: string | null;
  /** The folder a file_watch watches: absolute, from a main-process folder dialog. */
  folder: string | null;
  /** Key of the sealed secret in `webhookSecrets`, or null. */
  secretRef: string | null;
  // --- Format 3: webhook secret origin ---
  /**
   * Where the webhook secret came from: made here (shown once) or given by the sender (pasted); null without a secret.
   */
  secretOrigin: WebhookSecretOrigin | null;
  /** When the webhook secret was last set (ISO 8601), or null without a secret. */
  secretSetAt: string | null;
  // --- end webhook secret origin ---
}

// --- format 3: MCP server credentials ------------------------------------------------
/**
 * A saved MCP server as the store keeps it (format 3): its url and arguments masked
 * (`mcp-credentials.ts`), and `sealed`, the secret box's seal (base64) of the real url and
 * arguments when they held a credential, else null. Only `mcpServerForRun` opens it.
 */
export type StoredMcpServer = SavedMcpServer & { sealed: string | null };
// --- end format 3: MCP server credentials --------------------------------------------------------

/** The whole state file. */
export interface StoreState {
  version: typeof STATE_VERSION;
  packages: Record<string, PackageRecord>;
  agents: Record<string, AgentRecord>;
  triggers: Record<string, TriggerRecord>;
  settings: {
    mcpServers: Record<string, StoredMcpServer>;
    /** Saved secrets by catalogue name: base64 of the sealed value. */
    secrets: Record<string, { sealed: string; savedAt: string }>;
    /**
     * Tools the owner never allows on this machine (Settings → Tools you never allow), by gate name
     * (`mcp:<server>/<tool>`) or native tool name, sorted, each once. Template spec "Apply" step 2:
     * apply never grants one of them; it stays denied, with a `grants.<tool>` warning.
     */
    deniedTools: string[];
    /** The port the webhook listener binds on 127.0.0.1 (Settings), or null for `DEFAULT_WEBHOOK_PORT`. */
    webhookPort: number | null;
  };
  /** Webhook secrets by ref: base64 of the sealed value. */
  webhookSecrets: Record<string, string>;
  /**
   * Applies by client request id: a second apply with the same id and body answers this and makes
   * nothing (template spec "Apply": Idempotency-Key). `fingerprint` is the SHA-256 of the body, so
   * the same id with another body is refused rather than answered with a receipt it did not ask for.
   */
  applies: Record<string, ApplyReceipt & { fingerprint?: string }>;
  /** Damaged state files kept aside, shown on the dashboard. */
  damage: StoreDamage[];
  /** Trust (format 3): the keys the user trusts (Settings → Trusted publishers; CLI `trust`). */
  trustedKeys: TrustedKey[];
  /** Trust (format 3): each installed package's pin, signature and file digests, by package name. */
  packageTrust: Record<string, PackageTrustRecord>;
}

/** A state with nothing installed. */
export function emptyState(): StoreState {
  return ownRecords({
    version: STATE_VERSION,
    packages: {},
    agents: {},
    triggers: {},
    settings: { mcpServers: {}, secrets: {}, deniedTools: [], webhookPort: null },
    webhookSecrets: {},
    applies: {},
    damage: [],
    trustedKeys: [],
    packageTrust: {},
  });
}

/**
 * `state` with every record keyed by a name made a null-prototype record (`ownRecord`), in place;
 * returns `state`.
 *
 * Why: a package may be called `__proto__`, `constructor` or `prototype`
 * (`[a-z0-9_-]+`), and so may an agent, a trigger or an MCP server. `JSON.parse` keeps such a key as
 * an own property, but `structuredClone` and literal `{}` give back objects with a prototype, where
 * `packages['__proto__'] = record` replaces the prototype and the record is lost. The store applies
 * this to what it loads, to each draft it hands to a change, and to a fresh state.
 */
export function ownRecords(state: StoreState): StoreState {
  state.packages = ownRecord(Object.entries(state.packages));
  state.agents = ownRecord(Object.entries(state.agents));
  for (const agent of Object.values(state.agents))
    if (agent.origin === 'template') agent.toolSettings = ownRecord(Object.entries(agent.toolSettings));
  state.triggers = ownRecord(Object.entries(state.triggers));
  state.settings.mcpServers = ownRecord(Object.entries(state.settings.mcpServers));
  state.settings.secrets = ownRecord(Object.entries(state.settings.secrets));
  state.webhookSecrets = ownRecord(Object.entries(state.webhookSecrets));
  state.applies = ownRecord(Object.entries(state.applies));
  state.packageTrust = ownRecord(Object.entries(state.packageTrust));
  return state;
}

const str = { type: 'string' };
const nstr = { type: ['string', 'null'] };
const bool = { type: 'boolean' };
const obj = { type: 'object' };
const rec = (items: unknown) => ({ type: 'object', additionalProperties: items });
const closed = (properties: Record<string, unknown>) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

const packageSchema = closed({
  name: str,
  version: str,
  publisher: str,
  description: str,
  sha256: str,
  installedAt: str,
  updatedAt: nstr,
  dir: str,
  manifest: obj,
});
const accessSchema = closed({
  entry: str,
  family: nstr,
  granted: bool,
  permission: { enum: ['allow', 'ask', 'deny'] },
});
const packageAgent = closed({
  origin: { const: 'package' },
  id: str,
  packageName: str,
  agentId: str,
  displayName: str,
  description: str,
  access: { type: 'array', items: accessSchema },
  model: nstr,
  createdAt: str,
  archived: bool,
});
const toolSetting = closed({
  family: nstr,
  setting: { enum: ['allow', 'ask', 'deny'] },
  pin: { type: ['object', 'null'] },
  pinMissing: bool,
});
const templateAgent = closed({
  origin: { const: 'template' },
  id: str,
  templateName: str,
  templateVersion: str,
  displayName: str,
  description: str,
  dir: str,
  files: { type: 'array', items: str },
  toolSettings: rec(toolSetting),
  model: { type: ['object', 'null'] },
  effort: nstr,
  budgetPerRunUsd: { type: ['number', 'null'] },
  learning: { type: ['boolean', 'null'] },
  approvals: { enum: ['ask', 'never'] },
  preview: obj,
  requestId: str,
  createdAt: str,
  archived: bool,
});
/** Format 3: a trigger's webhook secret origin and when it was set (closed enum, nullable). */
const webhookSecretOriginFields = { secretOrigin: { enum: ['made', 'given', null] }, secretSetAt: nstr };
const trigger = closed({
  id: str,
  name: str,
  packageName: nstr,
  agentId: nstr,
  target: str,
  input: nstr,
  type: { enum: ['cron', 'interval', 'file_watch', 'webhook', 'schedule', 'at'] },
  schedule: nstr,
  every: nstr,
  timezone: nstr,
  at: nstr,
  recursive: { type: ['boolean', 'null'] },
  events: { type: ['array', 'null'], items: str },
  maxConcurrent: { type: ['integer', 'null'] },
  dayRule: { enum: ['and', 'or'] },
  armed: bool,
  armedAt: nstr,
  folder: nstr,
  secretRef: nstr,
  // Format 3: webhook secret origin.
  ...webhookSecretOriginFields,
});

/** The JSON Schema a state file must meet to be loaded. */
export const STATE_SCHEMA = closed({
  version: { const: STATE_VERSION },
  packages: rec(packageSchema),
  agents: rec({ oneOf: [packageAgent, templateAgent] }),
  triggers: rec(trigger),
  settings: closed({
    mcpServers: rec({
      type: 'object',
      // `sealed`: format 3, MCP server credentials.
      properties: {
        name: str,
        transport: { enum: ['stdio', 'streamable-http', 'sse'] },
        command: str,
        args: { type: 'array', items: str },
        url: str,
        sealed: nstr,
      },
      required: ['name', 'transport', 'sealed'],
      additionalProperties: false,
    }),
    secrets: rec(closed({ sealed: str, savedAt: str })),
    deniedTools: { type: 'array', items: str, uniqueItems: true },
    webhookPort: webhookPortSchema,
  }),
  webhookSecrets: rec(str),
  applies: rec(obj),
  damage: { type: 'array', items: closed({ keptAs: str, reason: str, at: str }) },
  trustedKeys: trustedKeysSchema,
  packageTrust: rec(packageTrustSchema),
});

/**
 * Brings a parsed state file of an older format up to `STATE_VERSION`, without writing it (the
 * next change writes the new format). Anything that is not an older format's object is returned
 * as it is, for `stateProblem` to judge. Format 1 had no `settings.deniedTools`: none denied;
 * format 2 had none of format 3's additions (`migrateFrom2`).
 */
export function migrateState(value: unknown): unknown {
  return migrateFrom4(migrateFrom3(migrateFrom2(migrateFrom1(value))));
}

function migrateFrom1(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const file = value as { version?: unknown; settings?: unknown };
  if (file.version !== 1) return value;
  const settings = file.settings;
  if (
    typeof settings !== 'object' ||
    settings === null ||
    Array.isArray(settings) ||
    Object.hasOwn(settings, 'deniedTools')
  )
    return value;
  return { ...file, version: 2, settings: { ...settings, deniedTools: [] } };
}

/**
 * Format 2 → 3: each format-3 addition fills its defaults in its own step (the webhook
 * secret origin, the trust block, the sealed MCP server credentials). Anything that is not a format-2 object is left
 * for `stateProblem` to judge.
 */
function migrateFrom2(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const file = value as Record<string, unknown>;
  if (file.version !== 2) return value;
  return { ...withWebhookPort(withMcpSealed(withTrust(withSecretOrigins(file)))), version: 3 };
}

/**
 * The webhook secret origin's step from format 2: every trigger gets `secretOrigin` and `secretSetAt`. A secret
 * kept before format 3 could only be made here, so a trigger with one is `made`, set when it was
 * armed (the closest date known); one without a secret gets nulls. A trigger that is not an object,
 * or already has the fields, is left for `stateProblem` to judge.
 */
function withSecretOrigins(file: Record<string, unknown>): Record<string, unknown> {
  const triggers = file.triggers;
  if (typeof triggers !== 'object' || triggers === null || Array.isArray(triggers)) return file;
  // Object.fromEntries defines own properties: a `__proto__` id stays a key, never a prototype.
  const migrated = Object.fromEntries(
    Object.entries(triggers).map(([id, trigger]) => {
      if (
        typeof trigger !== 'object' ||
        trigger === null ||
        Array.isArray(trigger) ||
        Object.hasOwn(trigger, 'secretOrigin')
      )
        return [id, trigger];
      const old = trigger as { secretRef?: unknown; armedAt?: unknown };
      const withSecret = typeof old.secretRef === 'string';
      return [
        id,
        {
          ...trigger,
          secretOrigin: withSecret ? 'made' : null,
          secretSetAt: withSecret && typeof old.armedAt === 'string' ? old.armedAt : null,
        },
      ];
    }),
  );
  return { ...file, triggers: migrated };
}

/**
 * Trust's step from format 2: no trusted keys, and no trust record per package. A package
 * installed before has none: the integrity check records its files then, and pins it `unsigned`
 * (nothing was signature-checked before format 3).
 */
function withTrust(file: Record<string, unknown>): Record<string, unknown> {
  if (Object.hasOwn(file, 'trustedKeys') || Object.hasOwn(file, 'packageTrust')) return file;
  return { ...file, trustedKeys: [], packageTrust: {} };
}

// --- format 3: MCP server credentials ------------------------------------------------
/**
 * The MCP server credentials' step from format 2: every saved MCP server gets `sealed: null` (nothing sealed). A
 * server saved by format 2 with a credential in clear is still shown masked (`settingsOf` masks
 * every view); its clear copy in the file is sealed when it is saved again.
 */
function withMcpSealed(file: Record<string, unknown>): Record<string, unknown> {
  const settings = file.settings;
  if (!isObject(settings) || !isObject(settings.mcpServers)) return file;
  const servers = Object.entries(settings.mcpServers).map(
    ([name, server]) =>
      [name, isObject(server) && !Object.hasOwn(server, 'sealed') ? { ...server, sealed: null } : server] as const,
  );
  return { ...file, settings: { ...settings, mcpServers: ownRecord(servers) } };
}

// --- end format 3: MCP server credentials --------------------------------------------------------

/** Compiled at build time from {@link STATE_SCHEMA} (scripts/compile-schemas.ts; a test keeps the two in step). */
const validate: ValidateFunction = validateState;

/** Checks parsed JSON against the state schema; returns a sentence naming the first problem, or null. */
export function stateProblem(value: unknown): string | null {
  if (validate(value)) return null;
  const error = validate.errors?.[0];
  if (!error) return 'it does not match the store format';
  return `\`${error.instancePath || '/'}\` ${error.message ?? 'is invalid'}`;
}
