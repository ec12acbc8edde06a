/**
 * Bad input across the three formats: keys named `__proto__`,
 * `constructor` and `prototype` at every depth of `apollia.toml` (TOML), agent.md (YAML) and a
 * plugin manifest (JSON); long lines and long values; super-linear patterns; names that collide
 * under case folding. Every answer is a refusal naming the field (or an acceptance); nothing is
 * written; nothing hangs (each case is sized so a quadratic check would blow the test timeout).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { stringify } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { setOwn } from '../../../shared/base/own-data';
import { INVOICES_DIR } from '../../../test/helpers/pack';
import { checkApolliaManifest, parseManifestText, scanPythonModule, type ArchiveView } from '../apollia/index';
import { inspectPluginManifestBytes } from '../plugin/index';
import { checkAgentMd } from '../template/agent-md';
import { inspectTemplate } from '../template/index';
import { validManifest, writeTemplate } from '../../../test/helpers/template-folders';
import { testApi, treeHash } from '../../../test/helpers/test-api';
import { versionFolderName } from '../store/version-folder';

const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_201);
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

type Tree = Record<string, unknown>;
/** Every object inside `value` with its path (keys and indexes), the root included. */
function tablesOf(value: unknown, path: (string | number)[] = []): { path: (string | number)[]; table: Tree }[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => tablesOf(item, [...path, i]));
  if (value === null || typeof value !== 'object' || value instanceof Date) return [];
  return [
    { path, table: value as Tree },
    ...Object.entries(value).flatMap(([key, inner]) => tablesOf(inner, [...path, key])),
  ];
}
/** A deep copy keeping every key as an own property (`structuredClone` would too, but not Dates in TOML). */
function copy<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copy) as T;
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const out: Tree = {};
  for (const [key, inner] of Object.entries(value)) setOwn(out, key, copy(inner));
  return out as T;
}
function at(root: unknown, path: (string | number)[]): Tree {
  let node = root as Tree;
  for (const key of path) node = (node as Record<string | number, unknown>)[key] as Tree;
  return node;
}
/** The spec's way of naming a field: `agents[0].defaults`. */
function fieldName(path: (string | number)[]): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? key : `.${key}`)).join('');
}

const EXAMPLE = readFileSync(join(INVOICES_DIR, 'apollia.toml'), 'utf8');
const ARCHIVE: ArchiveView = {
  files: [{ path: 'apollia.toml' }, { path: 'tools/extract.py' }, { path: 'workflows/reminders.py' }],
  pythonTexts: new Map([
    ['tools/extract.py', readFileSync(join(INVOICES_DIR, 'tools/extract.py'), 'utf8')],
    ['workflows/reminders.py', readFileSync(join(INVOICES_DIR, 'workflows/reminders.py'), 'utf8')],
  ]),
};

describe('bad input: `__proto__`, `constructor`, `prototype` at every depth', () => {
  const parsed = parseManifestText(EXAMPLE);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const tomlTables = tablesOf(parsed.data);

  it.each(PROTO_KEYS)('apollia.toml: `%s` in every table is refused, the field named', (key) => {
    for (const { path } of tomlTables) {
      const data = copy(parsed.data);
      setOwn<unknown>(at(data, path), key, 'x');
      const check = checkApolliaManifest(stringify(data), ARCHIVE);
      const field = fieldName([...path, key]);
      expect(check.ok, field).toBe(false);
      // A strict table names the key; a JSON Schema (`inputs`) names it as an unknown keyword.
      const named = check.errors.some(
        (e) => e.path === field || (e.message.includes(key) && field.startsWith(e.path ?? '\0')),
      );
      expect(named, `${field}: ${JSON.stringify(check.errors)}`).toBe(true);
    }
  });

  const yamlTables = tablesOf(validManifest());
  it.each(PROTO_KEYS)('agent.md: `%s` in every map is refused or kept as an own key, never a prototype', (key) => {
    for (const { path } of yamlTables) {
      const manifest = copy(validManifest());
      setOwn<unknown>(at(manifest, path), key, { type: 'string', description: 'x' });
      const text = `---\n${YAML.stringify(manifest)}---\nBody for \${parameters.channel}\n`;
      const result = checkAgentMd(text, {
        folderName: 'digest',
        files: new Map([['out.schema.json', new TextEncoder().encode('{"type":"object"}')]]),
      });
      const field = fieldName([...path, key]);
      if (result.manifest) {
        // Only a map whose keys are names (parameters, pins) may hold it: as an own key.
        expect(Object.hasOwn(at(result.manifest, path), key), field).toBe(true);
      } else {
        expect(
          result.errors.some((e) => e.path === field || e.message.includes(key)),
          `${field}: ${JSON.stringify(result.errors)}`,
        ).toBe(true);
      }
    }
  });

  const plugin = JSON.parse(
    readFileSync(join(__dirname, '../../../test/fixtures/plugin/crm-plugin.json'), 'utf8'),
  ) as Tree;
  const jsonTables = tablesOf(plugin);
  // The plugin spec reads unknown fields as warnings (plugin README): refused or warned, always named.
  // A tool's `input_schema` / `output_schema` is a JSON Schema the plugin reader does not hold to
  // known keywords (an unknown keyword is an annotation there): left out here, see the report. A
  // profile's `config_keys` is a map of names, where any legal name (these included) is legal.
  it.each(PROTO_KEYS)(
    'plugin manifest (JSON): `%s` in every object is named, as a refusal or an unknown-field warning',
    (key) => {
      for (const { path } of jsonTables.filter(
        (t) => !t.path.some((part) => typeof part === 'string' && (part.endsWith('_schema') || part === 'config_keys')),
      )) {
        const manifest = copy(plugin);
        setOwn<unknown>(at(manifest, path), key, 'x');
        const result = inspectPluginManifestBytes(new TextEncoder().encode(JSON.stringify(manifest)));
        const field = fieldName([...path, key]);
        const said = [...result.errors, ...result.warnings];
        expect(
          said.some((e) => (e.path ?? '').includes(key) || e.message.includes(key)),
          `${field}: ${JSON.stringify(said)}`,
        ).toBe(true);
      }
    },
  );
});

