/**
 * The Api's replies whose whole shape this app defines here, each once with TypeBox: the `Static`
 * type is what `shared/contract/api.ts` declares the method answers, and the schema is what a test checks
 * live answers against (`electron/core/app/api-replies.test.ts`), so a reply and its type cannot
 * drift. The trust views, the signature verdict, the waiting runs, the apply preview, an `.apo`
 * inspection's summary, an update's diff, the decisions it starts from and the policy in force are
 * defined here too (their modules re-export the types; the policy file's schema is built of the
 * policy's parts; an installed package's manifest is the manifest's own schema). Checked here only
 * for their JSON kind: an inspection's `summary` and `details` (each kind's reader types its own);
 * the reply test checks an `.apo`'s summary against `ApoSummarySchema`.
 *
 * Like `api-requests.ts`, loaded only by tests and tools: the app imports only its types.
 */
import { type Static, Type } from 'typebox';
import { SavedMcpServerSchema } from './api-requests';
import { ACTION_FAMILIES, MCP_TRANSPORTS } from '../manifests/apollia-manifest';
import { ApolliaManifestSchema } from '../manifests/apollia-manifest-schema';
import { NAME_COMPARISONS } from '../words/display-text';
import { MAX_MCP_SERVER_NAME, MCP_SERVER_NAME } from '../manifests/mcp-server-name';
import { POLICY_TRIGGER_KINDS, type PolicyTriggerKind } from '../policy/policy';
import { RUN_CAUSES } from '../triggers/run-queue';
import { SIGNATURE_UPDATE_KINDS } from '../trust/trust';
import { closed, exactly, mapOf, oneOf, orNull, shaped } from '../base/schema-kit';
import type { ParameterValue, PinValue } from '../manifests/template-manifest';

const str = Type.String();
const nstr = orNull('string');

// ---- What `inspect` shows of a package (shared/manifests/inspection.ts re-exports these) ----

/**
 * One refusal or warning. `code` is stable and dotted (`archive.traversal`, `manifest.unknown_key`,
 * `template.too_large`) so tests and the UI can tell problems apart; `message` is the sentence a
 * person reads (the spec's words where the spec has words); `path` names the field or archive entry.
 */
export const ProblemSchema = closed({ code: str, message: str, path: Type.Optional(str) });
export type Problem = Static<typeof ProblemSchema>;

/**
 * Why a signature is `invalid`: it does not match the package (changed after signing), it was made
 * for another file (its signed comment names another file), its signed comment was edited, it is
 * not a minisign signature at all (or an algorithm this app does not know), or it cannot be read.
 */
export const SIGNATURE_INVALID_REASONS = [
  'does_not_match',
  'other_file',
  'comment_changed',
  'malformed',
  'unsupported',
  'unreadable',
] as const;
export type SignatureInvalidReason = (typeof SIGNATURE_INVALID_REASONS)[number];

/**
 * A signature state as `inspect --json` and `list --json` print it (snake_case, the JSON contract).
 *
 * - `verified`: signed by a key the user trusts; `signer` is the name they gave it, `trusted_comment`
 *   the signed comment, `public_key` the whole key that verified it.
 * - `unknown_key`: a well-formed signature by key `key_id`, which no trusted key has: nothing is
 *   verified, so the comment it claims is not reported (`trusted_comment` null). `public_key` is set
 *   only when the signature holds under the key pinned for the installed package of this name (a
 *   key the person has since removed from their trusted keys): the update keeps that key.
 * - `unsigned`: no `x.apo.minisig` beside the package; a template or plugin manifest not shipped with the app.
 * - `builtin`: a template that ships with the app (`resources/templates/`): it came with the app's
 *   own installer, so no publisher signature applies.
 * - `invalid`: a `.minisig` is there but it does not hold, or is not a signature: `reason` says
 *   which, `message` says why in words. Never a state a package is installed with (a refusal).
 */
export const SignatureSummarySchema = closed({
  state: oneOf(['verified', 'unknown_key', 'unsigned', 'builtin', 'invalid']),
  key_id: nstr,
  trusted_comment: nstr,
  signer: nstr,
  /** The whole public key (base64 line) the signature verified under, or null. */
  public_key: nstr,
  /** `invalid` only: why, as a code (see `SignatureInvalidReason`); null otherwise. */
  reason: oneOf([...SIGNATURE_INVALID_REASONS, null]),
  /** `invalid` only: the check's words; null otherwise. */
  message: nstr,
});
export type SignatureSummary = Static<typeof SignatureSummarySchema>;

/** A trigger as the summary lists it: what the user must supply to arm it. */
export const TriggerSummarySchema = closed({
  id: str,
  type: str,
  /** `folder` for file_watch, `secret` for webhook, else null. */
  needs: oneOf(['folder', 'secret', null]),
});
export type TriggerSummary = Static<typeof TriggerSummarySchema>;

/** `summary` of an accepted or partly read `.apo` (DESIGN.md "Validation contract"). */
export const ApoSummarySchema = closed({
  name: str,
  version: str,
  publisher: str,
  /** Sorted, unique families other than `read` among the package's tools and workflows. */
  sensitive_families: Type.Array(str),
  connections: Type.Array(str),
  mcp_servers: Type.Array(str),
  triggers: Type.Array(TriggerSummarySchema),
  sha256: str,
  /**
   * The package's signature state (DESIGN.md "Trust after install"). A refused signature is
   * `invalid`, with why (`signature.*` is then also the first error): never null, never `unsigned`.
   */
  signature: SignatureSummarySchema,
});
export type ApoSummary = Static<typeof ApoSummarySchema>;

/** One file of an `.apo` as inspection saw it (no contents). */
export const ArchiveFileInfoSchema = closed({
  /** Path relative to the package root, `/`-separated. */
  path: str,
  size: Type.Number(),
  executable: Type.Boolean(),
});
export type ArchiveFileInfo = Static<typeof ArchiveFileInfoSchema>;

/**
 * An input the main process opened for the renderer (dialog, double-click, drop, menu, built-in
 * template). The renderer only ever refers to it by `id`: it never sends a path. `kind` is what it
 * looks like from its content, before the full check; `displayName` its file or folder name and
 * `folders` the folders that hold it, outermost first (empty for a template shipped with the app),
 * both for display only: two files of the same name are told apart by the folders they are in.
 */
