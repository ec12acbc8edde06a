/**
 * The keys the user trusts (DESIGN.md "Trust after install": signatures are verified against keys
 * the user trusts). Pure functions over a list the store keeps: adding parses the key with
 * `parsePublicKey` (one home for what a key is), removing and finding go by key id. Every function
 * returns a new list; nothing here touches the disk.
 */
import { createHash } from 'node:crypto';
import type { Problem } from '../../../shared/manifests/inspection';
import { MAX_TRUSTED_KEYS, type TrustedKey } from '../../../shared/trust/trust';
import { canonicalKeyId, isKeyId, parsePublicKey } from './minisign';

/** Re-exported from `shared/trust/trust.ts`, where the renderer reads it too. */
export type { TrustedKey };

/** Refusals of the trusted-keys list (README.md "Error codes"). */
export const TRUSTED_KEYS_ERROR = {
  /** A key with this key id is already trusted. */
  duplicateKey: 'trust.duplicate_key',
  /** Another trusted key already has this name (case-insensitive). */
  duplicateName: 'trust.duplicate_name',
  /** Empty, too long, surrounding spaces, or control / invisible characters. */
  badName: 'trust.bad_name',
  /** Adding would exceed {@link MAX_TRUSTED_KEYS}. */
  tooManyKeys: 'trust.too_many_keys',
  /** No trusted key has this key id (removal). */
  notFound: 'trust.not_found',
  /** Not 16 hex digits. */
  badKeyId: 'trust.bad_key_id',
  /** A stored list that is not a list of trusted keys (store load). */
  badList: 'trust.bad_list',
} as const;

export { MAX_TRUSTED_KEYS } from '../../../shared/trust/trust';

/** Longest publisher name, in characters (the consent form shows it on one line). */
export const MAX_KEY_NAME_CHARS = 80;

const UNSHOWABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** A list outcome: the new list (and the key concerned), or a refusal. */
export type TrustedKeysChange = { ok: true; keys: TrustedKey[]; key: TrustedKey } | { ok: false; error: Problem };

function refuse(code: string, message: string): { ok: false; error: Problem } {
  return { ok: false, error: { code, message } };
}

/** Why `name` cannot name a key, or null. */
export function keyNameProblem(name: string): string | null {
  if (name.trim() === '') return 'the key needs a name (the publisher it belongs to)';
  if (name !== name.trim()) return 'the key name may not start or end with spaces';
  const length = [...name].length;
  if (length > MAX_KEY_NAME_CHARS) return `the key name is ${length} characters: at most ${MAX_KEY_NAME_CHARS}`;
  const bad = UNSHOWABLE.exec(name);
  if (bad)
    return `the key name contains the control or invisible character U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return null;
}

/** The key id in minisign's spelling (uppercase), or a refusal when it is not 16 hex digits. */
function normaliseKeyId(keyId: string): { ok: true; keyId: string } | { ok: false; error: Problem } {
  if (!isKeyId(keyId))
    return refuse(
      TRUSTED_KEYS_ERROR.badKeyId,
      `\`${keyId.slice(0, 40)}\` is not a key id: a minisign key id is up to 16 hex digits (\`C16EDB3CEA28C218\`)`,
    );
  return { ok: true, keyId: canonicalKeyId(keyId) };
}

/** The trusted key with `keyId` (any case, leading zeros optional), or null. */
export function findTrustedKey(keys: readonly TrustedKey[], keyId: string): TrustedKey | null {
  if (!isKeyId(keyId)) return null;
  const wanted = canonicalKeyId(keyId);
  return keys.find((key) => key.keyId === wanted) ?? null;
}

/**
 * The fingerprint of a whole public key (its canonical base64 line): the SHA-256 of the 42 bytes the line encodes
 * (algorithm, key id, key), in uppercase hex groups of four. Unlike the key id, which whoever makes a key may choose,
 * it covers the key itself: two keys claiming one id have different fingerprints. `tail -n 1 KEY.pub | base64 -d |
 * sha256sum` prints the same digits.
 */
export function keyFingerprint(publicKey: string): string {
  const hex = createHash('sha256').update(Buffer.from(publicKey, 'base64')).digest('hex').toUpperCase();
  return hex.replace(/(.{4})(?!$)/g, '$1 ');
}

/** A key read before it is trusted: what the person compares with what the publisher gave them. */
export interface KeyPreviewResult {
  keyId: string;
  publicKey: string;
  fingerprint: string;
  /** The name it is already trusted as, or null. */
  trustedAs: string | null;
}

/** Reads the key in `publicKeyText` (a `.pub` file's text or its base64 line) without trusting it; refuses `key.*`. */
export function previewTrustedKey(
  keys: readonly TrustedKey[],
  publicKeyText: string | Uint8Array,
): { ok: true; preview: KeyPreviewResult } | { ok: false; error: Problem } {
  const parsed = parsePublicKey(publicKeyText);
  if (!parsed.ok) return parsed;
  const { keyId, publicKey } = parsed.value;
  const trustedAs = keys.find((key) => key.publicKey === publicKey)?.name ?? null;
  return { ok: true, preview: { keyId, publicKey, fingerprint: keyFingerprint(publicKey), trustedAs } };
}

/**
 * Adds the key in `publicKeyText` (a `.pub` file's text or its base64 line) under `name`.
 * Refuses a malformed key (`key.*`), a bad name, a key id already trusted (naming the name it is
 * trusted under), a name already used, and a list already at {@link MAX_TRUSTED_KEYS}.
 */
