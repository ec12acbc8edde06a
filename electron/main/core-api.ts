/**
 * The shape main needs of the core Api (`electron/core/api.ts` → `createApi(deps)`): every method
 * of the contract taking one `unknown` request (core validates it) and answering an `ApiResult`,
 * plus `registerSource` for paths main itself obtained (double-click, `open-file`, a second
 * instance, the menu, a drop). Structural, so main depends on the contract, not on core's internals.
 */
import type { ApiMethod, ApiResult, SourceHandle } from '../../shared/api';

export type CoreApi = {
  [M in ApiMethod]: (request: unknown) => Promise<ApiResult<unknown>> | ApiResult<unknown>;
} & {
  registerSource(path: string, origin: SourceHandle['origin']): Promise<ApiResult<SourceHandle>> | ApiResult<SourceHandle> | Promise<SourceHandle> | SourceHandle;
};

/** The `SourceHandle` out of whatever `registerSource` answered, or the error value it gave. */
export async function registeredSource(answer: ReturnType<CoreApi['registerSource']>): Promise<ApiResult<SourceHandle>> {
  const value = await answer;
  if ('ok' in value) return value;
  return { ok: true, value };
}