export const SourceHandleSchema = closed({
  id: str,
  kind: oneOf(['apo', 'template', 'plugin']),
  displayName: str,
  folders: Type.Array(str),
  origin: oneOf(['dialog', 'command-line', 'open-file', 'drop', 'menu', 'builtin']),
});
export type SourceHandle = Static<typeof SourceHandleSchema>;

/**
 * Where secrets go, told honestly (Settings words each): `keychain` (the OS keychain, through
 * Electron's safeStorage); `file_key` (encrypted with a random key kept in a file beside the data,
 * `secret-box.key`: what the command line and the browser harness use, as they cannot reach a
 * keychain; anyone who can read the data folder can read the secrets); `basic_text` (Electron's
 * Linux fallback with no keyring: obscured with a key built into the app, no real protection); or
 * `unavailable` (nothing can be kept: saving a secret fails); or `pending` (the app has just started
 * and the keychain has not answered yet: what needs a secret waits for it).
 */
export const SecretBackendSchema = oneOf(['keychain', 'file_key', 'basic_text', 'unavailable', 'pending']);
export type SecretBackend = Static<typeof SecretBackendSchema>;

/**
 * `appInfo`: what the About box and the Settings screen show. `sdkVersion`: the runtime SDK this app
 * serves (shared/manifests/sdk.ts). `cliProgram`: how a person runs this app's own command line in a terminal
 * here (`apollia-desktop` on PATH from the deb; the quoted binary inside the app bundle on macOS),
 * or null where the app binary cannot be a console command (Windows' GUI binary, an AppImage): the
 * screens that show a command then say so. Never `npx`: outside the repository it fetches whoever
 * owns the name. `sandboxOff`: the app was started with Chromium's sandbox turned off
 * (`--no-sandbox`): every screen says so, and installing or applying is refused until it is started
 * without it.
 */
export const AppInfoSchema = closed({
  version: str,
  sdkVersion: str,
  secretBackend: SecretBackendSchema,
  cliProgram: nstr,
  sandboxOff: Type.Boolean(),
});
export type AppInfo = Static<typeof AppInfoSchema>;

/**
 * How a package being inspected relates to the version installed here: the version installed on
 * this machine, and what the inspected source is compared to it (the same version, a newer one: an
 * update, an older one: a downgrade).
 */
export const InstalledRelationSchema = closed({ version: str, relation: oneOf(['same', 'newer', 'older']) });
export type InstalledRelation = Static<typeof InstalledRelationSchema>;

/** A webhook secret made on this machine, shown ONCE (never returned again: rotate to see a new one). */
export const WebhookSecretOnceSchema = closed({ triggerId: str, secret: str });
export type WebhookSecretOnce = Static<typeof WebhookSecretOnceSchema>;

/**
 * A webhook secret given by the sender, as an answer says it was kept: never its value (it is
 * sealed and never returned by any method).
 */
export const WebhookSecretGivenSchema = closed({
  triggerId: str,
  given: exactly(true),
  /** The same secret is also set on other triggers: what that does, naming them (never the secret); else null. */
  sharedWarning: nstr,
});
export type WebhookSecretGiven = Static<typeof WebhookSecretGivenSchema>;

// ---- Trust (DESIGN.md "Trust after install"): its views, re-exported by `shared/trust/trust.ts` ----

/**
 * What is pinned per package name at first install (DESIGN.md "Trust after install"):
 *
 * - `key`: the whole public key that verified the installed package; an update must verify under
 *   this key, whether or not the person still trusts it.
 * - `claimed_key`: it was signed by a key the person did not know, so only the id the signature
 *   claimed is known (nothing authenticated it).
 * - `key_id_only`: a pin kept before whole keys were pinned, whose key was no longer trusted when
 *   the store was migrated: nothing can tell whether a later signature is by the same key, so the
 *   next signed update asks the person (a key-change stop).
 * - `unsigned`: it was not signed.
 */
export const KeyPinSchema = Type.Union([
  closed({ kind: exactly('key'), keyId: str, publicKey: str }),
  closed({ kind: exactly('claimed_key'), keyId: str }),
  closed({ kind: exactly('key_id_only'), keyId: str }),
  closed({ kind: exactly('unsigned') }),
]);
export type KeyPin = Static<typeof KeyPinSchema>;

/** How an update's key stands to the pinned one, told both ways: the pins and the names the person gave the keys. */
const keyStory = {
  before: KeyPinSchema,
  now: KeyPinSchema,
  /** The name the person gave the pinned key (as they trust it now, or as it was when installed), or null. */
  beforeName: nstr,
  /** Whether the pinned key is still among the person's trusted keys. */
  beforeTrusted: Type.Boolean(),
  /** The name the person gives the update's key (a trusted key), or null. */
  nowName: nstr,
  /**
   * One sentence naming both keys, as a person knows them (`this update is not signed; the version you have was signed
   * by the key you trust as …`).
   */
  message: str,
};

/** How an update's signing key differs from the one pinned at first install. */
export const KeyChangeSchema = closed({
  /**
   * `changed`: a stop that install refuses unless accepted (`other_key`, `dropped`, `unverifiable_pin`).
   * `first_signed`: an unsigned package now signed (allowed).
   */
  kind: oneOf(['changed', 'first_signed']),
  /** Which change, in the words of `SignatureUpdateKind` (`shared/trust/trust.ts`), never `kept`. */
  change: oneOf(['first_signed', 'other_key', 'dropped', 'unverifiable_pin']),
  ...keyStory,
});
export type KeyChange = Static<typeof KeyChangeSchema>;

/**
 * How an update's signature stands to the installed package's pin, with the names the person gave the keys: a key
 * change that may also be `kept` (re-exported by `shared/trust/signature-verdict.ts`).
 */
export const SignatureUpdateSchema = closed({
  /** See `SignatureUpdateKind` (`shared/trust/trust.ts`). */
  change: oneOf(SIGNATURE_UPDATE_KINDS),
  ...keyStory,
});
export type SignatureUpdate = Static<typeof SignatureUpdateSchema>;

/**
 * The one signature verdict of an inspection (`shared/trust/signature-verdict.ts` words it, and re-exports this): the
 * package's own signature, its publisher field, and the update's key story.
 */
