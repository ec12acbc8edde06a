/**
 * The checks the bounded worker runs (DESIGN.md "Reading without running": untrusted input is
 * checked in a bounded place). One table, used by the worker entry; the main thread only names a
 * job and a path. Everything here reads package bytes and may cost what a hostile package makes it
 * cost, which is why it runs behind {@link BoundedChecker}'s time budget and memory cap.
 */
import type { ApoInspection, Inspection } from '../../../shared/inspection';
import { inspectApo } from '../apollia/index';
import { inspectPluginManifest } from '../plugin/index';
import { notAPackage, sourceKindOf } from '../source-kind';
import { inspectTemplateFolder, readTemplateFolder, type TemplateRead } from '../template/index';
import type { TrustedKey } from '../trust/index';

/**
 * What a job is given beside its path: the user's trusted keys (public keys, plain data), so an
 * `.apo`'s signature is verified inside the job over the same single read (trust README "One read").
 */
export interface CheckJobOptions {
  trustedKeys: readonly TrustedKey[];
}

/** What one job reads, by name: `path` decides the kind by content, the others are told it. */
export interface CheckJobs {
  /** Any input, its kind decided by content (the CLI's `inspect`). */
  path: Inspection;
  /** An `.apo` archive; the inspection keeps the SHA-256 that install is tied to. */
  apo: ApoInspection;
  /** A template folder, with the bytes that were checked (apply hashes them). */
  template: TemplateRead;
  /** A plugin manifest (JSON). */
  plugin: Inspection;
}

/** The name of a job. */
export type CheckJobKind = keyof CheckJobs;

/** The readers, run in the worker thread (or in-thread by a benchmark measuring the reader alone). */
export const CHECK_JOBS: { [K in CheckJobKind]: (path: string, options: CheckJobOptions) => Promise<CheckJobs[K]> } = {
  path: inspectByContent,
  apo: inspectApo,
  template: (path) => readTemplateFolder(path),
  plugin: (path) => inspectPluginManifest(path),
};

/**
 * Inspects an existing path by what it holds: a folder is a template, a tar or gzip'd tar is an
 * `.apo`, a JSON document is a plugin manifest; never by extension (DESIGN.md "Validation contract").
 */
export async function inspectByContent(path: string, options: CheckJobOptions = { trustedKeys: [] }): Promise<Inspection> {
  switch (await sourceKindOf(path)) {
    case 'template':
      return inspectTemplateFolder(path);
    case 'apo':
      return inspectApo(path, options);
    case 'plugin':
      return inspectPluginManifest(path);
    default:
      return notAPackage(path);
  }
}

/** A refusal of an input no reader accepts; reported as an `.apo` attempt, the CLI's main input. */
export function refusedInput(code: string, message: string): Inspection {
  return { kind: 'apo', ok: false, errors: [{ code, message }], warnings: [], summary: null, details: null };
}
