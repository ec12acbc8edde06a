/**
 * A package's signature state (DESIGN.md "Consent, install, apply": verified by a key you trust /
 * signed by a key you don't know / unsigned; a bad signature is a refusal). Finds the detached
 * `x.apo.minisig` beside `x.apo`, reads it under its size cap, and checks it over the package bytes
 * as the archive reader streams them (`onBytes`), against the user's trusted keys. Also the
 * per-package key pin: the key (or "unsigned") an update must keep (DESIGN.md "Trust after install").
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Problem, SignatureInvalidReason, SignatureSummary } from '../../../shared/manifests/inspection';
import type { KeyPin, SignatureState, SignatureUpdateKind } from '../../../shared/trust/trust';
import {
  canonicalKeyId,
  createSignedMessageCollector,
  KEY_ERROR,
  MAX_SIGNATURE_FILE_BYTES,
  parsePublicKey,
  parseSignature,
  SIGNATURE_ERROR,
  signedFileName,
  verifySignedMessage,
  type MinisignPublicKey,
  type MinisignSignature,
} from './minisign';
import { findTrustedKey, type TrustedKey } from './trusted-keys';

/** Where a package's signature is looked for: beside it, with `.minisig` appended (`x.apo.minisig`). */
export function signaturePathFor(packagePath: string): string {
  return `${packagePath}.minisig`;
}

/** Re-exported from `shared/trust/trust.ts` (documented there), where the renderer reads them too. */
export type { KeyPin, SignatureState };

/** The state, or the refusal (`signature.*`, `key.*` for a damaged trusted key). */
export type SignatureOutcome = { ok: true; value: SignatureState } | { ok: false; error: Problem };

/** What reading `x.apo.minisig` found. */
export type DetachedSignatureRead =
  | { state: 'absent' }
  | { state: 'present'; path: string; bytes: Uint8Array }
  | { state: 'refused'; error: Problem };

/**
 * Reads the signature beside `packagePath`. Absent (no such file) is `unsigned`, not an error. A
 * folder, FIFO or device there is `signature.unreadable` (opened without blocking, checked on the
 * handle, never read); a file over {@link MAX_SIGNATURE_FILE_BYTES} is `signature.too_large`, and
 * at most that many bytes plus one are ever read, even if the file grows meanwhile.
 */
