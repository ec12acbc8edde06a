/**
 * The checks the bounded worker runs (DESIGN.md "Reading without running": untrusted input is
 * checked in a bounded place). One table, used by the worker entry; the main thread only names a
 * job and a path. Everything here reads package bytes and may cost what a hostile package makes it
 * cost, which is why it runs behind {@link BoundedChecker}'s time budget and memory cap.
 */
import { withListedProblems, type ApoInspection, type Inspection } from '../../../shared/manifests/inspection';
import { notAPackage, sourceKindOf } from '../archive/source-kind';
import type { TemplateRead } from '../template/index';
import type { TrustedKey } from '../trust/index';

// Each reader is imported when a job first needs it: an `.apo` never loads the template
// reader (yaml, re2js) nor the plugin reader, so the CLI's worker starts with what it uses. A host
// that warms the checker loads them all up front instead ({@link loadReaders}).
// One table, by the kind `sourceKindOf` tells, for the jobs and both loaders below.
const READERS = {
  apo: () => import('../apollia/index'),
  template: () => import('./template-reader'),
  plugin: () => import('../plugin/index'),
};
const { apo: apoReader, template: templateReader, plugin: pluginReader } = READERS;

/**
 * What a job is given beside its path: the user's trusted keys (public keys, plain data), so an
 * `.apo`'s signature is verified inside the job over the same single read (trust README "One read").
 */
export interface CheckJobOptions {
  trustedKeys: readonly TrustedKey[];
  /**
   * Whole public keys installed packages are pinned to (base64 lines): an update is checked against its pin's key too.
   */
  pinnedKeys?: readonly string[];
}

/** Loads every reader now (a warmed worker, so that no job pays for loading code). */
export async function loadReaders(): Promise<void> {
  await Promise.all(Object.values(READERS).map((load) => load()));
}

/**
 * Loads the one reader `path` will need, by its content, and nothing else; never throws (a hint:
 * the job itself decides the kind again). The CLI names its path when it starts the worker, so the
 * reader loads while the main thread loads its command.
 */
export async function loadReaderFor(path: string): Promise<void> {
  try {
    const kind = await sourceKindOf(path);
    if (kind !== 'not_a_package') await READERS[kind]();
  } catch {
    // Only a hint: the job reports whatever is wrong with the path.
  }
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

/**
 * The readers, run in the worker thread (or in-thread by a benchmark measuring the reader alone).
 * Every answer lists at most MAX_LISTED_PROBLEMS errors and warnings (shared/manifests/inspection.ts): this is
 * where a package's problems leave the worker, for the app, the CLI and the harness alike.
 */
export const CHECK_JOBS: { [K in CheckJobKind]: (path: string, options: CheckJobOptions) => Promise<CheckJobs[K]> } = {
  path: async (path, options) => withListedProblems(await inspectByContent(path, options)),
  apo: async (path, options) => withListedProblems(await (await apoReader()).inspectApo(path, options)),
  template: async (path) => {
    const read = await (await templateReader()).readTemplateFolder(path);
    return { ...read, inspection: withListedProblems(read.inspection) };
  },
  plugin: async (path) => withListedProblems(await (await pluginReader()).inspectPluginManifest(path)),
};

/**
 * Inspects an existing path by what it holds: a folder is a template, a tar or gzip'd tar is an
 * `.apo`, a JSON document is a plugin manifest; never by extension (DESIGN.md "Validation contract").
 */
export async function inspectByContent(
  path: string,
  options: CheckJobOptions = { trustedKeys: [] },
): Promise<Inspection> {
  switch (await sourceKindOf(path)) {
    case 'template':
      return (await templateReader()).inspectTemplateFolder(path);
    case 'apo':
      return (await apoReader()).inspectApo(path, options);
    case 'plugin':
      return (await pluginReader()).inspectPluginManifest(path);
    default:
      return notAPackage(path);
  }
}
