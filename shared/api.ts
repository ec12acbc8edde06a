/**
 * The one contract between the renderer and the main process (DESIGN.md "Layout"; STYLE.md
 * "one contract for the boundary"). The preload exposes exactly `API_METHODS` as `window.apollia`,
 * the Electron binding and the e2e harness serve exactly them, and the renderer's hooks call them.
 * Every method takes at most one plain-JSON request and answers an `ApiResult`: errors cross the
 * boundary as values, never as throws. Each request is the static type of its schema in
 * `shared/api-requests.ts` (`API_REQUEST_SCHEMAS`): the implementation refuses anything else
 * (`request.invalid`) before it looks at it.
 */
import type { ApiErrorCode } from './api-errors';
import type {
  ActivityView,
  AppInfo,
  InstallReceipt,
  InstalledRelation,
  KnownTool,
  SecretBackend,
  SourceHandle,
  StartAtLoginView,
  StoreDamage,
  TrashReceipt,
  TriggerArmed,
  TriggerStatusView,
  TriggerView,
  UninstallReceipt,
  ApiRepliedMethod,
  ApiReplyOf,
} from './api-replies';
import type {
  ActivityRequest,
  ApiRequestOf,
  ApplyPreviewRequest,
  ApplyTemplateRequest,
  ArmTriggerRequest,
  InstallRequest,
  OwnerToolRequest,
  RotateWebhookSecretRequest,
  SavedMcpServer,
  SetToolAccessRequest,
} from './api-requests';
import type { ActionFamily } from './apollia-manifest';
import type { ApplyPreview, Approvals, ToolSetting } from './apply-preview';
import type { InstalledDecisions } from './decisions';
import type { Inspection, Problem, SignatureSummary } from './inspection';
import type { KeyChange, PackageIntegrityView, TrustedKeyView, VerifiedPackage } from './trust';
import type { SignatureVerdict } from './signature-verdict';
import type { BuiltinTemplateCard, PinValue } from './template-manifest';
import type { PolicyView } from './policy';
export type { PolicyView } from './policy';
import type { RunsDiscarded, WaitingRunsView } from './run-queue';
import type { UpdateDiff } from './update-diff';
import type { WebhookSecretChoice, WebhookSecretOrigin } from './webhook-secret';

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
 * `listBuiltinTemplates`: one template shipped with the app (`resources/templates/<name>`), as a
 * card with the spec's table (name, what it does, started by, needs). A card is only a listing:
 * `openBuiltinTemplate` then `inspect` check the folder whole, as any other template's.
 */
export type BuiltinTemplate = BuiltinTemplateCard;

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

// The requests are defined once with their schemas (shared/api-requests.ts); their types are re-exported here.
export type {
  ActivityRequest,
  ApplyPreviewRequest,
  ApplyTemplateRequest,
  ArmTriggerRequest,
  InstallRequest,
  OwnerToolRequest,
  RotateWebhookSecretRequest,
  SavedMcpServer,
  SetToolAccessRequest,
} from './api-requests';

/**
 * `install`'s `decisions.triggers[id].webhookSecret`, `armTrigger`'s and `rotateWebhookSecret`'s
 * `webhookSecret`: make a new one here (the default when absent) or use the sender's, checked by
 * `checkWebhookSecret` (shared/webhook-secret.ts) before anything is sealed.
 */
export type WebhookSecretRequest = WebhookSecretChoice;

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

/** The ports Settings takes for the webhook listener: not the system's (below 1024), at most 65535. */
export const WEBHOOK_PORT_RANGE = { min: 1024, max: 65_535 } as const;
/** The port the webhook listener binds until Settings holds the owner's choice (DESIGN.md "Triggers at run time"). */
export const DEFAULT_WEBHOOK_PORT = 47_611;

// The replies whose whole shape the Api defines are defined once with their schemas (shared/api-replies.ts).
export type {
  ActivityEntry,
  ActivityOutcomeView,
  ActivityView,
  AppInfo,
  InstallReceipt,
  InstalledRelation,
  KnownTool,
  SecretBackend,
  SourceHandle,
  StartAtLoginView,
  StoreDamage,
  TrashReceipt,
  TriggerArmed,
  TriggerLiveView,
  TriggerStatusView,
  TriggerView,
  UninstallReceipt,
  WebhookSecretGiven,
  WebhookSecretOnce,
} from './api-replies';

