/**
 * Every Api request, defined once with TypeBox: each schema is the JSON Schema (draft 2020-12) the
 * core checks a request against before it looks at it (`request.invalid`; compiled ahead of time by
 * `scripts/compile-schemas.ts`), and its `Static` type is the request type `shared/contract/api.ts` declares.
 * Every object is closed, every string, list and map bounded: the renderer is treated as untrusted
 * (DESIGN.md "Security of the app itself"). The caps come from the readers' own constants
 * (`shared/base/limits.ts`, the webhook secret's, the MCP server name's), so whatever `inspect` accepts
 * can be installed.
 *
 * Loaded by the core, the schema compiler and tests; the preload and the renderer import only its
 * types, so TypeBox never runs in the window.
 */
import { type Static, Type } from 'typebox';
import { MAX_REQUEST_ID, WEBHOOK_PORT_RANGE, MAX_WEBHOOK_SECRET_TEXT } from '../base/limits';
import { ConsentAnswersSchema } from '../decisions/consent-answers-schema';
import { WebhookSecretChoiceSchema } from '../triggers/webhook-secret-schema';
import { ENV_VARIABLE_NAME, MAX_MCP_ENV, MAX_MCP_SERVER_NAME, MCP_SERVER_NAME } from '../manifests/mcp-server-name';
import { closed, mapOf, oneOf, orNull, shaped } from '../base/schema-kit';
import type { ParameterValue } from '../manifests/template-manifest';

/** The longest string any request may carry (64 KiB): a 10 MB string is refused at the door. */
export const MAX_REQUEST_STRING = 65_536;
/** The longest name a request carries (a package, template, secret or parameter name). */
export const MAX_REQUEST_NAME = 128;
/** Parameters one apply may give, built-in tools it may withhold and triggers it may arm. */
export const MAX_APPLY_ITEMS = 256;
/** Grants one apply may give (gate names), each at most {@link MAX_TOOL_NAME} long. */
export const MAX_APPLY_GRANTS = 1024;
/** The longest tool name an apply grant or a tool access change carries. */
export const MAX_TOOL_NAME = 1024;
/** The longest tool name the owner's "never allow" list takes. */
export const MAX_OWNER_TOOL = 256;
/** The longest command, argument or URL a saved MCP server has; the most arguments it has. */
export const MAX_MCP_FIELD = 4096;
export const MAX_MCP_ARGS = 256;

/** The longest secret value Settings saves. */
export const MAX_SECRET_VALUE = 16_384;
/** Longest collector address the person may name (as the policy's `activityExport.otlp`). */
export const MAX_COLLECTOR_URL = 4096;
/** The most activity events one request answers. */
export const MAX_ACTIVITY_LIMIT = 1000;
/** A pasted public key's text, and the name it is trusted under (an e-mail address at most). */
export const MAX_PUBLIC_KEY_TEXT = 4096;
export const MAX_TRUSTED_KEY_NAME = 320;
/** The longest feed address a request carries. */
export const MAX_FEED_URL = 2048;
/** A key id's text (16 hex digits; room for what a person pastes). */
export const MAX_KEY_ID = 64;

const id = Type.String({ minLength: 1, maxLength: MAX_REQUEST_ID });
const name = Type.String({ minLength: 1, maxLength: MAX_REQUEST_NAME });
/** A method without a request takes nothing: `undefined`, `null` or `{}`. */
const noRequest = shaped<void>({ type: ['object', 'null'], maxProperties: 0 });

/**
 * `install`: the user's answers for the `.apo` a source id refers to: only what the person changed.
 * Installing an older version than the installed one is refused unless `allowDowngrade` (the UI asks
 * first). An update signed by another key than the one pinned (or a signed package now unsigned) is
 * refused `signature.key_changed` unless `acceptKeyChange`: the app sets it only after its separate
 * confirmation, the CLI with `--accept-key-change`. It is recorded.
 */