export const SignatureVerdictSchema = closed({
  signature: SignatureSummarySchema,
  /** The publisher the package names (`package.publisher`), or null where there is none (a template). */
  publisher: nstr,
  /**
   * Only for a verified signature: how the name the person gave the key compares with the
   * package's publisher field (`same`, `different`, or a `lookalike`); null otherwise.
   */
  names: oneOf([...NAME_COMPARISONS, null]),
  /**
   * For an installed package's update (or reinstall): kept, first signed, changed, dropped; null for a first install.
   */
  update: Type.Union([SignatureUpdateSchema, Type.Null()]),
});
export type SignatureVerdict = Static<typeof SignatureVerdictSchema>;

/**
 * A key read before it is trusted (Settings → Trusted publishers, a package's "Trust this publisher's key", the CLI's
 * `trust add`): its id and fingerprint are shown before the person gives it a name.
 */
export const KeyPreviewSchema = closed({
  /** 16 uppercase hex digits, as minisign prints it: chosen by whoever made the key, so it proves nothing alone. */
  keyId: str,
  /** The canonical base64 key line (`RWQ…`), what `trustKey` is then given. */
  publicKey: str,
  /**
   * SHA-256 of the whole key, uppercase hex in groups of four: `tail -n 1 KEY.pub | base64 -d | sha256sum` prints the
   * same digits.
   */
  fingerprint: str,
  /** The name this very key is already trusted as, or null. */
  trustedAs: nstr,
});
export type KeyPreview = Static<typeof KeyPreviewSchema>;

/** A key the user trusts, as Settings → Trusted publishers shows it. */
export const TrustedKeyViewSchema = closed({
  /** 16 uppercase hex digits, as minisign prints it. */
  keyId: str,
  name: str,
  /** The base64 key line. */
  publicKey: str,
  /** SHA-256 of the whole key (see `KeyPreview.fingerprint`). */
  fingerprint: str,
  addedAt: str,
  /** Installed packages pinned to this key, sorted: removing the key does not unpin them. */
  pinnedPackages: Type.Array(str),
  /** A key the organization's policy trusts (`trustedPublishers`): locked, never removed here. */
  managed: Type.Optional(Type.Boolean()),
});
export type TrustedKeyView = Static<typeof TrustedKeyViewSchema>;

/** Whether an installed package's files are still the ones install wrote. */
export const PackageIntegrityViewSchema = closed({
  /** `changed`: "changed on this computer since you installed it"; stays until reinstalled or uninstalled. */
  state: oneOf(['ok', 'changed']),
  checkedAt: nstr,
  changed: Type.Array(str),
  missing: Type.Array(str),
  added: Type.Array(str),
  /**
   * The triggers the check that found the change disarmed, with the folder each watched: a reinstall arms them again.
   */
  disarmed: Type.Array(closed({ trigger: str, folder: nstr })),
});
export type PackageIntegrityView = Static<typeof PackageIntegrityViewSchema>;

/** `verifyInstalled`: one installed package's check. */
export const VerifiedPackageSchema = closed({
  name: str,
  version: str,
  integrity: PackageIntegrityViewSchema,
  /** True when this check found the change (and disarmed `disarmed` now). */
  newlyChanged: Type.Boolean(),
  disarmed: Type.Array(str),
});
export type VerifiedPackage = Static<typeof VerifiedPackageSchema>;

/**
 * `listBuiltinTemplates`: a built-in template as the template list shows it (the spec's "The packages
 * this server ships" table). Re-exported by `shared/manifests/template-manifest.ts`.
 */
export const BuiltinTemplateCardSchema = closed({
  name: str,
  title: str,
  whatItDoes: str,
  startedBy: str,
  needs: str,
});
export type BuiltinTemplateCard = Static<typeof BuiltinTemplateCardSchema>;

// ---- Waiting runs (the Runs view, `runs`): re-exported by `shared/triggers/run-queue.ts` ----

/** One run waiting in `runs/pending/`, as the Runs view lists it: never its payload's body. */
export const WaitingRunViewSchema = closed({
  /** The run's id, from its file name: what `discardWaitingRun` takes. */
  id: str,
  /** The store id of the trigger that queued it, from its file name. */
  trigger: str,
  /** The trigger's name, from the store; null when that trigger is no longer on this computer. */
  triggerName: nstr,
  /** The agent it starts and its name, from the store; null for a workflow or a trigger no longer here. */
  agentId: nstr,
  agentName: nstr,
  /** What the run file says it starts (`target`, bounded); null when the file could not be read. */
  target: nstr,
  /** When it fired (ISO 8601), from its file name. */
  firedAt: str,
  /** Why it fired; null when the file could not be read or names no known cause. */
  cause: oneOf([...RUN_CAUSES, null]),
  /** A webhook payload's `type` (bounded text the sender chose), or null; the body is never read out. */
  payloadType: nstr,
  /** Whether it carries a webhook payload. */
  hasPayload: Type.Boolean(),
  /** Why the file could not be read (too large, not JSON, a link, not a file), or null when it was. */
  unreadable: nstr,
});
export type WaitingRunView = Static<typeof WaitingRunViewSchema>;

/** One trigger's runs waiting, and whether its queue is full. */
export const WaitingTriggerViewSchema = closed({
  trigger: str,
  triggerName: nstr,
  agentId: nstr,
  agentName: nstr,
  waiting: Type.Number(),
  /** Most runs it may have waiting (`max_concurrent`, else the host's default); null when the trigger is gone. */
  limit: orNull('number'),
  /** At its limit: new fires are skipped, webhook deliveries turned away, until a run is taken or discarded. */
  full: Type.Boolean(),
});
export type WaitingTriggerView = Static<typeof WaitingTriggerViewSchema>;

/** `waitingRuns`: what waits in `runs/pending/`, oldest first. */
export const WaitingRunsViewSchema = closed({
  /** Every run waiting (counted from file names), with the trigger filter applied. */
  total: Type.Number(),
  /** The oldest runs, at most the listing's cap, each read under a size bound. */
  runs: Type.Array(WaitingRunViewSchema),
  /** Runs waiting that are not listed (past the cap). */
  notListed: Type.Number(),
  /** Per trigger, most waiting first. */
  triggers: Type.Array(WaitingTriggerViewSchema),
});
export type WaitingRunsView = Static<typeof WaitingRunsViewSchema>;

/** `discardWaitingRun` / `discardTriggerRuns`: what was discarded. */
export const RunsDiscardedSchema = closed({
  /** The trigger whose runs were discarded (one run: its trigger). */
  trigger: str,
  /** The ids of the runs removed from `runs/pending/`. */
  discarded: Type.Array(str),
  /** Runs that were gone when it came to remove them (an agent runtime took them meanwhile). */
  alreadyTaken: Type.Number(),
});
export type RunsDiscarded = Static<typeof RunsDiscardedSchema>;

