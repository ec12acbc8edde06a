/**
 * Differential fuzzing against bsdtar: valid packages written by GNU tar, bsdtar,
 * Python's tarfile and node-tar, mutated structure-aware (type flags, magic variants, the bytes
 * 345–511 that ustar, GNU and star use differently, sizes, folder marks, inserted PAX/GNU metadata
 * headers, duplicated or dropped entries), checksums recomputed. Every archive the app accepts
 * must be extracted by `bsdtar -xf` (without an error, listed as well) to exactly the files, sizes
 * and bytes the app installs. Seeded (fast-check); `DIFF_RUNS` cases (default 300; `npm run fuzz`
 * runs a tenth of `FUZZ_RUNS`, 2,000).
 *
 * bsdtar, GNU tar and python3 make the seeds; without them the test fails under CI and is skipped
 * elsewhere.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixChecksum } from '../../../test/fixtures/archive/raw-tar';
import {
  appReading,
  extractWith,
  hasReader,
  packageView,
  TAR_READERS,
} from '../../../test/fixtures/archive/tar-readers';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { BLOCK, hasValidChecksum, isZeroBlock, parseNumeric } from './tar-header';

const RUNS = Number(
  process.env['DIFF_RUNS'] ?? (process.env['FUZZ_RUNS'] ? Math.ceil(Number(process.env['FUZZ_RUNS']) / 10) : 300),
);
const SEED = Number(process.env['FUZZ_SEED'] ?? 20_260_301);

const work = mkdtempSync(join(tmpdir(), 'differential-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** One header and the data blocks after it, as the seed's writer laid them out. */
interface Segment {
  header: Buffer;
  data: Buffer;
}

/** A valid archive cut into segments (every header followed by its padded data), and its end. */
function segmentsOf(tar: Buffer): { segments: Segment[]; end: Buffer } {
  const segments: Segment[] = [];
  let pos = 0;
  while (pos + BLOCK <= tar.length) {
    const header = tar.subarray(pos, pos + BLOCK);
    if (isZeroBlock(header)) break;
    if (!hasValidChecksum(header)) throw new Error(`seed has a bad header at ${pos}`);
    const size = parseNumeric(header.subarray(124, 136)) ?? 0;
    const flag = String.fromCharCode(header[156]!);
    const dataBytes = flag === '5' ? 0 : Math.ceil(size / BLOCK) * BLOCK;
    segments.push({
      header: Buffer.from(header),
      data: Buffer.from(tar.subarray(pos + BLOCK, pos + BLOCK + dataBytes)),
    });
    pos += BLOCK + dataBytes;
  }
  return { segments, end: Buffer.from(tar.subarray(pos)) };
}

/** A PAX record, its length computed. */
function record(key: string | Buffer, value: string | Buffer): Buffer {
  const body = Buffer.concat([
    Buffer.from(' '),
    Buffer.from(key),
    Buffer.from('='),
    Buffer.from(value),
    Buffer.from('\n'),
  ]);
  let length = body.length + 1;
  while (String(length).length + body.length !== length) length = String(length).length + body.length;
  return Buffer.concat([Buffer.from(String(length)), body]);
}

