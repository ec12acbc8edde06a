/**
 * What `inspect` and the consent form see of a package: the result envelope of DESIGN.md
 * "Validation contract", shared by the CLI's `--json`, the Api, and the renderer.
 */
import type { ApolliaManifest } from './apollia-manifest';
import type { Problem, ArchiveFileInfo, ApoSummary } from './inspection-schema';

// What `inspect` shows of an `.apo` is defined once with its schemas (shared/contract/api-replies.ts), re-exported here.
export type {
  TriggerSummary,
  SignatureSummary,
  SignatureInvalidReason,
  Problem,
  ArchiveFileInfo,
  ApoSummary,
} from './inspection-schema';

/** The three kinds of input the app reads (plugins are shown, never installed). */
export type InspectionKind = 'apo' | 'template' | 'plugin';

/** `details` of an `.apo` inspection: the manifest as read, for the consent form. */
export interface ApoDetails {
  manifest: ApolliaManifest;
  files: ArchiveFileInfo[];
  /** Sum of the files' sizes, uncompressed. */
  totalBytes: number;
  /** Whether this app's SDK (shared/manifests/sdk.ts) satisfies `package.sdk`. */
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
