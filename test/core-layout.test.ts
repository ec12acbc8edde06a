/**
 * The size rules of the tree: the Api stays a thin router and no module grows into a grab-bag again (STYLE.md "One
 * home for each rule"). Every source file of the app, the CLI, the window, the e2e harness, the scripts and the
 * benches counts; tests (`*.test.ts`, e2e specs), fixtures and generated code are exempt.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, sourceFiles } from './helpers/source-files';
import { describe, expect, it } from 'vitest';

/** The longest a source file may be, formatted at 120 columns. */
export const MAX_SOURCE_LINES = 500;
/** The longest the Api router may be. */
export const MAX_ROUTER_LINES = 250;

const lines = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8').split('\n').length;

/** The source files the size rule covers: not tests, not e2e specs, not fixtures, not generated code. */
const covered = () =>
  ['electron', 'renderer', 'shared', 'scripts', 'bench', 'e2e']
    .flatMap((folder) => sourceFiles(folder))
    .filter((file) => !file.includes('/fixtures/') && !file.startsWith('e2e/specs/'));

/** The files over a limit, with their lengths. */
export function overLimit(files: readonly string[], limit: number, length = lines): { file: string; lines: number }[] {
  return files.map((file) => ({ file, lines: length(file) })).filter((file) => file.lines > limit);
}

describe('source layout', () => {
  it(`electron/core/api.ts is a thin router: at most ${MAX_ROUTER_LINES} lines`, () => {
    expect(lines('electron/core/api.ts')).toBeLessThanOrEqual(MAX_ROUTER_LINES);
  });

  it(`no source file is over ${MAX_SOURCE_LINES} lines`, () => {
    expect(overLimit(covered(), MAX_SOURCE_LINES)).toEqual([]);
  });

  it('the rule sees the files it covers, and a long one (a probe)', () => {
    const files = covered();
    expect(files).toEqual(
      expect.arrayContaining(['electron/core/api.ts', 'shared/contract/api.ts', 'renderer/src/App.tsx']),
    );
    expect(files.some((file) => file.endsWith('.test.ts') || file.includes('/generated/'))).toBe(false);
    expect(overLimit(['a.ts', 'b.ts'], MAX_SOURCE_LINES, (file) => (file === 'a.ts' ? 501 : 500))).toEqual([
      { file: 'a.ts', lines: 501 },
    ]);
  });
});
