/**
 * The one contract between the renderer and the main process (DESIGN.md "Layout"; STYLE.md
 * "one contract for the boundary"). The preload exposes exactly `API_METHODS` as `window.apollia`,
 * the Electron binding and the e2e harness serve exactly them, and the renderer's hooks call them.
 * Every method takes at most one plain-JSON request and answers an `ApiResult`: errors cross the
 * boundary as values, never as throws. `API_REQUEST_SCHEMAS` is each request's JSON Schema: the
 * implementation refuses anything else (`request.invalid`) before it looks at it.
 */
import type { ApiErrorCode } from './api-errors';
import type { ActionFamily, McpTransport } from './apollia-manifest';
import type { ApplyPreview, Approvals, ToolSetting } from './apply-preview';
import type { ConsentAnswers, InstalledDecisions } from './decisions';
import { MAX_ACCESS_PER_AGENT, MAX_AGENTS, MAX_MANIFEST_BYTES, MAX_TRIGGERS } from './limits';
import type { Inspection, Problem, SignatureSummary } from './inspection';
import type { KeyChange, PackageIntegrityView, TrustedKeyView, VerifiedPackage } from './trust';
import type { SignatureVerdict } from './signature-verdict';
import type { BuiltinTemplateCard, ParameterValue, PinValue } from './template-manifest';
import { MAX_MCP_SERVER_NAME, MCP_SERVER_NAME } from './mcp-server-name';
import type { PolicyView } from './policy';
export type { PolicyView } from './policy';
import type { RunsDiscarded, WaitingRunsView } from './run-queue';
import type { UpdateDiff } from './update-diff';
import { MAX_WEBHOOK_SECRET_TEXT, type WebhookSecretChoice, type WebhookSecretOrigin } from './webhook-secret';

/**
 * An expected failure, shown to the user. `code` is stable: `request.invalid` (the request does
 * not match its schema), `source.unknown`, `folder.unknown`, `install.already_installed`,
 * `install.downgrade`, `install.refused`, `install.not_inspected` (install only what `inspect`
 * showed), `apply.blocked`, `apply.not_previewed`, `apply.changed` (the folder differs from what
 * was previewed), `tool.invalid`, `tool.too_many`, `tool.not_denied` (the owner's tool settings),
 * `store.busy`, `store.future_version`, `internal` (a bug, logged), …
 */
export interface ApiError {
  /** One of the codes listed in `shared/api-errors.ts`. */
  code: ApiErrorCode;
  message: string;
  path?: string;
  /** Extra problems, e.g. every field error of an apply. */
  problems?: Problem[];
}

export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: ApiError };

/**
 * An input the main process opened for the renderer (dialog, double-click, drop, menu, built-in
 * template). The renderer only ever refers to it by `id`: it never sends a path.
 */
export interface SourceHandle {
  id: string;
  /** What it looks like from its content, before the full check. */
  kind: 'apo' | 'template' | 'plugin';
  /** File or folder name, for display only. */
  displayName: string;
  /**
   * The folders that hold it, outermost first (empty for a template shipped with the app), for
   * display only: two files of the same name are told apart by the folders they are in.
   */
  folders: string[];
  origin: 'dialog' | 'command-line' | 'open-file' | 'drop' | 'menu' | 'builtin';
}

/**
 * Where secrets go, told honestly (Settings words each): `keychain` (the OS keychain, through
 * Electron's safeStorage); `file_key` (encrypted with a random key kept in a file beside the data,
 * `secret-box.key`: what the command line and the browser harness use, as they cannot reach a
 * keychain; anyone who can read the data folder can read the secrets); `basic_text` (Electron's
 * Linux fallback with no keyring: obscured with a key built into the app, no real protection); or
 * `unavailable` (nothing can be kept: saving a secret fails); or `pending` (the app has just started
 * and the keychain has not answered yet: what needs a secret waits for it).
 */
export type SecretBackend = 'keychain' | 'file_key' | 'basic_text' | 'unavailable' | 'pending';

/** `appInfo`: what the About box and the Settings screen show. */
export interface AppInfo {
  version: string;
  /** The runtime SDK this app serves (shared/sdk.ts). */
  sdkVersion: string;
  secretBackend: SecretBackend;
  /**
   * How a person runs this app's own command line in a terminal here (`apollia-desktop` on PATH
   * from the deb; the quoted binary inside the app bundle on macOS), or null where the app binary
   * cannot be a console command (Windows' GUI binary, an AppImage): the screens that show a
   * command then say so. Never `npx`: outside the repository it fetches whoever owns the name.
   */
  cliProgram: string | null;
  /**
   * The app was started with Chromium's sandbox turned off (`--no-sandbox`): every screen says
   * so, and installing or applying is refused until the app is started without it.
   */
  sandboxOff: boolean;
}

/**
 * `listBuiltinTemplates`: one template shipped with the app (`resources/templates/<name>`), as a
 * card with the spec's table (name, what it does, started by, needs). A card is only a listing:
 * `openBuiltinTemplate` then `inspect` check the folder whole, as any other template's.
 */