function metaHeader(
  typeflag: 'x' | 'g' | 'L' | 'K',
  body: Buffer,
  gnu = typeflag === 'L' || typeflag === 'K',
): Segment {
  const header = Buffer.alloc(BLOCK);
  header.write(typeflag === 'L' || typeflag === 'K' ? '././@LongLink' : 'PaxHeader/x', 0, 'latin1');
  header.write('0000644\0', 100, 'latin1');
  header.write('0000000\0', 108, 'latin1');
  header.write('0000000\0', 116, 'latin1');
  header.write(`${body.length.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
  header.write('00000000000\0', 136, 'latin1');
  header.write(typeflag, 156, 'latin1');
  header.write(gnu ? 'ustar  \0' : 'ustar\x0000', 257, 'latin1');
  const data = Buffer.alloc(Math.ceil(body.length / BLOCK) * BLOCK);
  body.copy(data);
  return { header: fixChecksum(header), data };
}

/** Metadata headers to insert before an entry: ordinary ones and each kind mature readers read differently. */
const INSERTS: (() => Segment)[] = [
  () => metaHeader('x', record('path', 'tools/evil.py')),
  () => metaHeader('x', record('path', 'docs/')),
  () => metaHeader('x', record('mtime', '1700000000.5')),
  () => metaHeader('x', record('size', '3')),
  () => metaHeader('x', record('size', '0')),
  () => metaHeader('x', record('SCHILY.realsize', '3')),
  () => metaHeader('x', record('SUN.holesdata', ' 0 2')),
  () => metaHeader('x', record('GNU.sparse.size', '3')),
  () => metaHeader('x', Buffer.concat([record('path', 'padded.txt'), Buffer.alloc(9)])),
  () => metaHeader('x', record(Buffer.from('pa\0th'), 'nul.txt')),
  () => metaHeader('x', record('SCHILY.xattr.user.a', Buffer.from([0, 1, 255]))),
  () => metaHeader('x', record('linkpath', 'elsewhere')),
  () => metaHeader('g', record('comment', 'a global comment')),
  () => metaHeader('g', record('path', 'global.txt')),
  () => metaHeader('L', Buffer.from('tools/long-name.py\0')),
  () => metaHeader('L', Buffer.from('docs/\0')),
  () => metaHeader('K', Buffer.from('target\0')),
  () => metaHeader('x', Buffer.alloc(0)),
];

const TYPEFLAGS = ['0', '\0', '5', '7', 'x', 'g', 'L', 'K', 'S', 'V', '1', '2', 'D', 'A', 'X'];
const MAGICS = ['ustar\x0000', 'ustar  \0', 'ustarX\0\0', 'ustar \x0000', '\0\0\0\0\0\0\0\0', 'ustar\0  '];
/** Byte offsets in 345–511 that ustar (prefix), GNU (atime, sparse map, isextended, realsize) and star use. */
const FIELD_AT = [345, 357, 386, 398, 410, 470, 476, 482, 483, 488, 500, 508];
const FIELD_BYTES = ['00000000003\0', '00000000001', 'tools\0', 'a', '\x01', 'tar\0', '0', 'p'.repeat(140)];

type Mutation =
  | { kind: 'type'; at: number; value: number }
  | { kind: 'magic'; at: number; value: number }
  | { kind: 'field'; at: number; offset: number; value: number }
  | { kind: 'size'; at: number; value: number }
  | { kind: 'slash'; at: number }
  | { kind: 'insert'; at: number; value: number }
  | { kind: 'duplicate'; at: number }
  | { kind: 'drop'; at: number }
  | { kind: 'flip'; at: number; offset: number; xor: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('type' as const), at: fc.nat(), value: fc.nat(TYPEFLAGS.length - 1) }),
  fc.record({ kind: fc.constant('magic' as const), at: fc.nat(), value: fc.nat(MAGICS.length - 1) }),
  fc.record({
    kind: fc.constant('field' as const),
    at: fc.nat(),
    offset: fc.nat(FIELD_AT.length - 1),
    value: fc.nat(FIELD_BYTES.length - 1),
  }),
  fc.record({
    kind: fc.constant('size' as const),
    at: fc.nat(),
    value: fc.constantFrom(0, 1, 3, 255, 511, 512, 513, 1024),
  }),
  fc.record({ kind: fc.constant('slash' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), value: fc.nat(INSERTS.length - 1) }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('flip' as const),
    at: fc.nat(),
    offset: fc.nat(BLOCK - 1),
    xor: fc.integer({ min: 1, max: 255 }),
  }),
);

/** Applies the mutations to a copy of the seed's segments; edited headers get their checksum recomputed. */
function mutate(seed: { segments: Segment[]; end: Buffer }, mutations: Mutation[]): Buffer {
  const segments: Segment[] = seed.segments.map((s) => ({ header: Buffer.from(s.header), data: s.data }));
  for (const m of mutations) {
    if (segments.length === 0) break;
    const i = m.at % segments.length;
    const target = segments[i]!;
    const header = target.header;
    switch (m.kind) {
      case 'type':
        header.write(TYPEFLAGS[m.value]!, 156, 'latin1');
        break;
      case 'magic':
        header.write(MAGICS[m.value]!, 257, 'latin1');
        break;
      case 'field': {
        const at = FIELD_AT[m.offset]!;
        const bytes = Buffer.from(FIELD_BYTES[m.value]!, 'latin1');
        bytes.copy(header, at, 0, Math.min(bytes.length, BLOCK - at));
        break;
      }
      case 'size':
        header.write(`${m.value.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
        break;
      case 'slash': {
        const nul = header.indexOf(0);
        const end = nul === -1 || nul > 99 ? 99 : nul;
        if (end > 0 && header[end - 1] === 0x2f) header[end - 1] = 0;
        else header[end] = 0x2f;
        break;
      }
      case 'insert':
        segments.splice(i, 0, INSERTS[m.value]!());
        break;
      case 'duplicate':
        segments.splice(i, 0, { header: Buffer.from(header), data: target.data });
        break;
      case 'drop':
        segments.splice(i, 1);
        break;
      case 'flip':
        if (m.offset < 148 || m.offset >= 156) header[m.offset]! ^= m.xor;
        break;
    }
    fixChecksum(header);
  }
  return Buffer.concat([...segments.flatMap((s) => [s.header, s.data]), seed.end]);
}

