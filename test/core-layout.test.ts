/**
 * The size rules of core: the Api stays a thin router and no core module grows into a
 * grab-bag again (STYLE.md "One home for each rule"). Generated code is exempt.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;
const CORE = join(ROOT, 'electron/core');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const lines = (path: string) => readFileSync(path, 'utf8').split('\n').length;

describe('core layout', () => {
  it('electron/core/api.ts is a thin router: under 350 lines (formatted at 120 columns)', () => {
    expect(lines(join(CORE, 'api.ts'))).toBeLessThan(350);
  });

  it('no module in electron/core is over 650 lines (formatted at 120 columns)', () => {
    const long = sourceFiles(CORE)
      .map((path) => ({ file: relative(ROOT, path), lines: lines(path) }))
      .filter((file) => file.lines > 650);
    expect(long).toEqual([]);
  });
});