export type BuiltinTemplate = BuiltinTemplateCard;

/** How a package being inspected relates to the version installed here. */
export interface InstalledRelation {
  /** The version installed on this machine. */
  version: string;
  /**
   * What the inspected source is compared to it: the same version, a newer one (an update), an older one (a downgrade).
   */
  relation: 'same' | 'newer' | 'older';
}

/** `inspect`: the Inspection plus, for an `.apo`, what is installed of it and what an update changes. */
export type SourceInspection = Inspection & {
  installed: InstalledRelation | null;
  /** For a newer or older version: what it changes in what it asks. */
  updateDiff: UpdateDiff | null;
  /**
   * What the store holds of the person's decisions for the installed version (null when nothing is installed): what an
   * update keeps.
   */
  installedDecisions: InstalledDecisions | null;
  /**
   * Trust: for an installed package, how this one's signing key stands to the key
   * pinned at first install: null (first install, same key, still unsigned), `first_signed`
   * (allowed, and said), or `changed` (install refuses it unless `acceptKeyChange`).
   */
  keyChange: KeyChange | null;
  /**
   * The one signature verdict of this inspection (DESIGN.md "Trust after install"): the package's
   * signature, how the trusted key's name compares with its publisher field, and for an installed
   * package how the key stands to its pin. Null for a source that is not an `.apo` or was not read.
   */
  signatureVerdict: SignatureVerdict | null;
  /**
   * Trust: the installed version's files changed on this computer, so the same version may be installed again (a
   * reinstall).
   */
  installedChanged: boolean;
  /** The organization's policy in force (none, applied, or unreadable): what the form locks and why. */
  policy: PolicyView;
};

// Trust: its Api types live in `shared/trust.ts`, re-exported here.
export type { SignatureUpdate, SignatureVerdict } from './signature-verdict';
export type { KeyChange, PackageIntegrityView, TrustedKeyView, VerifiedPackage } from './trust';

/** `install`: the user's answers for the `.apo` a source id refers to. */
export interface InstallRequest {
  sourceId: string;
  /**
   * Only what the person changed: anything left out is kept (an update) or takes its default (`shared/decisions.ts`).
   */
  decisions: ConsentAnswers;
  /** Installing an older version than the installed one is refused unless this is true (the UI asks first). */
  allowDowngrade?: boolean;
  /**
   * Trust: an update signed by another key than the one pinned (or a signed package now
   * unsigned) is refused `signature.key_changed` unless this is true: the app sets it only after
   * its separate confirmation, the CLI with `--accept-key-change`. It is recorded.
   */
  acceptKeyChange?: boolean;
}

/** A webhook secret made on this machine, shown ONCE (never returned again: rotate to see a new one). */
export interface WebhookSecretOnce {
  triggerId: string;
  secret: string;
}

// --- Setting a webhook secret (made here, or given by the sender) ---

/**
 * A webhook secret given by the sender, as an answer says it was kept: never its value (it is
 * sealed and never returned by any method).
 */
export interface WebhookSecretGiven {
  triggerId: string;
  given: true;
  /**
   * The same secret is also set on other triggers: what that does, naming them (never the secret). Null when it is
   * set on this trigger only.
   */
  sharedWarning: string | null;
}

/**
 * `install`'s `decisions.triggers[id].webhookSecret`, `armTrigger`'s and `rotateWebhookSecret`'s
 * `webhookSecret`: make a new one here (the default when absent) or use the sender's, checked by
 * `checkWebhookSecret` (shared/webhook-secret.ts) before anything is sealed.
 */
export type WebhookSecretRequest = WebhookSecretChoice;

/** The request schema of a {@link WebhookSecretRequest}: closed, the secret bounded. */
const webhookSecretSchema = {
  oneOf: [
    { type: 'object', properties: { kind: { const: 'make' } }, required: ['kind'], additionalProperties: false },
    {
      type: 'object',
      properties: {
        kind: { const: 'given' },
        secret: { type: 'string', minLength: 1, maxLength: MAX_WEBHOOK_SECRET_TEXT },
      },
      required: ['kind', 'secret'],
      additionalProperties: false,
    },
  ],
} as const;

// --- end setting a webhook secret ---

/** `install`'s answer. */
export interface InstallReceipt {
  name: string;
  version: string;
  publisher: string;
  /** `reinstalled`: the same version put back over files changed on this computer. */
  outcome: 'installed' | 'updated' | 'downgraded' | 'reinstalled';
  previousVersion: string | null;
  /** Trust: the key change this install made (accepted, or unsigned → signed), else null. */
  keyChange: KeyChange | null;
  installedAt: string;
  /** Trigger ids armed by this install. */
  armed: string[];
  /** Secrets made here, each shown once. */
  webhookSecrets: WebhookSecretOnce[];
  /** Triggers armed with the secret their sender gave (never the value). */
  webhookSecretsGiven: WebhookSecretGiven[];
}

