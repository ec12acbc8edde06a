/**
 * The one contract between the renderer and the main process (DESIGN.md "Layout"; STYLE.md
 * "one contract for the boundary"). The preload exposes exactly `API_METHODS` as `window.apollia`,
 * the Electron binding and the e2e harness serve exactly them, and the renderer's hooks call them.
 * Every method takes at most one plain-JSON request and answers an `ApiResult`: errors cross the
 * boundary as values, never as throws. Each request is the static type of its schema in
 * `shared/contract/api-requests.ts` (`API_REQUEST_SCHEMAS`): the implementation refuses anything else
 * (`request.invalid`) before it looks at it.
 */
import type { ApiErrorCode } from './api-errors';
import type { ApiRepliedMethod, ApiReplyOf, SourceInspection } from './api-replies';
import type {
  UninstallReceipt,
  TriggerView,
  TriggerStatusView,
  TriggerArmed,
  TrashReceipt,
  DownloadPageOpened,
  StartAtLoginView,
  InstallReceipt,
  ApplyReceipt,
  AgentView,
  ActivityView,
  ActivityCollectorView,
} from './replies-installed';
import type { SourceHandle, AppInfo } from './replies-app';
import type { FeedsView, ModeSet, UpdateOpened, UpdatesView } from './replies-feeds';
import type { PickedFolder, SettingsView, Dashboard } from './replies-dashboard';
import type { PolicyPage } from './replies-policy';
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
import type { ApplyPreview } from '../decisions/apply-preview';
import type { Problem } from '../manifests/inspection';
import type { KeyPreview, TrustedKeyView, VerifiedPackage } from '../trust/trust';
import type { BuiltinTemplateCard } from '../manifests/template-manifest';
export type { PolicyView } from '../policy/policy';
import type { RunsDiscarded, WaitingRunsView } from '../triggers/run-queue';
import type { WebhookSecretChoice } from '../triggers/webhook-secret';

/**
 * An expected failure, shown to the user. `code` is stable: `request.invalid` (the request does
 * not match its schema), `source.unknown`, `folder.unknown`, `install.already_installed`,
 * `install.downgrade`, `install.refused`, `install.not_inspected` (install only what `inspect`
 * showed), `apply.blocked`, `apply.not_previewed`, `apply.changed` (the folder differs from what
 * was previewed), `tool.invalid`, `tool.too_many`, `tool.not_denied` (the owner's tool settings),
 * `store.busy`, `store.future_version`, `internal` (a bug, logged), …
 */
