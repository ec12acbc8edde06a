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
import packageJson from '../../package.json';
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
import type { ApoDetails } from '../../shared/manifests/inspection';
import {
  keyChangeOf,
  listTrustedKeys,
  refuseKeyChange,
  trustKey,
  previewKey,
  previewKeyFile,
  untrustKey,
  verifyInstalled,
} from './app/publisher-trust';
import { SDK_VERSION } from '../../shared/manifests/sdk';
import { keyFingerprint } from './trust/trusted-keys';
import { ActivityLog } from './activity/activity-log';
import { archiveAgent, setToolAccess } from './app/agents';
import { type ApiContext, type ApiDeps, policyOf, recordActivity } from './app/context';
import { lockedByPolicy } from './app/policy-locks';
import { policyKeys } from './policy/index';
import { dashboardUnderPolicy, noticePolicyChange, settingsUnderPolicy } from './policy/policy-effects';
import { CoreError } from './errors/index';
import * as requestValidators from './generated/api-request-validators';
import { installPackage, uninstallPackage } from './app/install-package';
import { inspectForConsent } from './app/source-inspection';
import {
  denyTool,
  readSettings,
  removeDeniedTool,
  removeMcpServer,
  removeSecret,
  saveMcpServer,
  saveSecret,
  sealClearMcpCredentials,
} from './app/settings';
import { resealSecrets } from './app/reseal-secrets';
import { SourceRegistry } from './app/sources';
import { Store } from './store/store';
import { dashboardOf } from './app/views';
import { builtinTemplateDir, listBuiltinTemplates } from './template';
import { applyTemplate, previewTemplate } from './app/apply-template';
import { trashSource } from './app/trash-source';
import { discardTriggerRuns, discardWaitingRun, waitingRuns } from './app/run-queue';
import { openDownloadPage } from './app/download-page';
import { armTrigger, disarmTrigger, rotateWebhookSecret, webhookSecretShared } from './app/trigger-arming';
import { activityOf, setWebhookPort, triggerStatus } from './app/trigger-status';
import { resolveWatchFolder } from './triggers/watchable-folder';

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

/** A registered source's handle, or its refusal thrown. */
async function registered(ctx: ApiContext, path: string, origin: SourceHandle['origin']): Promise<SourceHandle> {
  const answer = await ctx.sources.register(path, origin);
  if (!answer.ok) throw new CoreError(answer.error.code as CoreError['code'], answer.error.message);
  return answer.value;
}

/**
 * Nothing is installed or applied by an app started without Chromium's sandbox (`--no-sandbox`,
 * which an AppImage launcher adds on its own): its window shows text from untrusted packages, and
 * the person must know and restart it properly first (DESIGN.md "Security of the app itself").
 */
function refuseWithoutSandbox(deps: ApiContext['deps']): void {
  if (deps.sandboxOff === true) {
    throw new CoreError(
      'app.sandbox_off',
      'Apollia Desktop was started with its sandbox turned off (--no-sandbox), so it installs nothing: quit it and start it again from its menu entry or icon, without --no-sandbox. Nothing was installed.',
    );
  }
}

