/**
 * Which folders a `file_watch` trigger may watch.
 *
 * A watched folder is compared by its real path (links resolved) with the app's own data folder.
 * Refused: the data folder, any folder inside it (the app's own writes would fire the trigger, and a
 * package's trigger would see the store and the sealed secrets change), any folder that contains it
 * (the same, one level up: on Linux the home folder holds `~/.config/Apollia Desktop`, so the home
 * folder itself is refused; a folder inside it is fine), and the root of the file system. What is
 * stored and shown is the real path, never the name of a link the person happened to pick.
 *
 * Paths compare case-insensitively on macOS and Windows (their default file systems fold case), and
 * exactly elsewhere; `watchFolderRefusal` is pure so every platform's rule is tested on any machine.
 */
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, posix, win32 } from 'node:path';
import { CoreError } from '../errors/index';

/** How a folder stands to the data folder, or null when neither holds the other. */
export type FolderOverlap = 'root' | 'data' | 'inside' | 'contains';

/**
 * How the real path `folder` stands to the real path `dataDir` on `platform`: the root of the file
 * system, the data folder itself, inside it, containing it, or null (unrelated). Pure.
 */
export function folderOverlap(folder: string, dataDir: string, platform: NodeJS.Platform): FolderOverlap | null {
  const paths = platform === 'win32' ? win32 : posix;
  const fold = platform === 'win32' || platform === 'darwin' ? (p: string) => p.toLowerCase() : (p: string) => p;
  const a = fold(paths.resolve(folder));
  const b = fold(paths.resolve(dataDir));
  if (paths.parse(a).root === a) return 'root';
  if (a === b) return 'data';
  const rel = paths.relative(b, a);
  if (rel !== '' && !rel.startsWith('..') && !paths.isAbsolute(rel)) return 'inside';
  const up = paths.relative(a, b);
  if (up !== '' && !up.startsWith('..') && !paths.isAbsolute(up)) return 'contains';
  return null;
}

/**
 * The sentence saying why the real path `folder` cannot be watched, or null when it can. Pure;
 * `dataDir` is the data folder's real path.
 */
export function watchFolderRefusal(folder: string, dataDir: string, platform: NodeJS.Platform): string | null {
  const overlap = folderOverlap(folder, dataDir, platform);
  if (overlap === null) return null;
  if (overlap === 'root')
    return `${folder} is the top of the file system: a trigger cannot watch the whole disk. Pick a folder of your own.`;
  if (overlap === 'data')
    return `${folder} is Apollia Desktop's own data folder: the app's own writes would set the trigger off. Pick another folder.`;
  if (overlap === 'inside')
    return `${folder} is inside Apollia Desktop's own data folder (${dataDir}): the app's own writes would set the trigger off. Pick a folder outside it.`;
  return `${folder} contains Apollia Desktop's own data folder (${dataDir}): the app's own writes would set the trigger off. Pick a folder inside it instead, such as your Documents folder.`;
}

/** The real path of `dir`; for a folder not made yet, its nearest existing parent's real path with the rest joined. */
async function realPathOrPlanned(dir: string): Promise<string> {
  try {
    return await realpath(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(dir) === dir) throw error;
    return join(await realPathOrPlanned(dirname(dir)), basename(dir));
  }
}

/**
 * The real path of a folder picked to be watched, after checking it may be watched: links resolved,
 * `folder.not_found` when it is gone or not a folder, `trigger.folder_forbidden` for the data folder,
 * a folder inside or around it, or the root.
 */
export async function resolveWatchFolder(
  path: string,
  dataDir: string,
  platform: NodeJS.Platform = process.platform,
): Promise<string> {
  let real: string;
  try {
    real = await realpath(path);
    if (!(await stat(real)).isDirectory())
      throw new CoreError('folder.not_found', `${path} is not a folder: pick a folder to watch.`);
  } catch (error) {
    if (error instanceof CoreError) throw error;
    throw new CoreError('folder.not_found', `${path} cannot be found (any more): pick the folder again.`);
  }
  const refusal = watchFolderRefusal(real, await realPathOrPlanned(dataDir), platform);
  if (refusal !== null) throw new CoreError('trigger.folder_forbidden', refusal);
  return real;
}

/**
 * The folder picked as `folderId`, checked again as a trigger is armed with it: `resolveWatchFolder`
 * of the path picked, and `folder.changed` when its real path is no longer the one picked (a link
 * swapped in since the pick: the trigger never watches a folder the person did not pick).
 */
export async function pickedWatchFolder(
  picked: string,
  dataDir: string,
  platform: NodeJS.Platform = process.platform,
): Promise<string> {
  const real = await resolveWatchFolder(picked, dataDir, platform);
  if (real !== picked)
    throw new CoreError(
      'folder.changed',
      `${picked} has changed since you picked it (it now leads to ${real}): pick the folder again.`,
    );
  return real;
}

/** For the trigger host: why an armed trigger's stored folder must not be watched (an edited state file), or null. */
export async function storedWatchFolderRefusal(
  folder: string,
  dataDir: string,
  platform: NodeJS.Platform = process.platform,
): Promise<string | null> {
  let real: string;
  try {
    real = await realpath(folder);
  } catch {
    return null; // gone or unreadable: the folder watch reports that itself
  }
  return watchFolderRefusal(real, await realPathOrPlanned(dataDir), platform);
}