/** `previewApply`: a template source, the form's parameters and the owner's grants. */
export interface ApplyPreviewRequest {
  sourceId: string;
  parameters: Record<string, ParameterValue>;
  /** Gate names (`mcp:<server>/<tool>`) the owner allows. */
  grants: string[];
  /** Built-in tools of the template the owner unticked: the agent gets each as `deny`. */
  withhold?: string[];
  /** The owner's approvals choice; absent: the template's recommendation (agent.md `approvals`). */
  approvals?: Approvals;
}

/** `apply`: as the preview, with a client request id (the same id twice makes one agent). */
export interface ApplyTemplateRequest extends ApplyPreviewRequest {
  requestId: string;
  // --- One rule for arming ---
  /**
   * The names of the template's schedule and `at` triggers the person ticked to arm now. Nothing
   * else is armed: a trigger left out is made unarmed (armed later on the dashboard), and a
   * webhook is armed only by `armTrigger`, which makes its secret.
   */
  arm?: string[];
}

/** `apply`'s answer: the agent made and the preview it recorded. */
export interface ApplyReceipt {
  agentId: string;
  displayName: string;
  createdAt: string;
  /** Trigger ids made with the agent (a webhook's secret is made by `armTrigger`, never here). */
  triggers: string[];
  preview: ApplyPreview;
}

/** One tool an agent may call, as the dashboard shows it. */
export interface AccessView {
  tool: string;
  /** What it lets the agent do, in words: the row's first line, its name the second. */
  what: string;
  family: ActionFamily | null;
  /**
   * `allow`: runs without asking; `ask`: asks first; `deny`: never offered. For a package agent,
   * a granted entry asks first when its family is sensitive or unknown (spec: asking is decided on
   * the action family); an ungranted one is denied.
   */
  permission: ToolSetting;
  granted: boolean;
  pin: Record<string, PinValue> | null;
  /**
   * Why the organization's policy withholds it (or keeps it asking) on top of the person's decision; absent when it
   * does not.
   */
  policy?: string;
}

/** One trigger as the dashboard shows it. */
export interface TriggerView {
  /** Store id: `<package>/<trigger id>` or `<agent id>/<trigger name>`. */
  id: string;
  /** The package's trigger id or the template trigger's name. */
  name: string;
  type: 'cron' | 'interval' | 'file_watch' | 'webhook' | 'schedule' | 'at';
  /** The agent id of the agent it starts, or null when it starts a workflow. */
  agentId: string | null;
  target: string;
  /** When it fires, in words. */
  words: string;
  /** Next fire times (ISO 8601), empty when not armed or not time-based. */
  next: string[];
  armed: boolean;
  /** The watched folder (file_watch), or null. */
  folder: string | null;
  /** For a webhook: whether a secret is set (its value is never shown again). */
  webhookSecretSet: boolean;
  /** Where the webhook secret came from (made here, given by the sender), or null without one. */
  webhookSecretOrigin: WebhookSecretOrigin | null;
  /** When the webhook secret was last set (ISO 8601), or null without one. */
  webhookSecretSetAt: string | null;
  /** Most runs it may have waiting in `runs/pending/` (`max_concurrent`, else the default): at it, its queue is full. */
  waitLimit: number;
  /**
   * Why the organization's policy keeps it from being armed or firing (it stays armed as the person left it); absent
   * when it does not.
   */
  policy?: string;
}

/**
 * A template's MCP server that was not saved when the agent was made, so apply skipped its tools
 * (spec "Apply": an optional server missing is skipped). `saved`: whether it is saved now; then its
 * tools can be granted from the agent's card, without applying the template again.
 */
export interface WaitingServerView {
  server: string;
  saved: boolean;
  /** Its tools not given to the agent yet. */
  tools: { tool: string; name: string; pinText: string | null; grantable: boolean }[];
}

/** One agent on this machine. */
export interface AgentView {
  id: string;
  origin: 'package' | 'template';
  /** The package name, or the template name. */
  from: string;
  fromVersion: string;
  displayName: string;
  description: string;
  archived: boolean;
  createdAt: string;
  access: AccessView[];
  triggers: TriggerView[];
  model: string | null;
  budgetPerRunUsd: number | null;
  /**
   * A template agent's approvals as the owner chose them at apply (agent.md `approvals`); null for a package's agent.
   */
  approvals: Approvals | null;
  /** A template agent's MCP servers skipped at apply, with the tools still waiting; empty for a package's agent. */
  waitingServers: WaitingServerView[];
}

/** One installed package. */
export interface InstalledPackageView {
  name: string;
  version: string;
  publisher: string;
  description: string;
  installedAt: string;
  updatedAt: string | null;
  agents: string[];
  /** Its triggers that start a workflow (an agent's triggers are listed under the agent). */
  triggers: TriggerView[];
  /** Trust: the signature state of the installed package. */
  signature: SignatureSummary;
  /** Trust: whether its files are still what install wrote. */
  integrity: PackageIntegrityView;
}