/** Every method, each handed to the module that does it. */
function handlersOf(ctx: ApiContext): { [M in ApiMethod]: (request: ApiRequest<M>) => Promise<ApiResponse<M>> } {
  const { deps, store } = ctx;
  return {
    appInfo: async () => ({
      version: packageJson.version,
      sdkVersion: SDK_VERSION,
      secretBackend: deps.secretBox.backend(),
      cliProgram: deps.cliProgram === undefined ? 'apollia-desktop' : deps.cliProgram,
      sandboxOff: deps.sandboxOff === true,
    }),
    openDialog: async (request) => {
      const path = request.kind === 'file' ? await deps.dialogs.openFile() : await deps.dialogs.openFolder();
      return path === null ? null : registered(ctx, path, 'dialog');
    },
    listBuiltinTemplates: () => listBuiltinTemplates(deps.resourcesDir),
    openBuiltinTemplate: async (request) => {
      // Only a name of the shipped list, never a path: `builtinTemplateDir` refuses any other.
      const known = (await listBuiltinTemplates(deps.resourcesDir)).some((t) => t.name === request.name);
      if (!known) throw new CoreError('template.unknown', `No built-in template is called \`${request.name}\`.`);
      return registered(ctx, builtinTemplateDir(deps.resourcesDir, request.name), 'builtin');
    },
    inspect: (request) => inspectForConsent(ctx, request),
    pickWatchFolder: async () => {
      const path = await deps.dialogs.openFolder();
      if (path === null) return null;
      const real = await resolveWatchFolder(path, deps.dataDir);
      return { folderId: ctx.sources.addFolder(real), displayPath: real };
    },
    install: (request) => {
      refuseWithoutSandbox(deps);
      return installPackage(ctx, request);
    },
    previewApply: (request) => previewTemplate(ctx, request),
    apply: (request) => {
      refuseWithoutSandbox(deps);
      return applyTemplate(ctx, request);
    },
    dashboard: async () => {
      // Opening the dashboard re-checks the installed files, and notices a policy change.
      await verifyInstalled(ctx);
      const state = await store.read();
      const policy = policyOf(ctx);
      await noticePolicyChange(deps.dataDir, state, policy, (events) => recordActivity(ctx, events));
      return dashboardUnderPolicy(dashboardOf(state, deps.now()), state, policy);
    },
    setToolAccess: (request) => setToolAccess(ctx, request),
    armTrigger: (request) => armTrigger(ctx, request),
    disarmTrigger: (request) => disarmTrigger(ctx, request),
    rotateWebhookSecret: (request) => rotateWebhookSecret(ctx, request),
    webhookSecretShared: (request) => webhookSecretShared(ctx, request),
    uninstallPackage: (request) => uninstallPackage(ctx, request),
    archiveAgent: (request) => archiveAgent(ctx, request),
    settings: async () => settingsUnderPolicy(await readSettings(ctx), policyOf(ctx)),
    saveMcpServer: async (request) => {
      lockedByPolicy(ctx, 'mcp', request.name);
      return settingsUnderPolicy(await saveMcpServer(ctx, request), policyOf(ctx));
    },
    removeMcpServer: async (request) => {
      lockedByPolicy(ctx, 'mcp', request.name);
      return settingsUnderPolicy(await removeMcpServer(ctx, request), policyOf(ctx));
    },
    saveSecret: (request) => saveSecret(ctx, request),
    removeSecret: (request) => removeSecret(ctx, request),
    denyTool: (request) => denyTool(ctx, request),
    removeDeniedTool: (request) => removeDeniedTool(ctx, request),
    triggerStatus: () => triggerStatus(ctx),
    activity: (request) => activityOf(ctx, request),
    setWebhookPort: async (request) => {
      lockedByPolicy(ctx, 'webhookPort', String(request.port));
      return settingsUnderPolicy(await setWebhookPort(ctx, request), policyOf(ctx));
    },
    trashSource: (request) => trashSource(ctx, request),
    trustedKeys: async () => {
      // The organization's publishers first, locked; then the person's own.
      const managed = policyKeys(policyOf(ctx).effective).map(({ keyId, name, publicKey }) => ({
        keyId,
        name,
        publicKey,
        fingerprint: keyFingerprint(publicKey),
        addedAt: '',
        pinnedPackages: [],
        managed: true,
      }));
      return [...managed, ...(await listTrustedKeys(ctx)).filter((key) => !managed.some((m) => m.keyId === key.keyId))];
    },
    trustKey: (request) => {
      lockedByPolicy(ctx, 'userKeys', request.name);
      return trustKey(ctx, request);
    },
    previewKey: (request) => previewKey(ctx, request),
    previewKeyFile: () => previewKeyFile(ctx),
    untrustKey: (request) => untrustKey(ctx, request),
    refuseKeyChange: async (request) => {
      const src = ctx.sources.get(request.sourceId);
      const summary = src.shownApo?.summary;
      const manifest = (src.shownApo?.details as ApoDetails | null | undefined)?.manifest;
      const change =
        summary && manifest ? keyChangeOf(await store.read(), manifest.package.name, summary.signature) : null;
      if (change?.kind === 'changed')
        await refuseKeyChange(ctx, change, manifest?.package.name ?? summary?.name ?? '', summary?.version ?? '');
      return null;
    },
    verifyInstalled: () => verifyInstalled(ctx),
    startAtLogin: async () =>
      deps.loginItem ? { available: true, on: await deps.loginItem.get() } : { available: false, on: false },
    setStartAtLogin: async (request) => {
      if (!deps.loginItem)
        throw new CoreError(
          'login.unavailable',
          'This copy of Apollia Desktop cannot start itself at login: run `apollia-desktop serve` as a service instead.',
        );
      await deps.loginItem.set(request.on);
      return { available: true, on: await deps.loginItem.get() };
    },
    waitingRuns: (request) => waitingRuns(ctx, request),
    discardWaitingRun: (request) => discardWaitingRun(ctx, request),
    discardTriggerRuns: (request) => discardTriggerRuns(ctx, request),
    openDownloadPage: () => openDownloadPage(ctx),
  };
}

/** Builds the Api over `deps`. */
export function createApi(deps: ApiDeps): CoreApi {
  const store = new Store(deps.dataDir, { now: deps.now, faults: deps.faults, lockTimeoutMs: deps.lockTimeoutMs });
  const ctx: ApiContext = { deps, store, sources: new SourceRegistry(), activity: new ActivityLog(deps.dataDir) };
  const log = deps.log ?? ((message: string, error?: unknown) => console.error(message, error));
  const handlers = handlersOf(ctx);
  const api = {
    registerSource: (path: string, origin: SourceHandle['origin']) => ctx.sources.register(path, origin),
    sealClearMcpCredentials: () => sealClearMcpCredentials(ctx),
    resealSecrets: () => resealSecrets(ctx),
    store,
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
        log(`apollia: ${method} failed`, error);
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
