/**
 * minisign, read and verified with Node's own crypto (DESIGN.md "Trust after install": detached
 * minisign signatures, verified offline). Parses public keys (`.pub` file or its one base64 line)
 * and `.minisig` files strictly, and verifies the two signatures a `.minisig` carries:
 *
 * - the file signature: Ed25519 over BLAKE2b-512 of the file (`ED`, what minisign writes by
 *   default), or over the file's bytes themselves (legacy `Ed`, `minisign -S -l`);
 * - the global signature: Ed25519 over the 64 signature bytes followed by the trusted comment, so
 *   an edited trusted comment is as invalid as an edited file.
 *
 * The bytes are fed incrementally (`createSignedMessageCollector`), so the archive reader can hand
 * over the very chunks it hashes with SHA-256: one read, no second copy of a 256 MiB package.
 */
import { createHash, createPublicKey, verify, type Hash, type KeyObject } from 'node:crypto';
import type { Problem } from '../../../shared/manifests/inspection';
import type { SignatureAlgorithm } from '../../../shared/trust/trust';

/** Refusals of a signature: one stable code each (README.md "Error codes"). */
export const SIGNATURE_ERROR = {
  /** The signature does not match: the file or the trusted comment changed, or it signs another file. */
  invalid: 'signature.invalid',
  /** Not a minisign signature: wrong line count, missing prefixes, bad base64, wrong lengths, not text. */
  malformed: 'signature.malformed',
  /** A well-formed signature whose algorithm bytes are neither `ED` nor `Ed`. */
  unknownAlgorithm: 'signature.unknown_algorithm',
  /** The `.minisig` file is larger than any signature minisign writes; refused before it is read. */
  tooLarge: 'signature.too_large',
  /** The signature names another key id than the key it is checked against. */
  keyIdMismatch: 'signature.key_id_mismatch',
  /** A legacy `Ed` signature over a file too large to hold in memory for it. */
  legacyTooLarge: 'signature.legacy_too_large',
  /** The `.minisig` file exists but cannot be read (a folder, a FIFO, no permission). */
  unreadable: 'signature.unreadable',
} as const;

/** Refusals of a public key (the text of a `.pub` file, or its base64 line). */
export const KEY_ERROR = {
  /** Not a minisign public key: wrong line count, bad base64, wrong length, too large, not text. */
  malformed: 'key.malformed',
  /** A well-formed key whose algorithm bytes are not `Ed`. */
  unknownAlgorithm: 'key.unknown_algorithm',
} as const;

/** Re-exported from `shared/trust/trust.ts`, where the renderer reads it too. */
export type { SignatureAlgorithm };

/**
 * Largest `.minisig` accepted. minisign itself reads at most 1,024 bytes of untrusted comment and
 * 8,192 of trusted comment, plus two base64 lines (about 190 bytes): every signature it can write
 * fits in 16 KiB, and anything larger is refused from its size alone, before it is read.
 */
export const MAX_SIGNATURE_FILE_BYTES = 16 * 1024;

/** Largest public key text: a 1,024-byte comment line and the 56-character key line fit easily. */
export const MAX_PUBLIC_KEY_TEXT_BYTES = 4 * 1024;

/** minisign's COMMENTMAXBYTES: the untrusted comment line, prefix included. */
export const MAX_UNTRUSTED_COMMENT_BYTES = 1024;

/** minisign's TRUSTEDCOMMENTMAXBYTES: the trusted comment line, prefix included. */
export const MAX_TRUSTED_COMMENT_BYTES = 8192;

/**
 * Largest file a legacy `Ed` signature is checked over. Legacy Ed25519 needs the whole message in
 * one piece, so these bytes are held in memory while the file streams past; minisign has signed
 * prehashed (`ED`) by default in current versions (0.11 does) and an author can re-sign with one. 16 MiB
 * covers the legacy-signed packages of the past without letting a package double the reader's
 * peak memory (DESIGN.md limits: 256 MiB per archive).
 */
export const MAX_LEGACY_SIGNED_BYTES = 16 * 1024 * 1024;

const UNTRUSTED_PREFIX = 'untrusted comment: ';
const TRUSTED_PREFIX = 'trusted comment: ';
const PUBLIC_KEY_BYTES = 42;
const SIGNATURE_LINE_BYTES = 74;
const ED25519_SIGNATURE_BYTES = 64;
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Controls other than tab, invisible format characters (bidi overrides), line/paragraph separators. */
const UNSHOWABLE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\p{Cf}\u2028\u2029]/u;

