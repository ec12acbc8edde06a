/**
 * The store's one state file (`state.json` in the data folder): a fresh state, the records made
 * own, the migrations from older formats and the check on load. The records and their schema are
 * the current format's, defined once in `schema/format-9.ts` (format 6's records, the record's commit, the person's
 * pause, the person's collector) (its types are re-exported here).
 */
import type { ValidateFunction } from 'ajv';
import { ownRecord } from '../../../shared/base/own-data';
import { validateState } from '../generated/store-state-validator';
import { migrateFrom3 } from './format-4-permissions';
import { migrateFrom4 } from './format-5-pins';
import { migrateFrom5 } from './format-6-feeds';
import { migrateFrom6 } from './format-7-outbox';
import { migrateFrom7 } from './format-8-pause';
import { migrateFrom8 } from './format-9-collector';
import { isObject } from './migration-values';
import type { StoreState } from './schema/format-9';
import { STATE_VERSION } from './schema/state-version';

export { STATE_VERSION } from './schema/state-version';
export type {
  AgentRecord,
  DisarmedByCheck,
  FeedSubscription,
  KeptArchive,
  PackageAgentRecord,
  PackageRecord,
  PackageTrustRecord,
  StoredMcpServer,
  StoreState,
  TemplateAgentRecord,
  ToolSettingRecord,
  PackageUpdateRecord,
  RecordCommit,
  TriggerRecord,
} from './schema/format-9';

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
/** Compile-time proof that the current format's records are the ones {@link STATE_VERSION} names. */
const currentFormat: StoreState['version'] = STATE_VERSION;
void currentFormat;

/** A state with nothing installed. */
export function emptyState(): StoreState {
  return ownRecords({
    version: STATE_VERSION,
    packages: {},
    agents: {},
    triggers: {},
    settings: { mcpServers: {}, secrets: {}, deniedTools: [], webhookPort: null, activityCollector: null },
    webhookSecrets: {},
    applies: {},
    damage: [],
    trustedKeys: [],
    packageTrust: {},
    feeds: {},
    packageUpdates: {},
    record: null,
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
  state.feeds = ownRecord(Object.entries(state.feeds));
  state.packageUpdates = ownRecord(Object.entries(state.packageUpdates));
  return state;
}

/**
 * Brings a parsed state file of an older format up to `STATE_VERSION`, without writing it (the
 * next change writes the new format). Anything that is not an older format's object is returned
 * as it is, for `stateProblem` to judge. Format 1 had no `settings.deniedTools`: none denied;
 * format 2 had none of format 3's additions (`migrateFrom2`).
 */
export function migrateState(value: unknown): unknown {
  return migrateFrom8(
    migrateFrom7(migrateFrom6(migrateFrom5(migrateFrom4(migrateFrom3(migrateFrom2(migrateFrom1(value))))))),
  );
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
