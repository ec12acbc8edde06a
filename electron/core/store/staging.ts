/**
 * Writing to the data folder through `staging/`: what install, apply and uninstall each do to
 * their files. New files are made under `staging/<uuid>`, renamed into place, then recorded in one
 * store write (a failure before that write rolls them back); a removal is recorded first, then its
 * files are moved aside and deleted. So a refusal or a crash leaves no half-made package or agent and
 * no record pointing at missing files (DESIGN.md "Store", "Commit points").
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { struckAfterCommit } from '../errors/io-fault';
import { syncDir } from './atomic-file';

/** Removes `dir` and then each now-empty parent up to (not including) `stop`. */
export async function removeAndPrune(dir: string, stop: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  let current = dirname(dir);
  while (current.startsWith(stop) && current !== stop) {
    try {
      await rmdir(current);
    } catch {
      return;
    }
    current = dirname(current);
  }
}

/** How a new folder is made: filled in staging, placed at `finalDir`, then recorded. */
export interface StagedPlacement<T> {
  dataDir: string;
  /** Where the folder ends up; a leftover there (never recorded: a crash's) is replaced. */
  finalDir: string;
  /** Fills the staging folder (which does not exist yet; create what you write). */
  fill(staging: string): Promise<void>;
  /**
   * Records the placed folder: one store write (`Store.update`) whose change calls `place` first, so
   * the folder is renamed into place under the store's lock (the open-time recovery, which removes
   * folders no state names, runs under it too); a throw rolls the folder back.
   */
  record(place: () => Promise<void>): Promise<T>;
}

/** A staging folder's name: the maker's pid first, so the open-time recovery removes only a dead process's. */
export function stagingName(): string {
  return `${process.pid}-${randomUUID()}`;
}

/**
 * Fills a fresh `staging/<pid>-<uuid>`, fsyncs every file and folder in it, renames it to
 * `finalDir` (under the store's lock, through `record`), and records it. On any failure before the
 * commit the placed folder and the staging folder are removed and the error rethrown.
 */
export async function placeFromStaging<T>(placement: StagedPlacement<T>): Promise<T> {
  const { dataDir, finalDir } = placement;
  const stagingRoot = join(dataDir, 'staging');
  const staging = join(stagingRoot, stagingName());
  let placed = false;
  try {
    await mkdir(stagingRoot, { recursive: true });
    await placement.fill(staging);
    // The files are durable before the state that names them is (DESIGN.md "Commit points").
    await syncTree(staging);
    const result = await placement.record(async () => {
      await rm(finalDir, { recursive: true, force: true });
      await mkdir(dirname(finalDir), { recursive: true });
      await rename(staging, finalDir);
      placed = true;
      await syncDir(dirname(finalDir));
    });
    await removeAndPrune(staging, dataDir);
    return result;
  } catch (error) {
    // A fault after the state's rename: the new state names `finalDir`, so it stays.
    if (placed && !struckAfterCommit(error)) await removeAndPrune(finalDir, dataDir);
    await removeAndPrune(staging, dataDir);
    throw error;
  }
}

/** fsyncs every file and folder under `dir` (the folder itself last). */
export async function syncTree(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await syncTree(path);
    else if (entry.isFile()) {
      const handle = await open(path, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
  }
  await syncDir(dir);
}

/**
 * Records the removal of `dir` (one store write), then moves it aside into staging and deletes it.
 * The record comes first (DESIGN.md "Commit points"): a kill before it leaves the package whole and
 * installed, a kill after it leaves only a folder no state names, which a later install replaces;
 * never a state naming files that are gone. A folder already missing is fine.
 */
export async function removeThroughStaging<T>(dataDir: string, dir: string, record: () => Promise<T>): Promise<T> {
  const result = await record();
  const trash = join(dataDir, 'staging', stagingName());
  await mkdir(dirname(trash), { recursive: true });
  const moved = await rename(dir, trash).then(
    () => true,
    () => false,
  );
  if (moved) await removeAndPrune(trash, dataDir);
  await removeAndPrune(dir, dataDir);
  return result;
}
