/**
 * Where the package starts inside the archive (DESIGN.md: "a package folder with `apollia.toml`
 * at its root").
 *
 * Decision: `apollia.toml` at the archive root, or inside exactly one top-level folder that holds
 * every entry (what `tar -czf x.apo invoices/` produces). Any second `apollia.toml` at either of
 * those two levels makes the package ambiguous and is refused, as soon as its header is seen; a
 * file named `apollia.toml` deeper down is ordinary package data.
 */
import { ARCHIVE_ERROR, ArchiveRefusal, quoteName } from './refusal';

/** The manifest's file name. */
export const MANIFEST_NAME = 'apollia.toml';

/** Whether an archive path could be the package manifest (`apollia.toml` or `<folder>/apollia.toml`). */
export function isManifestCandidate(path: string): boolean {
  if (path === MANIFEST_NAME) return true;
  const slash = path.indexOf('/');
  return slash > 0 && path.slice(slash + 1) === MANIFEST_NAME;
}

/** Refuses a second manifest candidate the moment its header appears. */
export function refuseSecondManifest(first: string, second: string): never {
  throw new ArchiveRefusal(
    ARCHIVE_ERROR.multipleManifests,
    `the archive holds two manifests, ${quoteName(first)} and ${quoteName(second)}: a package has exactly one apollia.toml`,
    second,
  );
}

/**
 * The prefix to strip from archive paths (`''` or `'<folder>/'`), given the one manifest candidate
 * and every archive path (files and folders, implied folders included via their descendants).
 */
export function packageRoot(manifest: string | null, paths: Iterable<string>): string {
  if (manifest === null) {
    throw new ArchiveRefusal(
      ARCHIVE_ERROR.noManifest,
      'the archive has no apollia.toml, neither at its root nor in a single top-level folder holding the package',
    );
  }
  if (manifest === MANIFEST_NAME) return '';
  const folder = manifest.slice(0, manifest.indexOf('/'));
  for (const path of paths) {
    if (path !== folder && !path.startsWith(`${folder}/`)) {
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.manifestNotAtRoot,
        `apollia.toml is in the folder ${quoteName(folder)} but archive entry ${quoteName(path)} lies outside it: the manifest must be at the archive root or in one folder that holds everything`,
        path,
      );
    }
  }
  return `${folder}/`;
}
