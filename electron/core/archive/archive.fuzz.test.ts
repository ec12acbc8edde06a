/**
 * Fuzzing the archive reader (fast-check, seeded): valid packages mutated by flipped bytes, cut
 * lengths and inserted garbage, plain and gzip'd, before or after compression. Whatever comes in,
 * the answer is `{ ok: true }` or `{ ok: false, error: { code, message } }`: never a throw, never a
 * hang, never a write. Runs: `FUZZ_RUNS` (default 300; `npm run fuzz` uses 20,000).
 */
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTar, INVOICES_DIR, packFolder, paxHeader } from '../../../test/helpers/pack';
import { gnuLong, MANIFEST, tarOf } from '../../../test/fixtures/archive/raw-tar';
import { freshDir, listing } from '../../../test/fixtures/archive/sandbox';
import { readApoArchive } from './index';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_101);

const plainSeeds: Buffer[] = [
  packFolder(INVOICES_DIR, { gzip: false }),
  packFolder(INVOICES_DIR, { gzip: false, prefix: 'invoices/' }),
  tarOf(
    buildTar([{ name: 'apollia.toml', body: MANIFEST }], { end: false }),
    paxHeader({ path: `docs/${'p'.repeat(140)}.md`, mtime: '1700000000.5' }),
    buildTar([{ name: 'short', body: 'pax body' }], { end: false }),
    gnuLong(`data/${'g'.repeat(130)}.csv`),
    buildTar(
      [
        { name: 'short2', body: 'a,b\n1,2\n' },
        { name: 'bin/', type: 'dir' },
        { name: 'bin/run', body: '#!/bin/sh\n', mode: 0o4755 },
      ],
      { end: false },
    ),
  ),
];

type Mutation =
  | { kind: 'flip'; at: number; xor: number }
  | { kind: 'cut'; at: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'set'; at: number; byte: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), xor: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 600 }),
  }),
  fc.record({
    kind: fc.constant('set' as const),
    at: fc.nat(),
    byte: fc.constantFrom(0, 0x2f, 0x2e, 0x30, 0x32, 0x35, 0x37, 0x78, 0x67, 0x4c, 0xff),
  }),
);

function mutate(input: Buffer, mutations: Mutation[]): Buffer {
  let bytes = Buffer.from(input);
  for (const m of mutations) {
    if (bytes.length === 0) break;
    const at = m.at % bytes.length;
    if (m.kind === 'flip') bytes[at]! ^= m.xor;
    else if (m.kind === 'set') bytes[at] = m.byte;
    else if (m.kind === 'cut') bytes = bytes.subarray(0, at);
    else bytes = Buffer.concat([bytes.subarray(0, at), m.bytes, bytes.subarray(at)]);
  }
  return bytes;
}

const dir = freshDir('fuzz');
const cwd = freshDir('fuzz-cwd');
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

describe('archive fuzzing', () => {
  it(
    `answers a value for ${RUNS} mutated archives, never throwing or writing`,
    async () => {
      let accepted = 0;
      let refused = 0;
      let crashes = 0;
      let index = 0;
      const previous = process.cwd();
      process.chdir(cwd);
      try {
        await fc.assert(
          fc.asyncProperty(
            fc.nat({ max: plainSeeds.length - 1 }),
            fc.constantFrom('plain', 'gzip-before', 'gzip-after'),
            fc.array(mutation, { minLength: 1, maxLength: 4 }),
            async (seedIndex, layer, mutations) => {
              const seed = plainSeeds[seedIndex]!;
              const bytes =
                layer === 'plain'
                  ? mutate(seed, mutations)
                  : layer === 'gzip-before'
                    ? gzipSync(mutate(seed, mutations))
                    : mutate(gzipSync(seed), mutations);
              const file = join(dir, `case-${index++ % 8}.apo`);
              writeFileSync(file, bytes);
              const before = listing(dir);
              let result: Awaited<ReturnType<typeof readApoArchive>>;
              try {
                result = await readApoArchive(file);
              } catch (error) {
                crashes++;
                throw error;
              }
              if (result.ok) {
                accepted++;
                expect(result.sha256).toMatch(/^[0-9a-f]{64}$/);
              } else {
                refused++;
                expect(result.error.code).toMatch(/^archive\.[a-z0-9_]+$/);
                expect(typeof result.error.message).toBe('string');
                expect(result.error.message.length).toBeGreaterThan(0);
              }
              expect(listing(dir)).toEqual(before);
              expect(readdirSync(cwd)).toEqual([]);
            },
          ),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        );
      } finally {
        process.chdir(previous);
        console.log(`fuzz archive: runs=${RUNS} accepted=${accepted} refused=${refused} crashes=${crashes}`);
      }
      expect(accepted + refused).toBe(RUNS);
    },
    Math.max(30_000, RUNS * 50),
  );
});