export async function readDetachedSignature(packagePath: string): Promise<DetachedSignatureRead> {
  const path = signaturePathFor(packagePath);
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { state: 'absent' };
    return {
      state: 'refused',
      error: {
        code: SIGNATURE_ERROR.unreadable,
        message: `the signature ${path} cannot be read: ${code ?? (error as Error).message}`,
      },
    };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile())
      return {
        state: 'refused',
        error: { code: SIGNATURE_ERROR.unreadable, message: `the signature ${path} is not a regular file` },
      };
    if (info.size > MAX_SIGNATURE_FILE_BYTES) return { state: 'refused', error: tooLarge(path, info.size) };
    const buffer = Buffer.alloc(MAX_SIGNATURE_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > MAX_SIGNATURE_FILE_BYTES) return { state: 'refused', error: tooLarge(path, length) };
    }
    return { state: 'present', path, bytes: new Uint8Array(buffer.subarray(0, length)) };
  } catch (error) {
    return {
      state: 'refused',
      error: {
        code: SIGNATURE_ERROR.unreadable,
        message: `the signature ${path} cannot be read: ${(error as Error).message}`,
      },
    };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function tooLarge(path: string, size: number): Problem {
  const shown = size > MAX_SIGNATURE_FILE_BYTES + 1 ? `${size} bytes` : `over ${MAX_SIGNATURE_FILE_BYTES} bytes`;
  return {
    code: SIGNATURE_ERROR.tooLarge,
    message: `the signature ${path} is ${shown}: a minisign signature is at most ${MAX_SIGNATURE_FILE_BYTES}`,
  };
}

/** A check in progress: fed the package's bytes once, in order, then asked for the outcome. */
export interface PackageSignatureCheck {
  /** Every raw byte of the package file, as read (the archive reader's hook; see README). */
  onBytes(chunk: Uint8Array): void;
  /** The outcome, after the last byte. */
  finish(): SignatureOutcome;
}

/**
 * Starts checking a package whose signature file read as `read` against `trustedKeys`. A malformed
 * or unreadable signature is refused here, before any package byte is read. With an unknown key no
 * byte is kept or hashed (there is nothing to verify against). With a trusted key the bytes are
 * hashed (or, for legacy `Ed`, kept up to the cap) as they pass, and `finish` verifies.
 *
 * `pinnedKeys` are whole public keys pinned by installed packages that the person no longer trusts
 * (DESIGN.md "Trust after install": an update is checked against the pinned key whether or not it
 * is still trusted). A signature whose id names one is checked against it too: the state stays
 * `unknown_key` (the person does not trust that key now), with `pinnedKey` set when it holds. A
 * signature by another key that only claims a pinned key's id does not hold, so `pinnedKey` stays
 * null and the update is a key change, never "the same key" by its id.
 */
export function startPackageSignatureCheck(
  read: DetachedSignatureRead,
  trustedKeys: readonly TrustedKey[],
  pinnedKeys: readonly string[] = [],
): { ok: true; check: PackageSignatureCheck } | { ok: false; error: Problem } {
  if (read.state === 'refused') return { ok: false, error: read.error };
  if (read.state === 'absent') return { ok: true, check: fixed({ ok: true, value: { state: 'unsigned' } }) };
  const parsed = parseSignature(read.bytes);
  if (!parsed.ok) return { ok: false, error: { ...parsed.error, message: `${read.path}: ${parsed.error.message}` } };
  const signature = parsed.value;
  const trusted = findTrustedKey(trustedKeys, signature.keyId);
  const pinned: MinisignPublicKey[] = [];
  for (const text of pinnedKeys) {
    const key = parsePublicKey(text);
    if (
      key.ok &&
      key.value.keyId === signature.keyId &&
      key.value.publicKey !== trusted?.publicKey &&
      !pinned.some((other) => other.publicKey === key.value.publicKey)
    )
      pinned.push(key.value);
  }
  const unknown: SignatureState = {
    state: 'unknown_key',
    keyId: signature.keyId,
    algorithm: signature.algorithm,
    claimedTrustedComment: signature.trustedComment,
    pinnedKey: null,
  };
  if (!trusted && pinned.length === 0) return { ok: true, check: fixed({ ok: true, value: unknown }) };
  let key: MinisignPublicKey | null = null;
  if (trusted) {
    const parsedKey = parsePublicKey(trusted.publicKey);
    if (!parsedKey.ok)
      return {
        ok: false,
        error: {
          ...parsedKey.error,
          message: `the trusted key \`${trusted.name}\` is damaged: ${parsedKey.error.message}`,
        },
      };
    key = parsedKey.value;
  }
  const collector = createSignedMessageCollector(signature.algorithm);
  let finished = false;
  return {
    ok: true,
    check: {
      onBytes: (chunk) => collector.update(chunk),
      finish() {
        if (finished) throw new Error('a package signature check was finished twice');
        finished = true;
        const message = collector.finish();
        const result = key ? verifySignedMessage(signature, key, message) : null;
        if (trusted && result?.ok)
          return {
            ok: true,
            value: {
              state: 'verified',
              keyId: result.keyId,
              keyName: trusted.name,
              publicKey: trusted.publicKey,
              algorithm: result.algorithm,
              trustedComment: result.trustedComment,
            },
          };
        // Not (or not validly) by the trusted key of this id: is it by the key pinned for an installed package?
        const holder = pinned.find((candidate) => verifySignedMessage(signature, candidate, message).ok);
        if (holder) return { ok: true, value: { ...unknown, pinnedKey: holder.publicKey } };
        if (result && !result.ok) return key ? madeForAnotherFile(result, signature, key, read.path) : result;
        return { ok: true, value: unknown };
      },
    },
  };
}

/**
 * The `invalid` summary of a refused signature (`signature.*`, or a damaged trusted key): why, in a
 * code and in the check's words, and the key id the signature names when it could be read.
 */
export function invalidSignatureSummary(error: Problem, claimedKeyId: string | null = null): SignatureSummary {
  return {
    state: 'invalid',
    key_id: claimedKeyId,
    trusted_comment: null,
    signer: null,
    public_key: null,
    reason: invalidReasonOf(error),
    message: error.message,
  };
}

function invalidReasonOf(error: Problem): SignatureInvalidReason {
  switch (error.code) {
    case SIGNATURE_ERROR.invalid:
      if (error.message.includes('made for another file')) return 'other_file';
      if (error.message.includes('trusted comment does not match')) return 'comment_changed';
      return 'does_not_match';
    case SIGNATURE_ERROR.malformed:
    case SIGNATURE_ERROR.tooLarge:
      return 'malformed';
    case SIGNATURE_ERROR.unknownAlgorithm:
    case SIGNATURE_ERROR.legacyTooLarge:
    case KEY_ERROR.malformed:
    case KEY_ERROR.unknownAlgorithm:
      return 'unsupported';
    case SIGNATURE_ERROR.unreadable:
      return 'unreadable';
    default:
      return 'does_not_match';
  }
}

/** The key id a signature file names, when it parses; null otherwise (for an `invalid` summary). */
export function claimedKeyIdOf(read: DetachedSignatureRead): string | null {
  if (read.state !== 'present') return null;
  const parsed = parseSignature(read.bytes);
  return parsed.ok ? parsed.value.keyId : null;
}

/**
 * A signature that does not match, whose authentic signed comment names another file than the one
 * beside it (`file:NAME`, minisign's default comment): said so, "made for another file".
 */
function madeForAnotherFile(
  refusal: { ok: false; error: Problem },
  signature: MinisignSignature,
  key: MinisignPublicKey,
  signaturePath: string,
): { ok: false; error: Problem } {
  if (refusal.error.code !== SIGNATURE_ERROR.invalid) return refusal;
  const named = signedFileName(signature, key);
  const here = basename(signaturePath).replace(/\.minisig$/, '');
  if (named === null || named === here) return refusal;
  return {
    ok: false,
    error: {
      code: SIGNATURE_ERROR.invalid,
      message: `the signature was made for another file, \`${named}\`, not for this one (\`${here}\`; key ${key.keyId})`,
    },
  };
}

function fixed(outcome: SignatureOutcome): PackageSignatureCheck {
  return { onBytes: () => undefined, finish: () => outcome };
}

/**
 * Checks the package at `packagePath` on its own (the CLI's `verify`, tests): reads its signature,
 * then streams the package once through the check. In inspect and install the archive reader's
 * single read feeds `onBytes` instead. A package that cannot be read is `signature.unreadable`.
 */
export async function checkPackageSignature(
  packagePath: string,
  trustedKeys: readonly TrustedKey[],
): Promise<SignatureOutcome> {
  const started = startPackageSignatureCheck(await readDetachedSignature(packagePath), trustedKeys);
  if (!started.ok) return started;
  let handle: FileHandle;
  try {
    handle = await open(packagePath, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    return {
      ok: false,
      error: {
        code: SIGNATURE_ERROR.unreadable,
        message: `the package ${packagePath} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      },
    };
  }
  try {
    if (!(await handle.stat()).isFile())
      return {
        ok: false,
        error: { code: SIGNATURE_ERROR.unreadable, message: `the package ${packagePath} is not a regular file` },
      };
    for await (const chunk of handle.createReadStream({ highWaterMark: 1024 * 1024, autoClose: false }))
      started.check.onBytes(chunk as Buffer);
  } catch (error) {
    return {
      ok: false,
      error: {
        code: SIGNATURE_ERROR.unreadable,
        message: `the package ${packagePath} cannot be read: ${(error as Error).message}`,
      },
    };
  } finally {
    await handle.close().catch(() => undefined);
  }
  return started.check.finish();
}

/** Refusal of an update whose signing key differs from the one pinned at first install. */
export const KEY_PIN_ERROR = { keyChanged: 'signature.key_changed' } as const;

/**
 * The pin a first install records for `state`: the whole key that verified it, the id an unknown key claims, or
 * unsigned.
 */
export function keyPinOf(state: SignatureState): KeyPin {
  if (state.state === 'unsigned') return { kind: 'unsigned' };
  if (state.state === 'verified') return { kind: 'key', keyId: state.keyId, publicKey: state.publicKey };
  return state.pinnedKey !== null
    ? { kind: 'key', keyId: state.keyId, publicKey: state.pinnedKey }
    : { kind: 'claimed_key', keyId: state.keyId };
}

/**
 * The pin a signature summary records (the Api keeps the inspected summary): the whole key it
 * verified under, else the id an unknown key claims, else unsigned.
 */
export function keyPinOfSummary(signature: SignatureSummary): KeyPin {
  if (
    signature.public_key !== null &&
    signature.key_id !== null &&
    (signature.state === 'verified' || signature.state === 'unknown_key')
  )
    return { kind: 'key', keyId: signature.key_id, publicKey: signature.public_key };
  if (signature.state === 'unknown_key' && signature.key_id !== null)
    return { kind: 'claimed_key', keyId: signature.key_id };
  return { kind: 'unsigned' };
}

/**
 * How an update pinned `now` stands to the installed package's pin `pinned` (DESIGN.md "Trust after
 * install": key kept, changed, or signature dropped). A whole pinned key is kept only by a
 * signature that verified under that very key, whatever id it claims and whether or not the key is
 * still trusted; a pin of a claimed id only (an unknown key at install) is kept by the same id,
 * which proves nothing (the form still says the key is unknown); a key-id-only pin from before
 * whole keys were kept, whose key is gone, cannot be matched: every signed update asks.
 */
export function compareWithPin(pinned: KeyPin, now: KeyPin): SignatureUpdateKind {
  if (pinned.kind === 'unsigned') return now.kind === 'unsigned' ? 'kept' : 'first_signed';
  if (now.kind === 'unsigned') return 'dropped';
  switch (pinned.kind) {
    case 'key':
      return now.kind === 'key' && now.publicKey === pinned.publicKey ? 'kept' : 'other_key';
    case 'claimed_key':
      return canonicalKeyId(now.keyId) === canonicalKeyId(pinned.keyId) ? 'kept' : 'other_key';
    case 'key_id_only':
      return 'unverifiable_pin';
  }
}

/**
 * Whether an update with signature `state` keeps the package's pin: `signature.key_changed` for
 * another key, a signature dropped, or a pin that cannot be matched (see {@link compareWithPin});
 * an unsigned package now signed is allowed and says so (`firstSigned`).
 */
export function checkKeyPin(
  pinned: KeyPin,
  state: SignatureState,
): { ok: true; firstSigned: boolean } | { ok: false; error: Problem } {
  return comparePins(pinned, keyPinOf(state));
}

/** {@link checkKeyPin} on the pins themselves (the Api keeps the inspected state as its pin). */
export function comparePins(
  pinned: KeyPin,
  now: KeyPin,
): { ok: true; firstSigned: boolean } | { ok: false; error: Problem } {
  const kind = compareWithPin(pinned, now);
  if (kind === 'kept' || kind === 'first_signed') return { ok: true, firstSigned: kind === 'first_signed' };
  return {
    ok: false,
    error: { code: KEY_PIN_ERROR.keyChanged, message: keyChangeMessage(kind, pinned, now, null, null) },
  };
}

/** A pin's key as a person knows it: the name they gave it, else its id. */
function keyWords(pin: KeyPin, name: string | null, trusted: boolean): string {
  if (pin.kind === 'unsigned') return 'no key (unsigned)';
  if (name !== null) return `the key you ${trusted ? 'trust' : 'trusted'} as “${name}” (ID ${pin.keyId})`;
  return pin.kind === 'claimed_key' ? `a key you don't know (ID ${pin.keyId})` : `key ID ${pin.keyId}`;
}

/** The sentence of a key change, naming both keys as the person knows them. */
export function keyChangeMessage(
  kind: SignatureUpdateKind,
  before: KeyPin,
  now: KeyPin,
  beforeName: string | null,
  nowName: string | null,
  beforeTrusted = beforeName !== null,
): string {
  const was = keyWords(before, beforeName, beforeTrusted);
  switch (kind) {
    case 'dropped':
      return `this update is not signed; the version you have was signed by ${was}`;
    case 'first_signed':
      return `this update is signed by ${keyWords(now, nowName, true)}; the version you have was unsigned`;
    case 'unverifiable_pin':
      return `the version you have was signed by ${was}, recorded before this app kept whole keys, and that key is no longer one you trust: the app cannot tell whether this update (signed by ${keyWords(now, nowName, true)}) is by the same key`;
    case 'kept':
      return before.kind === 'unsigned'
        ? 'this update is unsigned, as the version you have'
        : `this update is signed by the same key as the version you have: ${was}`;
    case 'other_key':
      return `this update is signed by ${keyWords(now, nowName, true)}, not by ${was}, which signed the version you have`;
  }
}
