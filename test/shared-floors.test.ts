/**
 * The structure of `shared/`, kept as core's is (`core-floors.test.ts`): its root holds no source file, each room
 * sits on a floor, and an import only ever runs down a floor or stays in its own room — never up, never sideways into
 * another room of the same floor. And no import circle anywhere in `shared/`, `electron/` or `renderer/`, type
 * imports included. The floors are the picture in `shared/README.md`; a new room must be given one here first.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { circles, importGraph, importsOf } from './helpers/import-graph';
import { REPO_ROOT } from './helpers/source-files';
import { describe, expect, it } from 'vitest';

/** Lowest floor first. A room may import its own files and any room on a floor below. */
export const SHARED_FLOORS: readonly (readonly string[])[] = [
  ['base'],
  ['manifests'],
  ['triggers', 'activity'],
  ['words'],
  ['trust'],
  ['policy'],
  ['decisions'],
  ['contract'],
];

const floorOf = (room: string) => SHARED_FLOORS.findIndex((floor) => floor.includes(room));
const roomOf = (path: string) => path.split('/')[1] as string;

/** Every import from one room of shared to another that does not run down a floor: `from → to`. */
function wrongWay(graph: ReadonlyMap<string, readonly string[]>): string[] {
  return [...graph].flatMap(([file, targets]) =>
    targets
      .filter(
        (to) => to.startsWith('shared/') && roomOf(to) !== roomOf(file) && floorOf(roomOf(to)) >= floorOf(roomOf(file)),
      )
      .map((to) => `${file} → ${to}`),
  );
}

describe('the floors of shared/', () => {
  const graph = importGraph(['shared']);

  it('its root holds only the README: every module lives in a room', () => {
    const root = readdirSync(join(REPO_ROOT, 'shared'), { withFileTypes: true }).filter((e) => e.isFile());
    expect(root.map((e) => e.name)).toEqual(['README.md']);
  });

  it('every room of shared/ is on a floor, and each is described in shared/README.md', () => {
    const rooms = readdirSync(join(REPO_ROOT, 'shared'), { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(rooms.map((e) => e.name).filter((room) => floorOf(room) < 0)).toEqual([]);
    const readme = readdirSync(join(REPO_ROOT, 'shared')).includes('README.md');
    expect(readme).toBe(true);
  });

  it('no import runs up a floor or sideways into another room', () => {
    expect(wrongWay(graph)).toEqual([]);
  });

  it('the check sees an upward import when there is one (a probe)', () => {
    // The manifests' room importing the contract would be one: manifests (floor 1) → contract (floor 7).
    const probe = new Map(graph);
    probe.set('shared/manifests/sdk.ts', ['shared/contract/api.ts']);
    expect(wrongWay(probe)).toEqual(['shared/manifests/sdk.ts → shared/contract/api.ts']);
    // And one sideways: triggers and activity share a floor, so neither may import the other.
    probe.set('shared/manifests/sdk.ts', []);
    probe.set('shared/activity/activity-kinds.ts', ['shared/triggers/cron.ts']);
    expect(wrongWay(probe)).toEqual(['shared/activity/activity-kinds.ts → shared/triggers/cron.ts']);
  });
});

describe('no import circle', () => {
  it('in shared/, electron/ or renderer/ (type imports included)', () => {
    expect(circles(importGraph(['shared', 'electron', 'renderer']))).toEqual([]);
  });

  it('the check sees a circle when there is one (a probe)', () => {
    const graph = importGraph(['shared']);
    // The contract's Api imports the words; the words importing the Api back would close a circle.
    expect(graph.get('shared/contract/api.ts')?.length).toBeGreaterThan(0);
    const probe = new Map(graph);
    probe.set('shared/words/words.ts', [...(graph.get('shared/words/words.ts') ?? []), 'shared/contract/api.ts']);
    expect(circles(probe).some((circle) => circle.includes('shared/words/words.ts'))).toBe(true);
    // A file that imports itself is a circle too.
    expect(circles(new Map([['a.ts', ['a.ts']]]))).toEqual([['a.ts']]);
  });

  it('reads type imports and re-exports as imports', () => {
    const text = "import type { A } from './api-errors';\nexport type { B } from './api-requests';\n";
    expect(importsOf('shared/contract/api.ts', text)).toEqual([
      'shared/contract/api-errors.ts',
      'shared/contract/api-requests.ts',
    ]);
  });
});