/** A parsed minisign public key. `keyId` is what minisign prints: 16 uppercase hex digits. */
export interface MinisignPublicKey {
  /** The 8-byte key number as minisign prints it (`minisign public key C16EDB3CEA28C218`). */
  keyId: string;
  /** The canonical base64 line (`RWQ…`, 56 characters): what a store keeps and `-P` accepts. */
  publicKey: string;
  /** The raw 32-byte Ed25519 key. */
  keyBytes: Uint8Array;
  /**
   * The `untrusted comment:` line's text of a `.pub` file; null for the one-line form. Never shown as proof of
   * anything.
   */
  untrustedComment: string | null;
}

/** A parsed `.minisig`: the four lines, decoded. */
export interface MinisignSignature {
  algorithm: SignatureAlgorithm;
  /**
   * The key id the signature names (16 uppercase hex). Anyone can write any id: it selects a key, it proves nothing.
   */
  keyId: string;
  /** The 64-byte Ed25519 signature of the file (or of its BLAKE2b-512 digest). */
  signature: Uint8Array;
  /** The trusted comment's text (after `trusted comment: `); covered by the global signature. */
  trustedComment: string;
  /** The 64-byte Ed25519 signature of `signature` || trusted comment bytes. */
  globalSignature: Uint8Array;
  /** The untrusted comment's text (after `untrusted comment: `); covered by nothing. */
  untrustedComment: string;
}

/** A parse outcome: the value, or a refusal with its code and a message naming what is wrong. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: Problem };

function refuse(code: string, message: string): { ok: false; error: Problem } {
  return { ok: false, error: { code, message } };
}

/**
 * The key id of the 8 key-number bytes, as minisign prints it: the bytes read as a little-endian
 * uint64, in uppercase hex, always 16 digits (minisign 0.12+ and rsign print `%016X`; minisign 0.11
 * and older drop leading zeros, which {@link canonicalKeyId} puts back).
 */
export function formatKeyId(keyNumber: Uint8Array): string {
  return Buffer.from(keyNumber).reverse().toString('hex').toUpperCase();
}

/** Whether `keyId` is a key id as some minisign prints it: 1 to 16 hex digits, any case. */
export function isKeyId(keyId: string): boolean {
  return /^[0-9A-Fa-f]{1,16}$/.test(keyId);
}

/** The 16-digit uppercase spelling of a key id (`23C4A67E1A11E22` → `023C4A67E1A11E22`); call after {@link isKeyId}. */
export function canonicalKeyId(keyId: string): string {
  return keyId.toUpperCase().padStart(16, '0');
}