export function addTrustedKey(
  keys: readonly TrustedKey[],
  publicKeyText: string | Uint8Array,
  name: string,
  addedAt: Date,
): TrustedKeysChange {
  const parsed = parsePublicKey(publicKeyText);
  if (!parsed.ok) return parsed;
  const nameProblem = keyNameProblem(name);
  if (nameProblem !== null) return refuse(TRUSTED_KEYS_ERROR.badName, nameProblem);
  const existing = findTrustedKey(keys, parsed.value.keyId);
  if (existing)
    return refuse(TRUSTED_KEYS_ERROR.duplicateKey, `key ${existing.keyId} is already trusted, as \`${existing.name}\``);
  const folded = name.toLowerCase();
  const sameName = keys.find((key) => key.name.toLowerCase() === folded);
  if (sameName)
    return refuse(
      TRUSTED_KEYS_ERROR.duplicateName,
      `the name \`${sameName.name}\` is already used by key ${sameName.keyId}: pick another`,
    );
  if (keys.length >= MAX_TRUSTED_KEYS)
    return refuse(
      TRUSTED_KEYS_ERROR.tooManyKeys,
      `${keys.length} keys are trusted already: at most ${MAX_TRUSTED_KEYS}`,
    );
  const key: TrustedKey = {
    keyId: parsed.value.keyId,
    publicKey: parsed.value.publicKey,
    name,
    addedAt: addedAt.toISOString(),
  };
  return { ok: true, keys: [...keys, key], key };
}

/**
 * Removes the key with `keyId` (any case, leading zeros optional); refuses a key id that is not trusted or not a key
 * id.
 */
export function removeTrustedKey(keys: readonly TrustedKey[], keyId: string): TrustedKeysChange {
  const id = normaliseKeyId(keyId);
  if (!id.ok) return id;
  const key = findTrustedKey(keys, id.keyId);
  if (!key) return refuse(TRUSTED_KEYS_ERROR.notFound, `no trusted key has the id ${id.keyId}`);
  return { ok: true, keys: keys.filter((other) => other !== key), key };
}

/**
 * Checks a list read back from the store (untrusted JSON): an array of at most
 * {@link MAX_TRUSTED_KEYS} objects with exactly the four own string fields, each key parsing to
 * the recorded key id, names valid, no duplicates. Answers fresh plain objects (never the input's),
 * so an inherited or extra property of the input cannot leak through.
 */
export function parseTrustedKeys(value: unknown): { ok: true; keys: TrustedKey[] } | { ok: false; error: Problem } {
  if (!Array.isArray(value)) return refuse(TRUSTED_KEYS_ERROR.badList, 'the trusted keys are not a list');
  if (value.length > MAX_TRUSTED_KEYS)
    return refuse(
      TRUSTED_KEYS_ERROR.badList,
      `the list holds ${value.length} trusted keys: at most ${MAX_TRUSTED_KEYS}`,
    );
  const keys: TrustedKey[] = [];
  for (const [index, item] of value.entries()) {
    const where = `trusted key ${index + 1}`;
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      return refuse(TRUSTED_KEYS_ERROR.badList, `${where} is not an object`);
    const own = Object.keys(item).sort();
    if (own.join(',') !== 'addedAt,keyId,name,publicKey')
      return refuse(
        TRUSTED_KEYS_ERROR.badList,
        `${where} must have exactly \`keyId\`, \`publicKey\`, \`name\`, \`addedAt\`; it has ${own.map((k) => `\`${k.slice(0, 40)}\``).join(', ') || 'none'}`,
      );
    const record = item as Record<string, unknown>;
    const { keyId, publicKey, name, addedAt } = {
      keyId: record['keyId'],
      publicKey: record['publicKey'],
      name: record['name'],
      addedAt: record['addedAt'],
    };
    if (
      typeof keyId !== 'string' ||
      typeof publicKey !== 'string' ||
      typeof name !== 'string' ||
      typeof addedAt !== 'string'
    ) {
      return refuse(TRUSTED_KEYS_ERROR.badList, `${where}: every field must be a string`);
    }
    const parsed = parsePublicKey(publicKey);
    if (!parsed.ok) return refuse(TRUSTED_KEYS_ERROR.badList, `${where}: ${parsed.error.message}`);
    if (parsed.value.keyId !== keyId)
      return refuse(
        TRUSTED_KEYS_ERROR.badList,
        `${where}: its key has the id ${parsed.value.keyId}, not the recorded ${keyId.slice(0, 40)}`,
      );
    const nameProblem = keyNameProblem(name);
    if (nameProblem !== null) return refuse(TRUSTED_KEYS_ERROR.badList, `${where}: ${nameProblem}`);
    if (Number.isNaN(Date.parse(addedAt)))
      return refuse(TRUSTED_KEYS_ERROR.badList, `${where}: \`addedAt\` is not a date`);
    if (findTrustedKey(keys, keyId))
      return refuse(TRUSTED_KEYS_ERROR.badList, `${where}: key ${keyId} is listed twice`);
    if (keys.some((key) => key.name.toLowerCase() === name.toLowerCase()))
      return refuse(TRUSTED_KEYS_ERROR.badList, `${where}: the name \`${name}\` is used twice`);
    keys.push({ keyId, publicKey: parsed.value.publicKey, name, addedAt });
  }
  return { ok: true, keys };
}