/** A state file that could not be read, kept aside and shown until the user deals with it. */
export interface StoreDamage {
  /** The name it was kept under in the data folder (`state.json.damaged-<timestamp>`). */
  keptAs: string;
  reason: string;
  at: string;
}

/** `dashboard`. */
export interface Dashboard {
  packages: InstalledPackageView[];
  agents: AgentView[];
  damage: StoreDamage[];
  /**
   * The organization's policy: "Managed by …", and the banner when it withholds something installed or cannot be read.
   */
  policy?: { view: PolicyView; managedBy: string | null; notice: string | null };
}

/** `setToolAccess`: grant or revoke one tool of one agent. */
export interface SetToolAccessRequest {
  agentId: string;
  tool: string;
  granted: boolean;
}

/** `armTrigger`: a file_watch trigger needs a `pickWatchFolder` id. */
export interface ArmTriggerRequest {
  triggerId: string;
  folderId?: string;
  /** For a webhook, make its secret (the default) or use the sender's. */
  webhookSecret?: WebhookSecretRequest;
}

/**
 * `rotateWebhookSecret`: a new secret for an armed webhook, made here (the default) or given by the sender.
 */
export interface RotateWebhookSecretRequest {
  triggerId: string;
  webhookSecret?: WebhookSecretRequest;
}

/**
 * `webhookSecretShared`: whether a secret the person is giving for a webhook trigger is already set on another
 * trigger, asked while the form is filled, before anything is kept.
 */
export interface WebhookSecretSharedRequest {
  /** The store id (`package/trigger`) of the trigger it is for: its own current secret is not another's. */
  triggerId: string;
  /** The secret as typed; one the check refuses is answered with no warning (the form says what is wrong). */
  secret: string;
}

/** `armTrigger` / `rotateWebhookSecret`: the trigger, and a webhook's new secret shown once. */
export interface TriggerArmed {
  trigger: TriggerView;
  /** A secret made here, shown once; null for any other trigger or a given secret. */
  webhookSecret: string | null;
  /** True when the sender's secret was kept (its value is never answered). */
  webhookSecretGiven: boolean;
  /**
   * The secret kept is also set on other triggers: what that does, naming them (never the secret). Null when it is
   * set on this trigger only, or for a secret made here.
   */
  webhookSecretSharedWarning: string | null;
}

/** `uninstallPackage`'s answer. */
export interface UninstallReceipt {
  name: string;
  version: string;
  removedAgents: string[];
  removedTriggers: string[];
}

/** An MCP server saved in Settings: a command line (stdio) or a URL (network transport). */
export interface SavedMcpServer {
  name: string;
  transport: McpTransport;
  command?: string;
  args?: string[];
  url?: string;
}

// --- MCP server credentials ---------------------------------------------------------
/**
 * A saved MCP server as Settings shows it: every credential in its url or arguments shown as `••••`
 * (`https://mcp.example.com/?token=••••`); `credentialsSealed` when the real ones are kept
 * encrypted by the secret box (only the runtime that starts the server opens them).
 */
export type SavedMcpServerView = SavedMcpServer & {
  credentialsSealed: boolean;
  /** Provided by the organization's policy: locked. */
  managed?: boolean;
};
// --- end MCP server credentials ------------------------------------------------------------------

/** `settings`. */
export interface SettingsView {
  secretBackend: SecretBackend;
  mcpServers: SavedMcpServerView[];
  /** Every secret name of the catalogue, and whether a value is saved (values are never returned). */
  secrets: { name: string; label: string; saved: boolean }[];
  /**
   * Connection types and whether this machine has one. The honest minimal model: a connection is
   * available only when an MCP server is saved under its type's name (`gmail`, `slack`, …).
   */
  connections: { type: string; label: string; available: boolean }[];
  /**
   * Tools the owner never allows on this computer (Settings → Tools you never allow), sorted: gate
   * names (`mcp:<server>/<tool>`) and native tool names. An apply never grants one (template spec
   * "Apply" step 2: it stays denied, with a `grants.<tool>` warning).
   */
  deniedTools: string[];
  /** The port the webhook listener binds on 127.0.0.1, and whether the owner chose it (else the default). */
  webhookPort: {
    port: number;
    chosen: boolean;
    /** Fixed by the organization's policy: locked. */
    managed?: boolean;
  };
  /** The organization's policy in force (none, applied, or unreadable). */
  policy?: PolicyView;
  // --- Never allow is picked, not typed ---
  /**
   * Every tool the app knows, for the "never allow" picker: the native tools of the catalogue
   * (`.apo` and template), then the MCP tools named by the built-in templates and by the agents on
   * this computer, as gate names. Sorted by name, without the ones already denied.
   */
  knownTools: KnownTool[];
}

