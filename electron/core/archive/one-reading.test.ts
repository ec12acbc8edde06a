/**
 * One reading of every archive (DESIGN.md "Reading without running"): where libarchive
 * (bsdtar), GNU tar, Go or CPython would read an entry otherwise, the app refuses it, with its own
 * code and words saying what is wrong. Each class is built by editing headers (checksums
 * recomputed) and, where the readers installed here disagree, the test shows them disagreeing:
 * bsdtar, GNU tar and Python extract the archive and their trees differ. The classes only Go reads
 * otherwise say so (Go is not installed here; its test archives are in the peer test).
 *
 * A missing reader fails the witness tests under CI, and skips them elsewhere.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  fileEntry,
  fixChecksum,
  gnuLong,
  MANIFEST,
  manifestEntry,
  paxRaw,
  tarOf,
} from '../../../test/fixtures/archive/raw-tar';
import { inSandbox } from '../../../test/fixtures/archive/sandbox';
import {
  describeReadings,
  extractWith,
  hasReader,
  type Reading,
  TAR_READERS,
  type TarReader,
} from '../../../test/fixtures/archive/tar-readers';
import { packFolder, paxHeader, tarData, tarHeader } from '../../../test/helpers/pack';
import { MAX_METADATA_HEADERS_PER_ENTRY } from './limits';
import { readApoArchive } from './read-archive';
import { ARCHIVE_ERROR } from './refusal';
import type { ArchiveRead } from './types';

const work = mkdtempSync(join(tmpdir(), 'one-reading-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A header block with `edits` written over it (byte offset → bytes), its checksum recomputed. */
function edited(block: Buffer, edits: [number, string | Buffer][]): Buffer {
  const copy = Buffer.from(block);
  for (const [at, bytes] of edits) (typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes).copy(copy, at);
  return fixChecksum(copy);
}

/** A v7 header (no magic, type `\\0`), as `bsdtar --format v7` writes a folder. */
const v7Header = (name: string, size: number) =>
  edited(tarHeader({ name, size, typeflag: '\0' }), [[257, Buffer.alloc(8)]]);

const GNU_MAGIC: [number, string] = [257, 'ustar  \0'];