/**
 * `install`'s answer. `outcome` `reinstalled`: the same version put back over files changed on this
 * computer. `keyChange`: the key change this install made (accepted, or unsigned → signed), else
 * null. `armed`: trigger ids armed by this install; `webhookSecrets`: secrets made here, each shown
 * once; `webhookSecretsGiven`: triggers armed with the secret their sender gave (never the value).
 */
export const InstallReceiptSchema = closed({
  name: str,
  version: str,
  publisher: str,
  outcome: oneOf(['installed', 'updated', 'downgraded', 'reinstalled']),
  previousVersion: nstr,
  keyChange: Type.Union([KeyChangeSchema, Type.Null()]),
  installedAt: str,
  armed: Type.Array(str),
  webhookSecrets: Type.Array(WebhookSecretOnceSchema),
  webhookSecretsGiven: Type.Array(WebhookSecretGivenSchema),
});
export type InstallReceipt = Static<typeof InstallReceiptSchema>;

/**
 * One trigger as the dashboard shows it. `id`: the store id (`<package>/<trigger id>` or `<agent
 * id>/<trigger name>`); `name` the package's trigger id or the template trigger's name; `agentId`
 * the agent it starts, or null when it starts a workflow; `words` when it fires, in words; `next`
 * the next fire times (ISO 8601), empty when not armed or not time-based; `folder` the watched
 * folder (file_watch), or null; `webhookSecretSet` whether a webhook has a secret (its value is
 * never shown again), where it came from (made here, given by the sender) and when it was last set
 * (null without one); `waitLimit` the most runs it may have waiting in `runs/pending/`
 * (`max_concurrent`, else the default: at it, its queue is full); `policy` why the organization's policy keeps it from being armed or firing
 * (it stays armed as the person left it), absent when it does not.
 */
export const TriggerViewSchema = closed({
  id: str,
  name: str,
  type: oneOf(['cron', 'interval', 'file_watch', 'webhook', 'schedule', 'at']),
  agentId: nstr,
  target: str,
  words: str,
  next: Type.Array(str),
  armed: Type.Boolean(),
  folder: nstr,
  webhookSecretSet: Type.Boolean(),
  webhookSecretOrigin: oneOf(['made', 'given', null]),
  webhookSecretSetAt: nstr,
  waitLimit: Type.Number(),
  policy: Type.Optional(str),
});
export type TriggerView = Static<typeof TriggerViewSchema>;

/**
 * `armTrigger` / `rotateWebhookSecret`: the trigger, and a webhook's new secret shown once (null for
 * any other trigger or a given secret); `webhookSecretGiven` when the sender's secret was kept (its
 * value is never answered).
 */
export const TriggerArmedSchema = closed({
  trigger: TriggerViewSchema,
  webhookSecret: nstr,
  webhookSecretGiven: Type.Boolean(),
  /** The secret kept is also set on other triggers: what that does, naming them (never the secret); else null. */
  webhookSecretSharedWarning: nstr,
});
export type TriggerArmed = Static<typeof TriggerArmedSchema>;

/** `uninstallPackage`'s answer. */
export const UninstallReceiptSchema = closed({
  name: str,
  version: str,
  removedAgents: Type.Array(str),
  removedTriggers: Type.Array(str),
});
export type UninstallReceipt = Static<typeof UninstallReceiptSchema>;

/**
 * A state file that could not be read, kept aside and shown until the user deals with it: `keptAs`
 * is the name it was kept under in the data folder (`state.json.damaged-<timestamp>`).
 */
export const StoreDamageSchema = closed({ keptAs: str, reason: str, at: str });
export type StoreDamage = Static<typeof StoreDamageSchema>;

/**
 * One tool the "never allow" picker offers: its gate name (`mcp:<server>/<tool>`) or native name
 * (what `denyTool` takes), and what it does, in words (the catalogue's description, or where the MCP
 * tool was seen).
 */
export const KnownToolSchema = closed({ tool: str, description: str, kind: oneOf(['native', 'mcp']) });
export type KnownTool = Static<typeof KnownToolSchema>;

/** `trashSource`: the original file of a refused source moved to the system's Trash; its name, for display. */
export const TrashReceiptSchema = closed({ displayName: str });
export type TrashReceipt = Static<typeof TrashReceiptSchema>;

/** How one activity event ended (electron/core/activity). */
export const ActivityOutcomeSchema = oneOf(['ok', 'refused', 'skipped', 'failed']);
export type ActivityOutcomeView = Static<typeof ActivityOutcomeSchema>;

/**
 * One activity event, as `activity --json` prints it: what changed what an agent may do, or what
 * happened to it. Never a secret or a payload body. `kind` is one of the log's kinds (`install`,
 * `grant`, `arm`, `trigger_fired`, `delivery_refused`, `run_queued`…).
 */
export const ActivityEntrySchema = closed({
  at: str,
  kind: str,
  package: Type.Optional(str),
  agent: Type.Optional(str),
  trigger: Type.Optional(str),
  outcome: ActivityOutcomeSchema,
  detail: str,
});
export type ActivityEntry = Static<typeof ActivityEntrySchema>;

/** `activity`'s answer: the entries, and every agent the record names (for the filter: removed agents too). */
export const ActivityViewSchema = closed({ events: Type.Array(ActivityEntrySchema), agents: Type.Array(str) });
export type ActivityView = Static<typeof ActivityViewSchema>;

/**
 * One trigger as the running trigger host sees it (`triggers/status.json`): a webhook's URL on
 * 127.0.0.1, the next fire time (ISO 8601) of a timed trigger, its deliveries newest first (at most
 * 10: the HTTP status and its short reason), and the runs of it waiting in `runs/pending/`.
 */
export const TriggerLiveViewSchema = closed({
  id: str,
  state: oneOf(['listening', 'watching', 'scheduled', 'problem', 'done']),
  url: nstr,
  folder: nstr,
  next: nstr,
  problem: nstr,
  lastFire: Type.Union([closed({ at: str, cause: str, outcome: oneOf(['queued', 'skipped', 'failed']) }), Type.Null()]),
  deliveries: Type.Array(closed({ at: str, status: Type.Number(), reason: str })),
  waiting: Type.Number(),
});
export type TriggerLiveView = Static<typeof TriggerLiveViewSchema>;

