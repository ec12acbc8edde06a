/**
 * Writing to the data folder through `staging/`: what install, apply and uninstall each do to
 * their files. Files are made (or moved aside) under `staging/<uuid>`, renamed into place, then
 * recorded in one store write; when anything fails, the files are rolled back, so a refusal or a
 * crash leaves no half-made package or agent and no record pointing at missing files (DESIGN.md
 * "Store").
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';

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
  /** Records the placed folder (one store write); a throw rolls the folder back. */
  record(): Promise<T>;
}

/**
 * Fills a fresh `staging/<uuid>`, renames it to `finalDir`, and records it. On any failure the
 * placed folder and the staging folder are removed and the error rethrown.
 */
export async function placeFromStaging<T>(placement: StagedPlacement<T>): Promise<T> {
  const { dataDir, finalDir } = placement;
  const stagingRoot = join(dataDir, 'staging');
  const staging = join(stagingRoot, randomUUID());
  let placed = false;
  try {
    await mkdir(stagingRoot, { recursive: true });
    await placement.fill(staging);
    await rm(finalDir, { recursive: true, force: true });
    await mkdir(dirname(finalDir), { recursive: true });
    await rename(staging, finalDir);
    placed = true;
    const result = await placement.record();
    await removeAndPrune(staging, dataDir);
    return result;
  } catch (error) {
    if (placed) await removeAndPrune(finalDir, dataDir);
    await removeAndPrune(staging, dataDir);
    throw error;
  }
}

/**
 * Moves `dir` aside into staging, records its removal, then deletes it; when the record fails the
 * folder is moved back. A folder already missing is fine: the record is what uninstalls.
 */
export async function removeThroughStaging<T>(dataDir: string, dir: string, record: () => Promise<T>): Promise<T> {
  const trash = join(dataDir, 'staging', randomUUID());
  await mkdir(dirname(trash), { recursive: true });
  const moved = await rename(dir, trash).then(
    () => true,
    () => false,
  );
  try {
    const result = await record();
    await removeAndPrune(trash, dataDir);
    await removeAndPrune(dir, dataDir);
    return result;
  } catch (error) {
    if (moved) await rename(trash, dir).catch(() => undefined);
    await removeAndPrune(trash, dataDir);
    throw error;
  }
}
