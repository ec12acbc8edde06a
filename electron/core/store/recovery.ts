/**
 * The store's open-time recovery (DESIGN.md "Commit points": "at open, … package folders no state
 * names are removed …, and an interrupted step is finished or undone"). Run under the store's lock
 * by the first change a process makes (`Store.update`), before the change:
 *
 * - a package version folder (`packages/<name>/<folder>`) or an agent folder (`agents/<id>`) that
 *   no record of the state names is removed: an install or apply killed after placing its folder
 *   and before its commit (undone), an update killed before removing the version it replaced, an
 *   uninstall or remove killed after its commit and before deleting the folder (finished). Folders
 *   are placed under the same lock (`staging.ts`), so a folder placed for a commit still to come is
 *   never seen here;
 * - a staging folder (`staging/<pid>-<uuid>`) whose maker is dead is removed (staging is filled
 *   without the lock, so a live maker's is left alone; one of an older naming, a bare uuid, is
 *   removed once a day old);
 * - the temp files of atomic writes (`.<name>.tmp-<pid>-<uuid>`) of dead makers are removed.
 *
 * The activity record's part (the outbox's lines the record lacks) is `ActivityLog.recover`.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { removeAndPrune } from './staging';
import { processAlive } from './pid-lock';
import type { StoreState } from './state';

/** A staging folder or temp file of the bare-uuid naming is removed once this old. */
export const LEGACY_LEFTOVER_MS = 24 * 60 * 60_000;

/** What the recovery removed, relative to the data folder (for the host's log). */
export interface Recovered {
  removed: string[];
}

const names = (dir: string) =>
  readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });

/** Removes what no state names and no live process is making (caller holds the store's lock). */
export async function recoverFolders(dataDir: string, state: StoreState, now = Date.now()): Promise<Recovered> {
  const named = new Set<string>();
  for (const pkg of Object.values(state.packages)) named.add(pkg.dir.replace(/\/+$/, ''));
  for (const agent of Object.values(state.agents))
    if (agent.origin === 'template') named.add(agent.dir.replace(/\/+$/, ''));
  // Kept: a folder a record names, one inside it (a state of an older layout naming `packages/<name>`), one holding it.
  const kept = (rel: string) =>
    [...named].some((dir) => dir === rel || dir.startsWith(`${rel}/`) || rel.startsWith(`${dir}/`));
  const removed: string[] = [];
  for (const pkg of await names(join(dataDir, 'packages'))) {
    if (!pkg.isDirectory()) continue;
    for (const version of await names(join(dataDir, 'packages', pkg.name))) {
      const rel = `packages/${pkg.name}/${version.name}`;
      if (kept(rel)) continue;
      await removeAndPrune(join(dataDir, rel), dataDir);
      removed.push(rel);
    }
  }
  for (const agent of await names(join(dataDir, 'agents'))) {
    const rel = `agents/${agent.name}`;
    if (!agent.isDirectory() || kept(rel)) continue;
    await rm(join(dataDir, rel), { recursive: true, force: true });
    removed.push(rel);
  }
  for (const entry of await names(join(dataDir, 'staging'))) {
    const rel = `staging/${entry.name}`;
    if (await leftover(join(dataDir, rel), /^(\d+)-/.exec(entry.name), now)) {
      await removeAndPrune(join(dataDir, rel), dataDir);
      removed.push(rel);
    }
  }
  for (const entry of await names(dataDir)) {
    const temp = /^\..+\.tmp-(\d+)-/.exec(entry.name);
    if (entry.isFile() && temp && !processAlive(Number(temp[1]))) {
      await rm(join(dataDir, entry.name), { force: true });
      removed.push(entry.name);
    }
  }
  return { removed };
}

/** Whether a staging entry is a dead process's (by the pid its name starts with) or, of the older naming, old. */
async function leftover(path: string, pid: RegExpExecArray | null, now: number): Promise<boolean> {
  if (pid) return !processAlive(Number(pid[1]));
  const info = await stat(path).catch(() => null);
  return info !== null && now - info.mtimeMs > LEGACY_LEFTOVER_MS;
}