/**
 * `triggerStatus`: whether a trigger host is live for this data folder (it holds the data folder's
 * host lock and its status says it runs), the listener's base URL while running, where the live host
 * runs (in the process answering this Api, the app itself, whose triggers keep running in its tray
 * when the window closes; or in another one, `apollia-desktop serve` or its systemd service, with
 * its process id; null when none runs), when it last wrote its status, the runs waiting in
 * `runs/pending/` (counted now, the oldest one's fire time, and how many each trigger has), and by trigger id the triggers a
 * running (or the last) host made live: empty when no host ever ran.
 */
export const TriggerStatusViewSchema = closed({
  running: Type.Boolean(),
  origin: nstr,
  host: Type.Union([
    closed({ here: exactly(true) }),
    closed({ here: exactly(false), pid: Type.Number() }),
    Type.Null(),
  ]),
  updatedAt: nstr,
  pending: closed({ total: Type.Number(), oldest: nstr, byTrigger: mapOf(Type.Number()) }),
  triggers: mapOf(TriggerLiveViewSchema),
});
export type TriggerStatusView = Static<typeof TriggerStatusViewSchema>;

/**
 * `startAtLogin`: whether the app starts when the person logs in, in its tray (no window), so armed
 * triggers run without anyone opening it. Off until the person turns it on; `available` is false
 * where the host cannot (the command line: use `serve` as a service instead).
 */
export const StartAtLoginViewSchema = closed({ available: Type.Boolean(), on: Type.Boolean() });
export type StartAtLoginView = Static<typeof StartAtLoginViewSchema>;

/** `openDownloadPage`: the address opened in the person's browser (always the app's own download page). */
export const DownloadPageOpenedSchema = closed({ url: str });
export type DownloadPageOpened = Static<typeof DownloadPageOpenedSchema>;

// ---- The apply preview (shared/decisions/apply-preview.ts computes it; re-exported there) ----

const PIN_SCALAR_TYPES = ['string', 'number', 'boolean', 'null'];

/** A pin filled: argument → a scalar (`null`: left out) or a canonical list of them; null when none. */
const filledPin = shaped<Record<string, PinValue> | null>({
  type: ['object', 'null'],
  additionalProperties: { type: [...PIN_SCALAR_TYPES, 'array'], items: { type: PIN_SCALAR_TYPES } },
});

/** One field of the parameter form after checking. */
export const PreviewParameterSchema = closed({
  /** The value apply uses (the given one, else the default), or null when none. */
  value: shaped<ParameterValue | null>({ type: ['string', 'number', 'boolean', 'null'] }),
  error: Type.Optional(str),
});
export type PreviewParameter = Static<typeof PreviewParameterSchema>;

/** One MCP tool as apply would set it. */
export const PreviewMcpToolSchema = closed({
  name: str,
  gateName: str,
  /** What the package asks for it (its `allow` list), shown for consent; never a grant by itself. */
  asks: oneOf(['allow', 'ask']),
  /**
   * What apply writes: `allow` only when granted; `deny` when the owner denies it or its pin's parameter is missing.
   */
  setting: oneOf(['allow', 'ask', 'deny']),
  /** The pin, filled; null when the tool is not pinned or its pin could not be filled (then it is denied). */
  pin: filledPin,
  /** The parameters the pin is filled from. */
  pinnedBy: Type.Optional(Type.Array(str)),
  /** The owner denies it on this machine (Settings → Tools you never allow): denied whatever the grants say. */
  ownerDenied: Type.Optional(exactly(true)),
  /** The pin in words, for the consent screen. */
  pinText: Type.Optional(str),
});
export type PreviewMcpTool = Static<typeof PreviewMcpToolSchema>;

/** One `mcp` entry as apply would grant it. `saved: false` means apply skips it: nothing of it is granted. */
export const PreviewMcpServerSchema = closed({
  server: str,
  saved: Type.Boolean(),
  required: Type.Boolean(),
  tools: Type.Array(PreviewMcpToolSchema),
});
export type PreviewMcpServer = Static<typeof PreviewMcpServerSchema>;

/** One trigger as apply would make it, its parameters filled. */
export const PreviewTriggerSchema = closed({
  name: str,
  type: oneOf(['schedule', 'at', 'webhook']),
  cron: Type.Optional(str),
  timezone: Type.Optional(str),
  /** The schedule in words (standard cron day rule, in its zone). */
  words: Type.Optional(str),
  /** Next fire times, ISO 8601 (a schedule's next three; an `at` trigger's date when still ahead). */
  next: Type.Array(str),
  at: Type.Optional(str),
  events: Type.Optional(Type.Array(str)),
  max_concurrent: Type.Optional(Type.Number()),
  /** The run's input, filled. */
  input: nstr,
  error: Type.Optional(str),
});
export type PreviewTrigger = Static<typeof PreviewTriggerSchema>;

/** A warning or a blocker of the preview. */
export const PreviewProblemSchema = closed({ code: str, path: Type.Optional(str), message: str });
export type PreviewProblem = Static<typeof PreviewProblemSchema>;

const approvals = oneOf(['ask', 'never']);

/** `previewApply`: everything apply would make, and whether it can. */
export const ApplyPreviewSchema = closed({
  displayName: str,
  /** agent.md's body with the parameters filled. */
  instructions: str,
  parameters: mapOf(PreviewParameterSchema),
  /** Native tools the agent gets (the owner's denied ones and those the owner unticked left out). */
  tools: Type.Array(str),
  /** Native tools of the template the owner unticked: recorded as `deny`, allowed later on the dashboard if wanted. */
  withheld: Type.Array(str),
  /**
   * The approvals the agent is made with (the owner's choice, else the template's), and the template's recommendation.
   */
  approvals: closed({ chosen: approvals, recommended: approvals }),
  mcp: Type.Array(PreviewMcpServerSchema),
  triggers: Type.Array(PreviewTriggerSchema),
  secrets: Type.Array(closed({ name: str, saved: Type.Boolean() })),
  warnings: Type.Array(PreviewProblemSchema),
  blockers: Type.Array(closed({ code: str, path: str, message: str })),
  canApply: Type.Boolean(),
});
export type ApplyPreview = Static<typeof ApplyPreviewSchema>;

