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
import { closed, oneOf, orNull, shaped } from '../base/schema-kit';
import { AppInfoSchema, InstalledRelationSchema, SourceHandleSchema } from './replies-app';
import { FeedsViewSchema, ModeSetSchema, UpdateOpenedSchema, UpdatesViewSchema } from './replies-feeds';
import { DashboardSchema, PickedFolderSchema, SettingsViewSchema } from './replies-dashboard';
import { PolicyPageSchema } from './replies-policy';
import {
  ActivityCollectorViewSchema,
  ActivityViewSchema,
  AgentViewSchema,
  ApplyReceiptSchema,
  DownloadPageOpenedSchema,
  InstallReceiptSchema,
  StartAtLoginViewSchema,
  TrashReceiptSchema,
  TriggerArmedSchema,
  TriggerStatusViewSchema,
  TriggerViewSchema,
  UninstallReceiptSchema,
} from './replies-installed';
import { ApplyPreviewSchema } from '../decisions/apply-preview-schema';
import { InstalledDecisionsSchema, UpdateDiffSchema } from '../decisions/update-diff-schema';
import { ProblemSchema } from '../manifests/inspection-schema';
import { BuiltinTemplateCardSchema } from '../manifests/template-card-schema';
import { PolicyViewSchema } from '../policy/policy-in-force-schema';
import { RunsDiscardedSchema, WaitingRunsViewSchema } from '../triggers/runs-schema';
import {
  KeyChangeSchema,
  KeyPreviewSchema,
  SignatureVerdictSchema,
  TrustedKeyViewSchema,
  VerifiedPackageSchema,
} from '../trust/trust-schema';

const nstr = orNull('string');

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
   * The fingerprint (SHA-256 of the whole key, as Settings → Trusted publishers shows it) of the key the signature
   * verified under, so Review shows it where the person can compare it with what the publisher gave them; null when
   * no key verified it.
   */
  signerFingerprint: Type.Union([Type.String(), Type.Null()]),
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
  setToolAsks: AgentViewSchema,
  setApprovals: AgentViewSchema,
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
  pauseTrigger: TriggerViewSchema,
  resumeTrigger: TriggerViewSchema,
  rotateWebhookSecret: TriggerArmedSchema,
  webhookSecretShared: closed({ warning: nstr }),
  uninstallPackage: UninstallReceiptSchema,
  triggerStatus: TriggerStatusViewSchema,
  policyPage: PolicyPageSchema,
  activity: ActivityViewSchema,
  activityCollector: ActivityCollectorViewSchema,
  setActivityCollector: ActivityCollectorViewSchema,
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
  followedFeeds: FeedsViewSchema,
  followFeed: FeedsViewSchema,
  unfollowFeed: FeedsViewSchema,
  checkUpdates: UpdatesViewSchema,
  openUpdate: UpdateOpenedSchema,
  openRollback: UpdateOpenedSchema,
  setUpdateMode: ModeSetSchema,
};

/** The methods whose whole answer is defined here. */
export type ApiRepliedMethod = keyof typeof API_REPLY_SCHEMAS;

/** Each of those methods' answer, as its schema types it. */
export type ApiReplyOf<M extends ApiRepliedMethod> = Static<(typeof API_REPLY_SCHEMAS)[M]>;