/** Strict standard base64 with padding, and canonical (so one key has exactly one spelling). */
function decodeBase64(text: string): Buffer | null {
  if (text.length === 0 || text.length % 4 !== 0 || !BASE64.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : null;
}

/** Text from bytes or a string, refused when not UTF-8 or over `max` bytes. */
function asText(
  input: string | Uint8Array,
  max: number,
  what: string,
  code: { malformed: string; tooLarge: string },
): Parsed<string> {
  const size = typeof input === 'string' ? Buffer.byteLength(input) : input.length;
  if (size > max) return refuse(code.tooLarge, `${what} is ${size} bytes: at most ${max} are read`);
  if (typeof input === 'string') return { ok: true, value: input };
  try {
    return { ok: true, value: STRICT_UTF8.decode(input) };
  } catch {
    return refuse(code.malformed, `${what} is not UTF-8 text`);
  }
}

/** Lines of a small text file: one final newline allowed, CRLF accepted. */
function linesOf(text: string): string[] {
  const body = text.endsWith('\r\n') ? text.slice(0, -2) : text.endsWith('\n') ? text.slice(0, -1) : text;
  return body.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/** `U+001B` for a character that cannot be shown in a message. */
function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The two algorithm bytes as a message shows them: printable ASCII in backticks, else hex. */
function describeAlgorithm(bytes: Uint8Array): string {
  const printable = bytes.every((byte) => byte >= 0x21 && byte <= 0x7e);
  const hex = `0x${Buffer.from(bytes).toString('hex')}`;
  return printable ? `\`${Buffer.from(bytes).toString('latin1')}\` (${hex})` : hex;
}

/**
 * Parses a minisign public key: the two-line `.pub` file (`untrusted comment: …`, then the base64
 * key) or the one base64 line alone (`minisign -P`). Surrounding whitespace is ignored (a pasted
 * key). Refuses with `key.malformed` or `key.unknown_algorithm`, naming what is wrong.
 */
export function parsePublicKey(input: string | Uint8Array): Parsed<MinisignPublicKey> {
  const text = asText(input, MAX_PUBLIC_KEY_TEXT_BYTES, 'the public key', {
    malformed: KEY_ERROR.malformed,
    tooLarge: KEY_ERROR.malformed,
  });
  if (!text.ok) return text;
  const lines = linesOf(text.value.trim());
  let untrustedComment: string | null = null;
  let keyLine: string;
  if (lines.length === 1 && lines[0] !== '') {
    keyLine = lines[0]!;
  } else if (lines.length === 2) {
    if (!lines[0]!.startsWith(UNTRUSTED_PREFIX))
      return refuse(KEY_ERROR.malformed, `line 1 of the public key must start with \`${UNTRUSTED_PREFIX.trim()}\``);
    untrustedComment = lines[0]!.slice(UNTRUSTED_PREFIX.length);
    keyLine = lines[1]!;
  } else {
    const count = lines.length === 1 ? 0 : lines.length;
    return refuse(
      KEY_ERROR.malformed,
      `a minisign public key is one base64 line, or two lines (\`untrusted comment: …\` and the base64 key); this has ${count} line${count === 1 ? '' : 's'}`,
    );
  }
  const bytes = decodeBase64(keyLine);
  if (bytes === null)
    return refuse(KEY_ERROR.malformed, `the public key line is not base64 (${keyLine.length} characters)`);
  if (bytes.length !== PUBLIC_KEY_BYTES)
    return refuse(
      KEY_ERROR.malformed,
      `the public key decodes to ${bytes.length} bytes: a minisign public key has ${PUBLIC_KEY_BYTES}`,
    );
  const algorithm = bytes.subarray(0, 2);
  if (algorithm.toString('latin1') !== 'Ed') {
    return refuse(
      KEY_ERROR.unknownAlgorithm,
      `the public key's algorithm is ${describeAlgorithm(algorithm)}: only \`Ed\` (Ed25519) keys are known`,
    );
  }
  return {
    ok: true,
    value: {
      keyId: formatKeyId(bytes.subarray(2, 10)),
      publicKey: keyLine,
      keyBytes: new Uint8Array(bytes.subarray(10, 42)),
      untrustedComment,
    },
  };
}

/**
 * Parses a `.minisig` file: exactly four lines (`untrusted comment: …`, the base64 signature,
 * `trusted comment: …`, the base64 global signature), one final newline allowed. Refuses with
 * `signature.too_large` (over {@link MAX_SIGNATURE_FILE_BYTES}), `signature.malformed` (naming the
 * line and the fault) or `signature.unknown_algorithm`. The trusted comment must be UTF-8 without
 * control or invisible characters but tab, since the consent form shows it.
 */
export function parseSignature(input: string | Uint8Array): Parsed<MinisignSignature> {
  const text = asText(input, MAX_SIGNATURE_FILE_BYTES, 'the signature file', {
    malformed: SIGNATURE_ERROR.malformed,
    tooLarge: SIGNATURE_ERROR.tooLarge,
  });
  if (!text.ok) return text;
  if (text.value.length === 0) return refuse(SIGNATURE_ERROR.malformed, 'the signature file is empty');
  const lines = linesOf(text.value);
  if (lines.length !== 4) {
    return refuse(
      SIGNATURE_ERROR.malformed,
      `a minisign signature has 4 lines (untrusted comment, signature, trusted comment, global signature); this one has ${lines.length}`,
    );
  }
  const [untrusted, signatureLine, trusted, globalLine] = lines as [string, string, string, string];
  if (!untrusted.startsWith(UNTRUSTED_PREFIX))
    return refuse(SIGNATURE_ERROR.malformed, `line 1 of the signature must start with \`${UNTRUSTED_PREFIX.trim()}\``);
  if (Buffer.byteLength(untrusted) > MAX_UNTRUSTED_COMMENT_BYTES) {
    return refuse(
      SIGNATURE_ERROR.malformed,
      `line 1 of the signature (the untrusted comment) is ${Buffer.byteLength(untrusted)} bytes: at most ${MAX_UNTRUSTED_COMMENT_BYTES}`,
    );
  }
  const signatureBytes = decodeBase64(signatureLine);
  if (signatureBytes === null)
    return refuse(
      SIGNATURE_ERROR.malformed,
      `line 2 of the signature is not base64 (${signatureLine.length} characters)`,
    );
  if (signatureBytes.length !== SIGNATURE_LINE_BYTES) {
    return refuse(
      SIGNATURE_ERROR.malformed,
      `line 2 of the signature decodes to ${signatureBytes.length} bytes: a minisign signature line holds ${SIGNATURE_LINE_BYTES}`,
    );
  }
  if (!trusted.startsWith(TRUSTED_PREFIX))
    return refuse(SIGNATURE_ERROR.malformed, `line 3 of the signature must start with \`${TRUSTED_PREFIX.trim()}\``);
  if (Buffer.byteLength(trusted) > MAX_TRUSTED_COMMENT_BYTES) {
    return refuse(
      SIGNATURE_ERROR.malformed,
      `line 3 of the signature (the trusted comment) is ${Buffer.byteLength(trusted)} bytes: at most ${MAX_TRUSTED_COMMENT_BYTES}`,
    );
  }
  const trustedComment = trusted.slice(TRUSTED_PREFIX.length);
  const unshowable = UNSHOWABLE.exec(trustedComment);
  if (unshowable)
    return refuse(
      SIGNATURE_ERROR.malformed,
      `the trusted comment contains the control or invisible character ${codePoint(unshowable[0])}`,
    );
  const globalSignature = decodeBase64(globalLine);
  if (globalSignature === null)
    return refuse(SIGNATURE_ERROR.malformed, `line 4 of the signature is not base64 (${globalLine.length} characters)`);
  if (globalSignature.length !== ED25519_SIGNATURE_BYTES) {
    return refuse(
      SIGNATURE_ERROR.malformed,
      `line 4 of the signature decodes to ${globalSignature.length} bytes: a global signature has ${ED25519_SIGNATURE_BYTES}`,
    );
  }
  const algorithmBytes = signatureBytes.subarray(0, 2);
  const algorithm = algorithmBytes.toString('latin1');
  if (algorithm !== 'ED' && algorithm !== 'Ed') {
    return refuse(
      SIGNATURE_ERROR.unknownAlgorithm,
      `the signature's algorithm is ${describeAlgorithm(algorithmBytes)}: only \`ED\` (Ed25519 over BLAKE2b-512) and legacy \`Ed\` are known`,
    );
  }
  return {
    ok: true,
    value: {
      algorithm,
      keyId: formatKeyId(signatureBytes.subarray(2, 10)),
      signature: new Uint8Array(signatureBytes.subarray(10, 74)),
      trustedComment,
      globalSignature: new Uint8Array(globalSignature),
      untrustedComment: untrusted.slice(UNTRUSTED_PREFIX.length),
    },
  };
}

/**
 * What a signature is checked over, gathered from the file's bytes without any key: the
 * BLAKE2b-512 digest (`ED`), or the bytes themselves (legacy `Ed`, up to
 * {@link MAX_LEGACY_SIGNED_BYTES}). Plain data, so it can cross a worker boundary.
 */
export type SignedMessage =
  | { algorithm: 'ED'; size: number; blake2b512: Uint8Array }
  | { algorithm: 'Ed'; size: number; bytes: Uint8Array }
  | { algorithm: 'Ed'; size: number; bytes: null };

/** Fed every byte of the signed file, in order, once; `finish` is called after the last one. */
export interface SignedMessageCollector {
  /** Takes the next chunk (the archive reader's `onBytes` hook). The chunk is copied if kept. */
  update(chunk: Uint8Array): void;
  /** The message to verify. Call once, after the last `update`. */
  finish(): SignedMessage;
}

/**
 * A collector for `algorithm`: `ED` hashes as it goes (64 bytes of state whatever the file size);
 * legacy `Ed` keeps copies of the chunks until {@link MAX_LEGACY_SIGNED_BYTES} is crossed, then
 * drops them and only counts (the verifier then refuses with `signature.legacy_too_large`).
 */
export function createSignedMessageCollector(
  algorithm: SignatureAlgorithm,
  maxLegacyBytes = MAX_LEGACY_SIGNED_BYTES,
): SignedMessageCollector {
  let size = 0;
  if (algorithm === 'ED') {
    const hash: Hash = createHash('blake2b512');
    return {
      update(chunk) {
        size += chunk.length;
        hash.update(chunk);
      },
      finish: () => ({ algorithm: 'ED', size, blake2b512: new Uint8Array(hash.digest()) }),
    };
  }
  let parts: Buffer[] | null = [];
  return {
    update(chunk) {
      size += chunk.length;
      if (parts === null) return;
      if (size > maxLegacyBytes) parts = null;
      else parts.push(Buffer.from(chunk));
    },
    finish: () => ({ algorithm: 'Ed', size, bytes: parts === null ? null : new Uint8Array(Buffer.concat(parts)) }),
  };
}

/** The signed message of bytes already in memory (tests, small files). */
export function signedMessageOf(
  algorithm: SignatureAlgorithm,
  bytes: Uint8Array,
  maxLegacyBytes = MAX_LEGACY_SIGNED_BYTES,
): SignedMessage {
  const collector = createSignedMessageCollector(algorithm, maxLegacyBytes);
  collector.update(bytes);
  return collector.finish();
}

/** Node's KeyObject for a raw 32-byte Ed25519 public key (through JWK: no DER assembled by hand). */
function ed25519Key(keyBytes: Uint8Array): KeyObject {
  return createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(keyBytes).toString('base64url') },
    format: 'jwk',
  });
}