/** `apply`'s answer: the agent made, the trigger ids made with it (a webhook's secret is made by `armTrigger`, never here), and the preview it recorded. */
export const ApplyReceiptSchema = closed({
  agentId: str,
  displayName: str,
  createdAt: str,
  triggers: Type.Array(str),
  preview: ApplyPreviewSchema,
});
export type ApplyReceipt = Static<typeof ApplyReceiptSchema>;

/**
 * One tool an agent may call, as the dashboard shows it. `what`: what it lets the agent do, in
 * words (the row's first line, its name the second). `permission`: `allow` runs without asking,
 * `ask` asks first, `deny` is never offered; for a package agent, a granted entry asks first when
 * its family is sensitive or unknown (spec: asking is decided on the action family), an ungranted one
 * is denied. `policy`: why the organization's policy withholds it (or keeps it asking) on top of the
 * person's decision; absent when it does not.
 */
export const AccessViewSchema = closed({
  tool: str,
  what: str,
  family: oneOf([...ACTION_FAMILIES, null]),
  permission: oneOf(['allow', 'ask', 'deny']),
  granted: Type.Boolean(),
  pin: filledPin,
  policy: Type.Optional(str),
});
export type AccessView = Static<typeof AccessViewSchema>;

/**
 * A template's MCP server that was not saved when the agent was made, so apply skipped its tools
 * (spec "Apply": an optional server missing is skipped). `saved`: whether it is saved now; then its
 * tools (those not given to the agent yet) can be granted from the agent's card, without applying
 * the template again.
 */
export const WaitingServerViewSchema = closed({
  server: str,
  saved: Type.Boolean(),
  tools: Type.Array(closed({ tool: str, name: str, pinText: nstr, grantable: Type.Boolean() })),
});
export type WaitingServerView = Static<typeof WaitingServerViewSchema>;

/**
 * One agent on this machine. `from`: the package name, or the template name. `approvals`: a
 * template agent's approvals as the owner chose them at apply (agent.md `approvals`), null for a
 * package's agent; `waitingServers`: a template agent's MCP servers skipped at apply, with the tools
 * still waiting (empty for a package's agent).
 */
export const AgentViewSchema = closed({
  id: str,
  origin: oneOf(['package', 'template']),
  from: str,
  fromVersion: str,
  displayName: str,
  description: str,
  archived: Type.Boolean(),
  createdAt: str,
  access: Type.Array(AccessViewSchema),
  triggers: Type.Array(TriggerViewSchema),
  model: nstr,
  budgetPerRunUsd: orNull('number'),
  approvals: oneOf(['ask', 'never', null]),
  waitingServers: Type.Array(WaitingServerViewSchema),
});
export type AgentView = Static<typeof AgentViewSchema>;

/**
 * One installed package: its triggers that start a workflow (an agent's triggers are listed under
 * the agent), the signature state of the installed package, and whether its files are still what
 * install wrote.
 */
export const InstalledPackageViewSchema = closed({
  name: str,
  version: str,
  publisher: str,
  description: str,
  installedAt: str,
  updatedAt: nstr,
  agents: Type.Array(str),
  triggers: Type.Array(TriggerViewSchema),
  signature: SignatureSummarySchema,
  integrity: PackageIntegrityViewSchema,
});
export type InstalledPackageView = Static<typeof InstalledPackageViewSchema>;

// ---- The organization's policy (DESIGN.md "Managed policy"): re-exported by `shared/policy/policy.ts` ----
// The policy file's schema (electron/core/policy/policy-schema.ts) is built of the same parts.

/** A name in a policy file (an organization, a publisher, a package, a program). */
export const PolicyNameSchema = Type.String({ minLength: 1, maxLength: 200 });
/** A minisign public key's base64 line (`RWQ…`), checked again by the minisign parser. */
const policyPublicKey = Type.String({ pattern: '^RW[A-Za-z0-9+/]{54}$' });

/** A publisher key the organization trusts, or a package it allows: by name and the key that must sign it. */
export const PolicyKeySchema = closed({ name: PolicyNameSchema, key: policyPublicKey });

/** One package the organization allows: by name and the key that must sign it, or by its archive's SHA-256. */
export const AllowedPackageSchema = Type.Unsafe<Static<typeof PolicyKeySchema> | { sha256: string }>({
  oneOf: [PolicyKeySchema, closed({ sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }) })],
});
export type AllowedPackage = Static<typeof AllowedPackageSchema>;

/** An MCP server the organization provides (Settings shows it locked). */
export const PolicyMcpServerSchema = closed({
  name: Type.String({ pattern: MCP_SERVER_NAME.source, maxLength: MAX_MCP_SERVER_NAME }),
  transport: oneOf(MCP_TRANSPORTS),
  command: Type.Optional(PolicyNameSchema),
  args: Type.Optional(Type.Array(str)),
  url: Type.Optional(Type.String({ minLength: 1 })),
});
export type PolicyMcpServer = Static<typeof PolicyMcpServerSchema>;

/**
 * `none`: unsigned packages may be installed; `any`: a signature is needed; `trusted`: a key trusted here must have
 * signed it.
 */
export const RequireSignatureSchema = oneOf(['none', 'any', 'trusted']);
/** Which templates may be applied: any, only those shipped with the app, or none. */
export const PolicyTemplatesSchema = oneOf(['any', 'builtin', 'none']);
/** A blocked tool: an exact tool name, or a pattern where `*` stands for any run of characters except `/`. */
export const BlockedToolSchema = Type.String({ minLength: 1, maxLength: 300 });

/** The policy in force: both files combined, every key with its value (absent keys take the permissive default). */
export const EffectivePolicySchema = closed({
  /** Shown as "Managed by …"; null when no file names one. */
  organization: nstr,
  /** Publisher keys the organization trusts (locked in Settings). */
  trustedPublishers: Type.Array(PolicyKeySchema),
  requireSignature: RequireSignatureSchema,
  /** Whether the person's own trusted keys count (and whether they may add one). */
  allowUserTrustedKeys: Type.Boolean(),
  /** The only packages that may be installed; null means any. */
  allowedPackages: Type.Union([Type.Array(AllowedPackageSchema), Type.Null()]),
  blockedActionFamilies: Type.Array(oneOf(ACTION_FAMILIES)),
  blockedTools: Type.Array(BlockedToolSchema),
  templates: PolicyTemplatesSchema,
  /** Whether each kind of trigger may be armed (and fires). */
  triggers: Type.Unsafe<Record<PolicyTriggerKind, boolean>>(
    closed(Object.fromEntries(POLICY_TRIGGER_KINDS.map((kind) => [kind, Type.Boolean()]))),
  ),
  /** The webhook listener's port, fixed by the organization; null leaves it to Settings. */
  webhookPort: orNull('integer'),
  /** Whether "runs without asking" may be chosen. */
  unattended: Type.Boolean(),
  mcpServers: Type.Array(PolicyMcpServerSchema),
  /** A file where the person's decisions are also appended as JSON lines; null for none. */
  activityExport: nstr,
});
export type EffectivePolicy = Static<typeof EffectivePolicySchema>;

