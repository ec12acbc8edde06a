/**
 * The Api's errors: one class with a stable code, and every code the Api answers, listed once
 * (STYLE.md "errors (expected, handled, shown) from exceptions (bugs, logged)"). A handler throws a
 * {@link CoreError} for an expected refusal; the dispatcher in `api.ts` answers it as
 * `{ ok: false, error: { code, message, … } }`. Anything else thrown is a bug: logged, answered
 * `internal`. The codes of a refused package (`archive.*`, `manifest.*`, `template.*`, `plugin.*`)
 * travel inside an inspection's `errors` or an error's `problems`, and are listed in the README of
 * the module that decides them.
 */
import type { ApiError } from '../../../shared/contract/api';
import type { ApiErrorCode } from '../../../shared/contract/api-errors';

/**
 * An expected refusal with a stable code and a sentence naming what is wrong; `extra` carries the
 * rest of the error value (`path`, `problems`). Thrown by core modules and the store, answered by
 * the Api as a value, never logged as a bug.
 */
export class CoreError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly extra: Partial<ApiError> = {},
  ) {
    super(message);
  }

  /** The error value the Api answers. */
  toApiError(): ApiError {
    return { code: this.code, message: this.message, ...this.extra };
  }
}
