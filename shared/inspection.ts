/**
 * What `inspect` and the consent form see of a package: the result envelope of DESIGN.md
 * "Validation contract", shared by the CLI's `--json`, the Api, and the renderer.
 */
import type { ApolliaManifest } from './apollia-manifest';

/** The three kinds of input the app reads (plugins are shown, never installed). */
export type InspectionKind = 'apo' | 'template' | 'plugin';

/**
 * One refusal or warning. `code` is stable and dotted (`archive.traversal`, `manifest.unknown_key`,
 * `template.too_large`) so tests and the UI can tell problems apart; `message` is the sentence a
 * person reads (the spec's words where the spec has words); `path` names the field or archive entry.
 */
export interface Problem {
  code: string;
  message: string;
  path?: string;
}

/** A trigger as the summary lists it: what the user must supply to arm it. */
export interface TriggerSummary {
  id: string;
  type: string;
  /** `folder` for file_watch, `secret` for webhook, else null. */
  needs: 'folder' | 'secret' | null;
}

/** `summary` of an accepted or partly read `.apo` (DESIGN.md "Validation contract"). */
export interface ApoSummary {
  name: string;
  version: string;
  publisher: string;
  /** Sorted, unique families other than `read` among the package's tools and workflows. */
  sensitive_families: string[];
  connections: string[];
  mcp_servers: string[];
  triggers: TriggerSummary[];
  sha256: string;
  /**
   * The package's signature state (DESIGN.md "Trust after install"). A refused signature is
   * `invalid`, with why (`signature.*` is then also the first error): never null, never `unsigned`.
   */
  signature: SignatureSummary;
}

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
export interface SignatureSummary {
  state: 'verified' | 'unknown_key' | 'unsigned' | 'builtin' | 'invalid';
  key_id: string | null;
  trusted_comment: string | null;
  signer: string | null;
  /** The whole public key (base64 line) the signature verified under, or null. */
  public_key: string | null;
  /** `invalid` only: why, as a code (see {@link SignatureInvalidReason}); null otherwise. */
  reason: SignatureInvalidReason | null;
  /** `invalid` only: the check's words; null otherwise. */
  message: string | null;
}

/**
 * Why a signature is `invalid`: it does not match the package (changed after signing), it was made
 * for another file (its signed comment names another file), its signed comment was edited, it is
 * not a minisign signature at all (or an algorithm this app does not know), or it cannot be read.
 */
export type SignatureInvalidReason =
  | 'does_not_match'
  | 'other_file'
  | 'comment_changed'
  | 'malformed'
  | 'unsupported'
  | 'unreadable';

/** One file of an `.apo` as inspection saw it (no contents). */
export interface ArchiveFileInfo {
  /** Path relative to the package root, `/`-separated. */
  path: string;
  size: number;
  executable: boolean;
}

/** `details` of an `.apo` inspection: the manifest as read, for the consent form. */
export interface ApoDetails {
  manifest: ApolliaManifest;
  files: ArchiveFileInfo[];
  /** Sum of the files' sizes, uncompressed. */
  totalBytes: number;
  /** Whether this app's SDK (shared/sdk.ts) satisfies `package.sdk`. */
  sdkSupported: boolean;
  sdkVersion: string;
}

/** The result of checking one input. `ok` is true exactly when `errors` is empty. */
export interface Inspection<Summary = unknown, Details = unknown> {
  kind: InspectionKind;
  ok: boolean;
  errors: Problem[];
  warnings: Problem[];
  /** Null when the input could not be read far enough to summarise. */
  summary: Summary | null;
  details: Details | null;
}

/**
 * About this many errors, and as many warnings, are listed for one input; the rest are counted in
 * one last entry ({@link MORE_PROBLEMS_CODE}). A package can break one rule thousands of times at no
 * cost to its author (60,000 functions the manifest does not describe fit in a 160 KB `.apo`): listed
 * in full, that took 5 s to show in the app, 12 MB of `inspect --json`, and a list nobody reads.
 */
export const MAX_LISTED_PROBLEMS = 100;

/** The code of the entry that counts the problems left out of a list ({@link listedProblems}). */
export const MORE_PROBLEMS_CODE = 'inspect.more_problems';

/**
 * `problems` as listed, in their order: the first {@link MAX_LISTED_PROBLEMS} − 1, and past those the
 * first problem of each code not yet listed (codes are this app's own, a few dozen), then a count of
 * the rest. So the first problem (the one DESIGN's contract orders) is listed, and every kind of
 * problem is: a tool hidden from the manifest is never left out behind a hundred lesser errors,
 * which would change who the refused screen says must act.
 */
export function listedProblems(problems: readonly Problem[], noun: 'errors' | 'warnings'): Problem[] {
  if (problems.length <= MAX_LISTED_PROBLEMS) return [...problems];
  const listed: Problem[] = [];
  const codes = new Set<string>();
  for (const problem of problems) {
    if (listed.length < MAX_LISTED_PROBLEMS - 1 || !codes.has(problem.code)) listed.push(problem);
    codes.add(problem.code);
  }
  const rest = problems.length - listed.length;
  if (rest === 0) return listed;
  return [
    ...listed,
    {
      code: MORE_PROBLEMS_CODE,
      message: `${rest.toLocaleString('en-US')} more ${noun} are not listed: fix the ones above, then inspect the package again to see them`,
    },
  ];
}

/** `inspection` with its errors and warnings listed as {@link listedProblems} lists them. */
export function withListedProblems<T extends Inspection>(inspection: T): T {
  return {
    ...inspection,
    errors: listedProblems(inspection.errors, 'errors'),
    warnings: listedProblems(inspection.warnings, 'warnings'),
  };
}

/** An `.apo` inspection. */
export type ApoInspection = Inspection<ApoSummary, ApoDetails> & { kind: 'apo' };