/** One policy file as it was read. */
export const PolicySourceSchema = closed({
  role: oneOf(['machine', 'env']),
  path: str,
  state: oneOf(['absent', 'read', 'invalid']),
  /** What is wrong with it (`invalid`), naming the key. */
  problem: nstr,
});
export type PolicySource = Static<typeof PolicySourceSchema>;

/** The policy as the core evaluated it: none, in force, or unreadable (fail closed). */
export const PolicyViewSchema = closed({
  state: oneOf(['none', 'applied', 'unreadable']),
  /** The combined policy; null when there is none or it is unreadable. */
  effective: Type.Union([EffectivePolicySchema, Type.Null()]),
  sources: Type.Array(PolicySourceSchema),
  /** Which file each key in force came from (a key both files restrict names both). */
  origin: mapOf(Type.Array(str)),
  /** For `unreadable`: the file and what is wrong with it. */
  problem: Type.Union([closed({ path: str, message: str }), Type.Null()]),
});
export type PolicyView = Static<typeof PolicyViewSchema>;

/**
 * `dashboard`; `policy`: the organization's policy: "Managed by …", and the banner when it withholds
 * something installed or cannot be read.
 */
export const DashboardSchema = closed({
  packages: Type.Array(InstalledPackageViewSchema),
  agents: Type.Array(AgentViewSchema),
  damage: Type.Array(StoreDamageSchema),
  policy: Type.Optional(closed({ view: PolicyViewSchema, managedBy: nstr, notice: nstr })),
});
export type Dashboard = Static<typeof DashboardSchema>;

/**
 * A saved MCP server as Settings shows it: every credential in its url or arguments shown as `••••`
 * (`https://mcp.example.com/?token=••••`); `credentialsSealed` when the real ones are kept encrypted
 * by the secret box (only the runtime that starts the server opens them); `managed` when the
 * organization's policy provides it (locked).
 */
export const SavedMcpServerViewSchema = closed({
  ...SavedMcpServerSchema.properties,
  credentialsSealed: Type.Boolean(),
  managed: Type.Optional(Type.Boolean()),
});
export type SavedMcpServerView = Static<typeof SavedMcpServerViewSchema>;

/**
 * `settings`. `secrets`: every secret name of the catalogue, and whether a value is saved (values
 * are never returned). `connections`: connection types and whether this machine has one (the honest
 * minimal model: a connection is available only when an MCP server is saved under its type's name,
 * `gmail`, `slack`, …). `deniedTools`: tools the owner never allows on this computer (Settings →
 * Tools you never allow), sorted: gate names (`mcp:<server>/<tool>`) and native tool names; an apply
 * never grants one (template spec "Apply" step 2: it stays denied, with a `grants.<tool>` warning).
 * `webhookPort`: the port the webhook listener binds on 127.0.0.1, whether the owner chose it (else
 * the default) and whether the organization's policy fixes it (locked). `policy`: the organization's
 * policy in force (none, applied, or unreadable). `knownTools`: every tool the app knows, for the
 * "never allow" picker: the native tools of the catalogue (`.apo` and template), then the MCP tools
 * named by the built-in templates and by the agents on this computer, as gate names; sorted by
 * name, without the ones already denied.
 */
export const SettingsViewSchema = closed({
  secretBackend: SecretBackendSchema,
  mcpServers: Type.Array(SavedMcpServerViewSchema),
  secrets: Type.Array(closed({ name: str, label: str, saved: Type.Boolean() })),
  connections: Type.Array(closed({ type: str, label: str, available: Type.Boolean() })),
  deniedTools: Type.Array(str),
  webhookPort: closed({ port: Type.Number(), chosen: Type.Boolean(), managed: Type.Optional(Type.Boolean()) }),
  policy: Type.Optional(PolicyViewSchema),
  knownTools: Type.Array(KnownToolSchema),
});
export type SettingsView = Static<typeof SettingsViewSchema>;

/**
 * `pickWatchFolder`: the folder picked for a file_watch trigger, referred to by id from then on, and
 * its real path (links resolved) for display; null when the dialog was cancelled.
 */
export const PickedFolderSchema = Type.Union([closed({ folderId: str, displayPath: str }), Type.Null()]);
export type PickedFolder = Static<typeof PickedFolderSchema>;

// ---- What an update changes, and what it starts from (`shared/decisions/update-diff.ts`, `shared/decisions/decisions.ts` re-export) ----

const added = Type.Array(str);
const removed = Type.Array(str);

/** A tool or workflow whose action family changed. */
export const FamilyChangeSchema = closed({ name: str, from: oneOf(ACTION_FAMILIES), to: oneOf(ACTION_FAMILIES) });
export type FamilyChange = Static<typeof FamilyChangeSchema>;

/** Tools or workflows added, removed, or with another family. */
export const CapabilityDiffSchema = closed({ added, removed, familyChanged: Type.Array(FamilyChangeSchema) });
export type CapabilityDiff = Static<typeof CapabilityDiffSchema>;

/** An MCP server whose launch changed: which of command, args, url, transport, env keys. */
export const McpServerChangeSchema = closed({
  name: str,
  changed: Type.Array(oneOf(['command', 'args', 'url', 'transport', 'env'])),
});
export type McpServerChange = Static<typeof McpServerChangeSchema>;

/** One agent's default access: entries added to or removed from its proposal. */
export const AgentAccessDiffSchema = closed({ agentId: str, added, removed });
export type AgentAccessDiff = Static<typeof AgentAccessDiffSchema>;

