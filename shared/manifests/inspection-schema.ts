/**
 * What `inspect` shows of a package (DESIGN.md "Validation contract"), each shape once with TypeBox: a
 * problem, a signature's summary, a trigger's needs, an `.apo`'s summary and its files. `inspection.ts` re-exports the
 * types; loaded only by tests and tools.
 */
import { type Static, Type } from 'typebox';
import { closed, oneOf, orNull } from '../base/schema-kit';

const str = Type.String();
const nstr = orNull('string');

/**
 * One refusal or warning. `code` is stable and dotted (`archive.traversal`, `manifest.unknown_key`,
 * `template.too_large`) so tests and the UI can tell problems apart; `message` is the sentence a
 * person reads (the spec's words where the spec has words); `path` names the field or archive entry.
 */
export const ProblemSchema = closed({ code: str, message: str, path: Type.Optional(str) });
export type Problem = Static<typeof ProblemSchema>;

/**
 * Why a signature is `invalid`: it does not match the package (changed after signing), it was made
 * for another file (its signed comment names another file), its signed comment was edited, it is
 * not a minisign signature at all (or an algorithm this app does not know), or it cannot be read.
 */
export const SIGNATURE_INVALID_REASONS = [
  'does_not_match',
  'other_file',
  'comment_changed',
  'malformed',
  'unsupported',
  'unreadable',
] as const;
export type SignatureInvalidReason = (typeof SIGNATURE_INVALID_REASONS)[number];

/**
 * A signature state as `inspect --json` and `list --json` print it (snake_case, the JSON contract).
 *
 * - `verified`: signed by a key the user trusts; `signer` is the name they gave it, `trusted_comment`
 *   the signed comment, `public_key` the whole key that verified it.
 * - `unknown_key`: a well-formed signature by key `key_id`, which no trusted key has: nothing is
 *   verified, so the comment it claims is not reported (`trusted_comment` null). `public_key` is set
 *   only when the signature holds under the key pinned for the installed package of this name (a
 *   key the person has since removed from their trusted keys): the update keeps that key.
 * - `unsigned`: no `x.apo.minisig` beside the package; a template or plugin manifest not shipped with the app.
 * - `builtin`: a template that ships with the app (`resources/templates/`): it came with the app's
 *   own installer, so no publisher signature applies.
 * - `invalid`: a `.minisig` is there but it does not hold, or is not a signature: `reason` says
 *   which, `message` says why in words. Never a state a package is installed with (a refusal).
 */
export const SignatureSummarySchema = closed({
  state: oneOf(['verified', 'unknown_key', 'unsigned', 'builtin', 'invalid']),
  key_id: nstr,
  trusted_comment: nstr,
  signer: nstr,
  /** The whole public key (base64 line) the signature verified under, or null. */
  public_key: nstr,
  /** `invalid` only: why, as a code (see `SignatureInvalidReason`); null otherwise. */
  reason: oneOf([...SIGNATURE_INVALID_REASONS, null]),
  /** `invalid` only: the check's words; null otherwise. */
  message: nstr,
});
export type SignatureSummary = Static<typeof SignatureSummarySchema>;

/** A trigger as the summary lists it: what the user must supply to arm it. */
export const TriggerSummarySchema = closed({
  id: str,
  type: str,
  /** `folder` for file_watch, `secret` for webhook, else null. */
  needs: oneOf(['folder', 'secret', null]),
});
export type TriggerSummary = Static<typeof TriggerSummarySchema>;

/** `summary` of an accepted or partly read `.apo` (DESIGN.md "Validation contract"). */
export const ApoSummarySchema = closed({
  name: str,
  version: str,
  publisher: str,
  /** Sorted, unique families other than `read` among the package's tools and workflows. */
  sensitive_families: Type.Array(str),
  connections: Type.Array(str),
  mcp_servers: Type.Array(str),
  triggers: Type.Array(TriggerSummarySchema),
  sha256: str,
  /**
   * The package's signature state (DESIGN.md "Trust after install"). A refused signature is
   * `invalid`, with why (`signature.*` is then also the first error): never null, never `unsigned`.
   */
  signature: SignatureSummarySchema,
});
export type ApoSummary = Static<typeof ApoSummarySchema>;

/** One file of an `.apo` as inspection saw it (no contents). */
export const ArchiveFileInfoSchema = closed({
  /** Path relative to the package root, `/`-separated. */
  path: str,
  size: Type.Number(),
  executable: Type.Boolean(),
});
export type ArchiveFileInfo = Static<typeof ArchiveFileInfoSchema>;
