/**
 * The store's state file, format 5 (the current one), defined once with TypeBox: each record's
 * schema is what a state file must meet to be loaded (compiled ahead of time by
 * `scripts/compile-schemas.ts` into `generated/store-state-validator.js`), and its `Static` type is
 * the record type the core reads and writes. An older format has no schema of its own: its
 * migration (`state.ts`, `format-4-permissions.ts`, `format-5-pins.ts`) brings it to this one
 * before it is checked. A new format is a new file beside this one. Loaded only by the schema
 * compiler and tests (TypeBox takes about a second to load): the core imports only its types.
 *
 * DESIGN.md "Consent, install, apply": the store records the user's answers, never the package's
 * defaults. Paths inside it are relative to the data folder, except a watched folder, which is the
 * absolute path the user picked. Every object is closed, so a file of a newer format is refused
 * (`store.future_version`) rather than half read.
 */
import { type Static, Type } from 'typebox';
import { type ApplyReceipt } from '../../../../shared/contract/api';
import { WEBHOOK_PORT_RANGE } from '../../../../shared/base/limits';
import { type ActionFamily, type ApolliaManifest, MCP_TRANSPORTS } from '../../../../shared/manifests/apollia-manifest';
import type { ApplyPreview } from '../../../../shared/decisions/apply-preview';
import type { SignatureSummary } from '../../../../shared/manifests/inspection';
import { closed, exactly, exactlyOne, mapOf, oneOf, orNull, shaped } from '../../../../shared/base/schema-kit';
import type { PinValue, TemplateModel } from '../../../../shared/manifests/template-manifest';
import { MAX_TRUSTED_KEYS } from '../../../../shared/trust/trust';

const str = Type.String();
const nstr = orNull('string');
const bool = Type.Boolean();
/** A family the store keeps as written by the core (the schema checks it is text or null). */
const family = shaped<ActionFamily | null>({ type: ['string', 'null'] });
const permission = oneOf(['allow', 'ask', 'deny']);

// ---- Trust ------------------------------------------------------------------------------------

/**
 * The key (or "unsigned") pinned at first install; an update must keep it or be accepted
 * explicitly. It holds the whole public key (`key`), or only the id an unknown key claimed
 * (`claimed_key`), or a format-3 key id whose key was gone at migration (`key_id_only`).
 */
export const KeyPinSchema = exactlyOne(
  closed({ kind: exactly('key'), keyId: str, publicKey: str }),
  closed({ kind: exactly('claimed_key'), keyId: str }),
  closed({ kind: exactly('key_id_only'), keyId: str }),
  closed({ kind: exactly('unsigned') }),
);

/** The signature state of the installed bytes, as inspect saw them: never `invalid` (install refuses it). */
const signatureSummary = shaped<SignatureSummary>(
  closed({
    state: oneOf(['verified', 'unknown_key', 'unsigned', 'builtin']),
    key_id: nstr,
    trusted_comment: nstr,
    signer: nstr,
    public_key: nstr,
    reason: Type.Null(),
    message: Type.Null(),
  }),
);

/** A trigger the integrity check disarmed, and the folder it watched (null for other types). */
export const DisarmedByCheckSchema = closed({ trigger: str, folder: nstr });
export type DisarmedByCheck = Static<typeof DisarmedByCheckSchema>;

/**
 * What trust records of one installed package, beside its package record: the pin, the signature
 * state (`list --json`, the dashboard), the SHA-256 of every file install wrote by path relative to
 * the package folder (null for a package installed before format 3, recorded at its first check),
 * and the last integrity check: `changed` once any file differed (it stays until reinstalled or
 * uninstalled), with the triggers it disarmed, each with the folder it watched: what a reinstall of
 * the same version arms again (absent in a file written before it was kept: nothing to re-arm).
 */
