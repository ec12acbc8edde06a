/**
 * What `pack` leaves out of a package folder: every dotfile and dot-folder (`.env`, `.git/`), which hold secrets and
 * history rather than the package, and what the folder's `.apoignore` lists (one pattern a line, as `.npmignore`: `#`
 * comments, `*` within a name, a folder's name covers what is in it, `!pattern` packs what would be left out). What is
 * left out is said, so nothing goes missing unseen.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packEntries } from '../archive/pack';

/** The file of patterns `pack` reads at the folder's root (itself never packed). */
export const IGNORE_FILE = '.apoignore';

/** A pattern of `.apoignore` as a test of a `/`-separated path. */
function patternTest(pattern: string): (path: string) => boolean {
  const bare = pattern.replace(/^\/+/, '').replace(/\/+$/, '');
  const source = bare
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]*');
  // Anchored at the root when it names a path (`a/b`), else any part of the path (`*.log`, `node_modules`).
  const regex = new RegExp(bare.includes('/') ? `^${source}(/|$)` : `(^|/)${source}(/|$)`);
  return (path) => regex.test(path);
}

/** The paths of `dir` that `pack` packs, and the top-most ones it leaves out (a folder once, with a `/`). */
export function packedEntries(dir: string): { entries: string[]; leftOut: string[] } {
  const lines = existsSync(join(dir, IGNORE_FILE))
    ? readFileSync(join(dir, IGNORE_FILE), 'utf8')
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.startsWith('#'))
    : [];
  const ignore = lines.filter((l) => !l.startsWith('!')).map(patternTest);
  const keep = lines.filter((l) => l.startsWith('!')).map((l) => patternTest(l.slice(1)));
  const all = packEntries(dir);
  const folders = new Set(all.filter((path) => all.some((other) => other.startsWith(`${path}/`))));
  const left = (path: string) =>
    path === IGNORE_FILE ||
    (((path.split('/').some((part) => part.startsWith('.')) || ignore.some((test) => test(path))) &&
      !keep.some((test) => test(path))) as boolean);
  const entries: string[] = [];
  const leftOut: string[] = [];
  for (const path of all) {
    // Below a folder left out, nothing is said again.
    const parent = leftOut.find((out) => out.endsWith('/') && path.startsWith(out));
    if (parent !== undefined) {
      if (!keep.some((test) => test(path))) continue;
    }
    if (left(path)) {
      if (parent === undefined && path !== IGNORE_FILE) leftOut.push(folders.has(path) ? `${path}/` : path);
    } else entries.push(path);
  }
  return { entries, leftOut };
}
