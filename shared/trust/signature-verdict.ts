/**
 * The one signature verdict of an inspection (DESIGN.md "Trust after install"): who signed the
 * package, as far as the app can tell, and for an update how that stands to the key pinned at first
 * install. Core computes it once per inspection (`electron/core/signature-verdict.ts`); the CLI's
 * text and JSON, the consent screens, the dashboard and the activity log all render it through
 * {@link signatureVerdictWords}, so no two surfaces can tell a different story.
 */
import type { SignatureVerdict, SignatureUpdate } from './trust-schema';
import { compareNames } from '../words/name-comparison';
import type { SignatureSummary } from '../manifests/inspection';
import type { KeyPin, SignatureUpdateKind } from './trust';

// The verdict (the package's own signature, its publisher field, and the update's key story) and the update's key
// story (a key change that may also be `kept`) are defined once with their schemas (shared/contract/api-replies.ts).
export type { SignatureVerdict, SignatureUpdate } from './trust-schema';

/** The verdict of `signature` for a package naming `publisher`, with its update story if any. */
export function signatureVerdictOf(
  signature: SignatureSummary,
  publisher: string | null,
  update: SignatureUpdate | null = null,
): SignatureVerdict {
  const names =
    signature.state === 'verified' && publisher !== null && signature.signer !== null
      ? compareNames(signature.signer, publisher)
      : null;
  return { signature, publisher, names, update };
}

/** Whether an update's signature is a stop the person must answer before anything else. */
export function isKeyChangeStop(update: SignatureUpdate | null): boolean {
  return (
    update !== null &&
    (update.change === 'other_key' || update.change === 'dropped' || update.change === 'unverifiable_pin')
  );
}

/** The verdict in words: one per state, the same on every surface. */
export interface SignatureWords {
  state: SignatureSummary['state'];
  /**
   * `allow`: verified and the names agree. `warning`: anything the person should weigh. `danger`: a signature that does
   * not hold, or a key-change stop.
   */
  tone: 'allow' | 'warning' | 'danger';
  /** The badge's words (`Verified publisher: Example Accounting`). */
  label: string;
  /** One or two sentences saying what is and is not known. */
  explanation: string;
  /** Where the trusted key's name and the package's publisher field differ, the sentence saying so; else null. */
  namesNote: string | null;
  /** For an update: the sentence about the key (kept, first signed, changed, dropped); else null. */
  updateNote: string | null;
}

const INVALID_WORDS: Record<NonNullable<SignatureSummary['reason']>, string> = {
  does_not_match: 'The signature does not match this file: it was changed after it was signed.',
  other_file: 'The signature was made for another file, not this one.',
  comment_changed: 'The signed comment was changed after signing.',
  malformed: 'The .minisig file beside it is not a minisign signature.',
  unsupported: 'The signature uses something this app cannot check.',
  unreadable: 'The .minisig file beside it cannot be read.',
};

function updateNote(update: SignatureUpdate): string {
  const sentence = `${update.message}.`;
  switch (update.change) {
    case 'kept':
      return update.before.kind === 'unsigned' ? 'Still unsigned, as the version you have.' : `Key kept: ${sentence}`;
    case 'first_signed':
      return `First signed: ${sentence} From now on, updates must be signed by this key.`;
    case 'dropped':
      return `Signature dropped: ${sentence}`;
    case 'other_key':
      return `Signed by a different key: ${sentence}`;
    case 'unverifiable_pin':
      return `Key cannot be matched: ${sentence}`;
  }
}

/**
 * A minisign trusted comment in words. minisign's own default is tab-separated `key:value` fields
 * (`timestamp:1796175550<TAB>file:invoices-1.2.0.apo<TAB>hashed`): the time becomes a UTC date, the file its name,
 * `hashed` (how the file was signed) is left out; any other comment, a publisher's own words, is shown as written.
 */
