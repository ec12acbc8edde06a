/**
 * The one contract between the renderer and the main process (DESIGN.md "Layout"; STYLE.md
 * "one contract for the boundary"). The preload exposes exactly `API_METHODS` as `window.apollia`,
 * the Electron binding and the e2e harness serve exactly them, and the renderer's hooks call them.
 * Every method takes at most one plain-JSON request and answers an `ApiResult`: errors cross the
 * boundary as values, never as throws.
 *
 * OWNERSHIP NOTE (remove when settled): this is the skeleton the store/api work fleshes out; method
 * names are fixed, request/response types are refined there.
 */
import type { Inspection, Problem } from './inspection';

/** An expected failure, shown to the user. `code` is stable (`source.unknown`, `store.busy`, …). */
export interface ApiError {
  code: string;
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
  origin: 'dialog' | 'command-line' | 'open-file' | 'drop' | 'menu' | 'builtin';
}

/** The Api: one entry per method, `[request, response]`. */
export interface ApiMethods {
  appInfo: [void, unknown];
  /** Shows the system open dialog (`file`: .apo or plugin JSON; `folder`: a template folder). */
  openDialog: [{ kind: 'file' | 'folder' }, SourceHandle | null];
  listBuiltinTemplates: [void, unknown[]];
  openBuiltinTemplate: [{ name: string }, SourceHandle];
  /** Reads and checks a source without running any of it; adds how it relates to what is installed. */
  inspect: [{ sourceId: string }, Inspection];
  /** Shows the system folder dialog for a file_watch trigger; the folder is then referred to by id. */
  pickWatchFolder: [void, { folderId: string; displayPath: string } | null];
  install: [unknown, unknown];
  previewApply: [unknown, unknown];
  apply: [unknown, unknown];
  dashboard: [void, unknown];
  setToolAccess: [unknown, unknown];
  armTrigger: [unknown, unknown];
  disarmTrigger: [unknown, unknown];
  rotateWebhookSecret: [unknown, unknown];
  uninstallPackage: [{ name: string }, unknown];
  archiveAgent: [{ agentId: string }, unknown];
  settings: [void, unknown];
  saveMcpServer: [unknown, unknown];
  removeMcpServer: [{ name: string }, unknown];
  saveSecret: [{ name: string; value: string }, unknown];
  removeSecret: [{ name: string }, unknown];
}

export type ApiMethod = keyof ApiMethods;
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
] as const satisfies readonly ApiMethod[];

/** Compile-time proof that `API_METHODS` names every method of `ApiMethods`. */
export type ApiMethodsListed = Exclude<ApiMethod, (typeof API_METHODS)[number]> extends never ? true : never;
const apiMethodsListed: ApiMethodsListed = true;
void apiMethodsListed;