/** The Api: one entry per method, `[request, response]`. */
export interface ApiMethods {
  appInfo: [void, AppInfo];
  /** Shows the system open dialog (`file`: .apo or plugin JSON; `folder`: a template folder). */
  openDialog: [ApiRequestOf<'openDialog'>, SourceHandle | null];
  listBuiltinTemplates: [void, BuiltinTemplate[]];
  openBuiltinTemplate: [ApiRequestOf<'openBuiltinTemplate'>, SourceHandle];
  /** Reads and checks a source without running any of it; adds how it relates to what is installed. */
  inspect: [ApiRequestOf<'inspect'>, SourceInspection];
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
  disarmTrigger: [ApiRequestOf<'disarmTrigger'>, TriggerView];
  rotateWebhookSecret: [RotateWebhookSecretRequest, TriggerArmed];
  uninstallPackage: [ApiRequestOf<'uninstallPackage'>, UninstallReceipt];
  archiveAgent: [ApiRequestOf<'archiveAgent'>, AgentView];
  settings: [void, SettingsView];
  saveMcpServer: [SavedMcpServer, SettingsView];
  removeMcpServer: [ApiRequestOf<'removeMcpServer'>, SettingsView];
  saveSecret: [ApiRequestOf<'saveSecret'>, SettingsView];
  removeSecret: [ApiRequestOf<'removeSecret'>, SettingsView];
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
  setWebhookPort: [ApiRequestOf<'setWebhookPort'>, SettingsView];
  /** Trust: the keys the user trusts (Settings → Trusted publishers). */
  trustedKeys: [void, TrustedKeyView[]];
  /** Trust: adds a pasted public key (a `.pub` file's text or its `RWQ…` line) under a name. */
  trustKey: [ApiRequestOf<'trustKey'>, TrustedKeyView[]];
  /** Trust: the same from a `.pub` file the user picks in a main-process dialog; null when cancelled. */
  trustKeyFromFile: [ApiRequestOf<'trustKeyFromFile'>, TrustedKeyView[] | null];
  /** Trust: removes a key by its id; packages pinned to it stay pinned. */
  untrustKey: [ApiRequestOf<'untrustKey'>, TrustedKeyView[]];
  /** Trust: the person answered "Don't update" on a key-change stop for this source; recorded in the activity log. */
  refuseKeyChange: [ApiRequestOf<'refuseKeyChange'>, null];
  /** Trust: re-checks every installed package's files (app start, the dashboard, the CLI's `verify`). */
  verifyInstalled: [void, VerifiedPackage[]];
  // --- Refused sources, starting at login ---
  /**
   * Moves the original file of a source refused as possibly malicious to the system's Trash (`trash.not_refused`
   * otherwise).
   */
  trashSource: [ApiRequestOf<'trashSource'>, TrashReceipt];
  /** Whether the app starts (in its tray, so triggers run) when the person logs in: opt-in. */
  startAtLogin: [void, StartAtLoginView];
  /** Turns starting at login on or off (`login.unavailable` where the host cannot: the CLI, the harness). */
  setStartAtLogin: [ApiRequestOf<'setStartAtLogin'>, StartAtLoginView];
  /** What waits in `runs/pending/`, oldest first (one trigger's with `trigger`): never a payload's body. */
  waitingRuns: [ApiRequestOf<'waitingRuns'>, WaitingRunsView];
  /** Discards one waiting run by its id (recorded as a decision). */
  discardWaitingRun: [ApiRequestOf<'discardWaitingRun'>, RunsDiscarded];
  /** Discards every run one trigger has waiting (recorded as a decision). */
  discardTriggerRuns: [ApiRequestOf<'discardTriggerRuns'>, RunsDiscarded];
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

/** The methods whose request type is not exactly its schema's static type (`API_REQUEST_SCHEMAS`): none. */
export type ApiRequestsOffSchema = {
  [M in ApiMethod]: [ApiRequest<M>] extends [ApiRequestOf<M>]
    ? [ApiRequestOf<M>] extends [ApiRequest<M>]
      ? never
      : M
    : M;
}[ApiMethod];
/** Compile-time proof that every request is its schema's type: fails to compile naming a method that drifted. */
const apiRequestsSchemed: [ApiRequestsOffSchema] extends [never] ? true : ApiRequestsOffSchema = true;
void apiRequestsSchemed;

/** The methods with a reply schema (`API_REPLY_SCHEMAS`) whose answer type is not exactly its static type: none. */
export type ApiRepliesOffSchema = {
  [M in ApiRepliedMethod]: [ApiResponse<M>] extends [ApiReplyOf<M>]
    ? [ApiReplyOf<M>] extends [ApiResponse<M>]
      ? never
      : M
    : M;
}[ApiRepliedMethod];
/** Compile-time proof that those answers are their schemas' types: fails to compile naming a method that drifted. */
const apiRepliesSchemed: [ApiRepliesOffSchema] extends [never] ? true : ApiRepliesOffSchema = true;
void apiRepliesSchemed;
