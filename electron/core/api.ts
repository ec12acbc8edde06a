/**
 * The Api of `shared/contract/api.ts`, implemented over core with injected deps (DESIGN.md "Layout";
 * STYLE.md "the boundary tested without Electron"). Electron main binds it to IPC, the e2e harness
 * serves it over HTTP, tests call it directly.
 *
 * This file is the router: every method takes one `unknown` request, checks it against
 * `API_REQUEST_SCHEMAS` (a wrong type, a missing or extra field, an oversized string →
 * `request.invalid`), hands it to the module that does the work, and answers an `ApiResult`:
 * a {@link CoreError} is an expected refusal, answered as a value with its stable code
 * (`errors.ts` lists every code); any other throw is a bug, logged and answered `internal`.
 * The renderer never sends a path: sources and watched folders are opened by main and referred to
 * by unguessable ids (`sources.ts`).
 */
import type { ValidateFunction } from 'ajv';
import {
  API_METHODS,
  type ApiError,
  type ApiMethod,
  type ApiRequest,
  type ApiResponse,
  type ApiResult,
  type SourceHandle,
} from '../../shared/contract/api';
import { previewKey, previewKeyFile, untrustKey, verifyInstalled } from './app/publisher-trust';
import { archiveAgent, setToolAccess } from './app/agents';
import { setApprovals, setToolAsks } from './app/agent-approvals';
import { appInfo } from './app/app-info';
import { ActivityLog } from './activity/activity-log';
import { type ApiContext, type ApiDeps, exportRecorded } from './app/context';
import { openDashboard } from './app/dashboard';
import { readActivityCollector, setActivityCollector } from './app/activity-collector';
import { CoreError } from './errors/index';
import * as requestValidators from './generated/api-request-validators';
import { installPackage, uninstallPackage } from './app/install-package';
import { refuseShownKeyChange } from './app/key-change-refusal';
import { inspectForConsent } from './app/source-inspection';
import { denyTool, removeDeniedTool, removeSecret, saveSecret, sealClearMcpCredentials } from './app/settings';
import {
  readSettingsUnderPolicy,
  removeMcpServerUnderPolicy,
  saveMcpServerUnderPolicy,
  setWebhookPortUnderPolicy,
  trustedKeysUnderPolicy,
  trustKeyUnderPolicy,
} from './app/settings-under-policy';
import { resealSecrets } from './app/reseal-secrets';
import { whenSandboxed } from './app/sandbox-refusal';
import { openBuiltinTemplate, openFromDialog, pickWatchFolder } from './app/source-pickers';
import { SourceRegistry } from './app/sources';
import { feedsHostApi, fetchOf, type FeedsHostApi } from './app/feeds-host';
import {
  checkUpdates,
  feedsView,
  followFeed,
  openRollbackSource,
  openUpdateSource,
  setModeUnderPolicy,
  unfollowFeed,
} from './app/feeds-api';
import { setStartAtLogin, startAtLogin } from './app/start-at-login';
import { Store } from './store/store';
import { listBuiltinTemplates } from './template';
import { applyTemplate, previewTemplate } from './app/apply-template';
import { trashSource } from './app/trash-source';
import { discardTriggerRuns, discardWaitingRun, waitingRuns } from './app/run-queue';
import { openDownloadPage } from './app/download-page';
import { armTrigger, disarmTrigger, rotateWebhookSecret, webhookSecretShared } from './app/trigger-arming';
import { activityOf, triggerStatus } from './app/trigger-status';
import { pauseTrigger, resumeTrigger } from './app/trigger-pause';
import { policyPage } from './app/policy-page';
import { ioFaultSentence } from './errors/io-fault';

export type { ApiDeps } from './app/context';

/**
 * The Api as its hosts hold it: every method of the contract, plus `registerSource` for paths the
 * host itself obtained (double-click, `open-file`, a second instance, the menu, a drop, the CLI).
 */
export type CoreApi = {
  [M in ApiMethod]: (request?: unknown) => Promise<ApiResult<ApiResponse<M>>>;
} & {
  registerSource(path: string, origin: SourceHandle['origin']): Promise<ApiResult<SourceHandle>>;
  /** Host only, at start: seals MCP server credentials a store from before format 3 kept in clear; the names sealed. */
  sealClearMcpCredentials(): Promise<string[]>;
  /**
   * Host only, once its secret box is ready: seals again what the box flags (`shouldReEncrypt`, a weaker old seal); how
   * many.
   */
  resealSecrets(): Promise<number>;
  /** The store, for the CLI's read-only listing and for tests. */
  readonly store: Store;
  /** Host only: publishers' feeds, updates, modes and roll back (`app/feeds-host.ts`). */
  readonly feeds: FeedsHostApi;
};

/** One validator per method, compiled at build time from `API_REQUEST_SCHEMAS` (scripts/compile-schemas.ts). */
const validators: Record<ApiMethod, ValidateFunction> = requestValidators;

/** Checks a request against its method's schema; a sentence naming the field, or null. */
function requestProblem(method: ApiMethod, request: unknown): ApiError | null {
  const validate = validators[method];
  if (validate(request === undefined ? null : request)) return null;
  const error = validate.errors?.[0];
  const where = error?.instancePath ? error.instancePath.slice(1).replaceAll('/', '.') : 'request';
  const extra =
    error?.keyword === 'additionalProperties'
      ? ` (\`${String((error.params as { additionalProperty?: string }).additionalProperty)}\`)`
      : '';
  return {
    code: 'request.invalid',
    message: `${method}: \`${where}\` ${error?.message ?? 'is invalid'}${extra}`,
    path: where,
  };
}

