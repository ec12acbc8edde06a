/**
 * The trusted keys a store holds, each re-checked (a damaged list is refused, never used): one
 * reading for the Api (`package-trust.ts`) and the CLI's `inspect` (`cli/cli-data.ts`), kept apart
 * from the Api so that `inspect` reads them without loading the core (issue 17).
 */
import { CoreError, type ApiErrorCode } from '../errors';
import type { StoreState } from '../store/state';
import { parseTrustedKeys, type TrustedKey } from './trusted-keys';

/** The trusted keys `state` holds; a damaged list throws its refusal (`trust.bad_list`). */
export function trustedKeysOf(state: StoreState): TrustedKey[] {
  const parsed = parseTrustedKeys(state.trustedKeys);
  if (!parsed.ok) throw new CoreError(parsed.error.code as ApiErrorCode, parsed.error.message);
  return parsed.keys;
}