/** Ed25519 verification that answers false (never throws) for a key or signature Node rejects. */
function ed25519Verify(message: Uint8Array, key: KeyObject, signature: Uint8Array): boolean {
  try {
    return verify(null, message, key, signature);
  } catch {
    return false;
  }
}

/** A verified signature: the trusted comment is now known to come from the key's holder. */
export type SignatureVerification =
  | { ok: true; keyId: string; algorithm: SignatureAlgorithm; trustedComment: string }
  | { ok: false; error: Problem };

/**
 * Checks `signature` against `key` for `message` (from {@link createSignedMessageCollector}):
 * the key ids must match (`signature.key_id_mismatch`), then the file signature and the global
 * signature over the trusted comment must both hold (`signature.invalid` otherwise). A legacy
 * message that was too large to keep is `signature.legacy_too_large`.
 */
export function verifySignedMessage(
  signature: MinisignSignature,
  key: MinisignPublicKey,
  message: SignedMessage,
): SignatureVerification {
  if (signature.keyId !== key.keyId) {
    return refuse(
      SIGNATURE_ERROR.keyIdMismatch,
      `the signature was made by key ${signature.keyId}, not by key ${key.keyId} it is checked against`,
    );
  }
  if (message.algorithm !== signature.algorithm)
    throw new Error(`a ${message.algorithm} message was collected for an ${signature.algorithm} signature`);
  let signed: Uint8Array;
  if (message.algorithm === 'ED') signed = message.blake2b512;
  else if (message.bytes !== null) signed = message.bytes;
  else {
    return refuse(
      SIGNATURE_ERROR.legacyTooLarge,
      `the signature is a legacy \`Ed\` signature over ${message.size} bytes: legacy signatures are checked on files up to ${MAX_LEGACY_SIGNED_BYTES} bytes; the author can re-sign with a current minisign (prehashed \`ED\`)`,
    );
  }
  const publicKey = ed25519Key(key.keyBytes);
  if (!ed25519Verify(signed, publicKey, signature.signature)) {
    return refuse(
      SIGNATURE_ERROR.invalid,
      `the signature does not match the file: it changed after it was signed, or the signature is for another file (key ${key.keyId})`,
    );
  }
  const global = Buffer.concat([signature.signature, Buffer.from(signature.trustedComment, 'utf8')]);
  if (!ed25519Verify(global, publicKey, signature.globalSignature)) {
    return refuse(
      SIGNATURE_ERROR.invalid,
      `the signature's trusted comment does not match its global signature: the comment was changed after signing (key ${key.keyId})`,
    );
  }
  return { ok: true, keyId: key.keyId, algorithm: signature.algorithm, trustedComment: signature.trustedComment };
}

/**
 * The file name a signature's trusted comment names (`file:NAME`, what minisign writes by default),
 * when the comment is authentic under `key` (its global signature holds); else null. Used only to
 * say why a signature does not match: it was made for another file.
 */
export function signedFileName(signature: MinisignSignature, key: MinisignPublicKey): string | null {
  const global = Buffer.concat([signature.signature, Buffer.from(signature.trustedComment, 'utf8')]);
  if (!ed25519Verify(global, ed25519Key(key.keyBytes), signature.globalSignature)) return null;
  const named = /(?:^|\t)file:([^\t]+)/.exec(signature.trustedComment);
  return named ? (named[1] as string) : null;
}

/** Verifies `signature` over bytes already in memory (convenience over the collector). */
export function verifyBytes(
  signature: MinisignSignature,
  key: MinisignPublicKey,
  bytes: Uint8Array,
): SignatureVerification {
  return verifySignedMessage(signature, key, signedMessageOf(signature.algorithm, bytes));
}
