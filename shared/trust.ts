/**
 * What the renderer and the CLI see of trust (DESIGN.md "Trust after install"; the consent form's
 * publisher line in "Consent, install, apply"): a package's signature state, a trusted key, the
 * per-package key pin, and an installed-file integrity report. Types only; `electron/core/trust`
 * produces them.
 */
import type { Problem, SignatureSummary } from './inspection';

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

/**
 * What is pinned per package name at first install (DESIGN.md "Trust after install"):
 *
 * - `key`: the whole public key that verified the installed package; an update must verify under
 *   this key, whether or not the person still trusts it.
 * - `claimed_key`: it was signed by a key the person did not know, so only the id the signature
 *   claimed is known (nothing authenticated it).
 * - `key_id_only`: a pin kept before whole keys were pinned, whose key was no longer trusted when
 *   the store was migrated: nothing can tell whether a later signature is by the same key, so the
 *   next signed update asks the person (a key-change stop).
 * - `unsigned`: it was not signed.
 */
export type KeyPin =
  | { kind: 'key'; keyId: string; publicKey: string }
  | { kind: 'claimed_key'; keyId: string }
  | { kind: 'key_id_only'; keyId: string }
  | { kind: 'unsigned' };

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

// ---- The Api's trust types, re-exported by `shared/api.ts` ----

/**
 * How an update's signature stands to the pin of the installed package (DESIGN.md "Trust after
 * install": key kept, changed, or signature dropped):
 *
 * - `kept`: signed by the pinned key (or unsigned again, as installed); nothing to say but that.
 * - `first_signed`: the installed version was unsigned and this one is signed (allowed, and said).
 * - `other_key`: signed by another key than the pinned one (a stop).
 * - `dropped`: the installed version was signed and this update is not (a stop).
 * - `unverifiable_pin`: the pin holds only a key id whose key is gone, so whether this is the same
 *   key cannot be told (a stop: a question for the person).
 */
export type SignatureUpdateKind = 'kept' | 'first_signed' | 'other_key' | 'dropped' | 'unverifiable_pin';

/** How an update's signing key differs from the one pinned at first install. */
export interface KeyChange {
  /**
   * `changed`: a stop that install refuses unless accepted (`other_key`, `dropped`, `unverifiable_pin`).
   * `first_signed`: an unsigned package now signed (allowed).
   */
  kind: 'changed' | 'first_signed';
  /** Which change, in the words of {@link SignatureUpdateKind}. */
  change: Exclude<SignatureUpdateKind, 'kept'>;
  before: KeyPin;
  now: KeyPin;
  /** The name the person gave the pinned key (as they trust it now, or as it was when installed), or null. */
  beforeName: string | null;
  /** Whether the pinned key is still among the person's trusted keys. */
  beforeTrusted: boolean;
  /** The name the person gives the update's key (a trusted key), or null. */
  nowName: string | null;
  /**
   * One sentence naming both keys, as a person knows them (`this update is not signed; the version you have was signed
   * by the key you trust as …`).
   */
  message: string;
}

/**
 * A key read before it is trusted (Settings → Trusted publishers, a package's "Trust this publisher's key", the CLI's
 * `trust add`): its id and fingerprint are shown before the person gives it a name.
 */
export interface KeyPreview {
  /** 16 uppercase hex digits, as minisign prints it: chosen by whoever made the key, so it proves nothing alone. */
  keyId: string;
  /** The canonical base64 key line (`RWQ…`), what `trustKey` is then given. */
  publicKey: string;
  /**
   * SHA-256 of the whole key, uppercase hex in groups of four: `tail -n 1 KEY.pub | base64 -d | sha256sum` prints the
   * same digits.
   */
  fingerprint: string;
  /** The name this very key is already trusted as, or null. */
  trustedAs: string | null;
}

/** A key the user trusts, as Settings → Trusted publishers shows it. */
export interface TrustedKeyView {
  /** 16 uppercase hex digits, as minisign prints it. */
  keyId: string;
  name: string;
  /** The base64 key line. */
  publicKey: string;
  /** SHA-256 of the whole key (see {@link KeyPreview.fingerprint}). */
  fingerprint: string;
  addedAt: string;
  /** Installed packages pinned to this key, sorted: removing the key does not unpin them. */
  pinnedPackages: string[];
  /** A key the organization's policy trusts (`trustedPublishers`): locked, never removed here. */
  managed?: boolean;
}

/** Whether an installed package's files are still the ones install wrote. */
export interface PackageIntegrityView {
  /** `changed`: "changed on this computer since you installed it"; stays until reinstalled or uninstalled. */
  state: 'ok' | 'changed';
  checkedAt: string | null;
  changed: string[];
  missing: string[];
  added: string[];
  /**
   * The triggers the check that found the change disarmed, with the folder each watched: a reinstall arms them again.
   */
  disarmed: { trigger: string; folder: string | null }[];
}

/** `verifyInstalled`: one installed package's check. */
export interface VerifiedPackage {
  name: string;
  version: string;
  integrity: PackageIntegrityView;
  /** True when this check found the change (and disarmed `disarmed` now). */
  newlyChanged: boolean;
  disarmed: string[];
}
