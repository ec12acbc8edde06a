/**
 * Fuzzing the manifest check (fast-check, seeded): the spec's complete example mutated by flipped
 * characters, cut lengths, inserted keys and values, and random whole tables. Whatever comes in, the
 * answer is accepted or refused with a coded error: never a throw, never a hang. The check reads
 * text only, so "never a write" holds by construction (it has no file system access). Runs:
 * `FUZZ_RUNS` (default 300; `npm run fuzz` uses 20,000).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'smol-toml';
import { INVOICES_DIR } from '../../../test/helpers/pack';
import { checkApolliaManifest, type ArchiveView } from './index';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_130);

const EXAMPLE = readFileSync(join(INVOICES_DIR, 'apollia.toml'), 'utf8');
const ARCHIVE: ArchiveView = {
  files: [{ path: 'apollia.toml' }, { path: 'tools/extract.py' }, { path: 'workflows/reminders.py' }],
  pythonTexts: new Map([
    ['tools/extract.py', readFileSync(join(INVOICES_DIR, 'tools/extract.py'), 'utf8')],
    ['workflows/reminders.py', readFileSync(join(INVOICES_DIR, 'workflows/reminders.py'), 'utf8')],
  ]),
};

/** Keys and values an attacker (or a typo) would try, mixed with the spec's own. */
const KEY = fc.constantFrom(
  'name',
  'id',
  'type',
  'schedule',
  'every',
  'recursive',
  'access',
  'action',
  'module',
  'requires_approval',
  'temprature',
  '__proto__',
  'constructor',
  'x-order',
  'steps',
  'env',
  'url',
  'transport',
  'a.b',
  '"quoted key"',
);
const VALUE = fc.oneof(
  fc.constantFrom(
    '"read"',
    '"send_external"',
    '"0 8 * * MON"',
    '"30m"',
    'true',
    '-1',
    '1e309',
    '[]',
    '{}',
    '"../x"',
    '"pkg:invoices/nope"',
    '"\\u202E"',
    '1979-05-27T07:32:00Z',
    'nan',
    'inf',
  ),
  fc.string({ maxLength: 20 }).map((s) => JSON.stringify(s)),
  fc.integer().map(String),
);

type Mutation =
  | { kind: 'flip'; at: number; char: string }
  | { kind: 'cut'; at: number }
  | { kind: 'insert-line'; at: number; key: string; value: string }
  | { kind: 'table'; header: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('flip' as const),
    at: fc.nat(),
    char: fc.constantFrom('[', ']', '=', '"', '\n', '#', '.', ' ', '\0', '\u202e', 'x', '{', ','),
  }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert-line' as const), at: fc.nat(), key: KEY, value: VALUE }),
  fc.record({
    kind: fc.constant('table' as const),
    header: fc.constantFrom(
      '[package]',
      '[[agents]]',
      '[[tools]]',
      '[[triggers]]',
      '[triggers.source]',
      '[[mcp_servers]]',
      '[pip]',
      '[agents.defaults.model.request]',
      '[[requires]]',
      '[unknown]',
    ),
  }),
);

function mutate(text: string, mutations: Mutation[]): string {
  let out = text;
  for (const m of mutations) {
    if (m.kind === 'table') {
      out += `\n${m.header}\n`;
      continue;
    }
    const at = out.length === 0 ? 0 : m.at % out.length;
    if (m.kind === 'flip') out = out.slice(0, at) + m.char + out.slice(at + 1);
    else if (m.kind === 'cut') out = out.slice(0, at);
    else {
      const lineStart = out.lastIndexOf('\n', at) + 1;
      out = `${out.slice(0, lineStart)}${m.key} = ${m.value}\n${out.slice(lineStart)}`;
    }
  }
  return out;
}

/** Whole random manifests built as data, then written as TOML: exercises the schema more than the parser. */
const randomManifest = fc.dictionary(
  fc.constantFrom('package', 'agents', 'tools', 'workflows', 'requires', 'mcp_servers', 'pip', 'triggers', 'extra'),
  fc.oneof(
    fc.dictionary(
      KEY,
      fc.oneof(
        fc.string({ maxLength: 12 }),
        fc.integer(),
        fc.boolean(),
        fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
      ),
    ),
    fc.array(
      fc.dictionary(
        KEY,
        fc.oneof(
          fc.string({ maxLength: 12 }),
          fc.boolean(),
          fc.dictionary(KEY, fc.string({ maxLength: 8 }), { maxKeys: 3 }),
        ),
      ),
      { maxLength: 3 },
    ),
  ),
  { maxKeys: 6 },
);

function expectAnswer(text: string): 'accepted' | 'refused' {
  const check = checkApolliaManifest(text, ARCHIVE);
  if (check.ok) {
    expect(check.errors).toEqual([]);
    return 'accepted';
  }
  expect(check.errors.length).toBeGreaterThan(0);
  for (const error of check.errors) {
    expect(typeof error.code).toBe('string');
    expect(error.code).toMatch(/^[a-z_]+(\.[a-z_]+)+$/);
    expect(error.message.length).toBeGreaterThan(0);
  }
  return 'refused';
}

describe('fuzz: apollia.toml', () => {
  it('answers every mutated manifest with acceptance or a coded refusal, never a throw', () => {
    const tally = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 6 }), (mutations) => {
        tally[expectAnswer(mutate(EXAMPLE, mutations))] += 1;
      }),
      { numRuns: RUNS, seed: SEED },
    );
    console.log(
      `fuzz apollia.toml (mutations): runs=${RUNS} accepted=${tally.accepted} refused=${tally.refused} crashes=0`,
    );
    expect(tally.accepted + tally.refused).toBe(RUNS);
    expect(tally.refused).toBeGreaterThan(0);
  });

  it('answers random whole manifests with acceptance or a coded refusal, never a throw', () => {
    const tally = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(randomManifest, (data) => {
        let text: string;
        try {
          text = stringify(data);
        } catch {
          return; // not representable as TOML: nothing to feed the checker
        }
        tally[expectAnswer(text)] += 1;
      }),
      { numRuns: RUNS, seed: SEED + 1 },
    );
    console.log(
      `fuzz apollia.toml (random tables): runs=${RUNS} accepted=${tally.accepted} refused=${tally.refused} crashes=0`,
    );
    expect(tally.refused).toBeGreaterThan(0);
  });
});
