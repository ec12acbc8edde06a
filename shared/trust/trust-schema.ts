/**
 * The trust views (DESIGN.md "Trust after install"), each once with TypeBox: the key pinned per package, a key
 * change, the signature verdict, a key as Settings shows it, an installed package's integrity. `trust.ts` and
 * `signature-verdict.ts` re-export the types; loaded only by tests and tools.
 */
import { type Static, Type } from 'typebox';
import { closed, exactly, oneOf, orNull } from '../base/schema-kit';
import { SignatureSummarySchema } from '../manifests/inspection-schema';
import { SIGNATURE_UPDATE_KINDS } from './signature-update-kinds';
import { NAME_COMPARISONS } from '../words/name-comparison';

const str = Type.String();
const nstr = orNull('string');

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
export const KeyPinSchema = Type.Union([
  closed({ kind: exactly('key'), keyId: str, publicKey: str }),
  closed({ kind: exactly('claimed_key'), keyId: str }),
  closed({ kind: exactly('key_id_only'), keyId: str }),
  closed({ kind: exactly('unsigned') }),
]);
export type KeyPin = Static<typeof KeyPinSchema>;

/** How an update's key stands to the pinned one, told both ways: the pins and the names the person gave the keys. */
const keyStory = {
  before: KeyPinSchema,
  now: KeyPinSchema,
  /** The name the person gave the pinned key (as they trust it now, or as it was when installed), or null. */
  beforeName: nstr,
  /** Whether the pinned key is still among the person's trusted keys. */
  beforeTrusted: Type.Boolean(),
  /** The name the person gives the update's key (a trusted key), or null. */
  nowName: nstr,
  /**
   * One sentence naming both keys, as a person knows them (`this update is not signed; the version you have was signed
   * by the key you trust as …`).
   */
  message: str,
};

/** How an update's signing key differs from the one pinned at first install. */
export const KeyChangeSchema = closed({
  /**
   * `changed`: a stop that install refuses unless accepted (`other_key`, `dropped`, `unverifiable_pin`).
   * `first_signed`: an unsigned package now signed (allowed).
   */
  kind: oneOf(['changed', 'first_signed']),
  /** Which change, in the words of `SignatureUpdateKind` (`shared/trust/trust.ts`), never `kept`. */
  change: oneOf(['first_signed', 'other_key', 'dropped', 'unverifiable_pin']),
  ...keyStory,
});
export type KeyChange = Static<typeof KeyChangeSchema>;

/**
 * How an update's signature stands to the installed package's pin, with the names the person gave the keys: a key
 * change that may also be `kept` (re-exported by `shared/trust/signature-verdict.ts`).
 */
export const SignatureUpdateSchema = closed({
  /** See `SignatureUpdateKind` (`shared/trust/trust.ts`). */
  change: oneOf(SIGNATURE_UPDATE_KINDS),
  ...keyStory,
});
export type SignatureUpdate = Static<typeof SignatureUpdateSchema>;

/**
 * The one signature verdict of an inspection (`shared/trust/signature-verdict.ts` words it, and re-exports this): the
 * package's own signature, its publisher field, and the update's key story.
 */
export const SignatureVerdictSchema = closed({
  signature: SignatureSummarySchema,
  /** The publisher the package names (`package.publisher`), or null where there is none (a template). */
  publisher: nstr,
  /**
   * Only for a verified signature: how the name the person gave the key compares with the
   * package's publisher field (`same`, `different`, or a `lookalike`); null otherwise.
   */
  names: oneOf([...NAME_COMPARISONS, null]),
  /**
   * For an installed package's update (or reinstall): kept, first signed, changed, dropped; null for a first install.
   */
  update: Type.Union([SignatureUpdateSchema, Type.Null()]),
});
export type SignatureVerdict = Static<typeof SignatureVerdictSchema>;

/**
 * A key read before it is trusted (Settings → Trusted publishers, a package's "Trust this publisher's key", the CLI's
 * `trust add`): its id and fingerprint are shown before the person gives it a name.
 */
export const KeyPreviewSchema = closed({
  /** 16 uppercase hex digits, as minisign prints it: chosen by whoever made the key, so it proves nothing alone. */
  keyId: str,
  /** The canonical base64 key line (`RWQ…`), what `trustKey` is then given. */
  publicKey: str,
  /**
   * SHA-256 of the whole key, uppercase hex in groups of four: `tail -n 1 KEY.pub | base64 -d | sha256sum` prints the
   * same digits.
   */
  fingerprint: str,
  /** The name this very key is already trusted as, or null. */
  trustedAs: nstr,
});
export type KeyPreview = Static<typeof KeyPreviewSchema>;

/** A key the user trusts, as Settings → Trusted publishers shows it. */
export const TrustedKeyViewSchema = closed({
  /** 16 uppercase hex digits, as minisign prints it. */
  keyId: str,
  name: str,
  /** The base64 key line. */
  publicKey: str,
  /** SHA-256 of the whole key (see `KeyPreview.fingerprint`). */
  fingerprint: str,
  addedAt: str,
  /** Installed packages pinned to this key, sorted: removing the key does not unpin them. */
  pinnedPackages: Type.Array(str),
  /** A key the organization's policy trusts (`trustedPublishers`): locked, never removed here. */
  managed: Type.Optional(Type.Boolean()),
});
export type TrustedKeyView = Static<typeof TrustedKeyViewSchema>;

/** Whether an installed package's files are still the ones install wrote. */
export const PackageIntegrityViewSchema = closed({
  /** `changed`: "changed on this computer since you installed it"; stays until reinstalled or uninstalled. */
  state: oneOf(['ok', 'changed']),
  checkedAt: nstr,
  changed: Type.Array(str),
  missing: Type.Array(str),
  added: Type.Array(str),
  /**
   * The triggers a check by an older version disarmed when it found the change, with the folder each watched: a
   * reinstall arms them again. A change found now disarms nothing (its triggers are paused by integrity, still armed).
   */
  disarmed: Type.Array(closed({ trigger: str, folder: nstr })),
});
export type PackageIntegrityView = Static<typeof PackageIntegrityViewSchema>;

/** `verifyInstalled`: one installed package's check. */
export const VerifiedPackageSchema = closed({
  name: str,
  version: str,
  integrity: PackageIntegrityViewSchema,
  /** True when this check found the change (and recorded it). */
  newlyChanged: Type.Boolean(),
  /** While the package is marked changed: its armed triggers, paused by integrity (still armed, folder and secret kept). */
  paused: Type.Array(str),
});
export type VerifiedPackage = Static<typeof VerifiedPackageSchema>;