describe('bad input: long lines and long values', () => {
  it('scans Python modules of long random lines in linear time', () => {
    const piece = fc.constantFrom(
      '@',
      ' ',
      '\t',
      '(',
      ')',
      '"',
      "'",
      '"""',
      '#',
      '\\',
      '\n',
      '.',
      ',',
      '=',
      'tool',
      'apollia',
      'import ',
      'from ',
      'def ',
      'name',
      'x',
      '\r',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 10_000, max: 40_000 }),
        (pieces, times) => {
          const found = scanPythonModule(pieces.join('').repeat(times));
          expect(Array.isArray(found)).toBe(true);
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
  }, 120_000);

  it('answers a 100 000-character value in every string field of apollia.toml with a coded answer', () => {
    const parsed = parseManifestText(EXAMPLE);
    if (!parsed.ok) throw new Error(parsed.error.message);
    for (const { path, table } of tablesOf(parsed.data)) {
      for (const [key, value] of Object.entries(table)) {
        if (typeof value !== 'string') continue;
        const data = copy(parsed.data);
        setOwn<unknown>(at(data, path), key, `${value}${' .@a('.repeat(20_000)}`);
        const check = checkApolliaManifest(stringify(data), ARCHIVE);
        for (const error of check.errors) expect(error.code).toMatch(/^[a-z_]+(\.[a-z_]+)+$/);
      }
    }
  }, 120_000);

  it('answers a 100 000-character value in every string field of agent.md with a coded answer', () => {
    for (const { path, table } of tablesOf(validManifest())) {
      for (const [key, value] of Object.entries(table)) {
        if (typeof value !== 'string') continue;
        const manifest = copy(validManifest());
        setOwn<unknown>(at(manifest, path), key, `${value}${'.@a ${parameters.'.repeat(6_000)}`);
        const result = checkAgentMd(`---\n${YAML.stringify(manifest, { lineWidth: 0 })}---\nBody\n`, {
          folderName: 'digest',
          files: new Map(),
        });
        for (const error of result.errors) expect(error.code).toMatch(/^template\.[a-z_]+$/);
        if (!result.manifest) expect(result.errors.length).toBeGreaterThan(0);
      }
    }
  }, 120_000);
});

/** Patterns known to backtrack exponentially or polynomially in ECMAScript engines. */
const SUPER_LINEAR = [
  '^(\\w+\\s?)+$',
  '^(a+)+$',
  '^(a|a)*$',
  '^(a|aa)+$',
  '^(.*a){12}$',
  '^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$',
  '(\\d+)*\\d+x',
  '^(\\s*,?\\s*)*$',
];
describe('bad input: super-linear patterns', () => {
  it.each(SUPER_LINEAR)(
    'checks a template parameter with pattern %s and an adversarial default in linear time',
    async (pattern) => {
      const result = await inspectTemplate(
        writeTemplate((m) => {
          m.parameters.words = {
            type: 'string',
            pattern,
            default: `${'a'.repeat(5_000)}${'1'.repeat(4_000)}, , !`,
            description: 'Words.',
          };
        }),
      );
      expect(result.ok).toBe(false);
      expect(result.errors[0]?.path).toMatch(/^parameters\.words\.(default|pattern)$/);
    },
  );
});

