/**
 * The trusted keys a store holds, each re-checked (a damaged list is refused, never used): one
 * reading for the Api (`package-trust.ts`) and the CLI's `inspect` (`cli/cli-data.ts`), kept apart
 * from the Api so that `inspect` reads them without loading the core.
 */
import type { SignatureSummary } from '../../../shared/manifests/inspection';
import type { SignatureUpdate } from '../../../shared/trust/signature-verdict';
import type { KeyPin } from '../../../shared/trust/trust';
import type { ApiErrorCode } from '../../../shared/contract/api-errors';
import { CoreError } from '../errors/index';
import type { StoreState } from '../store/state';
import { compareWithPin, keyChangeMessage, keyPinOfSummary } from './package-signature';
import { parseTrustedKeys, type TrustedKey } from './trusted-keys';

/** The trusted keys `state` holds; a damaged list throws its refusal (`trust.bad_list`). */
export function trustedKeysOf(state: StoreState): TrustedKey[] {
  const parsed = parseTrustedKeys(state.trustedKeys);
  if (!parsed.ok) throw new CoreError(parsed.error.code as ApiErrorCode, parsed.error.message);
  return parsed.keys;
}

/**
 * The whole public keys installed packages are pinned to that the person no longer trusts: an
 * update is checked against its pin's key too (DESIGN.md "Trust after install": removing a trusted
 * key never weakens a pin), so inspection is given them beside the trusted keys.
 */
export function pinnedKeysOf(state: StoreState, trusted: readonly TrustedKey[]): string[] {
  const keys = new Set<string>();
  for (const record of Object.values(state.packageTrust)) {
    if (
      record.pin.kind === 'key' &&
      !trusted.some((key) => key.publicKey === (record.pin as { publicKey: string }).publicKey)
    )
      keys.add(record.pin.publicKey);
  }
  return [...keys].sort();
}

/**
 * The pin of an installed package (unsigned for one installed before pins were kept), or null when `name` is not
 * installed.
 */
export function installedPinOf(state: StoreState, name: string): KeyPin | null {
  if (!Object.hasOwn(state.packages, name)) return null;
  return (Object.hasOwn(state.packageTrust, name) ? state.packageTrust[name]?.pin : undefined) ?? { kind: 'unsigned' };
}

/**
 * How a package signed as `signature` stands to the pin of the installed `name` (the one key-pin
 * comparison: install, the consent form and the CLI call it): null for a first install; else kept,
 * first signed, another key, signature dropped, or a pin that cannot be matched, with the names the
 * person gave both keys (the pinned key's from the trusted keys, else from when it was installed).
 */
export function signatureUpdateOf(
  state: StoreState,
  name: string,
  signature: SignatureSummary,
): SignatureUpdate | null {
  const before = installedPinOf(state, name);
  if (!before) return null;
  const now = keyPinOfSummary(signature);
  const change = compareWithPin(before, now);
  const trusted = parseTrustedKeys(state.trustedKeys);
  const keys = trusted.ok ? trusted.keys : [];
  const record = Object.hasOwn(state.packageTrust, name) ? state.packageTrust[name] : undefined;
  const trustedBefore = before.kind === 'key' ? keys.find((key) => key.publicKey === before.publicKey) : undefined;
  const beforeName =
    trustedBefore?.name ??
    (before.kind === 'key' || before.kind === 'key_id_only' ? (record?.signature.signer ?? null) : null);
  const nowName = signature.state === 'verified' ? signature.signer : null;
  const message = keyChangeMessage(change, before, now, beforeName, nowName, trustedBefore !== undefined);
  return { change, before, now, beforeName, beforeTrusted: trustedBefore !== undefined, nowName, message };
}