/** One tool the "never allow" picker offers. */
export interface KnownTool {
  /** Its gate name (`mcp:<server>/<tool>`) or native name: what `denyTool` takes. */
  tool: string;
  /** What it does, in words (the catalogue's description, or where the MCP tool was seen). */
  description: string;
  kind: 'native' | 'mcp';
}

// --- Refusals say who acts ---
/** `trashSource`: the original file of a refused source moved to the system's Trash. */
export interface TrashReceipt {
  /** The file's name, for display. */
  displayName: string;
}

// ---- Live triggers and the activity log ----

/** The ports Settings takes for the webhook listener: not the system's (below 1024), at most 65535. */
export const WEBHOOK_PORT_RANGE = { min: 1024, max: 65_535 } as const;
/** The port the webhook listener binds until Settings holds the owner's choice (DESIGN.md "Triggers at run time"). */
export const DEFAULT_WEBHOOK_PORT = 47_611;

/** How one activity event ended (electron/core/activity). */
export type ActivityOutcomeView = 'ok' | 'refused' | 'skipped' | 'failed';

/**
 * One activity event, as `activity --json` prints it: what changed what an agent may do, or what
 * happened to it. Never a secret or a payload body. `kind` is one of the log's kinds (`install`,
 * `grant`, `arm`, `trigger_fired`, `delivery_refused`, `run_queued`…).
 */
export interface ActivityEntry {
  at: string;
  kind: string;
  package?: string;
  agent?: string;
  trigger?: string;
  outcome: ActivityOutcomeView;
  detail: string;
}

/**
 * `activity`: newest first, optionally one agent's (with its package's events that name no agent), at most `limit`
 * (default 200).
 */
export interface ActivityRequest {
  agent?: string;
  limit?: number;
  /** Only what the person decided, and what changed it without them (no deliveries, fires, runs). */
  decisionsOnly?: boolean;
}

/** `activity`'s answer: the entries, and every agent the record names (for the filter: removed agents too). */
export interface ActivityView {
  events: ActivityEntry[];
  agents: string[];
}

/** One trigger as the running trigger host sees it (`triggers/status.json`). */
export interface TriggerLiveView {
  id: string;
  state: 'listening' | 'watching' | 'scheduled' | 'problem' | 'done';
  /** A webhook's URL on 127.0.0.1. */
  url: string | null;
  folder: string | null;
  /** Next fire time (ISO 8601) of a timed trigger. */
  next: string | null;
  problem: string | null;
  lastFire: { at: string; cause: string; outcome: 'queued' | 'skipped' | 'failed' } | null;
  /** Newest first, at most 10: the HTTP status and its short reason. */
  deliveries: { at: string; status: number; reason: string }[];
  /** Runs of this trigger waiting in `runs/pending/`. */
  waiting: number;
}

/** `triggerStatus`: whether a trigger host is live for this data folder, what it does, and what waits. */
export interface TriggerStatusView {
  /** A host holds the data folder's host lock and its status says it runs. */
  running: boolean;
  /** The listener's base URL while running. */
  origin: string | null;
  /**
   * Where the live host runs: in the process answering this Api (the app itself, whose triggers
   * keep running in its tray when the window closes), or in another one (`apollia-desktop serve`,
   * its systemd service), with its process id; null when none runs.
   */
  host: { here: true } | { here: false; pid: number } | null;
  /** When the host last wrote its status. */
  updatedAt: string | null;
  /** Runs waiting in `runs/pending/`, counted now, the oldest one's fire time, and how many each trigger has. */
  pending: { total: number; oldest: string | null; byTrigger: Record<string, number> };
  /** By trigger id; only triggers a running (or the last) host made live. Empty when no host ever ran. */
  triggers: Record<string, TriggerLiveView>;
}
// ---- end of live triggers and the activity log ----

/** `denyTool` / `removeDeniedTool`: one tool by its gate name or native name (shared/owner-tools.ts). */
export interface OwnerToolRequest {
  tool: string;
}