export const InstallRequestSchema = closed({
  sourceId: id,
  decisions: ConsentAnswersSchema,
  allowDowngrade: Type.Optional(Type.Boolean()),
  acceptKeyChange: Type.Optional(Type.Boolean()),
});
export type InstallRequest = Static<typeof InstallRequestSchema>;

/** A template parameter's value: text (bounded), a number or a yes/no. */
const parameterValue = shaped<ParameterValue>({
  type: ['string', 'number', 'boolean'],
  maxLength: MAX_REQUEST_STRING,
});
/** The owner's approvals choice (template spec agent.md `approvals`). */
const approvals = oneOf(['ask', 'never']);
const applyFields = {
  sourceId: id,
  parameters: mapOf(parameterValue, name, { maxProperties: MAX_APPLY_ITEMS }),
  /** Gate names (`mcp:<server>/<tool>`) the owner allows. */
  grants: Type.Array(Type.String({ minLength: 1, maxLength: MAX_TOOL_NAME }), { maxItems: MAX_APPLY_GRANTS }),
  /** Built-in tools of the template the owner unticked: the agent gets each as `deny`. */
  withhold: Type.Optional(Type.Array(name, { maxItems: MAX_APPLY_ITEMS })),
  /** The owner's approvals choice; absent: `ask` (the template's `approvals` is only its recommendation). */
  approvals: Type.Optional(approvals),
};

/** `previewApply`: a template source, the form's parameters and the owner's grants. */
export const ApplyPreviewRequestSchema = closed(applyFields);
export type ApplyPreviewRequest = Static<typeof ApplyPreviewRequestSchema>;

/**
 * `apply`: as the preview, with a client request id (the same id twice makes one agent), and `arm`:
 * the names of the template's schedule and `at` triggers the person ticked to arm now. Nothing else
 * is armed: a trigger left out is made unarmed (armed later on the dashboard), and a webhook is
 * armed only by `armTrigger`, which makes its secret. `once`: when a live agent of the same template
 * already holds exactly what this would make (its parameters, tools, approvals, MCP settings, armed
 * triggers and files), answer its receipt marked `alreadyApplied` and make nothing (the CLI's
 * `apply`, unless `--another`: its rerun says "already applied").
 */
export const ApplyTemplateRequestSchema = closed({
  ...applyFields,
  requestId: id,
  arm: Type.Optional(Type.Array(name, { maxItems: MAX_APPLY_ITEMS })),
  once: Type.Optional(Type.Boolean()),
});
export type ApplyTemplateRequest = Static<typeof ApplyTemplateRequestSchema>;

/** `setToolAccess`: grant or revoke one tool of one agent. */
export const SetToolAccessRequestSchema = closed({
  agentId: id,
  tool: Type.String({ minLength: 1, maxLength: MAX_TOOL_NAME }),
  granted: Type.Boolean(),
});
export type SetToolAccessRequest = Static<typeof SetToolAccessRequestSchema>;

/** `setToolAsks`: one granted tool of a package's agent set to ask first (`asks`), or to run without asking. */
export const SetToolAsksRequestSchema = closed({
  agentId: id,
  tool: Type.String({ minLength: 1, maxLength: MAX_TOOL_NAME }),
  asks: Type.Boolean(),
});
export type SetToolAsksRequest = Static<typeof SetToolAsksRequestSchema>;

/** `armTrigger`: a file_watch trigger needs a `pickWatchFolder` id; a webhook makes its secret or uses the sender's. */
export const ArmTriggerRequestSchema = closed({
  triggerId: id,
  folderId: Type.Optional(id),
  webhookSecret: Type.Optional(WebhookSecretChoiceSchema),
});
export type ArmTriggerRequest = Static<typeof ArmTriggerRequestSchema>;

/** `rotateWebhookSecret`: a new secret for an armed webhook, made here (the default) or given by the sender. */
export const RotateWebhookSecretRequestSchema = closed({
  triggerId: id,
  webhookSecret: Type.Optional(WebhookSecretChoiceSchema),
});
export type RotateWebhookSecretRequest = Static<typeof RotateWebhookSecretRequestSchema>;

