/**
 * The structure of `electron/core`, kept: its root holds only the Api router, each folder sits on a
 * floor, and an import only ever runs down a floor or along one (never back up). The floors are the
 * picture in `electron/core/README.md`; a new folder must be given one here before it can be imported.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { sourceFiles } from './helpers/source-files';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;
const CORE = join(ROOT, 'electron/core');

/** Lowest floor first. A folder may import its own floor's folders and any floor below. */
export const FLOORS: readonly (readonly string[])[] = [
  ['generated', 'errors', 'schema'],
  ['archive', 'store'],
  ['secrets', 'trust', 'plugin'],
  ['activity', 'apollia', 'template'],
  ['policy', 'bounded', 'feeds'],
  ['triggers'],
  ['app'],
  ['api.ts'],
  ['cli'],
];

const floorOf = (unit: string) => FLOORS.findIndex((floor) => floor.includes(unit));

/** The top-level unit of `electron/core` a path is in: a folder's name, or a root file's. */
const unitOf = (path: string) => relative(CORE, path).split('/')[0] as string;

/** Every import from one unit of core to another: `from → to (file)`. */
function crossImports(): { from: string; to: string; file: string }[] {
  return sourceFiles('electron/core')
    .map((file) => join(ROOT, file))
    .flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].flatMap((match) => {
        const target = resolve(dirname(file), match[1] as string);
        if (relative(CORE, target).startsWith('..')) return [];
        const unit = unitOf(target);
        const to = unit === 'api' ? 'api.ts' : unit;
        const from = unitOf(file);
        return to === from ? [] : [{ from, to, file: relative(ROOT, file) }];
      });
    });
}

describe('the floors of electron/core', () => {
  it('its root holds only the Api router and the floors README', () => {
    const root = readdirSync(CORE, { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
    expect(root.sort()).toEqual(['README.md', 'api.ts']);
  });

  it('every folder of core is on a floor', () => {
    const folders = readdirSync(CORE, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(folders.filter((folder) => floorOf(folder) < 0)).toEqual([]);
  });

  it('no import runs back up a floor', () => {
    const upward = crossImports().filter(({ from, to }) => floorOf(to) > floorOf(from));
    expect(upward).toEqual([]);
  });

  it('the check sees an upward import when there is one', () => {
    // The store's records importing a use case would be one: store (floor 1) → app (floor 6).
    expect(floorOf('app')).toBeGreaterThan(floorOf('store'));
    expect(crossImports().some(({ from, to }) => from === 'app' && to === 'store')).toBe(true);
  });
});