/** The Api: one entry per method, `[request, response]`. */
export interface ApiMethods {
  appInfo: [void, AppInfo];
  /** Shows the system open dialog (`file`: .apo or plugin JSON; `folder`: a template folder). */
  openDialog: [{ kind: 'file' | 'folder' }, SourceHandle | null];
  listBuiltinTemplates: [void, BuiltinTemplate[]];
  openBuiltinTemplate: [{ name: string }, SourceHandle];
  /** Reads and checks a source without running any of it; adds how it relates to what is installed. */
  inspect: [{ sourceId: string }, SourceInspection];
  /**
   * Shows the system folder dialog for a file_watch trigger; the folder is then referred to by id.
   * `displayPath` is its real path (links resolved); the data folder, a folder inside or around it
   * and the root are refused (`trigger.folder_forbidden`).
   */
  pickWatchFolder: [void, { folderId: string; displayPath: string } | null];
  install: [InstallRequest, InstallReceipt];
  previewApply: [ApplyPreviewRequest, ApplyPreview];
  apply: [ApplyTemplateRequest, ApplyReceipt];
  dashboard: [void, Dashboard];
  setToolAccess: [SetToolAccessRequest, AgentView];
  armTrigger: [ArmTriggerRequest, TriggerArmed];
  disarmTrigger: [{ triggerId: string }, TriggerView];
  rotateWebhookSecret: [RotateWebhookSecretRequest, TriggerArmed];
  /** Whether a secret being given is already set on other triggers: the warning's words, or null. Never the secret. */
  webhookSecretShared: [WebhookSecretSharedRequest, { warning: string | null }];
  uninstallPackage: [{ name: string }, UninstallReceipt];
  archiveAgent: [{ agentId: string }, AgentView];
  settings: [void, SettingsView];
  saveMcpServer: [SavedMcpServer, SettingsView];
  removeMcpServer: [{ name: string }, SettingsView];
  saveSecret: [{ name: string; value: string }, SettingsView];
  removeSecret: [{ name: string }, SettingsView];
  /** Adds a tool to the owner's "never allow" list (denying it twice keeps it once). */
  denyTool: [OwnerToolRequest, SettingsView];
  /** Takes a tool off that list: the next apply sets it at the default again (asks, or allowed when granted). */
  removeDeniedTool: [OwnerToolRequest, SettingsView];
  // Live triggers and the activity log.
  /**
   * The live status of the triggers: whether a host runs, each trigger's state, deliveries, last fire, runs waiting.
   */
  triggerStatus: [void, TriggerStatusView];
  /** The activity log, newest first. */
  activity: [ActivityRequest | void, ActivityView];
  /** Sets the webhook listener's port (null: the default); a running host rebinds to it. */
  setWebhookPort: [{ port: number | null }, SettingsView];
  /** Trust: the keys the user trusts (Settings → Trusted publishers). */
  trustedKeys: [void, TrustedKeyView[]];
  /** Trust: adds a pasted public key (a `.pub` file's text or its `RWQ…` line) under a name. */
  trustKey: [{ publicKey: string; name: string }, TrustedKeyView[]];
  /** Trust: the same from a `.pub` file the user picks in a main-process dialog; null when cancelled. */
  trustKeyFromFile: [{ name: string }, TrustedKeyView[] | null];
  /** Trust: removes a key by its id; packages pinned to it stay pinned. */
  untrustKey: [{ keyId: string }, TrustedKeyView[]];
  /** Trust: the person answered "Don't update" on a key-change stop for this source; recorded in the activity log. */
  refuseKeyChange: [{ sourceId: string }, null];
  /** Trust: re-checks every installed package's files (app start, the dashboard, the CLI's `verify`). */
  verifyInstalled: [void, VerifiedPackage[]];
  // --- Refused sources, starting at login ---
  /**
   * Moves the original file of a source refused as possibly malicious to the system's Trash (`trash.not_refused`
   * otherwise).
   */
  trashSource: [{ sourceId: string }, TrashReceipt];
  /** Whether the app starts (in its tray, so triggers run) when the person logs in: opt-in. */
  startAtLogin: [void, StartAtLoginView];
  /** Turns starting at login on or off (`login.unavailable` where the host cannot: the CLI, the harness). */
  setStartAtLogin: [{ on: boolean }, StartAtLoginView];
  /** What waits in `runs/pending/`, oldest first (one trigger's with `trigger`): never a payload's body. */
  waitingRuns: [{ trigger?: string } | void, WaitingRunsView];
  /** Discards one waiting run by its id (recorded as a decision). */
  discardWaitingRun: [{ runId: string }, RunsDiscarded];
  /** Discards every run one trigger has waiting (recorded as a decision). */
  discardTriggerRuns: [{ triggerId: string }, RunsDiscarded];
}

/**
 * `startAtLogin`: whether the app starts when the person logs in, in its tray (no window), so armed
 * triggers run without anyone opening it. Off until the person turns it on; `available` is false
 * where the host cannot (the command line: use `serve` as a service instead).
 */
export interface StartAtLoginView {
  available: boolean;
  on: boolean;
}

export type ApiMethod = keyof ApiMethods;

/**
 * What `window.apollia` holds beside the Api methods, typed once for the preload, the renderer and
 * the e2e harness's bridge: the only two things the preload does that are not an Api call.
 */
export interface ApolliaBridgeExtras {
  /**
   * Calls `listener` with each source opened from outside the window (double-click, `open-file`, a second instance, the
   * menu); returns an unsubscribe.
   */
  onOpened(listener: (handle: SourceHandle) => void): () => void;
  /**
   * Registers a file dropped on the window (origin `drop`) and answers its handle. `file` is a DOM
   * `File` (typed `object`: `shared/` has no DOM types); only the preload can read its path.
   */
  openDropped(file: object): Promise<ApiResult<SourceHandle>>;
}