const seeds: { name: string; segments: Segment[]; end: Buffer }[] = [];

beforeAll(() => {
  if (TAR_READERS.some((reader) => !hasReader(reader))) return;
  const src = join(work, 'mailroom');
  cpSync(INVOICES_DIR, src, { recursive: true });
  mkdirSync(
    join(src, 'docs', 'a-folder-whose-name-is-long-enough-to-need-more-than-one-hundred-bytes-in-the-archive'),
    { recursive: true },
  );
  writeFileSync(
    join(
      src,
      'docs',
      'a-folder-whose-name-is-long-enough-to-need-more-than-one-hundred-bytes-in-the-archive',
      'notes.md',
    ),
    'long\n',
  );
  const run = (command: string, args: string[]) =>
    execFileSync(command, args, { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
  const made: [string, () => Buffer][] = [
    ...['gnu', 'oldgnu', 'pax', 'ustar'].map((format): [string, () => Buffer] => [
      `GNU tar --format=${format}`,
      () => run('tar', [`--format=${format}`, '-cf', '-', '-C', src, '.']),
    ]),
    ...['pax', 'ustar', 'gnutar'].map((format): [string, () => Buffer] => [
      `bsdtar --format ${format}`,
      () => run('bsdtar', ['--format', format, '-cf', '-', '-C', work, 'mailroom']),
    ]),
    ...['GNU', 'PAX', 'USTAR'].map((format): [string, () => Buffer] => [
      `Python tarfile ${format}_FORMAT`,
      () => {
        const file = join(work, `py-${format}.tar`);
        run('python3', [
          '-c',
          `import sys, tarfile\nwith tarfile.open(sys.argv[1], 'w', format=tarfile.${format}_FORMAT) as t: t.add(sys.argv[2], arcname='mailroom')`,
          file,
          src,
        ]);
        return readFileSync(file);
      },
    ]),
    ['node-tar (apollia-desktop pack)', () => packFolder(src, { gzip: false })],
  ];
  for (const [name, make] of made) seeds.push({ name, ...segmentsOf(make()) });
}, 60_000);

describe('differential fuzzing against bsdtar', () => {
  it(
    `every accepted mutation of ${RUNS} extracts with bsdtar to the same files, sizes and bytes`,
    async (context) => {
      const absent = TAR_READERS.filter((reader) => !hasReader(reader));
      if (absent.length > 0) {
        if (process.env['CI'])
          throw new Error(`${absent.join(', ')} not installed: the differential test needs them under CI`);
        context.skip(`${absent.join(', ')} not installed`);
      }
      expect(seeds.length).toBe(11);
      // Every seed is itself accepted and read alike.
      for (const seed of seeds) {
        const file = join(work, 'seed.tar');
        writeFileSync(file, mutate(seed, []));
        const app = await appReading(file, work);
        expect(app.ok, seed.name).toBe(true);
      }
      let accepted = 0;
      let refused = 0;
      let index = 0;
      try {
        await fc.assert(
          fc.asyncProperty(
            fc.nat(seeds.length - 1),
            fc.array(mutation, { minLength: 1, maxLength: 3 }),
            async (seedIndex, mutations) => {
              const seed = seeds[seedIndex]!;
              const file = join(work, `case-${index++ % 4}.tar`);
              writeFileSync(file, mutate(seed, mutations));
              const app = await appReading(file, work);
              if (!app.ok) {
                refused++;
                expect(app.code).toMatch(/^archive\.[a-z0-9_]+$/);
                return;
              }
              accepted++;
              const bsd = extractWith('bsdtar', file, work);
              expect(
                { ok: bsd.ok, tree: packageView(bsd.tree, app.skipped) },
                `${seed.name}: ${JSON.stringify(mutations)}`,
              ).toEqual({ ok: true, tree: app.tree });
            },
          ),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        );
      } finally {
        console.log(`differential fuzz: runs=${RUNS} accepted=${accepted} refused=${refused}`);
      }
    },
    Math.max(120_000, RUNS * 400),
  );
});
