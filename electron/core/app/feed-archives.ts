/**
 * The archives kept for roll back (`archives/<name>/<version>-<sha>.apo`): a package installed from
 * a feed keeps its current version's archive and one earlier (the version roll back puts back);
 * nothing else. {@link sweepKeptArchives} removes, after a commit, every file there that no store
 * record names: the one an update left behind, an uninstalled package's, and a copy an install
 * made before a commit that was then refused. It only ever deletes inside `archives/`, and only
 * `.apo` files (anything else there is left for the person to see).
 */
import { readdir, rm, rmdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoreState } from '../store/state';

/** The kept archives the store names (relative to the data folder), one or two per feed-installed package. */
function namedArchives(state: StoreState): Set<string> {
  const named = new Set<string>();
  for (const record of Object.values(state.packageUpdates))
    for (const kept of [record.current, record.previous]) if (kept) named.add(kept.archive);
  return named;
}

/** Removes every kept `.apo` no record of `state` names, and the package folders left empty; what it removed. */
export async function sweepKeptArchives(dataDir: string, state: StoreState): Promise<string[]> {
  const root = join(dataDir, 'archives');
  const named = namedArchives(state);
  const removed: string[] = [];
  let folders: string[];
  try {
    folders = await readdir(root);
  } catch {
    return removed;
  }
  for (const folder of folders) {
    let files: string[];
    try {
      files = await readdir(join(root, folder));
    } catch {
      continue; // not a folder
    }
    for (const file of files) {
      const relative = `archives/${folder}/${file}`;
      if (!file.endsWith('.apo') || named.has(relative)) continue;
      await rm(join(root, folder, file), { force: true });
      removed.push(relative);
    }
    await rmdir(join(root, folder)).catch(() => undefined); // only when empty
  }
  return removed.sort();
}

/** A feed's download left in staging this long (a form closed without installing) is removed by the next download. */
export const STALE_DOWNLOAD_MS = 24 * 60 * 60_000;

/**
 * Removes the feed downloads left in `staging/` (each a folder holding only `package.apo`, as
 * `downloadToStaging` writes it) older than {@link STALE_DOWNLOAD_MS} that no open source of this
 * process uses: what a link's or an update's form left when it was closed without installing.
 * Nothing else in staging is touched. What it removed, as folder names.
 */
export async function sweepStaleDownloads(
  dataDir: string,
  now: Date,
  inUse: (path: string) => boolean,
): Promise<string[]> {
  const root = join(dataDir, 'staging');
  let folders: string[];
  try {
    folders = await readdir(root);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const folder of folders) {
    const dir = join(root, folder);
    try {
      const entries = await readdir(dir);
      if (entries.length !== 1 || entries[0] !== 'package.apo') continue;
      const file = join(dir, 'package.apo');
      if (inUse(file) || now.getTime() - (await stat(file)).mtimeMs < STALE_DOWNLOAD_MS) continue;
      await rm(dir, { recursive: true, force: true });
      removed.push(folder);
    } catch {
      // not a folder, or gone meanwhile
    }
  }
  return removed.sort();
}
