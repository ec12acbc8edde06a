/**
 * A package's signature state (DESIGN.md "Consent, install, apply": verified by a key you trust /
 * signed by a key you don't know / unsigned; a bad signature is a refusal). Finds the detached
 * `x.apo.minisig` beside `x.apo`, reads it under its size cap, and checks it over the package bytes
 * as the archive reader streams them (`onBytes`), against the user's trusted keys. Also the
 * per-package key pin: the key (or "unsigned") an update must keep (DESIGN.md "Trust after install").
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { Problem } from '../../../shared/inspection';
import type { KeyPin, SignatureState } from '../../../shared/trust';
import { createSignedMessageCollector, MAX_SIGNATURE_FILE_BYTES, parsePublicKey, parseSignature, SIGNATURE_ERROR, verifySignedMessage } from './minisign';
import { findTrustedKey, type TrustedKey } from './trusted-keys';

/** Where a package's signature is looked for: beside it, with `.minisig` appended (`x.apo.minisig`). */
export function signaturePathFor(packagePath: string): string {
  return `${packagePath}.minisig`;
}

/** Re-exported from `shared/trust.ts` (documented there), where the renderer reads them too. */
export type { KeyPin, SignatureState };

/** The state, or the refusal (`signature.*`, `key.*` for a damaged trusted key). */
export type SignatureOutcome = { ok: true; value: SignatureState } | { ok: false; error: Problem };

/** What reading `x.apo.minisig` found. */
export type DetachedSignatureRead = { state: 'absent' } | { state: 'present'; path: string; bytes: Uint8Array } | { state: 'refused'; error: Problem };

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
    return { state: 'refused', error: { code: SIGNATURE_ERROR.unreadable, message: `the signature ${path} cannot be read: ${code ?? (error as Error).message}` } };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { state: 'refused', error: { code: SIGNATURE_ERROR.unreadable, message: `the signature ${path} is not a regular file` } };
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
    return { state: 'refused', error: { code: SIGNATURE_ERROR.unreadable, message: `the signature ${path} cannot be read: ${(error as Error).message}` } };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function tooLarge(path: string, size: number): Problem {
  const shown = size > MAX_SIGNATURE_FILE_BYTES + 1 ? `${size} bytes` : `over ${MAX_SIGNATURE_FILE_BYTES} bytes`;
  return { code: SIGNATURE_ERROR.tooLarge, message: `the signature ${path} is ${shown}: a minisign signature is at most ${MAX_SIGNATURE_FILE_BYTES}` };
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
 */
export function startPackageSignatureCheck(read: DetachedSignatureRead, trustedKeys: readonly TrustedKey[]): { ok: true; check: PackageSignatureCheck } | { ok: false; error: Problem } {
  if (read.state === 'refused') return { ok: false, error: read.error };
  if (read.state === 'absent') return { ok: true, check: fixed({ ok: true, value: { state: 'unsigned' } }) };
  const parsed = parseSignature(read.bytes);
  if (!parsed.ok) return { ok: false, error: { ...parsed.error, message: `${read.path}: ${parsed.error.message}` } };
  const signature = parsed.value;
  const trusted = findTrustedKey(trustedKeys, signature.keyId);
  if (!trusted) {
    return {
      ok: true,
      check: fixed({ ok: true, value: { state: 'unknown_key', keyId: signature.keyId, algorithm: signature.algorithm, claimedTrustedComment: signature.trustedComment } }),
    };
  }
  const key = parsePublicKey(trusted.publicKey);
  if (!key.ok) return { ok: false, error: { ...key.error, message: `the trusted key \`${trusted.name}\` is damaged: ${key.error.message}` } };
  const collector = createSignedMessageCollector(signature.algorithm);
  let finished = false;
  return {
    ok: true,
    check: {
      onBytes: (chunk) => collector.update(chunk),
      finish() {
        if (finished) throw new Error('a package signature check was finished twice');
        finished = true;
        const result = verifySignedMessage(signature, key.value, collector.finish());
        if (!result.ok) return result;
        return { ok: true, value: { state: 'verified', keyId: result.keyId, keyName: trusted.name, algorithm: result.algorithm, trustedComment: result.trustedComment } };
      },
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
export async function checkPackageSignature(packagePath: string, trustedKeys: readonly TrustedKey[]): Promise<SignatureOutcome> {
  const started = startPackageSignatureCheck(await readDetachedSignature(packagePath), trustedKeys);
  if (!started.ok) return started;
  let handle: FileHandle;
  try {
    handle = await open(packagePath, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    return { ok: false, error: { code: SIGNATURE_ERROR.unreadable, message: `the package ${packagePath} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` } };
  }
  try {
    if (!(await handle.stat()).isFile()) return { ok: false, error: { code: SIGNATURE_ERROR.unreadable, message: `the package ${packagePath} is not a regular file` } };
    for await (const chunk of handle.createReadStream({ highWaterMark: 1024 * 1024, autoClose: false })) started.check.onBytes(chunk as Buffer);
  } catch (error) {
    return { ok: false, error: { code: SIGNATURE_ERROR.unreadable, message: `the package ${packagePath} cannot be read: ${(error as Error).message}` } };
  } finally {
    await handle.close().catch(() => undefined);
  }
  return started.check.finish();
}

/** Refusal of an update whose signing key differs from the one pinned at first install. */
export const KEY_PIN_ERROR = { keyChanged: 'signature.key_changed' } as const;

/** The pin a first install records for `state` (verified and unknown keys alike pin their key id). */
export function keyPinOf(state: SignatureState): KeyPin {
  return state.state === 'unsigned' ? { kind: 'unsigned' } : { kind: 'key', keyId: state.keyId };
}

/**
 * Whether an update with signature `state` keeps the package's pin (issue 14 point 4). Another key,
 * or a signed package now unsigned, is `signature.key_changed` (naming the key before and now),
 * which install refuses unless the user explicitly accepts it. An unsigned package now signed is
 * allowed, and says so (`firstSigned`): nothing that was vouched for is lost. An unchanged key id
 * under `unknown_key` passes this check but proves nothing (see {@link SignatureState}); the form
 * still says the key is unknown.
 */
export function checkKeyPin(pinned: KeyPin, state: SignatureState): { ok: true; firstSigned: boolean } | { ok: false; error: Problem } {
  return comparePins(pinned, keyPinOf(state));
}

/** {@link checkKeyPin} on the pins themselves (the Api keeps the inspected state as its pin). */
export function comparePins(pinned: KeyPin, now: KeyPin): { ok: true; firstSigned: boolean } | { ok: false; error: Problem } {
  if (pinned.kind === 'unsigned') return { ok: true, firstSigned: now.kind === 'key' };
  if (now.kind === 'key' && pinned.keyId === now.keyId) return { ok: true, firstSigned: false };
  const message = now.kind === 'key' ? `this update is signed by key ${now.keyId}, but the installed package was signed by key ${pinned.keyId}` : `this update is unsigned, but the installed package was signed by key ${pinned.keyId}`;
  return { ok: false, error: { code: KEY_PIN_ERROR.keyChanged, message } };
}
