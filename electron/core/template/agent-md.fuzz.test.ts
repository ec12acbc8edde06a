import fc from 'fast-check';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { checkAgentMd } from './agent-md';
import { agentMd, validManifest } from '../../../test/helpers/template-folders';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20260506);
const CTX = {
  folderName: 'digest',
  files: new Map([['out.schema.json', new TextEncoder().encode('{"type":"object"}')]]),
};
const VALID = agentMd(validManifest());

/** Any YAML-able value, including the awkward ones (huge numbers, placeholders, nested lists). */
const anyValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.constantFrom(
      '${parameters.channel}',
      '${parameters.',
      '${parameters.nope}',
      '0 8 * * 1',
      '*',
      'C0123ABCD',
      '2027-02-30T09:00:00Z',
      'schedule',
      'webhook',
      'at',
      'start_run',
      '__proto__',
    ),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(fc.string(), fc.constantFrom('type', 'name', 'cron', 'pin', 'default', '__proto__', 'constructor')),
      tie('value'),
      { maxKeys: 4 },
    ),
  ),
})).value;

/** A path into the manifest: a list of keys and indexes picked from the valid manifest's shape. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const here = [prefix];
  if (Array.isArray(value)) return here.concat(...value.map((item, i) => pathsOf(item, [...prefix, i])));
  if (value && typeof value === 'object')
    return here.concat(...Object.entries(value).map(([k, v]) => pathsOf(v, [...prefix, k])));
  return here;
}
const PATHS = pathsOf(validManifest()).filter((p) => p.length > 0);

function setAt(root: Record<string, unknown>, path: (string | number)[], value: unknown, remove: boolean): void {
  let node: any = root; // eslint-disable-line @typescript-eslint/no-explicit-any
  for (const key of path.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return;
    node = node[key];
  }
  if (node === null || typeof node !== 'object') return;
  const last = path[path.length - 1] as string | number;
  if (remove) delete node[last];
  else node[last] = value;
}

type Mutation =
  | { kind: 'set'; path: number; value: unknown }
  | { kind: 'remove'; path: number }
  | { kind: 'add'; key: string; value: unknown }
  | { kind: 'cut'; at: number }
  | { kind: 'flip'; at: number; byte: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), path: fc.nat(PATHS.length - 1), value: anyValue }),
  fc.record({ kind: fc.constant('remove' as const), path: fc.nat(PATHS.length - 1) }),
  fc.record({ kind: fc.constant('add' as const), key: fc.string({ maxLength: 12 }), value: anyValue }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat(VALID.length) }),
  fc.record({
    kind: fc.constant('flip' as const),
    at: fc.nat(VALID.length - 1),
    byte: fc.integer({ min: 0, max: 255 }),
  }),
);

function apply(mutations: Mutation[]): string {
  const manifest = validManifest();
  let text: string | null = null;
  for (const m of mutations) {
    if (m.kind === 'set') setAt(manifest, PATHS[m.path] ?? [], m.value, false);
    else if (m.kind === 'remove') setAt(manifest, PATHS[m.path] ?? [], undefined, true);
    else if (m.kind === 'add') manifest[m.key] = m.value;
    else {
      const base: string = text ?? agentMd(manifest);
      if (m.kind === 'cut') text = base.slice(0, m.at);
      else {
        const bytes = new TextEncoder().encode(base);
        if (bytes.length > 0) bytes[m.at % bytes.length] = m.byte;
        text = new TextDecoder().decode(bytes);
      }
    }
  }
  if (text !== null) return text;
  try {
    return `---\n${YAML.stringify(manifest)}---\nBody for \${parameters.channel}\n`;
  } catch {
    return agentMd(validManifest());
  }
}

describe('fuzz: agent.md front matter', () => {
  it(
    'random mutations are accepted or refused with an error, never a throw',
    () => {
      let accepted = 0;
      let refused = 0;
      let crashes = 0;
      const check = (text: string) => {
        try {
          return checkAgentMd(text, CTX);
        } catch (error) {
          crashes += 1;
          throw error;
        }
      };
      try {
        fc.assert(
          fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (mutations) => {
            const text = apply(mutations);
            const result = check(text);
            if (result.manifest) {
              expect(result.errors).toEqual([]);
              accepted += 1;
            } else {
              expect(result.errors.length).toBeGreaterThan(0);
              for (const error of result.errors) {
                expect(error.code).toMatch(/^template\.[a-z_]+$/);
                expect(error.message.length).toBeGreaterThan(0);
              }
              refused += 1;
            }
          }),
          { numRuns: RUNS, seed: SEED },
        );
      } finally {
        console.log(`fuzz agent.md: runs=${RUNS} accepted=${accepted} refused=${refused} crashes=${crashes}`);
      }
      expect(crashes).toBe(0);
      expect(accepted + refused).toBe(RUNS);
      expect(refused).toBeGreaterThan(0);
    },
    Math.max(30_000, RUNS * 100),
  );
});
