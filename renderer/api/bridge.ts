/**
 * The one place the renderer touches `window.apollia` (STYLE.md "State in the renderer"): the
 * preload (or, in e2e, the harness bridge) exposes the Api of shared/contract/api.ts there. Every call is
 * unwrapped here so react-query sees a value or a thrown `ApiCallError` carrying the `ApiError`.
 */
import type { ApiError, ApiMethod, ApiRequest, ApiResponse, ApiResult, ApolliaBridge } from '../../shared/contract/api';

declare global {
  interface Window {
    apollia?: ApolliaBridge;
  }
}

/** An expected failure from the app, thrown so react-query puts it in `error`. */
export class ApiCallError extends Error {
  readonly code: string;
  readonly apiError: ApiError;
  constructor(apiError: ApiError) {
    super(apiError.message);
    this.name = 'ApiCallError';
    this.code = apiError.code;
    this.apiError = apiError;
  }
}

/** The bridge, or a thrown error a person can read when the app was started without one. */
export function bridge(): ApolliaBridge {
  const api = window.apollia;
  if (!api)
    throw new ApiCallError({
      code: 'bridge.missing',
      message: 'The app could not reach its background process. Restart Apollia Desktop.',
    });
  return api;
}

/** Calls one Api method and unwraps its result: the value, or a thrown `ApiCallError`. */
export async function call<M extends ApiMethod>(
  method: M,
  ...request: ApiRequest<M> extends void ? [] : [ApiRequest<M>]
): Promise<ApiResponse<M>> {
  const api = bridge();
  const fn = api[method] as unknown as (request?: unknown) => Promise<ApiResult<ApiResponse<M>>>;
  let result: ApiResult<ApiResponse<M>>;
  try {
    result = await fn(request[0]);
  } catch (error) {
    throw new ApiCallError({
      code: 'bridge.failed',
      message: `The app could not complete "${method}": ${error instanceof Error ? error.message : String(error)}`,
    });
  }
  if (!result || typeof result !== 'object' || !('ok' in result)) {
    throw new ApiCallError({ code: 'bridge.malformed', message: `The app gave an unreadable answer to "${method}".` });
  }
  if (!result.ok) throw new ApiCallError(result.error);
  return result.value;
}

/** The `ApiError` behind any thrown value, for the error panel. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiCallError) return error.apiError;
  if (error instanceof Error) return { code: 'renderer.unexpected', message: error.message };
  return { code: 'renderer.unexpected', message: String(error) };
}