export const PackageTrustRecordSchema = closed({
  pin: KeyPinSchema,
  signature: signatureSummary,
  files: shaped<Record<string, string> | null>({
    type: ['object', 'null'],
    additionalProperties: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  }),
  integrity: closed({
    state: oneOf(['ok', 'changed']),
    checkedAt: nstr,
    changed: Type.Array(str),
    missing: Type.Array(str),
    added: Type.Array(str),
    disarmed: Type.Optional(Type.Array(DisarmedByCheckSchema)),
  }),
});
export type PackageTrustRecord = Static<typeof PackageTrustRecordSchema>;

/** A key the user trusts; `parseTrustedKeys` re-checks each on load. */
const trustedKey = closed({ keyId: str, publicKey: str, name: str, addedAt: str });

// ---- Packages, agents, triggers -----------------------------------------------------------------

/**
 * An installed `.apo` package: `dir` is the extracted package, relative to the data folder
 * (`packages/<name>/<version>`); `manifest` the manifest as inspected: what the user consented to,
 * for the next update's diff.
 */
export const PackageRecordSchema = closed({
  name: str,
  version: str,
  publisher: str,
  description: str,
  sha256: str,
  installedAt: str,
  updatedAt: nstr,
  dir: str,
  manifest: shaped<ApolliaManifest>({ type: 'object' }),
});
export type PackageRecord = Static<typeof PackageRecordSchema>;

/** One access entry of a package agent: granted when `permission` is not `deny`, decided once and kept. */
const accessDecision = closed({ entry: str, family, granted: bool, permission });

/**
 * An agent of an installed package (`<package>/<agent id>`): its data comes from the manifest, its
 * access from the user.
 */
export const PackageAgentRecordSchema = closed({
  origin: exactly('package'),
  id: str,
  packageName: str,
  agentId: str,
  displayName: str,
  description: str,
  access: Type.Array(accessDecision),
  model: nstr,
  createdAt: str,
  archived: bool,
});
export type PackageAgentRecord = Static<typeof PackageAgentRecordSchema>;

/** One tool of a template agent's tool settings; `pinMissing`: the pin's parameters were not given, so it stays denied. */
export const ToolSettingRecordSchema = closed({
  family,
  setting: permission,
  pin: shaped<Record<string, PinValue> | null>({ type: ['object', 'null'] }),
  pinMissing: bool,
});
export type ToolSettingRecord = Static<typeof ToolSettingRecordSchema>;

/**
 * An agent made by applying a template: exactly what the apply preview showed. `dir` is its folder,
 * relative to the data folder (`agents/<id>`): `instructions.md`, and each skill's folder
 * (`skills/<name>/SKILL.md` …) with every rule and the output schema beside its SKILL.md.
 */
export const TemplateAgentRecordSchema = closed({
  origin: exactly('template'),
  id: str,
  templateName: str,
  templateVersion: str,
  displayName: str,
  description: str,
  dir: str,
  files: Type.Array(str),
  toolSettings: mapOf(ToolSettingRecordSchema),
  model: shaped<TemplateModel | null>({ type: ['object', 'null'] }),
  effort: nstr,
  budgetPerRunUsd: orNull('number'),
  learning: orNull('boolean'),
  approvals: oneOf(['ask', 'never']),
  preview: shaped<ApplyPreview>({ type: 'object' }),
  requestId: str,
  createdAt: str,
  archived: bool,
});
export type TemplateAgentRecord = Static<typeof TemplateAgentRecordSchema>;

export const AgentRecordSchema = exactlyOne(PackageAgentRecordSchema, TemplateAgentRecordSchema);
export type AgentRecord = PackageAgentRecord | TemplateAgentRecord;

/**
 * A trigger, proposed by a package or made by an apply; armed only by the user. `id` is
 * `<package>/<trigger id>` or `<agent id>/<trigger name>`; `agentId` the store agent it starts, or
 * null when it starts a package workflow; `dayRule` `and` for `.apo` triggers, `or` for template
 * schedules (DESIGN.md "Cron"); `folder` the folder a file_watch watches (absolute, from a
 * main-process folder dialog); `secretRef` the key of its sealed secret in `webhookSecrets`;
 * `secretOrigin` whether the webhook secret was made here (shown once) or given by the sender
 * (pasted), and `secretSetAt` when it was last set (both null without a secret).
 */