/** `window.apollia`: exactly the Api of this file, plus the {@link ApolliaBridgeExtras}. */
export type ApolliaBridge = Api & ApolliaBridgeExtras;
export type ApiRequest<M extends ApiMethod> = ApiMethods[M][0];
export type ApiResponse<M extends ApiMethod> = ApiMethods[M][1];

/** `window.apollia`: each method as an async function returning its `ApiResult`. */
export type Api = {
  [M in ApiMethod]: ApiRequest<M> extends void
    ? () => Promise<ApiResult<ApiResponse<M>>>
    : (request: ApiRequest<M>) => Promise<ApiResult<ApiResponse<M>>>;
};

/** Pushed from main to the renderer: a file opened by double-click, `open-file`, a second instance, or the menu. */
export interface ApiEvents {
  opened: SourceHandle;
}

/**
 * Every method of `ApiMethods`, as a runtime list: the preload, the Electron IPC binding and the
 * e2e harness's bridge are all derived from it, so none of them can expose a method the contract
 * does not declare. The two type checks below fail to compile if this list and `ApiMethods` differ.
 */
export const API_METHODS = [
  'appInfo',
  'openDialog',
  'listBuiltinTemplates',
  'openBuiltinTemplate',
  'inspect',
  'pickWatchFolder',
  'install',
  'previewApply',
  'apply',
  'dashboard',
  'setToolAccess',
  'armTrigger',
  'disarmTrigger',
  'rotateWebhookSecret',
  'webhookSecretShared',
  'uninstallPackage',
  'archiveAgent',
  'settings',
  'saveMcpServer',
  'removeMcpServer',
  'saveSecret',
  'removeSecret',
  'denyTool',
  'removeDeniedTool',
  'triggerStatus',
  'activity',
  'setWebhookPort',
  'trustedKeys',
  'trustKey',
  'trustKeyFromFile',
  'untrustKey',
  'refuseKeyChange',
  'verifyInstalled',
  'trashSource',
  'startAtLogin',
  'setStartAtLogin',
  'waitingRuns',
  'discardWaitingRun',
  'discardTriggerRuns',
] as const satisfies readonly ApiMethod[];

/** Compile-time proof that `API_METHODS` names every method of `ApiMethods`. */
export type ApiMethodsListed = Exclude<ApiMethod, (typeof API_METHODS)[number]> extends never ? true : never;
const apiMethodsListed: ApiMethodsListed = true;
void apiMethodsListed;

/** The longest string any request may carry (64 KiB): a 10 MB string is refused at the door. */
export const MAX_REQUEST_STRING = 65_536;

const id = { type: 'string', minLength: 1, maxLength: 256 } as const;
const name = { type: 'string', minLength: 1, maxLength: 128 } as const;
/** A name a manifest gives (an agent or trigger id, an access entry): no longer than the manifest itself. */
const manifestName = { type: 'string', minLength: 1, maxLength: MAX_MANIFEST_BYTES } as const;
const noRequest = { type: ['object', 'null'], maxProperties: 0 } as const;
const strict = (properties: Record<string, unknown>, required: string[]) =>
  ({ type: 'object', properties, required, additionalProperties: false }) as const;
const parameterValue = { type: ['string', 'number', 'boolean'], maxLength: MAX_REQUEST_STRING } as const;
/** Built-in tools of a template the owner unticked. */
const withholdSchema = {
  type: 'array',
  maxItems: 256,
  items: { type: 'string', minLength: 1, maxLength: 128 },
} as const;
/** The owner's approvals choice (template spec agent.md `approvals`). */
const approvalsSchema = { enum: ['ask', 'never'] } as const;

/**
 * The JSON Schema (draft 2020-12) of every method's request. A method without a request takes
 * nothing (`undefined`, `null` or `{}`). Every object is closed (`additionalProperties: false`),
 * every string and list is bounded: the renderer is treated as untrusted (DESIGN.md "Security of
 * the app itself").
 */
