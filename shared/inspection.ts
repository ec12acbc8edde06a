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
}

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

/** An `.apo` inspection. */
export type ApoInspection = Inspection<ApoSummary, ApoDetails> & { kind: 'apo' };