export function trustedCommentWords(comment: string | null): string {
  if (comment === null || comment.trim() === '') return '(none)';
  const fields = comment.split('\t');
  const minisignDefault = fields.every((field) => /^(timestamp:\d{1,12}|file:.*|hashed)$/.test(field));
  if (!minisignDefault || !fields.some((field) => field.startsWith('timestamp:'))) return comment;
  const words: string[] = [];
  for (const field of fields) {
    if (field.startsWith('timestamp:')) {
      const when = new Date(Number(field.slice('timestamp:'.length)) * 1000);
      if (Number.isNaN(when.getTime())) return comment;
      words.push(`signed ${when.toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    } else if (field.startsWith('file:')) words.push(`for the file ${field.slice('file:'.length)}`);
  }
  return words.join(', ');
}

/**
 * The words of a verdict (the CLI's `inspect`, `list`, `install`; the Overview, Review, key-change stop and dashboard).
 */
export function signatureVerdictWords(verdict: SignatureVerdict): SignatureWords {
  const { signature } = verdict;
  const update = verdict.update ? updateNote(verdict.update) : null;
  const stop = isKeyChangeStop(verdict.update);
  const base = { state: signature.state, namesNote: null, updateNote: update };
  switch (signature.state) {
    case 'verified': {
      const signer = signature.signer ?? '';
      const comment = `Signed comment: ${trustedCommentWords(signature.trusted_comment)}`;
      if (verdict.names === 'same' || verdict.names === null) {
        return {
          ...base,
          tone: stop ? 'danger' : 'allow',
          label: `Verified publisher: ${signer}`,
          explanation: `Signed by the key you trust as “${signer}” (key ID ${signature.key_id ?? ''}). ${comment}`,
        };
      }
      const how = verdict.names === 'lookalike' ? 'a name that only looks like it' : 'a different name';
      return {
        ...base,
        tone: 'warning',
        label: `Signed by the key you trust as ${signer}; the names differ`,
        explanation: `Signed by the key you trust as “${signer}” (key ID ${signature.key_id ?? ''}). ${comment}`,
        namesNote: `Signed by the key you trust as “${signer}”; the package calls its publisher “${verdict.publisher ?? ''}”, ${how}. The key vouches for the files, not for the name the package gives itself.`,
      };
    }
    case 'unknown_key':
      if (signature.public_key !== null) {
        return {
          ...base,
          tone: stop ? 'danger' : 'warning',
          label: 'Signed by the key it was installed with, which you no longer trust',
          explanation: `Signed by key ID ${signature.key_id ?? ''}, the very key the installed version was signed with; you removed it from your trusted publishers, so nothing vouches for who holds it.`,
        };
      }
      return {
        ...base,
        tone: stop ? 'danger' : 'warning',
        label: 'Signed by a key you don’t know',
        explanation: `Signed by key ID ${signature.key_id ?? ''}, which is not one of your trusted publishers: nothing about who made it is checked. Anyone can make a key with any ID.`,
      };
    case 'builtin':
      return {
        ...base,
        tone: 'allow',
        label: 'Ships with Apollia Desktop',
        explanation: 'This template came with the app itself, not from a publisher.',
      };
    case 'invalid':
      return {
        ...base,
        tone: 'danger',
        label: 'Signature does not hold',
        explanation: `${INVALID_WORDS[signature.reason ?? 'does_not_match']} Don't install it: it may not be what its publisher made.${signature.message ? ` (${signature.message})` : ''}`,
      };
    case 'unsigned':
      return {
        ...base,
        tone: stop ? 'danger' : 'warning',
        label: 'Unverified publisher',
        explanation: 'It is not signed: anyone can write any publisher name.',
      };
  }
}

/** One side of an update's key story in `inspect --json` (snake_case): the pin and the name the person gave the key. */
export interface SignatureUpdateKeyJson {
  /** `key` (a whole key), `claimed_key` (only the id an unknown key claimed), `key_id_only`, or `unsigned`. */
  pin: KeyPin['kind'];
  key_id: string | null;
  public_key: string | null;
  /** The name the person gives (or gave) this key; null when none. */
  name: string | null;
}

/**
 * `summary.signature_update` of `inspect --json`: how the inspected package's signature stands to the key pinned when
 * the installed package of the same name was first installed (DESIGN.md "Trust after install": key kept, changed, or
 * signature dropped). Null when nothing of that name is installed.
 */
export interface SignatureUpdateJson {
  change: SignatureUpdateKind;
  /** Whether installing it is a key-change stop (refused without `--accept-key-change`). */
  stop: boolean;
  /** The version installed now, when known. */
  installed_version: string | null;
  before: SignatureUpdateKeyJson & { /** Whether the person still trusts the pinned key. */ trusted: boolean };
  now: SignatureUpdateKeyJson;
  /** The same sentence every surface says. */
  message: string;
}

function pinJson(pin: KeyPin, name: string | null): SignatureUpdateKeyJson {
  return {
    pin: pin.kind,
    key_id: pin.kind === 'unsigned' ? null : pin.keyId,
    public_key: pin.kind === 'key' ? pin.publicKey : null,
    name,
  };
}

/** The JSON form of a verdict's update story (`summary.signature_update`). */
export function signatureUpdateJson(
  update: SignatureUpdate | null,
  installedVersion: string | null,
): SignatureUpdateJson | null {
  if (update === null) return null;
  return {
    change: update.change,
    stop: isKeyChangeStop(update),
    installed_version: installedVersion,
    before: { ...pinJson(update.before, update.beforeName), trusted: update.beforeTrusted },
    now: pinJson(update.now, update.nowName),
    message: update.message,
  };
}
