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
export const CHECK_JOBS: { [K in CheckJobKind]: (path: string) => Promise<CheckJobs[K]> } = {
  path: inspectByContent,
  apo: inspectApo,
  template: readTemplateFolder,
  plugin: inspectPluginManifest,
};

/**
 * Inspects an existing path by what it holds: a folder is a template, a tar or gzip'd tar is an
 * `.apo`, a JSON document is a plugin manifest; never by extension (DESIGN.md "Validation contract").
 */
export async function inspectByContent(path: string): Promise<Inspection> {
  switch (await sourceKindOf(path)) {
    case 'template':
      return inspectTemplateFolder(path);
    case 'apo':
      return inspectApo(path);
    case 'plugin':
      return inspectPluginManifest(path);
    default:
      return notAPackage(path);
  }
}