/**
 * `webhookSecretShared`: whether a secret the person is giving for a webhook trigger is already set on another
 * trigger, asked while the form is filled, before anything is kept. `triggerId` is the trigger it is for (its own
 * current secret is not another's); a secret the check refuses is answered with no warning.
 */
export const WebhookSecretSharedRequestSchema = closed({
  triggerId: id,
  secret: Type.String({ minLength: 1, maxLength: MAX_WEBHOOK_SECRET_TEXT }),
});
export type WebhookSecretSharedRequest = Static<typeof WebhookSecretSharedRequestSchema>;

/**
 * An MCP server saved in Settings: a command line (stdio) or a URL (network transport). `env`, a stdio server's
 * environment variables (its tokens, most often): kept sealed whole, never stored or shown in clear.
 */
export const SavedMcpServerSchema = closed({
  name: Type.String({ pattern: MCP_SERVER_NAME.source, maxLength: MAX_MCP_SERVER_NAME }),
  transport: oneOf(['stdio', 'streamable-http', 'sse']),
  command: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_MCP_FIELD })),
  args: Type.Optional(Type.Array(Type.String({ maxLength: MAX_MCP_FIELD }), { maxItems: MAX_MCP_ARGS })),
  url: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_MCP_FIELD })),
  env: Type.Optional(
    mapOf(
      Type.String({ maxLength: MAX_MCP_FIELD }),
      { type: 'string', pattern: ENV_VARIABLE_NAME.source },
      { maxProperties: MAX_MCP_ENV },
    ),
  ),
});
export type SavedMcpServer = Static<typeof SavedMcpServerSchema>;

/** `denyTool` / `removeDeniedTool`: one tool by its gate name or native name (shared/manifests/owner-tools.ts). */
export const OwnerToolRequestSchema = closed({ tool: Type.String({ minLength: 1, maxLength: MAX_OWNER_TOOL }) });
export type OwnerToolRequest = Static<typeof OwnerToolRequestSchema>;

/**
 * `activity`: newest first, optionally one agent's (with its package's events that name no agent), at
 * most `limit` (default 200); `decisionsOnly`: only what the person decided, and what changed it
 * without them (no deliveries, fires, runs). No request at all is every kind.
 */
export const ActivityRequestSchema = Type.Unsafe<{ agent?: string; limit?: number; decisionsOnly?: boolean } | void>({
  type: ['object', 'null'],
  properties: {
    agent: id,
    limit: Type.Integer({ minimum: 1, maximum: MAX_ACTIVITY_LIMIT }),
    decisionsOnly: Type.Boolean(),
  },
  additionalProperties: false,
});
export type ActivityRequest = Exclude<Static<typeof ActivityRequestSchema>, void>;

/** A waiting run's id, as the run queue names its file in `runs/pending/`. */
export const RUN_ID_PATTERN = '^[A-Za-z0-9-]{1,128}$';

/** `waitingRuns`: what waits in `runs/pending/`, one trigger's when `trigger` is given. */
export const WaitingRunsRequestSchema = Type.Unsafe<{ trigger?: string } | void>({
  type: ['object', 'null'],
  properties: { trigger: id },
  additionalProperties: false,
});

/** The trusted key's name, as `trustKey` takes it. */
const trustedKeyName = Type.String({ minLength: 1, maxLength: MAX_TRUSTED_KEY_NAME });

/**
 * Every method's request schema. A method without a request takes nothing (`undefined`, `null` or
 * `{}`). `shared/contract/api.ts` declares each request as the `Static` type of its schema here.
 */