export const API_REQUEST_SCHEMAS: Record<ApiMethod, Record<string, unknown>> = {
  appInfo: noRequest,
  openDialog: strict({ kind: { enum: ['file', 'folder'] } }, ['kind']),
  listBuiltinTemplates: noRequest,
  openBuiltinTemplate: strict({ name }, ['name']),
  inspect: strict({ sourceId: id }, ['sourceId']),
  pickWatchFolder: noRequest,
  install: strict(
    {
      sourceId: id,
      decisions: strict(
        {
          // Caps from the manifest's own limits (shared/limits.ts): whatever `inspect` accepts can be installed.
          agents: {
            type: 'object',
            maxProperties: MAX_AGENTS,
            propertyNames: manifestName,
            additionalProperties: strict(
              {
                access: {
                  type: 'object',
                  maxProperties: MAX_ACCESS_PER_AGENT,
                  propertyNames: manifestName,
                  additionalProperties: { enum: [true, false, 'ask', 'allow'] },
                },
              },
              ['access'],
            ),
          },
          triggers: {
            type: 'object',
            maxProperties: MAX_TRIGGERS,
            propertyNames: manifestName,
            additionalProperties: strict(
              { armed: { type: 'boolean' }, folderId: id, webhookSecret: webhookSecretSchema },
              ['armed'],
            ),
          },
        },
        ['agents', 'triggers'],
      ),
      allowDowngrade: { type: 'boolean' },
      acceptKeyChange: { type: 'boolean' },
    },
    ['sourceId', 'decisions'],
  ),
  previewApply: strict(
    {
      sourceId: id,
      parameters: { type: 'object', maxProperties: 256, propertyNames: name, additionalProperties: parameterValue },
      grants: { type: 'array', maxItems: 1024, items: { type: 'string', minLength: 1, maxLength: 1024 } },
      withhold: withholdSchema,
      approvals: approvalsSchema,
    },
    ['sourceId', 'parameters', 'grants'],
  ),
  apply: strict(
    {
      sourceId: id,
      parameters: { type: 'object', maxProperties: 256, propertyNames: name, additionalProperties: parameterValue },
      grants: { type: 'array', maxItems: 1024, items: { type: 'string', minLength: 1, maxLength: 1024 } },
      requestId: id,
      arm: { type: 'array', maxItems: 256, items: name },
      withhold: withholdSchema,
      approvals: approvalsSchema,
    },
    ['sourceId', 'parameters', 'grants', 'requestId'],
  ),
  dashboard: noRequest,
  setToolAccess: strict(
    { agentId: id, tool: { type: 'string', minLength: 1, maxLength: 1024 }, granted: { type: 'boolean' } },
    ['agentId', 'tool', 'granted'],
  ),
  armTrigger: strict({ triggerId: id, folderId: id, webhookSecret: webhookSecretSchema }, ['triggerId']),
  disarmTrigger: strict({ triggerId: id }, ['triggerId']),
  rotateWebhookSecret: strict({ triggerId: id, webhookSecret: webhookSecretSchema }, ['triggerId']),
  webhookSecretShared: strict(
    { triggerId: id, secret: { type: 'string', minLength: 1, maxLength: MAX_WEBHOOK_SECRET_TEXT } },
    ['triggerId', 'secret'],
  ),
  uninstallPackage: strict({ name }, ['name']),
  archiveAgent: strict({ agentId: id }, ['agentId']),
  settings: noRequest,
  saveMcpServer: strict(
    {
      name: { type: 'string', pattern: MCP_SERVER_NAME.source, maxLength: MAX_MCP_SERVER_NAME },
      transport: { enum: ['stdio', 'streamable-http', 'sse'] },
      command: { type: 'string', minLength: 1, maxLength: 4096 },
      args: { type: 'array', maxItems: 256, items: { type: 'string', maxLength: 4096 } },
      url: { type: 'string', minLength: 1, maxLength: 4096 },
    },
    ['name', 'transport'],
  ),
  removeMcpServer: strict({ name }, ['name']),
  saveSecret: strict({ name, value: { type: 'string', minLength: 1, maxLength: 16_384 } }, ['name', 'value']),
  removeSecret: strict({ name }, ['name']),
  denyTool: strict({ tool: { type: 'string', minLength: 1, maxLength: 256 } }, ['tool']),
  removeDeniedTool: strict({ tool: { type: 'string', minLength: 1, maxLength: 256 } }, ['tool']),
  triggerStatus: noRequest,
  activity: {
    type: ['object', 'null'],
    properties: {
      agent: id,
      limit: { type: 'integer', minimum: 1, maximum: 1000 },
      decisionsOnly: { type: 'boolean' },
    },
    additionalProperties: false,
  },
  setWebhookPort: strict(
    { port: { type: ['integer', 'null'], minimum: WEBHOOK_PORT_RANGE.min, maximum: WEBHOOK_PORT_RANGE.max } },
    ['port'],
  ),
  trustedKeys: noRequest,
  trustKey: strict(
    {
      publicKey: { type: 'string', minLength: 1, maxLength: 4096 },
      name: { type: 'string', minLength: 1, maxLength: 320 },
    },
    ['publicKey', 'name'],
  ),
  trustKeyFromFile: strict({ name: { type: 'string', minLength: 1, maxLength: 320 } }, ['name']),
  untrustKey: strict({ keyId: { type: 'string', minLength: 1, maxLength: 64 } }, ['keyId']),
  refuseKeyChange: strict({ sourceId: id }, ['sourceId']),
  verifyInstalled: noRequest,
  trashSource: strict({ sourceId: id }, ['sourceId']),
  startAtLogin: noRequest,
  setStartAtLogin: strict({ on: { type: 'boolean' } }, ['on']),
  waitingRuns: { type: ['object', 'null'], properties: { trigger: id }, additionalProperties: false },
  discardWaitingRun: strict({ runId: { type: 'string', pattern: '^[A-Za-z0-9-]{1,128}$' } }, ['runId']),
  discardTriggerRuns: strict({ triggerId: id }, ['triggerId']),
};
