/**
 * The store's format 5 step (`state.ts` owns the versions and calls it): key pins hold the whole
 * public key (DESIGN.md "Trust after install").
 */
import { ownRecord } from '../../../shared/base/own-data';
import { isObject } from './migration-values';

// --- format 5: whole-key pins -------------------------------------------------------------------
/**
 * Format 4 → 5: a pin held only the key id a signature claimed. A pin of a package installed
 * `verified` gets the whole key of the trusted key with that id (the key it was verified with: ids
 * are unique in the list); when that key is no longer trusted the pin becomes `key_id_only`, which
 * cannot be matched, so the next signed update is a key-change stop (a question for the person,
 * never a silent default). A pin of a package installed under an unknown key is `claimed_key`.
 * Each signature summary gains `public_key` (the same whole key, or null), `reason` and `message`.
 * Anything not shaped as format 4 is left for `stateProblem` to judge.
 */
export function migrateFrom4(value: unknown): unknown {
  if (!isObject(value) || value.version !== 4) return value;
  const trusted = new Map<string, string>();
  if (Array.isArray(value.trustedKeys)) {
    for (const key of value.trustedKeys)
      if (isObject(key) && typeof key.keyId === 'string' && typeof key.publicKey === 'string')
        trusted.set(key.keyId.toUpperCase(), key.publicKey);
  }
  const packageTrust = value.packageTrust;
  if (!isObject(packageTrust)) return { ...value, version: 5 };
  const migrated = Object.entries(packageTrust).map(([name, record]) => {
    if (!isObject(record) || !isObject(record.pin) || !isObject(record.signature)) return [name, record] as const;
    const signature = record.signature;
    const pin = record.pin;
    let publicKey: string | null = null;
    let newPin: Record<string, unknown> = pin;
    if (pin.kind === 'key' && typeof pin.keyId === 'string' && !Object.hasOwn(pin, 'publicKey')) {
      if (signature.state === 'unknown_key') newPin = { kind: 'claimed_key', keyId: pin.keyId };
      else {
        publicKey = trusted.get(pin.keyId.toUpperCase()) ?? null;
        newPin =
          publicKey !== null ? { kind: 'key', keyId: pin.keyId, publicKey } : { kind: 'key_id_only', keyId: pin.keyId };
      }
    }
    const newSignature = Object.hasOwn(signature, 'public_key')
      ? signature
      : { ...signature, public_key: signature.state === 'verified' ? publicKey : null, reason: null, message: null };
    return [name, { ...record, pin: newPin, signature: newSignature }] as const;
  });
  return { ...value, packageTrust: ownRecord(migrated), version: 5 };
}
// --- end format 5 --------------------------------------------------------------------------------