export const API_REQUEST_SCHEMAS = {
  appInfo: noRequest,
  openDialog: closed({ kind: oneOf(['file', 'folder']) }),
  listBuiltinTemplates: noRequest,
  openBuiltinTemplate: closed({ name }),
  inspect: closed({ sourceId: id }),
  pickWatchFolder: noRequest,
  install: InstallRequestSchema,
  previewApply: ApplyPreviewRequestSchema,
  apply: ApplyTemplateRequestSchema,
  dashboard: noRequest,
  setToolAccess: SetToolAccessRequestSchema,
  setToolAsks: SetToolAsksRequestSchema,
  setApprovals: closed({ agentId: id, approvals }),
  armTrigger: ArmTriggerRequestSchema,
  disarmTrigger: closed({ triggerId: id }),
  pauseTrigger: closed({ triggerId: id }),
  resumeTrigger: closed({ triggerId: id }),
  rotateWebhookSecret: RotateWebhookSecretRequestSchema,
  webhookSecretShared: WebhookSecretSharedRequestSchema,
  uninstallPackage: closed({ name }),
  archiveAgent: closed({ agentId: id }),
  settings: noRequest,
  saveMcpServer: SavedMcpServerSchema,
  removeMcpServer: closed({ name }),
  saveSecret: closed({ name, value: Type.String({ minLength: 1, maxLength: MAX_SECRET_VALUE }) }),
  removeSecret: closed({ name }),
  denyTool: OwnerToolRequestSchema,
  removeDeniedTool: OwnerToolRequestSchema,
  triggerStatus: noRequest,
  policyPage: noRequest,
  activity: ActivityRequestSchema,
  setWebhookPort: closed({
    port: shaped<number | null>({
      type: ['integer', 'null'],
      minimum: WEBHOOK_PORT_RANGE.min,
      maximum: WEBHOOK_PORT_RANGE.max,
    }),
  }),
  activityCollector: noRequest,
  // The address is checked by the use case (`otlpEndpointProblem`), so a refusal names what is wrong with it.
  setActivityCollector: closed({ url: orNull('string', { minLength: 1, maxLength: MAX_COLLECTOR_URL }) }),
  trustedKeys: noRequest,
  trustKey: closed({
    publicKey: Type.String({ minLength: 1, maxLength: MAX_PUBLIC_KEY_TEXT }),
    name: trustedKeyName,
  }),
  previewKey: closed({ publicKey: Type.String({ minLength: 1, maxLength: MAX_PUBLIC_KEY_TEXT }) }),
  previewKeyFile: noRequest,
  untrustKey: closed({ keyId: Type.String({ minLength: 1, maxLength: MAX_KEY_ID }) }),
  refuseKeyChange: closed({ sourceId: id }),
  verifyInstalled: noRequest,
  trashSource: closed({ sourceId: id }),
  startAtLogin: noRequest,
  setStartAtLogin: closed({ on: Type.Boolean() }),
  waitingRuns: WaitingRunsRequestSchema,
  discardWaitingRun: closed({ runId: Type.String({ pattern: RUN_ID_PATTERN }) }),
  discardTriggerRuns: closed({ triggerId: id }),
  openDownloadPage: noRequest,
  followedFeeds: noRequest,
  followFeed: closed({
    url: Type.String({ minLength: 1, maxLength: MAX_FEED_URL }),
    publicKey: Type.Union([Type.String({ minLength: 1, maxLength: MAX_PUBLIC_KEY_TEXT }), Type.Null()]),
    name: Type.Union([trustedKeyName, Type.Null()]),
  }),
  unfollowFeed: closed({ url: Type.String({ minLength: 1, maxLength: MAX_FEED_URL }) }),
  checkUpdates: noRequest,
  openUpdate: closed({ name }),
  openRollback: closed({ name }),
  setUpdateMode: closed({ name, mode: oneOf(['notify', 'auto', 'hold']) }),
};

/** Each method's request, as its schema types it. */
export type ApiRequestOf<M extends keyof typeof API_REQUEST_SCHEMAS> = Static<(typeof API_REQUEST_SCHEMAS)[M]>;
