/**
 * The TypeBox schema modules give the app its types and the JSON Schemas that
 * `scripts/compile-schemas.ts` compiles ahead of time; at run time only the compiled validators run.
 * TypeBox takes about a second to load, so no module of the app, the CLI, the preload or the window
 * may load it: they import a schema module's types only (`import type`), never a value.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { sourceFiles } from './helpers/source-files';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;

/** The modules that build schemas with TypeBox. */
const SCHEMA_MODULES = [
  'shared/base/schema-kit.ts',
  /^shared\/contract\/(api-requests|api-replies|replies-[a-z-]+)\.ts$/,
  /^shared\/[a-z]+\/[a-z-]+-schema\.ts$/,
  'electron/core/apollia/manifest-schema.ts',
  'electron/core/policy/policy-schema.ts',
  'electron/core/feeds/feed-schema.ts',
  /^electron\/core\/store\/schema\/format-\d+\.ts$/,
];
const isSchemaModule = (path: string) =>
  SCHEMA_MODULES.some((rule) => (typeof rule === 'string' ? rule === path : rule.test(path)));

/** Every import that loads its module at run time (not `import type`, not only `type` names), by target. */
function valueImports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const statements = text.matchAll(/^(import|export)\s+(type\s+)?([^;]*?)\s*from\s*'([^']+)'/gms);
  return [...statements].flatMap((match) => {
    if (match[2]) return [];
    const names = /\{([^}]*)\}/.exec(match[3] ?? '')?.[1];
    const onlyTypes =
      names !== undefined &&
      !/^\s*\*|^[A-Za-z_$]/.test(match[3] ?? '') &&
      names
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean)
        .every((name) => name.startsWith('type '));
    return onlyTypes ? [] : [match[4] as string];
  });
}

/** Where a relative import points, as a path from the repository root with its `.ts` extension. */
const target = (file: string, from: string) =>
  from.startsWith('.') ? `${relative(ROOT, resolve(ROOT, dirname(file), from))}.ts` : from;

describe('TypeBox schema modules', () => {
  it('are never loaded at run time: the app, the CLI and the window import only their types', () => {
    const loaded: string[] = [];
    for (const file of ['shared', 'electron', 'renderer/src'].flatMap(sourceFiles)) {
      if (isSchemaModule(file)) continue;
      for (const from of valueImports(file)) {
        const to = target(file, from);
        if (to === 'typebox' || to.startsWith('typebox/') || isSchemaModule(to)) loaded.push(`${file} → ${to}`);
      }
    }
    expect(loaded).toEqual([]);
  });

  it('notices a value import of one (the check above is not blind)', () => {
    const files = sourceFiles('scripts');
    const compiler = files.find((file) => basename(file) === 'compile-schemas.ts') as string;
    expect(valueImports(compiler).map((from) => target(compiler, from))).toEqual(
      expect.arrayContaining([
        'shared/contract/api-requests.ts',
        'electron/core/apollia/manifest-schema.ts',
        'electron/core/policy/policy-schema.ts',
      ]),
    );
  });
});