export const TriggerRecordSchema = closed({
  id: str,
  name: str,
  packageName: nstr,
  agentId: nstr,
  target: str,
  input: nstr,
  type: oneOf(['cron', 'interval', 'file_watch', 'webhook', 'schedule', 'at']),
  schedule: nstr,
  every: nstr,
  timezone: nstr,
  at: nstr,
  recursive: orNull('boolean'),
  events: shaped<string[] | null>({ type: ['array', 'null'], items: str }),
  maxConcurrent: orNull('integer'),
  dayRule: oneOf(['and', 'or']),
  armed: bool,
  armedAt: nstr,
  folder: nstr,
  secretRef: nstr,
  secretOrigin: oneOf(['made', 'given', null]),
  secretSetAt: nstr,
});
export type TriggerRecord = Static<typeof TriggerRecordSchema>;

/**
 * A saved MCP server as the store keeps it: its url and arguments masked (`mcp-credentials.ts`),
 * and `sealed`, the secret box's seal (base64) of the real url and arguments when they held a
 * credential, else null. Only `mcpServerForRun` opens it.
 */
export const StoredMcpServerSchema = closed({
  name: str,
  transport: oneOf(MCP_TRANSPORTS),
  command: Type.Optional(str),
  args: Type.Optional(Type.Array(str)),
  url: Type.Optional(str),
  sealed: nstr,
});
export type StoredMcpServer = Static<typeof StoredMcpServerSchema>;

// ---- The whole file ---------------------------------------------------------------------------

/**
 * The whole state file. `settings.secrets`: saved secrets by catalogue name (base64 of the sealed
 * value). `settings.deniedTools`: tools the owner never allows on this machine (Settings → Tools you
 * never allow), by gate name (`mcp:<server>/<tool>`) or native tool name, sorted, each once: apply
 * never grants one of them (template spec "Apply" step 2). `settings.webhookPort`: the port the
 * webhook listener binds on 127.0.0.1, or null for `DEFAULT_WEBHOOK_PORT`. `webhookSecrets`: by ref,
 * base64 of the sealed value. `applies`: by client request id, so a second apply with the same id
 * and body answers the first's receipt and makes nothing (template spec "Apply": Idempotency-Key);
 * `fingerprint` is the SHA-256 of the body, so the same id with another body is refused. `damage`:
 * damaged state files kept aside, shown on the dashboard. `trustedKeys`: the keys the user trusts;
 * `packageTrust`: each installed package's pin, signature and file digests, by package name.
 */
export const STATE_SCHEMA = closed({
  version: exactly(5),
  packages: mapOf(PackageRecordSchema),
  agents: mapOf(AgentRecordSchema),
  triggers: mapOf(TriggerRecordSchema),
  settings: closed({
    mcpServers: mapOf(StoredMcpServerSchema),
    secrets: mapOf(closed({ sealed: str, savedAt: str })),
    deniedTools: Type.Array(str, { uniqueItems: true }),
    webhookPort: shaped<number | null>({
      type: ['integer', 'null'],
      minimum: WEBHOOK_PORT_RANGE.min,
      maximum: WEBHOOK_PORT_RANGE.max,
    }),
  }),
  webhookSecrets: mapOf(str),
  applies: mapOf(shaped<ApplyReceipt & { fingerprint?: string }>({ type: 'object' })),
  damage: Type.Array(closed({ keptAs: str, reason: str, at: str })),
  trustedKeys: Type.Array(trustedKey, { maxItems: MAX_TRUSTED_KEYS }),
  packageTrust: mapOf(PackageTrustRecordSchema),
});
export type StoreState = Static<typeof STATE_SCHEMA>;