export interface ApiError {
  /** One of the codes listed in `shared/contract/api-errors.ts`. */
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

// Trust: its Api types live in `shared/trust/trust.ts`, re-exported here.
export type { SignatureUpdate, SignatureVerdict } from '../trust/signature-verdict';
export type { KeyChange, KeyPreview, PackageIntegrityView, TrustedKeyView, VerifiedPackage } from '../trust/trust';

// The requests are defined once with their schemas (shared/contract/api-requests.ts); their types are re-exported here.
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
 * `checkWebhookSecret` (shared/triggers/webhook-secret.ts) before anything is sealed.
 */
export type WebhookSecretRequest = WebhookSecretChoice;

/** The port the webhook listener binds until Settings holds the owner's choice (DESIGN.md "Triggers at run time"). */
export const DEFAULT_WEBHOOK_PORT = 47_611;

// The replies whose whole shape the Api defines are defined once with their schemas (shared/contract/api-replies.ts).
export type { SourceInspection } from './api-replies';
export type {
  WebhookSecretOnce,
  WebhookSecretGiven,
  SourceHandle,
  SecretBackend,
  InstalledRelation,
  AppInfo,
} from './replies-app';
export type {
  UninstallReceipt,
  TriggerView,
  TriggerStatusView,
  TriggerLiveView,
  TriggerArmed,
  TrashReceipt,
  StoreDamage,
  DownloadPageOpened,
  StartAtLoginView,
  KnownTool,
  InstallReceipt,
  ActivityView,
  ActivityVerdict,
  ActivityExportView,
  ActivityCollectorView,
  ActivityOutcomeView,
  ActivityEntry,
  InstalledPackageView,
  AgentView,
  WaitingServerView,
  AccessView,
  ApplyReceipt,
} from './replies-installed';
export type { PickedFolder, SettingsView, SavedMcpServerView, Dashboard } from './replies-dashboard';
export type {
  FeedKeyView,
  FeedView,
  FeedsView,
  ModeSet,
  UpdateModeView,
  UpdateOpened,
  UpdateRow,
  UpdatesView,
} from './replies-feeds';
export type { PolicyPage } from './replies-policy';

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
  pickWatchFolder: [void, PickedFolder];
  install: [InstallRequest, InstallReceipt];
  previewApply: [ApplyPreviewRequest, ApplyPreview];
  apply: [ApplyTemplateRequest, ApplyReceipt];
  dashboard: [void, Dashboard];
  setToolAccess: [SetToolAccessRequest, AgentView];
  /** One granted tool of a package's agent: ask first, or run without asking (the decision function decides). */
  setToolAsks: [ApiRequestOf<'setToolAsks'>, AgentView];
  /** A template agent switched between asking before each tool and running unattended (the approvals rule). */
  setApprovals: [ApiRequestOf<'setApprovals'>, AgentView];
  armTrigger: [ArmTriggerRequest, TriggerArmed];
  disarmTrigger: [ApiRequestOf<'disarmTrigger'>, TriggerView];
  /** Pauses an armed trigger: still armed, its folder and secret kept, not firing until resumed (recorded). */
  pauseTrigger: [ApiRequestOf<'pauseTrigger'>, TriggerView];
  /** Resumes a trigger the person paused: arming's checks again (the policy, a changed package), recorded. */
  resumeTrigger: [ApiRequestOf<'resumeTrigger'>, TriggerView];
  rotateWebhookSecret: [RotateWebhookSecretRequest, TriggerArmed];
  /** Whether a secret being given is already set on other triggers: the warning's words, or null. Never the secret. */
  webhookSecretShared: [ApiRequestOf<'webhookSecretShared'>, { warning: string | null }];
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
  /** The organization's policy in words: who sets it and from where (a trial policy said so), its rules, what it changes here. */
  policyPage: [void, PolicyPage];
  /** The activity log, newest first. */
  activity: [ActivityRequest | void, ActivityView];
  /** Sets the webhook listener's port (null: the default); a running host rebinds to it. */
  setWebhookPort: [ApiRequestOf<'setWebhookPort'>, SettingsView];
  /** The collector the activity record is shipped to: the organization's, else the person's, with its status. */
  activityCollector: [void, ActivityCollectorView];
  /** Names the person's collector for the activity record (null: removes it); refused while the policy names one. */
  setActivityCollector: [ApiRequestOf<'setActivityCollector'>, ActivityCollectorView];
  /** Trust: the keys the user trusts (Settings → Trusted publishers). */
  trustedKeys: [void, TrustedKeyView[]];
  /** Trust: adds a pasted public key (a `.pub` file's text or its `RWQ…` line) under a name. */
  trustKey: [ApiRequestOf<'trustKey'>, TrustedKeyView[]];
  /**
   * Trust: reads a pasted key without trusting it, so its key id and fingerprint are shown before it is given a name
   * (`key.*` when it is not a minisign public key).
   */
  previewKey: [ApiRequestOf<'previewKey'>, KeyPreview];
  /** Trust: the same for a `.pub` file the user picks in a main-process dialog; null when cancelled. */
  previewKeyFile: [void, KeyPreview | null];
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
  /**
   * Opens the page where the newest Apollia Desktop is (`shared/base/app-links.ts`, a fixed address) in the
   * person's browser: the action of a refusal that says to update the app (`link.unavailable` where
   * the host cannot open a browser: the CLI).
   */
  openDownloadPage: [void, DownloadPageOpened];
  // --- Publishers' feeds and updates (DESIGN.md "Feeds, updates and install links") ---
  /** Settings → Feeds: the feeds followed, each with its keys' fingerprints, and what the policy allows. */
  followedFeeds: [void, FeedsView];
  /** Follows a feed by its address, with the publisher's key when given (trusted as Settings → Trusted publishers would). */
  followFeed: [ApiRequestOf<'followFeed'>, FeedsView];
  /** Stops following a feed (`feed.not_followed` while an installed package updates from it). */
  unfollowFeed: [ApiRequestOf<'unfollowFeed'>, FeedsView];
  /** The Updates screen: every feed checked now; a row per package installed from one. */
  checkUpdates: [void, UpdatesView];
  /** Opens a package's update from its feed as a source: the consent form shows what it changes; nothing installed. */
  openUpdate: [ApiRequestOf<'openUpdate'>, UpdateOpened];
  /** Opens the version kept for roll back as a source, through the same consent form (a confirmed downgrade). */
  openRollback: [ApiRequestOf<'openRollback'>, UpdateOpened];
  /** Sets a package's update mode (`policy.update_mode` when the organization sets them). */
  setUpdateMode: [ApiRequestOf<'setUpdateMode'>, ModeSet];
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
  'setToolAsks',
  'setApprovals',
  'armTrigger',
  'disarmTrigger',
  'pauseTrigger',
  'resumeTrigger',
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
  'policyPage',
  'activity',
  'setWebhookPort',
  'activityCollector',
  'setActivityCollector',
  'trustedKeys',
  'trustKey',
  'previewKey',
  'previewKeyFile',
  'untrustKey',
  'refuseKeyChange',
  'verifyInstalled',
  'trashSource',
  'startAtLogin',
  'setStartAtLogin',
  'waitingRuns',
  'discardWaitingRun',
  'discardTriggerRuns',
  'openDownloadPage',
  'followedFeeds',
  'followFeed',
  'unfollowFeed',
  'checkUpdates',
  'openUpdate',
  'openRollback',
  'setUpdateMode',
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
