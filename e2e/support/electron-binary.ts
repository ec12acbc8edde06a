/**
 * Whether an Electron binary is installed, WITHOUT `require('electron')` (TOOLCHAIN.md: requiring
 * it tries to download the binary): `node_modules/electron/path.txt` names the executable inside
 * `node_modules/electron/dist/`, and that file must exist.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The repository root. */
export const REPO_ROOT = new URL('../..', import.meta.url).pathname;

/** The Electron executable, or null when none is installed (this build machine, CI). */
export function electronBinary(root: string = REPO_ROOT): string | null {
  const pathFile = join(root, 'node_modules', 'electron', 'path.txt');
  if (!existsSync(pathFile)) return null;
  const relative = readFileSync(pathFile, 'utf8').trim();
  if (relative === '') return null;
  const binary = join(root, 'node_modules', 'electron', 'dist', relative);
  return existsSync(binary) ? binary : null;
}