describe('bad input: names that collide under case folding', () => {
  const snapshot = (dir: string): string[] =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .sort()
      .map((p) => `${p}:${statSync(join(dir, p)).mtimeMs}`);
  it.each([
    ['rules/Sources.md', 'rules/sources.md'],
    ['skills/Digest/SKILL.md', 'skills/digest/SKILL.md'],
    ['rules/caf\u00e9.md', 'rules/cafe\u0301.md'],
    ['README.md', 'readme.md'],
  ])('refuses %s beside %s, naming one, and writes nothing', async (a, b) => {
    const dir = writeTemplate((_m, files) => {
      files[a] = '# a\n';
      files[b] = '# b\n';
    });
    const before = snapshot(dir);
    const result = await inspectTemplate(dir);
    expect(result.ok).toBe(false);
    expect(result.errors[0]?.code).toBe('template.name_collision');
    expect([a, b, a.split('/').slice(0, 2).join('/'), b.split('/').slice(0, 2).join('/')]).toContain(
      result.errors[0]?.path,
    );
    expect(snapshot(dir)).toEqual(before);
  });
});

/**
 * The store's side of case folding. Package names, agent ids, trigger ids
 * and MCP server names are lower case only (`[a-z0-9_-]+`), so two of them can never differ only
 * in case: a name with an upper-case letter is refused before anything is stored, and what the
 * store keys by a name (`packages/<name>/`) cannot collide on a case-folding disk. Versions may
 * hold upper case (SemVer pre-release tags): `versionFolderName` keeps their folders apart.
 */
describe('bad input: names that collide under case folding, in the store', () => {
  const upperName = fc
    .tuple(
      fc.stringMatching(/^[a-z0-9_-]{0,8}$/),
      fc.stringMatching(/^[A-Z]$/),
      fc.stringMatching(/^[a-zA-Z0-9_-]{0,8}$/),
    )
    .map(([head, upper, tail]) => `${head}${upper}${tail}`);

  it('refuses a package name, an agent id or a trigger id with an upper-case letter, naming the field', () => {
    fc.assert(
      fc.property(upperName, fc.constantFrom('package.name', 'agents[0].id', 'triggers[0].id'), (name, field) => {
        const text =
          field === 'package.name'
            ? EXAMPLE.replace('name = "invoices"', `name = "${name}"`)
            : field === 'agents[0].id'
              ? EXAMPLE.replace('id = "invoice-clerk"', `id = "${name}"`)
              : EXAMPLE.replace('id = "first-monday"', `id = "${name}"`);
        expect(text).not.toBe(EXAMPLE);
        const check = checkApolliaManifest(text, ARCHIVE);
        expect(check.errors.some((e) => e.code === 'manifest.bad_identifier' && e.path === field)).toBe(true);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('refuses to save an MCP server whose name has an upper-case letter (request.invalid), writing nothing', async () => {
    const { api, dataDir } = testApi();
    await api.saveMcpServer({ name: 'notes', transport: 'stdio', command: 'notes' });
    const before = treeHash(dataDir);
    await fc.assert(
      fc.asyncProperty(upperName, async (name) => {
        const answer = await api.saveMcpServer({ name, transport: 'stdio', command: 'notes' });
        expect(answer.ok ? 'ok' : answer.error.code).toBe('request.invalid');
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(treeHash(dataDir)).toBe(before);
  });

  it('gives versions that differ only in case folders that differ under case folding too', () => {
    const tag = fc.stringMatching(/^[0-9A-Za-z]{0,5}[A-Za-z][0-9A-Za-z]{0,5}$/);
    const flips = fc.array(fc.boolean(), { minLength: 12, maxLength: 12 });
    fc.assert(
      fc.property(tag, flips, (a, flip) => {
        const b = [...a]
          .map((c, i) => (flip[i] ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c))
          .join('');
        fc.pre(a !== b);
        const [x, y] = [versionFolderName(`1.0.0-${a}`), versionFolderName(`1.0.0-${b}`)];
        expect(x.toLowerCase()).not.toBe(y.toLowerCase());
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(versionFolderName('1.0.0-RC1').toLowerCase()).not.toBe(versionFolderName('1.0.0-rc1').toLowerCase());
  });
});
