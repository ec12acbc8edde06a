/**
 * The Api's replies about what is installed: install and uninstall receipts, triggers and their live state,
 * activity, apply's receipt, an agent's and a package's view. Once each with TypeBox; loaded only by tests and tools.
 */
import { type Static, Type } from 'typebox';
import { closed, exactly, mapOf, oneOf, orNull } from '../base/schema-kit';
import { WebhookSecretGivenSchema, WebhookSecretOnceSchema } from './replies-app';
import { ApplyPreviewSchema, FilledPinSchema } from '../decisions/apply-preview-schema';
import { ACTION_FAMILIES } from '../manifests/apollia-vocabulary';
import { SignatureSummarySchema } from '../manifests/inspection-schema';
import { KeyChangeSchema, PackageIntegrityViewSchema } from '../trust/trust-schema';

const str = Type.String();
const nstr = orNull('string');

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
 * (`max_concurrent`, else the default: at it, its queue is full); `pausedAt` when the person paused it (armed, its
 * folder and secret kept, not firing until resumed), else null; `policy` why the organization's policy keeps it from
 * being armed or firing (it stays armed as the person left it), absent when it does not; `integrity` why it is paused
 * by integrity (armed, its package changed on this computer since install: a reinstall of the installed bytes resumes
 * it), absent otherwise.
 */
export const TriggerViewSchema = closed({
  id: str,
  name: str,
  type: oneOf(['cron', 'interval', 'file_watch', 'webhook', 'schedule', 'at']),
  agentId: nstr,
  target: str,
  words: str,
  next: Type.Array(str),
  /** The zone `next` is read in: a schedule's own (UTC for a package's cron), else null (this computer's). */
  timezone: nstr,
  armed: Type.Boolean(),
  folder: nstr,
  webhookSecretSet: Type.Boolean(),
  webhookSecretOrigin: oneOf(['made', 'given', null]),
  webhookSecretSetAt: nstr,
  waitLimit: Type.Number(),
  pausedAt: nstr,
  policy: Type.Optional(str),
  integrity: Type.Optional(str),
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

/**
 * What `activity verify` proved, as the Activity screen shows it (DESIGN.md "Triggers at run time":
 * the dashboard shows it): one line when intact ("intact: 1,204 decisions from the first (…) to the
 * last (…), head as sealed"), else the first break and its kind (`changed`, `cut`, `deleted`,
 * `replaced`, `recomputed`, `head`), shown as a banner; and how many breaks the record itself holds.
 */
export const ActivityVerdictSchema = closed({
  intact: Type.Boolean(),
  summary: str,
  breakKind: Type.Union([oneOf(['changed', 'cut', 'deleted', 'replaced', 'recomputed', 'head']), Type.Null()]),
  recordedBreaks: Type.Number(),
});
export type ActivityVerdict = Static<typeof ActivityVerdictSchema>;

/**
 * The collector the record is sent to (over OTLP/HTTP by the trigger host): the organization's (the policy's
 * `activityExport.otlp`), else the one the person named in Settings (`origin` says which,
 * `shared/activity/collector.ts`), as the host last wrote it (`activity-export.json`): entries the collector accepted,
 * entries and batches that failed after retries, the last failure in words; `problem` when the address cannot be used
 * (the export is off).
 */
export const ActivityExportViewSchema = closed({
  url: str,
  origin: oneOf(['organization', 'person']),
  sent: Type.Number(),
  failed: Type.Number(),
  failedBatches: Type.Number(),
  lastError: nstr,
  lastFailureAt: nstr,
  lastSentAt: nstr,
  problem: nstr,
});
export type ActivityExportView = Static<typeof ActivityExportViewSchema>;

/**
 * `activityCollector` and `setActivityCollector`'s answer: the collector in effect with its shipping status (null when
 * none is named), the address the person named (`yours`, kept while the organization's wins), whether the policy
 * names one (`managed`: the person's cannot be changed), and for a change whether it changed anything (`changed`
 * false: the address was already set, or none was to remove).
 */
export const ActivityCollectorViewSchema = closed({
  inEffect: Type.Union([ActivityExportViewSchema, Type.Null()]),
  yours: nstr,
  managed: Type.Boolean(),
  changed: Type.Optional(Type.Boolean()),
});
export type ActivityCollectorView = Static<typeof ActivityCollectorViewSchema>;

/**
 * `activity`'s answer: the entries, every agent the record names (for the filter: removed agents too), the record's
 * verdict, and its export to the collector in effect (the organization's, else the person's; null when none is named).
 */
export const ActivityViewSchema = closed({
  events: Type.Array(ActivityEntrySchema),
  agents: Type.Array(str),
  verdict: ActivityVerdictSchema,
  export: Type.Union([ActivityExportViewSchema, Type.Null()]),
});
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

/**
 * `apply`'s answer: the agent made, the trigger ids made with it (a webhook's secret is made by `armTrigger`, never
 * here), and the preview it recorded; `alreadyApplied` when an apply asked `once` found that agent already made (and
 * made nothing).
 */
export const ApplyReceiptSchema = closed({
  agentId: str,
  displayName: str,
  createdAt: str,
  triggers: Type.Array(str),
  preview: ApplyPreviewSchema,
  alreadyApplied: Type.Optional(exactly(true)),
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
  pin: FilledPinSchema,
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
  /**
   * Each violation of the organization's policy that withholds the installed package whole (DESIGN.md "Managed
   * policy": its grants held, its triggers paused), with its `policy.*` code; absent when the policy allows it.
   */
  policy: Type.Optional(Type.Array(closed({ code: str, message: str }))),
});
export type InstalledPackageView = Static<typeof InstalledPackageViewSchema>;
