/**
 * What the renderer and the CLI see of trust (DESIGN.md "Trust after install"; the consent form's
 * publisher line in "Consent, install, apply"): a package's signature state, a trusted key, the
 * per-package key pin, and an installed-file integrity report. Types only; `electron/core/trust`
 * produces them.
 */
import type { Problem, SignatureSummary } from '../manifests/inspection';

/** `ED`: Ed25519 over BLAKE2b-512 of the file (minisign's default). `Ed`: legacy, over the file itself. */
export type SignatureAlgorithm = 'ED' | 'Ed';

/**
 * The signature state of a package that was not refused (a bad signature is a refusal, never a state).
 *
 * - `verified`: the signature names a trusted key and both of its signatures hold over the exact
 *   bytes read: the file is what the key's holder signed, and `trustedComment` is theirs.
 * - `unknown_key`: the signature names a key id no trusted key has. Nothing is verified: not the
 *   file, not the comment (`claimedTrustedComment` is text anyone could have written), not even
 *   that the key id is real (any signer can pick any id). It only says which key to ask about.
 * - `unsigned`: no `x.apo.minisig` beside the package.
 *
 * `pinnedKey` (unknown_key only): the key pinned for an installed package of this name (one the
 * person no longer trusts) when the signature holds under it; null when none was given or it does
 * not hold. An update is compared with its pin by this key, never by the id it claims.
 */
export type SignatureState =
  | {
      state: 'verified';
      keyId: string;
      keyName: string;
      publicKey: string;
      algorithm: SignatureAlgorithm;
      trustedComment: string;
    }
  | {
      state: 'unknown_key';
      keyId: string;
      algorithm: SignatureAlgorithm;
      claimedTrustedComment: string;
      pinnedKey: string | null;
    }
  | { state: 'unsigned' };

/** Most keys one user trusts: far beyond any real list, small enough to show and to search linearly. */
export const MAX_TRUSTED_KEYS = 256;

/** One trusted key as the store keeps it (JSON-safe, four own fields). */
export interface TrustedKey {
  /** 16 uppercase hex digits, as minisign prints it. */
  keyId: string;
  /** The canonical base64 line (`RWQ…`). */
  publicKey: string;
  /** The user's name for the publisher (`Example Accounting`). */
  name: string;
  /** ISO 8601 time the user added it. */
  addedAt: string;
}

/** The result of re-checking an installed folder against its recorded digests. Lists are sorted. */
export interface IntegrityReport {
  /** `unreadable`: the folder exists but cannot be listed (permissions); `error` says why. */
  state: 'ok' | 'changed' | 'unreadable';
  /**
   * Recorded files whose bytes differ, or that are now a link, folder or special file; and any link or special file
   * found.
   */
  changed: string[];
  /** Recorded files no longer there. */
  missing: string[];
  /** Regular files that were not recorded. */
  added: string[];
  /** Set when the walk stopped at the entry limit: more may have changed than is listed. */
  truncated: boolean;
  /** Only with `unreadable`. */
  error?: Problem;
}

/**
 * The JSON form of a signature state (`summary.signature` of `inspect --json`, `list --json`):
 * snake_case, a claimed comment under an unknown key left out (nothing vouches for it).
 */
export function signatureSummaryOf(state: SignatureState): SignatureSummary {
  switch (state.state) {
    case 'verified':
      return {
        state: 'verified',
        key_id: state.keyId,
        trusted_comment: state.trustedComment,
        signer: state.keyName,
        public_key: state.publicKey,
        reason: null,
        message: null,
      };
    case 'unknown_key':
      return {
        state: 'unknown_key',
        key_id: state.keyId,
        trusted_comment: null,
        signer: null,
        public_key: state.pinnedKey,
        reason: null,
        message: null,
      };
    case 'unsigned':
      return UNSIGNED;
  }
}

/** The `unsigned` summary (no `.minisig`; a template or plugin manifest from outside the app). */
export const UNSIGNED: SignatureSummary = Object.freeze({
  state: 'unsigned',
  key_id: null,
  trusted_comment: null,
  signer: null,
  public_key: null,
  reason: null,
  message: null,
});

/** The `builtin` summary: a template shipped with the app. */
export const BUILTIN: SignatureSummary = Object.freeze({
  state: 'builtin',
  key_id: null,
  trusted_comment: null,
  signer: null,
  public_key: null,
  reason: null,
  message: null,
});

// ---- The Api's trust types, re-exported by `shared/contract/api.ts` ----

// `KeyPin`, `KeyChange`, `KeyPreview`, `TrustedKeyView`, `PackageIntegrityView` and `VerifiedPackage` are
// defined once with their schemas (shared/trust/trust-schema.ts): the Api answers them, a test checks live answers.
export type {
  KeyChange,
  KeyPin,
  KeyPreview,
  PackageIntegrityView,
  TrustedKeyView,
  VerifiedPackage,
} from './trust-schema';

export { SIGNATURE_UPDATE_KINDS, type SignatureUpdateKind } from './signature-update-kinds';