/** A regular file whose header is edited (e.g. into a GNU header with extra fields). */
function fileWith(name: string, body: string, edits: [number, string | Buffer][], typeflag = '0'): Buffer {
  const data = Buffer.from(body);
  return Buffer.concat([edited(tarHeader({ name, size: data.length, typeflag }), edits), tarData(data)]);
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

async function read(bytes: Buffer): Promise<ArchiveRead> {
  const { result, unchanged } = await inSandbox(bytes, (file) => readApoArchive(file));
  expect(unchanged).toBe(true);
  return result;
}

let counter = 0;
/** Each installed reader's extraction of `bytes`. */
function readings(bytes: Buffer): Record<TarReader, Reading> {
  const file = join(work, `case-${counter++}.tar`);
  writeFileSync(file, bytes);
  return Object.fromEntries(TAR_READERS.map((reader) => [reader, extractWith(reader, file, work)])) as Record<
    TarReader,
    Reading
  >;
}

/** Fails under CI when a reader is missing, else skips the test. */
function needReaders(skip: (note: string) => void): void {
  const absent = TAR_READERS.filter((reader) => !hasReader(reader));
  if (absent.length === 0) return;
  const note = `${absent.join(', ')} not installed`;
  if (process.env['CI']) throw new Error(`${note}: the witness tests need bsdtar, GNU tar and python3 under CI`);
  skip(note);
}

const same = (a: Reading, b: Reading) => a.ok === b.ok && JSON.stringify(a.tree) === JSON.stringify(b.tree);

interface Refusal {
  title: string;
  bytes: () => Buffer;
  code: string;
  message: string;
  /** Which installed readers read it otherwise than the others; `go` when only Go does (not installed here). */
  witness: 'readers' | 'go';
}

const manifest = () => manifestEntry();
const after = () => fileEntry('after.txt', 'read after it\n');
const gnuRealsize = () =>
  tarOf(manifest(), fileWith('notes.txt', 'fifteen bytes!\n', [GNU_MAGIC, [483, '00000000003\0']]), after());

/** Every class of entry mature readers read differently, and the two folder refusals that came with reading folders. */
const refusals: Refusal[] = [
  {
    title: '1. a GNU header with a realsize field on a regular entry',
    bytes: gnuRealsize,
    code: ARCHIVE_ERROR.ambiguousSize,
    message:
      "archive entry `notes.txt` (header at byte 1024) has a GNU realsize field (bytes 483–494 of its GNU header): libarchive (bsdtar) gives the file that size, GNU tar, Go and Python the size field's",
    witness: 'readers',
  },
  {
    title: '2. an old-GNU sparse map on a type 0 entry (files after it go missing in bsdtar)',
    bytes: () =>
      tarOf(
        manifest(),
        fileWith('notes.txt', 'fifteen bytes!\n', [
          GNU_MAGIC,
          [386, '00000000000\0'],
          [398, '00000000002\0'],
          [482, '\x01'],
        ]),
        after(),
      ),
    code: ARCHIVE_ERROR.ambiguousSize,
    message:
      'archive entry `notes.txt` (header at byte 1024) has an old GNU sparse map (bytes 386–482 of its GNU header) though it is not a sparse entry: libarchive (bsdtar) rebuilds the file from the map, GNU tar, Go and Python read the data as stored',
    witness: 'readers',
  },
  {
    title: '3. a PAX SCHILY.realsize',
    bytes: () =>
      tarOf(manifest(), paxRaw(record('SCHILY.realsize', '3')), fileEntry('notes.txt', 'fifteen bytes!\n'), after()),
    code: ARCHIVE_ERROR.ambiguousSize,
    message:
      'archive entry `notes.txt` has a PAX `SCHILY.realsize` ("3") beside its size of 15 bytes: libarchive (bsdtar) cuts or pads the file to it, GNU tar, Go and Python do not',
    witness: 'readers',
  },
  {
    title: '4. a PAX SUN.holesdata (a Solaris sparse map)',
    bytes: () =>
      tarOf(
        manifest(),
        paxRaw(record('SUN.holesdata', ' 0 5 10 5')),
        fileEntry('notes.txt', 'fifteen bytes!\n'),
        after(),
      ),
    code: ARCHIVE_ERROR.unsupportedType,
    message:
      "archive entry `notes.txt` is a sparse file (a file with holes): only plain files and folders are accepted; repack without sparse entries (GNU tar: drop `--sparse`; bsdtar: `--no-read-sparse`) or fill the file's holes first",
    witness: 'readers',
  },
  {
    title: '5. a GNU long name (L) followed by a PAX path',
    bytes: () =>
      tarOf(
        manifest(),
        gnuLong('tools/evil.py'),
        paxHeader({ path: 'docs/notes.md' }),
        fileEntry('docs/notes.md', 'x = 1\n'),
      ),
    code: ARCHIVE_ERROR.ambiguousName,
    message:
      'archive entry `tools/evil.py` is named twice, by a GNU long-name header (`L`) and by a PAX `path` (`docs/notes.md`): tar readers disagree on which applies (bsdtar and Python take the first of the two headers, GNU tar the PAX path, Go the long name)',
    witness: 'readers',
  },
  {
    title: '5b. a PAX path followed by a GNU long name (Go takes the long name, the others the PAX path)',
    bytes: () =>
      tarOf(
        manifest(),
        paxHeader({ path: 'docs/notes.md' }),
        gnuLong('tools/evil.py'),
        fileEntry('docs/notes.md', 'x = 1\n'),
      ),
    code: ARCHIVE_ERROR.ambiguousName,
    message:
      'archive entry `tools/evil.py` is named twice, by a GNU long-name header (`L`) and by a PAX `path` (`docs/notes.md`): tar readers disagree on which applies (bsdtar and Python take the first of the two headers, GNU tar the PAX path, Go the long name)',
    witness: 'go',
  },
  {
    title: '5c. a GNU long link (K) and a PAX linkpath on one entry',
    bytes: () => tarOf(manifest(), gnuLong('a', 'K'), paxHeader({ linkpath: 'b' }), fileEntry('notes.txt', 'x\n')),
    code: ARCHIVE_ERROR.ambiguousName,
    message:
      'archive entry `notes.txt` has two link targets, by a GNU long-link header (`K`: `a`) and by a PAX `linkpath` (`b`): tar readers disagree on which applies',
    witness: 'go',
  },
  {
    title: '6. two PAX x headers before one entry',
    bytes: () =>
      tarOf(
        manifest(),
        paxHeader({ path: 'first.txt' }),
        paxHeader({ path: 'second.txt' }),
        fileEntry('header.txt', 'x\n'),
      ),
    code: ARCHIVE_ERROR.repeatedMetadata,
    message:
      'the PAX (`x`) header at byte 2048 is the second one for the same entry: tar readers disagree on which applies (bsdtar and GNU tar take the last, Python the first)',
    witness: 'readers',
  },
  {
    title: '6b. two GNU long names (L) before one entry (libarchive warns "redundant")',
    bytes: () => tarOf(manifest(), gnuLong('first.txt'), gnuLong('second.txt'), fileEntry('header.txt', 'x\n')),
    code: ARCHIVE_ERROR.repeatedMetadata,
    message:
      'the GNU long-name (`L`) header at byte 2048 is the second one for the same entry: tar readers disagree on which applies (bsdtar and GNU tar take the last, Python the first)',
    witness: 'readers',
  },
  {
    title: '7. PAX data padded with NULs after its records',
    bytes: () =>
      tarOf(
        manifest(),
        paxRaw(Buffer.concat([record('path', 'padded.txt'), Buffer.alloc(20)])),
        fileEntry('header.txt', 'x\n'),
      ),
    code: ARCHIVE_ERROR.corruptPax,
    message:
      'the PAX header at byte 1024 is malformed: NUL bytes follow its records (from byte 19 of its data): libarchive (bsdtar) ignores such a header, other readers apply it',
    witness: 'readers',
  },
  {
    title: '8. a NUL in a PAX key',
    bytes: () =>
      tarOf(
        manifest(),
        paxRaw(Buffer.concat([record(Buffer.from('pa\0th'), 'nul-key.txt'), record('path', 'real.txt')])),
        fileEntry('header.txt', 'x\n'),
      ),
    code: ARCHIVE_ERROR.corruptPax,
    message:
      "the PAX header at byte 1024 is malformed: a record's key holds a NUL byte: Go refuses such a header, libarchive (bsdtar) ignores it, Python applies it",
    witness: 'readers',
  },
  {
    title: '8b. a NUL in a PAX uname (Go refuses the header)',
    bytes: () => tarOf(manifest(), paxRaw(record('uname', 'a\0b')), fileEntry('header.txt', 'x\n')),
    code: ARCHIVE_ERROR.corruptPax,
    message:
      'the PAX header at byte 1024 is malformed: the value of `uname` holds a NUL byte: Go refuses such a header',
    witness: 'go',
  },
  {
    title: `9. more than ${MAX_METADATA_HEADERS_PER_ENTRY} metadata headers before one entry (33: bsdtar stops at 32)`,
    bytes: () =>
      tarOf(
        manifest(),
        ...Array.from({ length: 33 }, () => paxHeader({ comment: 'x' }, 'g')),
        fileEntry('header.txt', 'x\n'),
      ),
    code: ARCHIVE_ERROR.repeatedMetadata,
    message: `the archive has more than ${MAX_METADATA_HEADERS_PER_ENTRY} metadata headers (PAX, GNU long name) in a row (the last at byte 5120): bsdtar stops reading after 32, and no writer needs more than one of each kind per entry`,
    witness: 'readers',
  },
  {
    title: '10. a ustar magic followed by neither NUL nor two spaces, with a prefix',
    bytes: () =>
      tarOf(
        manifest(),
        fileWith('notes.txt', 'x\n', [
          [257, 'ustarX\0\0'],
          [345, 'tools'],
        ]),
        after(),
      ),
    code: ARCHIVE_ERROR.ambiguousName,
    message:
      "archive entry `notes.txt` (header at byte 1024) has the magic `ustarX\\0\\0` (neither POSIX's `ustar\\0` nor GNU's `ustar  \\0`) and a prefix field: libarchive (bsdtar) and Python put the prefix before its name, GNU tar and Go do not",
    witness: 'readers',
  },
  {
    title: "10b. a GNU header with an atime (Python's tarfile reads it as a prefix; Go's invalid-go17)",
    bytes: () => tarOf(manifest(), fileWith('notes.txt', 'x\n', [GNU_MAGIC, [345, '14712345670\0']]), after()),
    code: ARCHIVE_ERROR.ambiguousName,
    message:
      "archive entry `notes.txt` (header at byte 1024) has bytes in the atime field of its GNU header (from byte 345): Python's tarfile reads them as a name prefix, libarchive, GNU tar and Go do not",
    witness: 'readers',
  },
  {
    title: '10c. a v7 header (no magic) with bytes in the prefix field',
    bytes: () =>
      tarOf(
        manifest(),
        fileWith('notes.txt', 'x\n', [
          [257, Buffer.alloc(8)],
          [345, 'tools'],
        ]),
        after(),
      ),
    code: ARCHIVE_ERROR.ambiguousName,
    message:
      "archive entry `notes.txt` (header at byte 1024) has no `ustar` magic (a v7 header) but bytes where ustar keeps its prefix (from byte 345): Python's tarfile puts them before its name, libarchive, GNU tar and Go do not",
    witness: 'readers',
  },
  {
    title: '10d. a star header (`tar\\0` at 508) with a prefix of more than 130 bytes (Go reads 131)',
    bytes: () =>
      tarOf(
        manifest(),
        fileWith('notes.txt', 'x\n', [
          [345, 'p'.repeat(140)],
          [508, 'tar\0'],
        ]),
      ),
    code: ARCHIVE_ERROR.ambiguousName,
    message: `archive entry \`${'p'.repeat(120)}…\` (150 bytes) (header at byte 1024) has a prefix field of more than 130 bytes in a header marked as star's (\`tar\\0\` at byte 508): Go reads only 131 bytes of it, the other readers up to 155`,
    witness: 'go',
  },
  {
    title:
      'an unreadable uid field (found by the differential fuzzer: bsdtar cannot open an archive that starts with one)',
    bytes: () => tarOf(fileWith('apollia.toml', MANIFEST, [[108, '000000\x1d\0']]), after()),
    code: ARCHIVE_ERROR.corruptHeader,
    message:
      'the tar header at byte 0 (entry `apollia.toml`) has an unreadable uid field: Go and Python refuse such a header, and bsdtar cannot open an archive that starts with one',
    witness: 'readers',
  },
  {
    title: 'a folder with a PAX size (bsdtar reads that many bytes after it as data)',
    bytes: () =>
      tarOf(manifest(), paxHeader({ size: '600' }), tarHeader({ name: 'docs/', size: 600, typeflag: '5' }), after()),
    code: ARCHIVE_ERROR.ambiguousSize,
    message:
      'archive entry `docs/` is a folder with a PAX size of 600 bytes: libarchive (bsdtar) reads that many bytes of data after it, GNU tar, Go and Python none',
    witness: 'readers',
  },
  {
    title: 'a v7 folder with a size followed by more entries (GNU tar skips the size)',
    bytes: () => tarOf(manifest(), v7Header('docs/', 1), after()),
    code: ARCHIVE_ERROR.ambiguousSize,
    message:
      'archive entry `docs/` is an old-style (v7) folder that declares 1 bytes of data and more entries follow it: GNU tar skips that many bytes after the folder, libarchive, Go and Python read the next header there; write folders with type 5 and size 0',
    witness: 'readers',
  },
  {
    title: 'a v7 folder as last entry declaring more bytes than the zeros after it',
    bytes: () => tarOf(manifest(), v7Header('docs/', 5000)),
    code: ARCHIVE_ERROR.ambiguousSize,
    message:
      'archive entry `docs/` is an old-style (v7) folder that declares 5000 bytes of data, more than the zero bytes after it: GNU tar reads that many bytes after the folder and finds the archive cut short, libarchive, Go and Python read none',
    witness: 'readers',
  },
  {
    title: 'a type 0 entry named with a trailing / (Python and Go: a file; bsdtar and GNU tar: a folder)',
    bytes: () => tarOf(manifest(), tarHeader({ name: 'docs/', size: 0, typeflag: '0' }), fileEntry('docs/a.md', 'a\n')),
    code: ARCHIVE_ERROR.badPath,
    message:
      'archive entry `docs/` ends with `/` but has the regular-file type `0`: libarchive (bsdtar) and GNU tar read a folder, Python and Go an empty file; write folders with type 5',
    witness: 'readers',
  },
  {
    title: 'a v7 folder mark only in the header, not in the PAX path',
    bytes: () => tarOf(manifest(), paxHeader({ path: 'docs' }), tarHeader({ name: 'docs/', size: 0, typeflag: '\0' })),
    code: ARCHIVE_ERROR.ambiguousName,
    message:
      "archive entry `docs` ends with `/` in its header but not in its PAX path or GNU long name: Python reads the header's name to tell a folder from a file, the other readers the final name",
    witness: 'readers',
  },
];

describe('entries mature readers read differently are refused', () => {
  it.each(refusals)('$title → $code', async ({ bytes, code, message }) => {
    const result = await read(bytes());
    expect(result.ok === false && result.error).toMatchObject({ code, message });
  });

  it('accepted the same archives before these refusals only because they are built to be valid otherwise: each minus its hostile header is accepted', async () => {
    // The control: the same package and `after.txt` with no edited header.
    const result = await read(tarOf(manifest(), fileEntry('notes.txt', 'fifteen bytes!\n'), after()));
    expect(result.ok && result.files.map((f) => f.path)).toEqual(['apollia.toml', 'notes.txt', 'after.txt']);
  });

  it.for(refusals.filter((c) => c.witness === 'readers'))(
    '$title: bsdtar, GNU tar and Python do not all read it the same',
    (c, context) => {
      needReaders((note) => context.skip(note));
      const seen = readings(c.bytes());
      const agree = same(seen.bsdtar, seen.gnutar) && same(seen.gnutar, seen.python);
      expect(agree, `all three read it alike:\n${describeReadings(seen)}`).toBe(false);
    },
  );

  it('the witness is not trivially "different": the three read a valid package alike', (context) => {
    needReaders((note) => context.skip(note));
    const seen = readings(tarOf(manifest(), fileEntry('notes.txt', 'fifteen bytes!\n'), after()));
    expect(same(seen.bsdtar, seen.gnutar) && same(seen.gnutar, seen.python), describeReadings(seen)).toBe(true);
    expect(seen.bsdtar.ok).toBe(true);
  });
});

/** What the app reads: `path size` per file and `path/` per folder, as `treeOf` describes an extraction. */
function appNames(result: ArchiveRead): string[] {
  if (!result.ok) throw new Error(`refused: ${result.error.code}: ${result.error.message}`);
  return [...result.dirs.map((d) => `${d}/`), ...result.files.map((f) => `${f.path} ${f.size}`)].sort();
}

describe('folders are read as all readers read them: no data follows a folder', () => {
  const folderCases: { title: string; bytes: () => Buffer; expected: string[] }[] = [
    {
      title: 'a type 5 folder with a size field of 255, entries after it',
      bytes: () =>
        tarOf(
          manifest(),
          tarHeader({ name: 'docs/', size: 255, typeflag: '5' }),
          fileEntry('docs/a.md', 'a\n'),
          after(),
        ),
      expected: ['after.txt 14', 'apollia.toml 82', 'docs/', 'docs/a.md 2'],
    },
    {
      title: 'a v7 folder (type \\0) with a size of 1 as the last entry (libarchive test_compat_tar_directory_1)',
      bytes: () => tarOf(manifest(), fileEntry('directory1/a.md', 'a\n'), v7Header('directory1/', 1)),
      expected: ['apollia.toml 82', 'directory1/', 'directory1/a.md 2'],
    },
  ];

  it.each(folderCases)('$title: accepted, read as a folder', async ({ bytes, expected }) => {
    expect(appNames(await read(bytes()))).toEqual(expected);
  });

  it.for(folderCases)('$title: bsdtar, GNU tar and Python extract the same files', ({ bytes, expected }, context) => {
    needReaders((note) => context.skip(note));
    const seen = readings(bytes());
    for (const reader of TAR_READERS) {
      expect(seen[reader].ok, `${reader}\n${describeReadings(seen)}`).toBe(true);
      expect(
        seen[reader].tree.map((line) => line.split(' ').slice(0, 2).join(' ')),
        reader,
      ).toEqual(expected);
    }
  });

  it('a valid package from the app`s own writer still reads alike everywhere', (context) => {
    needReaders((note) => context.skip(note));
    const seen = readings(
      packFolder(new URL('../../../test/fixtures/apo/invoices', import.meta.url).pathname, { gzip: false }),
    );
    expect(same(seen.bsdtar, seen.gnutar) && same(seen.gnutar, seen.python), describeReadings(seen)).toBe(true);
  });
});
