/** The repository's source files, for the tests that read the code itself (layout, floors, lengths, codes). */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's root folder. */
export const REPO_ROOT = new URL('../..', import.meta.url).pathname;

/**
 * Every source file under `dir` (repository-relative), as repository-relative paths: `.ts` and `.tsx`, not tests and
 * not `.d.ts`; `generated/` and `node_modules/` are left out.
 */
export function sourceFiles(dir: string): string[] {
  return readdirSync(join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'generated' || entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')
      ? [path]
      : [];
  });
}
