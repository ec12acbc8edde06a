/**
 * The size rules of core: the Api stays a thin router and no core module grows into a
 * grab-bag again (STYLE.md "One home for each rule"). Generated code is exempt.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceFiles } from './helpers/source-files';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;
const CORE = join(ROOT, 'electron/core');

const lines = (path: string) => readFileSync(path, 'utf8').split('\n').length;

describe('core layout', () => {
  it('electron/core/api.ts is a thin router: under 250 lines (formatted at 120 columns)', () => {
    expect(lines(join(CORE, 'api.ts'))).toBeLessThan(250);
  });

  it('no module in electron/core is over 650 lines (formatted at 120 columns)', () => {
    const long = sourceFiles('electron/core')
      .map((file) => ({ file, lines: lines(join(ROOT, file)) }))
      .filter((file) => file.lines > 650);
    expect(long).toEqual([]);
  });
});