/** What changed between two versions of a package, and the decisions the update starts from. */
export const UpdateDiffSchema = closed({
  fromVersion: str,
  toVersion: str,
  tools: CapabilityDiffSchema,
  workflows: CapabilityDiffSchema,
  connections: closed({ added, removed }),
  mcpServers: closed({ added, removed, changed: Type.Array(McpServerChangeSchema) }),
  triggers: closed({ added, removed, changed: Type.Array(str) }),
  agents: closed({ added, removed, access: Type.Array(AgentAccessDiffSchema) }),
  /** The same, as sentences a person reads, most sensitive first; empty when nothing it asks changed. */
  changes: Type.Array(str),
  /** True when the new version asks for anything the old one did not. */
  asksMore: Type.Boolean(),
  /** Per agent, the entries new in this version or whose family changed: asked again, unticked. */
  proposedAccess: mapOf(Type.Array(str)),
  /** The publisher's old and new names when they differ, compared with the lookalike check. */
  publisher: Type.Union([closed({ from: str, to: str, comparison: oneOf(NAME_COMPARISONS) }), Type.Null()]),
});
export type UpdateDiff = Static<typeof UpdateDiffSchema>;

/**
 * What is installed of the package now: its manifest (the manifest's one schema) and what the store holds of the
 * person's decisions.
 */
export const InstalledDecisionsSchema = closed({
  manifest: ApolliaManifestSchema,
  /** agent id → entry → how it runs, as the store records it. */
  access: mapOf(mapOf(oneOf(['allow', 'ask', 'deny']))),
  /** trigger id → whether it is armed, and whether it keeps a folder (shown as its path) or a secret. */
  triggers: mapOf(closed({ armed: Type.Boolean(), folder: nstr, secret: oneOf(['made', 'given', null]) })),
});
export type InstalledDecisions = Static<typeof InstalledDecisionsSchema>;

/**
 * `inspect`: the Inspection (DESIGN.md "Validation contract") plus, for an `.apo`, what is installed
 * of it and what an update changes. `summary` and `details` are the reader's of each kind (an `.apo`
 * summary is `ApoSummary`, its details the manifest), checked here only as objects.
 */
export const SourceInspectionSchema = closed({
  kind: oneOf(['apo', 'template', 'plugin']),
  /** True exactly when `errors` is empty. */
  ok: Type.Boolean(),
  errors: Type.Array(ProblemSchema),
  warnings: Type.Array(ProblemSchema),
  /** Null when the input could not be read far enough to summarise. */
  summary: shaped<unknown>({ type: ['object', 'null'] }),
  details: shaped<unknown>({ type: ['object', 'null'] }),
  installed: Type.Union([InstalledRelationSchema, Type.Null()]),
  /** For a newer or older version: what it changes in what it asks. */
  updateDiff: Type.Union([UpdateDiffSchema, Type.Null()]),
  /**
   * What the store holds of the person's decisions for the installed version (null when nothing is installed): what an
   * update keeps.
   */
  installedDecisions: Type.Union([InstalledDecisionsSchema, Type.Null()]),
  /**
   * Trust: for an installed package, how this one's signing key stands to the key
   * pinned at first install: null (first install, same key, still unsigned), `first_signed`
   * (allowed, and said), or `changed` (install refuses it unless `acceptKeyChange`).
   */
  keyChange: Type.Union([KeyChangeSchema, Type.Null()]),
  /**
   * The one signature verdict of this inspection (DESIGN.md "Trust after install"): the package's
   * signature, how the trusted key's name compares with its publisher field, and for an installed
   * package how the key stands to its pin. Null for a source that is not an `.apo` or was not read.
   */
  signatureVerdict: Type.Union([SignatureVerdictSchema, Type.Null()]),
  /**
   * Trust: the installed version's files changed on this computer, so the same version may be installed again (a
   * reinstall).
   */
  installedChanged: Type.Boolean(),
  /** The organization's policy in force (none, applied, or unreadable): what the form locks and why. */
  policy: PolicyViewSchema,
});
export type SourceInspection = Static<typeof SourceInspectionSchema>;

/** The reply schema of each method whose whole answer is defined here. */
export const API_REPLY_SCHEMAS = {
  appInfo: AppInfoSchema,
  openDialog: Type.Union([SourceHandleSchema, Type.Null()]),
  openBuiltinTemplate: SourceHandleSchema,
  pickWatchFolder: PickedFolderSchema,
  refuseKeyChange: Type.Null(),
  install: InstallReceiptSchema,
  apply: ApplyReceiptSchema,
  dashboard: DashboardSchema,
  setToolAccess: AgentViewSchema,
  archiveAgent: AgentViewSchema,
  settings: SettingsViewSchema,
  saveMcpServer: SettingsViewSchema,
  removeMcpServer: SettingsViewSchema,
  saveSecret: SettingsViewSchema,
  removeSecret: SettingsViewSchema,
  denyTool: SettingsViewSchema,
  removeDeniedTool: SettingsViewSchema,
  setWebhookPort: SettingsViewSchema,
  armTrigger: TriggerArmedSchema,
  disarmTrigger: TriggerViewSchema,
  rotateWebhookSecret: TriggerArmedSchema,
  webhookSecretShared: closed({ warning: nstr }),
  uninstallPackage: UninstallReceiptSchema,
  triggerStatus: TriggerStatusViewSchema,
  activity: ActivityViewSchema,
  trashSource: TrashReceiptSchema,
  startAtLogin: StartAtLoginViewSchema,
  setStartAtLogin: StartAtLoginViewSchema,
  openDownloadPage: DownloadPageOpenedSchema,
  listBuiltinTemplates: Type.Array(BuiltinTemplateCardSchema),
  inspect: SourceInspectionSchema,
  previewApply: ApplyPreviewSchema,
  trustedKeys: Type.Array(TrustedKeyViewSchema),
  trustKey: Type.Array(TrustedKeyViewSchema),
  untrustKey: Type.Array(TrustedKeyViewSchema),
  previewKey: KeyPreviewSchema,
  previewKeyFile: Type.Union([KeyPreviewSchema, Type.Null()]),
  verifyInstalled: Type.Array(VerifiedPackageSchema),
  waitingRuns: WaitingRunsViewSchema,
  discardWaitingRun: RunsDiscardedSchema,
  discardTriggerRuns: RunsDiscardedSchema,
};

/** The methods whose whole answer is defined here. */
export type ApiRepliedMethod = keyof typeof API_REPLY_SCHEMAS;

/** Each of those methods' answer, as its schema types it. */
export type ApiReplyOf<M extends ApiRepliedMethod> = Static<(typeof API_REPLY_SCHEMAS)[M]>;