/** Every method, each handed to the module that does it. */
function handlersOf(ctx: ApiContext): { [M in ApiMethod]: (request: ApiRequest<M>) => Promise<ApiResponse<M>> } {
  const { deps } = ctx;
  return {
    appInfo: () => appInfo(ctx),
    openDialog: (request) => openFromDialog(ctx, request),
    listBuiltinTemplates: () => listBuiltinTemplates(deps.resourcesDir),
    openBuiltinTemplate: (request) => openBuiltinTemplate(ctx, request),
    inspect: (request) => inspectForConsent(ctx, request),
    pickWatchFolder: () => pickWatchFolder(ctx),
    install: whenSandboxed(ctx, installPackage),
    previewApply: (request) => previewTemplate(ctx, request),
    apply: whenSandboxed(ctx, applyTemplate),
    dashboard: () => openDashboard(ctx),
    setToolAccess: (request) => setToolAccess(ctx, request),
    setToolAsks: (request) => setToolAsks(ctx, request),
    setApprovals: (request) => setApprovals(ctx, request),
    armTrigger: (request) => armTrigger(ctx, request),
    disarmTrigger: (request) => disarmTrigger(ctx, request),
    pauseTrigger: (request) => pauseTrigger(ctx, request),
    resumeTrigger: (request) => resumeTrigger(ctx, request),
    rotateWebhookSecret: (request) => rotateWebhookSecret(ctx, request),
    webhookSecretShared: (request) => webhookSecretShared(ctx, request),
    uninstallPackage: (request) => uninstallPackage(ctx, request),
    archiveAgent: (request) => archiveAgent(ctx, request),
    settings: () => readSettingsUnderPolicy(ctx),
    saveMcpServer: (request) => saveMcpServerUnderPolicy(ctx, request),
    removeMcpServer: (request) => removeMcpServerUnderPolicy(ctx, request),
    saveSecret: (request) => saveSecret(ctx, request),
    removeSecret: (request) => removeSecret(ctx, request),
    denyTool: (request) => denyTool(ctx, request),
    removeDeniedTool: (request) => removeDeniedTool(ctx, request),
    triggerStatus: () => triggerStatus(ctx),
    policyPage: () => policyPage(ctx),
    activity: (request) => activityOf(ctx, request),
    setWebhookPort: (request) => setWebhookPortUnderPolicy(ctx, request),
    activityCollector: () => readActivityCollector(ctx),
    setActivityCollector: (request) => setActivityCollector(ctx, request),
    trashSource: (request) => trashSource(ctx, request),
    trustedKeys: () => trustedKeysUnderPolicy(ctx),
    trustKey: (request) => trustKeyUnderPolicy(ctx, request),
    previewKey: (request) => previewKey(ctx, request),
    previewKeyFile: () => previewKeyFile(ctx),
    untrustKey: (request) => untrustKey(ctx, request),
    refuseKeyChange: (request) => refuseShownKeyChange(ctx, request),
    verifyInstalled: () => verifyInstalled(ctx),
    startAtLogin: () => startAtLogin(ctx),
    setStartAtLogin: (request) => setStartAtLogin(ctx, request),
    waitingRuns: (request) => waitingRuns(ctx, request),
    discardWaitingRun: (request) => discardWaitingRun(ctx, request),
    discardTriggerRuns: (request) => discardTriggerRuns(ctx, request),
    openDownloadPage: () => openDownloadPage(ctx),
    followedFeeds: () => feedsView(ctx),
    followFeed: (request) => followFeed(ctx, request),
    unfollowFeed: (request) => unfollowFeed(ctx, request),
    checkUpdates: () => checkUpdates(ctx, fetchOf(deps)),
    openUpdate: (request) => openUpdateSource(ctx, fetchOf(deps), request),
    openRollback: (request) => openRollbackSource(ctx, request),
    setUpdateMode: (request) => setModeUnderPolicy(ctx, request),
  };
}

/** Builds the Api over `deps`. */
export function createApi(deps: ApiDeps): CoreApi {
  const record = new ActivityLog(deps.dataDir, { now: deps.now });
  const store = new Store(deps.dataDir, {
    now: deps.now,
    record,
    faults: deps.faults,
    lockTimeoutMs: deps.lockTimeoutMs,
    log: deps.log,
    onRecorded: (events) => exportRecorded(ctx, events),
  });
  const ctx: ApiContext = { deps, store, sources: new SourceRegistry(), activity: record };
  const log = deps.log ?? ((message: string, error?: unknown) => console.error(message, error));
  const handlers = handlersOf(ctx);
  const api = {
    registerSource: (path: string, origin: SourceHandle['origin']) => ctx.sources.register(path, origin),
    sealClearMcpCredentials: () => sealClearMcpCredentials(ctx),
    resealSecrets: () => resealSecrets(ctx),
    store,
    feeds: feedsHostApi(ctx, fetchOf(deps)),
  } as CoreApi;
  for (const method of API_METHODS) {
    const handler = handlers[method] as (request: unknown) => Promise<unknown>;
    (api as unknown as Record<string, (request: unknown) => Promise<ApiResult<unknown>>>)[method] = async (
      request: unknown,
    ) => {
      const problem = requestProblem(method, request);
      if (problem) return { ok: false, error: problem };
      try {
        return { ok: true, value: await handler(request === null ? undefined : request) };
      } catch (error) {
        if (error instanceof CoreError) return { ok: false, error: error.toApiError() };
        // DESIGN.md "Commit points": an I/O failure is a sentence, not a bug.
        log(`apollia: ${method} failed`, error);
        const fault = ioFaultSentence(error);
        if (fault !== null) return { ok: false, error: { code: 'io.failed', message: fault } };
        return {
          ok: false,
          error: {
            code: 'internal',
            message: `Something went wrong (${method}): ${error instanceof Error ? error.message : String(error)}`,
          },
        };
      }
    };
  }
  return api;
}
