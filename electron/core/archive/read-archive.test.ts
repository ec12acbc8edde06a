/**
 * `readApoArchive` against DESIGN.md "Reading without running": the spec's example is accepted,
 * and every refused input gets its own code and a message naming the entry, with nothing written.
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  buildTar,
  INVOICES_DIR,
  packFiles,
  packFolder,
  paxHeader,
  TAR_END,
  tarData,
  tarHeader,
} from '../../../test/helpers/pack';
import {
  fileEntry,
  fixChecksum,
  gnuLong,
  manifestEntry,
  MANIFEST,
  paxRaw,
  rawNameHeader,
  tarOf,
} from '../../../test/fixtures/archive/raw-tar';
import { inSandbox } from '../../../test/fixtures/archive/sandbox';
import { ARCHIVE_ERROR, readApoArchive, type ArchiveLimits, type ArchiveRead } from './index';

async function read(bytes: Buffer, limits?: Partial<ArchiveLimits>): Promise<ArchiveRead> {
  const { result, unchanged } = await inSandbox(bytes, (file) => readApoArchive(file, limits ? { limits } : {}));
  expect(unchanged, 'reading must write nothing').toBe(true);
  return result;
}

async function refused(bytes: Buffer, code: string, limits?: Partial<ArchiveLimits>) {
  const result = await read(bytes, limits);
  if (result.ok) throw new Error(`expected ${code}, but the archive was accepted`);
  expect(result.error.code).toBe(code);
  expect(result.sha256).toBeNull();
  return result.error;
}

/** The manifest, then `parts`, then the end blocks: a package with one hostile entry. */
const withManifest = (...parts: Buffer[]) => tarOf(manifestEntry(), ...parts);

describe('archives real tools write', () => {
  const ok = async (bytes: Buffer) => {
    const result = await read(bytes);
    if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
    return result;
  };

  it('accepts zero padding after the gzip stream (bsdtar pads its stdout to 10240 bytes)', async () => {
    const result = await ok(Buffer.concat([packFolder(INVOICES_DIR), Buffer.alloc(9534)]));
    expect(result.files.map((file) => file.path)).toEqual([
      'apollia.toml',
      'tools/extract.py',
      'workflows/reminders.py',
    ]);
  });

  it('accepts binary extended attributes in PAX records; only acted-on values must be UTF-8', async () => {
    const finderInfo = Buffer.concat([
      Buffer.from(' SCHILY.xattr.com.apple.FinderInfo='),
      Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x0a, 0x41]),
      Buffer.from('\n'),
    ]);
    const record = Buffer.concat([Buffer.from(String(finderInfo.length + 2)), finderInfo]);
    const libarchive = Buffer.concat([
      Buffer.from(' LIBARCHIVE.xattr.user.x='),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('\n'),
    ]);
    const record2 = Buffer.concat([Buffer.from(String(libarchive.length + 2)), libarchive]);
    const result = await ok(tarOf(paxRaw(Buffer.concat([record, record2])), manifestEntry()));
    expect(result.files.map((file) => file.path)).toEqual(['apollia.toml']);
    const badPath = Buffer.concat([Buffer.from(' path='), Buffer.from([0x61, 0xff]), Buffer.from('\n')]);
    const error = await refused(
      tarOf(
        manifestEntry(),
        paxRaw(Buffer.concat([Buffer.from(String(badPath.length + 2)), badPath])),
        fileEntry('f', 'x'),
      ),
      ARCHIVE_ERROR.corruptPax,
    );
    expect(error.message).toBe('the PAX header at byte 1024 is malformed: the value of `path` is not valid UTF-8');
  });

  it('leaves out macOS AppleDouble entries beside the package folder, and never reads them as Python', async () => {
    const result = await ok(
      buildTar([
        { name: '._mailroom', body: Buffer.from([0, 5, 22, 7, 0xff]) },
        { name: 'mailroom/', type: 'dir' },
        { name: 'mailroom/apollia.toml', body: MANIFEST },
        { name: 'mailroom/tools/', type: 'dir' },
        { name: 'mailroom/tools/._t.py', body: 'not python \u0000' },
        { name: 'mailroom/tools/t.py', body: '@tool\ndef t(): pass\n' },
      ]),
    );
    expect(result.files.map((file) => file.path)).toEqual(['apollia.toml', 'tools/t.py']);
    expect([...result.pythonTexts.keys()]).toEqual(['tools/t.py']);
    expect(result.skipped).toEqual(['._mailroom', 'mailroom/tools/._t.py']);
  });

  it('leaves out `./._.` (what `tar czf x.apo -C mailroom .` writes first on a Mac)', async () => {
    const result = await ok(
      buildTar([
        { name: './', type: 'dir' },
        { name: './._.', body: 'meta' },
        { name: './apollia.toml', body: MANIFEST },
      ]),
    );
    expect(result.files.map((file) => file.path)).toEqual(['apollia.toml']);
    expect(result.skipped).toEqual(['./._.']);
  });

  it('refuses a `._x` with no `x` beside it, and one whose subject is not a valid name', async () => {
    const orphan = await refused(
      buildTar([
        { name: 'apollia.toml', body: MANIFEST },
        { name: 'tools/._gone.py', body: 'x' },
      ]),
      ARCHIVE_ERROR.appleDoubleOrphan,
    );
    expect(orphan.message).toBe(
      'archive entry `tools/._gone.py` looks like macOS metadata (AppleDouble) but there is no `tools/gone.py` beside it: rename it if it is a package file',
    );
    const traversal = await refused(
      buildTar([
        { name: 'apollia.toml', body: MANIFEST },
        { name: '../._x', body: 'x' },
      ]),
      ARCHIVE_ERROR.traversal,
    );
    expect(traversal.message).toBe(
      'archive entry `../x` contains `..`: entries may not point outside the package (in the name of the macOS metadata entry `../._x`)',
    );
  });

  it('accepts v7 folders (type `\\0`, trailing `/`, as `bsdtar --format v7` writes them); refuses type `0` with a trailing `/`', async () => {
    const v7 = (name: string, size = 0, typeflag = '\0') => tarHeader({ name, size, typeflag });
    const result = await ok(tarOf(v7('tools/'), manifestEntry(), fileEntry('tools/t.py', '@tool\ndef t(): pass\n')));
    expect(result.dirs).toEqual(['tools']);
    // Type `0` says "regular file": Python and Go read a file there, libarchive and GNU tar a folder.
    const typed = await refused(tarOf(v7('tools/', 0, '0'), manifestEntry()), ARCHIVE_ERROR.badPath);
    expect(typed.message).toBe(
      'archive entry `tools/` ends with `/` but has the regular-file type `0`: libarchive (bsdtar) and GNU tar read a folder, Python and Go an empty file; write folders with type 5',
    );
    const error = await refused(
      tarOf(manifestEntry(), v7('notes/', 1, '0'), tarData(Buffer.from('x'))),
      ARCHIVE_ERROR.badPath,
    );
    expect(error.message).toBe('archive entry `notes/` is a file whose name ends with `/`');
  });

  it('counts the path limit from the package root: `./…` and `mailroom/…` get the same verdict', async () => {
    const long = `docs/${'d'.repeat(250)}`; // 255 bytes inside the package
    const files = { 'apollia.toml': MANIFEST, [long]: 'x' };
    for (const prefix of ['', './', 'mailroom/']) {
      const entries = Object.entries(files).map(([name, body]) => ({ name: prefix + name, body }));
      const result = await read(buildTar(entries));
      expect(result.ok, `prefix ${JSON.stringify(prefix)}`).toBe(true);
    }
    for (const prefix of ['', './', 'mailroom/']) {
      const entries = [
        { name: `${prefix}apollia.toml`, body: MANIFEST },
        { name: `${prefix}${long}x`, body: 'x' },
      ];
      const bytes = tarOf(...entries.flatMap((e) => [paxHeader({ path: e.name }), fileEntry('placeholder', e.body)]));
      const error = await refused(bytes, ARCHIVE_ERROR.pathTooLong);
      // Named as the archive spells it, less a leading `./`.
      const shown = `${prefix === './' ? '' : prefix}${long}x`;
      expect(error.message).toBe(
        `archive entry \`${shown.slice(0, 120)}…\` (${shown.length} bytes) has a path of 256 bytes in the package: at most 255 are accepted`,
      );
    }
  });
});

describe('accepted archives', () => {
  it("reads the spec example gzip'd, with its file list, manifest and Python texts", async () => {
    const result = await read(packFolder(INVOICES_DIR));
    if (!result.ok) throw new Error(result.error.message);
    expect(result.files).toEqual([
      { path: 'apollia.toml', size: 1596, executable: false },
      { path: 'tools/extract.py', size: 371, executable: false },
      { path: 'workflows/reminders.py', size: 370, executable: false },
    ]);
    expect(result.dirs).toEqual(['tools', 'workflows']);
    expect(result.totalBytes).toBe(1596 + 371 + 370);
    expect(result.manifestText).toContain('name = "invoices"');
    expect([...result.pythonTexts.keys()]).toEqual(['tools/extract.py', 'workflows/reminders.py']);
    expect(result.pythonTexts.get('tools/extract.py')).toContain('def extract_totals(');
    expect(result.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reads the same package as a plain tar, with the same list', async () => {
    const result = await read(packFolder(INVOICES_DIR, { gzip: false }));
    expect(result.ok && result.files.map((file) => file.path)).toEqual([
      'apollia.toml',
      'tools/extract.py',
      'workflows/reminders.py',
    ]);
  });

  it("hashes the file's own bytes", async () => {
    const bytes = packFolder(INVOICES_DIR);
    const result = await read(bytes);
    expect(result.ok && result.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('accepts a package inside one top-level folder and strips it', async () => {
    const result = await read(packFolder(INVOICES_DIR, { prefix: 'invoices/' }));
    if (!result.ok) throw new Error(result.error.message);
    expect(result.files.map((file) => file.path)).toEqual([
      'apollia.toml',
      'tools/extract.py',
      'workflows/reminders.py',
    ]);
    expect(result.dirs).toEqual(['tools', 'workflows']);
  });

  it('accepts `./` names as `tar -C folder .` writes them', async () => {
    const result = await read(
      gzipSync(
        buildTar([
          { name: './', type: 'dir' },
          { name: './apollia.toml', body: MANIFEST },
          { name: './lib/', type: 'dir' },
          { name: './lib/x.py', body: 'x = 1\n' },
        ]),
      ),
    );
    expect(result.ok && result.files.map((file) => file.path)).toEqual(['apollia.toml', 'lib/x.py']);
    expect(result.ok && result.dirs).toEqual(['lib']);
  });

  it('accepts a setuid file (install writes normal modes) and reports its execute bit', async () => {
    const result = await read(
      buildTar([
        { name: 'apollia.toml', body: MANIFEST },
        { name: 'run.sh', body: 'echo\n', mode: 0o4755 },
      ]),
    );
    expect(result.ok && result.files[1]).toEqual({ path: 'run.sh', size: 5, executable: true });
  });

  it('applies a PAX path and a GNU long name to the next entry', async () => {
    const long = `docs/${'d'.repeat(150)}.md`;
    const other = `data/${'e'.repeat(120)}.csv`;
    const result = await read(
      withManifest(paxHeader({ path: long }), fileEntry('short-1', 'a'), gnuLong(other), fileEntry('short-2', 'b')),
    );
    expect(result.ok && result.files.map((file) => file.path)).toEqual(['apollia.toml', long, other]);
  });

  it('ignores a PAX global header that only carries a comment (as `git archive` writes)', async () => {
    const result = await read(tarOf(paxHeader({ comment: '0123456789abcdef' }, 'g'), manifestEntry()));
    expect(result.ok).toBe(true);
  });

  it('accepts zero padding after the end blocks (tar pads to a 10 KiB record)', async () => {
    const result = await read(Buffer.concat([withManifest(), Buffer.alloc(8192)]));
    expect(result.ok).toBe(true);
  });

  it('keeps files named apollia.toml deeper than the package root as data', async () => {
    const result = await read(withManifest(fileEntry('examples/nested/apollia.toml', 'x = 1\n')));
    expect(result.ok && result.manifestText).toBe(MANIFEST);
  });
});

interface RefusalCase {
  title: string;
  bytes: () => Buffer;
  code: string;
  message: string;
  limits?: Partial<ArchiveLimits>;
}

const link = (type: 'symlink' | 'hardlink') =>
  withManifest(buildTar([{ name: 'link', type, linkname: '/etc/passwd' }], { end: false }));
const special = (type: 'chardev' | 'blockdev' | 'fifo') =>
  withManifest(buildTar([{ name: 'dev', type }], { end: false }));
const named = (name: string) => withManifest(fileEntry(name, 'x'));
const namedPax = (name: string) => withManifest(paxHeader({ path: name }), fileEntry('safe-name', 'x'));

const refusals: RefusalCase[] = [
  {
    title: 'a symbolic link',
    bytes: () => link('symlink'),
    code: ARCHIVE_ERROR.symlink,
    message: 'archive entry `link` is a symbolic link (to `/etc/passwd`): links are not accepted',
  },
  {
    title: 'a hard link',
    bytes: () => link('hardlink'),
    code: ARCHIVE_ERROR.hardlink,
    message: 'archive entry `link` is a hard link (to `/etc/passwd`): links are not accepted',
  },
  {
    title: 'a character device',
    bytes: () => special('chardev'),
    code: ARCHIVE_ERROR.device,
    message: 'archive entry `dev` is a character device: only files and folders are accepted',
  },
  {
    title: 'a block device',
    bytes: () => special('blockdev'),
    code: ARCHIVE_ERROR.device,
    message: 'archive entry `dev` is a block device: only files and folders are accepted',
  },
  {
    title: 'a FIFO',
    bytes: () => special('fifo'),
    code: ARCHIVE_ERROR.fifo,
    message: 'archive entry `dev` is a FIFO (named pipe): only files and folders are accepted',
  },
  {
    title: 'a contiguous file (type 7)',
    bytes: () => withManifest(tarHeader({ name: 'c', size: 0, typeflag: '7' })),
    code: ARCHIVE_ERROR.unsupportedType,
    message: 'archive entry `c` is a contiguous file: only files and folders are accepted',
  },
  {
    title: 'an unknown type',
    bytes: () => withManifest(tarHeader({ name: 'z', size: 0, typeflag: 'Z' })),
    code: ARCHIVE_ERROR.unsupportedType,
    message: 'archive entry `z` is of tar type `Z`: only files and folders are accepted',
  },
  {
    title: 'a sparse file described in PAX',
    bytes: () => withManifest(paxHeader({ 'GNU.sparse.major': '1' }), fileEntry('sparse', 'x')),
    code: ARCHIVE_ERROR.unsupportedType,
    message:
      "archive entry `sparse` is a sparse file (a file with holes): only plain files and folders are accepted; repack without sparse entries (GNU tar: drop `--sparse`; bsdtar: `--no-read-sparse`) or fill the file's holes first",
  },
  {
    title: 'an absolute path',
    bytes: () => named('/etc/cron.d/x'),
    code: ARCHIVE_ERROR.absolutePath,
    message: 'archive entry `/etc/cron.d/x` has an absolute path: entries must be relative to the package',
  },
  {
    title: 'a Windows absolute path',
    bytes: () => named('C:\\x'),
    code: ARCHIVE_ERROR.absolutePath,
    message: 'archive entry `C:\\x` has an absolute path: entries must be relative to the package',
  },
  {
    title: 'a UNC path',
    bytes: () => named('\\\\srv\\share'),
    code: ARCHIVE_ERROR.absolutePath,
    message: 'archive entry `\\\\srv\\share` has an absolute path: entries must be relative to the package',
  },
  {
    title: 'a drive-relative path',
    bytes: () => named('C:x'),
    code: ARCHIVE_ERROR.driveRelative,
    message: 'archive entry `C:x` names a Windows drive: entries must be relative to the package',
  },
  {
    title: '`..` at the start',
    bytes: () => named('../x'),
    code: ARCHIVE_ERROR.traversal,
    message: 'archive entry `../x` contains `..`: entries may not point outside the package',
  },
  {
    title: '`..` in the middle',
    bytes: () => named('a/../../x'),
    code: ARCHIVE_ERROR.traversal,
    message: 'archive entry `a/../../x` contains `..`: entries may not point outside the package',
  },
  {
    title: '`..` at the end',
    bytes: () => withManifest(tarHeader({ name: 'a/..', size: 0, typeflag: '5' })),
    code: ARCHIVE_ERROR.traversal,
    message: 'archive entry `a/..` contains `..`: entries may not point outside the package',
  },
  {
    title: 'a backslash',
    bytes: () => named('a\\b'),
    code: ARCHIVE_ERROR.backslash,
    message: 'archive entry `a\\b` has a backslash in its name: only `/` separates folders',
  },
  {
    title: 'a NUL inside a PAX path',
    bytes: () => namedPax('a\0b'),
    code: ARCHIVE_ERROR.controlChar,
    message: 'archive entry `a\\u{0000}b` has a NUL, control or invisible character in its name',
  },
  {
    title: 'a control character',
    bytes: () => named('a\x01b'),
    code: ARCHIVE_ERROR.controlChar,
    message: 'archive entry `a\\u{0001}b` has a NUL, control or invisible character in its name',
  },
  {
    title: 'a newline',
    bytes: () => named('a\nb'),
    code: ARCHIVE_ERROR.controlChar,
    message: 'archive entry `a\\u{000A}b` has a NUL, control or invisible character in its name',
  },
  {
    title: 'a bidi override',
    bytes: () => named('evil\u202Eyp.toml'),
    code: ARCHIVE_ERROR.controlChar,
    message: 'archive entry `evil\\u{202E}yp.toml` has a NUL, control or invisible character in its name',
  },
  {
    title: 'an empty name',
    bytes: () => named(''),
    code: ARCHIVE_ERROR.emptyName,
    message: 'an archive entry has an empty name',
  },
  {
    title: 'an empty PAX path',
    bytes: () => namedPax(''),
    code: ARCHIVE_ERROR.emptyName,
    message: 'an archive entry has an empty name',
  },
  {
    title: 'an empty folder in the path',
    bytes: () => named('a//b'),
    code: ARCHIVE_ERROR.badPath,
    message: 'archive entry `a//b` has an empty or `.` folder in its path',
  },
  {
    title: 'a `.` folder inside the path',
    bytes: () => named('a/./b'),
    code: ARCHIVE_ERROR.badPath,
    message: 'archive entry `a/./b` has an empty or `.` folder in its path',
  },
  {
    title: 'a file name ending with `/`',
    bytes: () => named('a/'),
    code: ARCHIVE_ERROR.badPath,
    message: 'archive entry `a/` is a file whose name ends with `/`',
  },
  {
    title: 'a name that is not UTF-8',
    bytes: () => withManifest(rawNameHeader(Buffer.from([0x61, 0xff, 0x62]), 0)),
    code: ARCHIVE_ERROR.badEncoding,
    message: 'archive entry `a\uFFFDb` has a name that is not valid UTF-8',
  },
  {
    title: '`README` and `readme`',
    bytes: () => withManifest(fileEntry('README', 'a'), fileEntry('readme', 'b')),
    code: ARCHIVE_ERROR.nameCollision,
    message:
      'archive entries `README` and `readme` are the same name on systems that ignore case or Unicode normalisation',
  },
  {
    title: '`café` in NFC and NFD',
    bytes: () => withManifest(fileEntry('caf\u00e9.md', 'a'), fileEntry('cafe\u0301.md', 'b')),
    code: ARCHIVE_ERROR.nameCollision,
    message:
      'archive entries `caf\u00e9.md` and `cafe\u0301.md` are the same name on systems that ignore case or Unicode normalisation',
  },
  {
    title: '`ß` and `ss`',
    bytes: () => withManifest(fileEntry('stra\u00dfe.txt', 'a'), fileEntry('STRASSE.txt', 'b')),
    code: ARCHIVE_ERROR.nameCollision,
    message:
      'archive entries `stra\u00dfe.txt` and `STRASSE.txt` are the same name on systems that ignore case or Unicode normalisation',
  },
  {
    title: 'the ligature `ﬁ` and `fi`',
    bytes: () => withManifest(fileEntry('\ufb01le.txt', 'a'), fileEntry('file.txt', 'b')),
    code: ARCHIVE_ERROR.nameCollision,
    message:
      'archive entries `\ufb01le.txt` and `file.txt` are the same name on systems that ignore case or Unicode normalisation',
  },
  {
    title: 'folders differing in case',
    bytes: () => withManifest(fileEntry('Docs/a.md', 'a'), fileEntry('docs/b.md', 'b')),
    code: ARCHIVE_ERROR.nameCollision,
    message:
      'archive entries `Docs` and `docs` (in `docs/b.md`) are the same folder on systems that ignore case or Unicode normalisation',
  },
  {
    title: 'an exact duplicate',
    bytes: () => withManifest(fileEntry('a.txt', 'a'), fileEntry('a.txt', 'b')),
    code: ARCHIVE_ERROR.duplicate,
    message: 'archive entry `a.txt` appears more than once',
  },
  {
    title: 'a duplicate folder',
    bytes: () =>
      withManifest(
        tarHeader({ name: 'd/', size: 0, typeflag: '5' }),
        tarHeader({ name: 'd/', size: 0, typeflag: '5' }),
      ),
    code: ARCHIVE_ERROR.duplicate,
    message: 'archive entry `d` appears more than once',
  },
  {
    title: 'a file and a folder at one path',
    bytes: () => withManifest(fileEntry('a', 'x'), tarHeader({ name: 'a/', size: 0, typeflag: '5' })),
    code: ARCHIVE_ERROR.fileDirConflict,
    message: 'archive entry `a` appears both as a file and as a folder',
  },
  {
    title: 'a file `a`, then `a/b`',
    bytes: () => withManifest(fileEntry('a', 'x'), fileEntry('a/b', 'y')),
    code: ARCHIVE_ERROR.fileDirConflict,
    message: 'archive entry `a` is a file, but `a/b` uses it as a folder',
  },
  {
    title: '`a/b`, then a file `a`',
    bytes: () => withManifest(fileEntry('a/b', 'y'), fileEntry('a', 'x')),
    code: ARCHIVE_ERROR.fileDirConflict,
    message: 'archive entry `a` is a file, but `a/b` uses it as a folder',
  },
  {
    title: 'a file `A`, then `a/b`',
    bytes: () => withManifest(fileEntry('A', 'x'), fileEntry('a/b', 'y')),
    code: ARCHIVE_ERROR.fileDirConflict,
    message: 'archive entry `A` is a file, but `a/b` uses it as a folder',
  },
  {
    title: 'a PAX path overriding a safe name with `../x`',
    bytes: () => namedPax('../x'),
    code: ARCHIVE_ERROR.traversal,
    message: 'archive entry `../x` contains `..`: entries may not point outside the package',
  },
  {
    title: 'a PAX global header that sets `path`',
    bytes: () => tarOf(paxHeader({ path: 'evil' }, 'g'), manifestEntry()),
    code: ARCHIVE_ERROR.paxGlobal,
    message:
      'the PAX global header at byte 0 sets `path` for the entries after it: global headers may not change names or sizes',
  },
  {
    title: 'a GNU long name of 5,000 characters',
    bytes: () => withManifest(gnuLong(`${'n'.repeat(4996)}.txt`), fileEntry('short', 'x')),
    code: ARCHIVE_ERROR.pathTooLong,
    message: `archive entry \`${'n'.repeat(120)}…\` (5000 bytes) has a path of 5000 bytes in the package: at most 255 are accepted`,
  },
  {
    title: 'a single 300-character component',
    bytes: () => namedPax('c'.repeat(300)),
    code: ARCHIVE_ERROR.pathTooLong,
    message: `archive entry \`${'c'.repeat(120)}…\` (300 bytes) has a path of 300 bytes in the package: at most 255 are accepted`,
  },
  {
    title: 'a negative PAX size',
    bytes: () => withManifest(paxHeader({ size: '-1' }), fileEntry('f', 'x')),
    code: ARCHIVE_ERROR.paxSize,
    message: 'archive entry `f` has a PAX size `-1` that is not a whole number of bytes',
  },
  {
    title: 'a non-numeric PAX size',
    bytes: () => withManifest(paxHeader({ size: '12abc' }), fileEntry('f', 'x')),
    code: ARCHIVE_ERROR.paxSize,
    message: 'archive entry `f` has a PAX size `12abc` that is not a whole number of bytes',
  },
  {
    title: 'a PAX size disagreeing with the header',
    bytes: () => withManifest(paxHeader({ size: '2048' }), fileEntry('f', 'x')),
    code: ARCHIVE_ERROR.paxSize,
    message: 'archive entry `f` has a PAX size of 2048 bytes but its header says 1',
  },
  {
    title: 'a malformed PAX record',
    bytes: () => withManifest(paxRaw('99 path=x\n'), fileEntry('f', 'x')),
    code: ARCHIVE_ERROR.corruptPax,
    message: 'the PAX header at byte 1024 is malformed: a record runs past the header or does not end with a newline',
  },
  {
    title: 'a PAX header declaring 1 MiB',
    bytes: () => withManifest(tarHeader({ name: 'PaxHeader', size: 1 << 20, typeflag: 'x' })),
    code: ARCHIVE_ERROR.metadataTooLarge,
    message: 'the PAX header at byte 1024 declares 1048576 bytes: at most 65536 are accepted',
  },
  {
    title: '2,000 levels of folders',
    bytes: () =>
      withManifest(
        ...Array.from({ length: 2000 }, (_, i) =>
          tarHeader({ name: `${'a/'.repeat(i + 1)}`.slice(0, 99), size: 0, typeflag: '5' }),
        ),
      ),
    code: ARCHIVE_ERROR.tooDeep,
    message: `archive entry \`${'a/'.repeat(34)}\` is 33 levels deep in the package: at most 32 are accepted`,
  },
  {
    title: 'the Windows name `CON`',
    bytes: () => named('docs/CON'),
    code: ARCHIVE_ERROR.reservedName,
    message: 'archive entry `docs/CON` uses `CON`, a name Windows reserves: the package could not be installed there',
  },
  {
    title: 'the Windows name `aux.txt`',
    bytes: () => named('aux.txt'),
    code: ARCHIVE_ERROR.reservedName,
    message:
      'archive entry `aux.txt` uses `aux.txt`, a name Windows reserves: the package could not be installed there',
  },
  {
    title: 'a colon (`a:b`)',
    bytes: () => named('dir/a:b'),
    code: ARCHIVE_ERROR.forbiddenChar,
    message:
      'archive entry `dir/a:b` has one of < > : " | ? * in its name: the package could not be installed on Windows',
  },
  {
    title: 'a trailing dot',
    bytes: () => named('notes.'),
    code: ARCHIVE_ERROR.trailingDotOrSpace,
    message: 'archive entry `notes.` has a name ending with a dot or a space: Windows would drop it',
  },
  {
    title: 'a trailing space',
    bytes: () => named('dir /x'),
    code: ARCHIVE_ERROR.trailingDotOrSpace,
    message: 'archive entry `dir /x` has a name ending with a dot or a space: Windows would drop it',
  },
  {
    title: 'no manifest',
    bytes: () => tarOf(fileEntry('README.md', 'hi')),
    code: ARCHIVE_ERROR.noManifest,
    message:
      'the archive has no apollia.toml, neither at its root nor in a single top-level folder holding the package',
  },
  {
    title: 'an empty tar',
    bytes: () => Buffer.from(TAR_END),
    code: ARCHIVE_ERROR.noManifest,
    message:
      'the archive has no apollia.toml, neither at its root nor in a single top-level folder holding the package',
  },
  {
    title: 'two manifests at the root and in a folder',
    bytes: () => withManifest(fileEntry('other/apollia.toml', MANIFEST)),
    code: ARCHIVE_ERROR.multipleManifests,
    message:
      'the archive holds two manifests, `apollia.toml` and `other/apollia.toml`: a package has exactly one apollia.toml',
  },
  {
    title: 'two manifests in two folders',
    bytes: () => tarOf(fileEntry('a/apollia.toml', MANIFEST), fileEntry('b/apollia.toml', MANIFEST)),
    code: ARCHIVE_ERROR.multipleManifests,
    message:
      'the archive holds two manifests, `a/apollia.toml` and `b/apollia.toml`: a package has exactly one apollia.toml',
  },
  {
    title: 'a manifest in a folder with files outside it',
    bytes: () => tarOf(fileEntry('pkg/apollia.toml', MANIFEST), fileEntry('stray.txt', 'x')),
    code: ARCHIVE_ERROR.manifestNotAtRoot,
    message:
      'apollia.toml is in the folder `pkg` but archive entry `stray.txt` lies outside it: the manifest must be at the archive root or in one folder that holds everything',
  },
  {
    title: 'a manifest over 1 MiB (refused at its header, with no data)',
    bytes: () => tarHeader({ name: 'apollia.toml', size: (1 << 20) + 1, typeflag: '0' }),
    code: ARCHIVE_ERROR.manifestTooLarge,
    message: 'archive entry `apollia.toml` declares 1048577 bytes: apollia.toml may take at most 1048576',
  },
  {
    title: 'a manifest that is not UTF-8',
    bytes: () => tarOf(fileEntry('apollia.toml', Buffer.from([0x61, 0xff, 0x0a]))),
    code: ARCHIVE_ERROR.manifestEncoding,
    message: 'archive entry `apollia.toml` is not valid UTF-8 text',
  },
  {
    title: 'a file over 64 MiB (refused at its header, with no data)',
    bytes: () =>
      Buffer.concat([manifestEntry(), tarHeader({ name: 'big.bin', size: 100 * 1024 * 1024, typeflag: '0' })]),
    code: ARCHIVE_ERROR.fileTooLarge,
    message: 'archive entry `big.bin` declares 104857600 bytes: at most 67108864 are accepted per file',
  },
  {
    title: 'Python modules over 16 MiB (refused at the header)',
    bytes: () =>
      Buffer.concat([manifestEntry(), tarHeader({ name: 'huge.py', size: 17 * 1024 * 1024, typeflag: '0' })]),
    code: ARCHIVE_ERROR.pythonTooLarge,
    message:
      'with archive entry `huge.py` the Python modules would take 17825792 bytes: at most 16777216 are read for the module scan',
  },
  {
    title: 'a total over the limit (limits tightened)',
    bytes: () => withManifest(fileEntry('a.bin', Buffer.alloc(600)), fileEntry('b.bin', Buffer.alloc(600))),
    limits: { maxTotalBytes: 1000 },
    code: ARCHIVE_ERROR.totalTooLarge,
    message: "with entry `b.bin` the archive's files would take 1282 bytes: at most 1000 are accepted in total",
  },
  {
    title: 'too many entries (limits tightened)',
    bytes: () => withManifest(fileEntry('a', '1'), fileEntry('b', '2')),
    limits: { maxEntries: 2 },
    code: ARCHIVE_ERROR.tooManyEntries,
    message: 'the archive has more than 2 entries (entry `b` is one too many)',
  },
  {
    title: 'a bad header checksum',
    bytes: () => {
      const header = tarHeader({ name: 'tampered.txt', size: 1, typeflag: '0' });
      header[0] = 'T'.charCodeAt(0);
      return withManifest(header, tarData(Buffer.from('x')));
    },
    code: ARCHIVE_ERROR.corruptHeader,
    message: 'the tar header at byte 1024 (entry `Tampered.txt`) fails its checksum: the archive is corrupt',
  },
  {
    title: 'an unreadable size field',
    bytes: () => {
      const header = tarHeader({ name: 'f', size: 1, typeflag: '0' });
      header.write('12x4', 124, 'ascii');
      return withManifest(fixChecksum(header), tarData(Buffer.from('x')));
    },
    code: ARCHIVE_ERROR.corruptHeader,
    message: 'the tar header at byte 1024 (entry `f`) has an unreadable size field',
  },
  {
    title: "a tar cut inside a file's data",
    bytes: () => withManifest(fileEntry('f', 'x'.repeat(2000))).subarray(0, 2048),
    code: ARCHIVE_ERROR.truncated,
    message: 'the archive is truncated: entry `f` has only 512 of its 2000 bytes',
  },
  {
    title: 'a tar cut inside a header',
    bytes: () => withManifest(fileEntry('f', 'x')).subarray(0, 1024 + 300),
    code: ARCHIVE_ERROR.truncated,
    message: 'the archive is truncated: it ends inside a header, at byte 1324',
  },
  {
    title: 'a tar without end blocks',
    bytes: () => manifestEntry(),
    code: ARCHIVE_ERROR.truncated,
    message: 'the archive is truncated: it ends without the end-of-archive blocks',
  },
  {
    title: 'a tar with one end block of two',
    bytes: () => withManifest().subarray(0, 1024 + 512),
    code: ARCHIVE_ERROR.truncated,
    message: 'the archive is truncated: it ends after one of the two end-of-archive blocks',
  },
  {
    title: 'a truncated gzip stream',
    bytes: () => {
      const gz = packFolder(INVOICES_DIR);
      return gz.subarray(0, gz.length - 20);
    },
    code: ARCHIVE_ERROR.truncated,
    message: 'the archive is truncated: its gzip stream ends early',
  },
  {
    title: 'a gzip stream with a bad CRC',
    bytes: () => {
      const gz = Buffer.from(packFolder(INVOICES_DIR));
      gz[gz.length - 8]! ^= 0xff;
      return gz;
    },
    code: ARCHIVE_ERROR.corruptGzip,
    message: 'the gzip stream is corrupt (incorrect data check)',
  },
  {
    title: 'a gzip stream with a bad length in its trailer',
    bytes: () => {
      const gz = Buffer.from(packFolder(INVOICES_DIR));
      gz[gz.length - 1]! ^= 0x01;
      return gz;
    },
    code: ARCHIVE_ERROR.corruptGzip,
    message: 'the gzip stream is corrupt (incorrect length check)',
  },
  {
    title: 'garbage after the end blocks',
    bytes: () => Buffer.concat([withManifest(), Buffer.from('PK\x03\x04 hidden zip')]),
    code: ARCHIVE_ERROR.trailingData,
    message:
      'the archive has data after its end-of-archive blocks (at byte 2048): nothing may follow them but zero padding',
  },
  {
    title: 'zero padding, then data, after the gzip stream',
    bytes: () => {
      const gz = packFolder(INVOICES_DIR);
      return Buffer.concat([gz, Buffer.alloc(16), Buffer.from('x')]);
    },
    code: ARCHIVE_ERROR.trailingData,
    message:
      'the file has data after the end of its gzip stream (16 bytes after it): nothing may follow it but zero padding',
  },
  {
    title: 'more than 1 MiB of zeros after the gzip stream',
    bytes: () => Buffer.concat([packFolder(INVOICES_DIR), Buffer.alloc((1 << 20) + 1)]),
    code: ARCHIVE_ERROR.trailingData,
    message:
      'the file has 1048577 bytes after the end of its gzip stream: at most 1048576 bytes of zero padding may follow it',
  },
  {
    title: 'garbage after the gzip stream',
    bytes: () => Buffer.concat([packFolder(INVOICES_DIR), Buffer.from('garbage')]),
    code: ARCHIVE_ERROR.corruptGzip,
    message: 'the gzip stream is corrupt (incorrect header check)',
  },
  {
    title: 'an empty file',
    bytes: () => Buffer.alloc(0),
    code: ARCHIVE_ERROR.empty,
    message: "the file is empty: only tar and gzip'd tar archives are accepted",
  },
  {
    title: 'random bytes',
    bytes: () => Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 2654435761) >>> 24)),
    code: ARCHIVE_ERROR.notArchive,
    message: "the file is not a tar or gzip'd tar archive (no gzip signature and no valid tar header at its start)",
  },
  {
    title: 'a zstd archive',
    bytes: () => Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), Buffer.alloc(600)]),
    code: ARCHIVE_ERROR.unsupportedFormat,
    message: "zstd-compressed archives are not accepted: only tar and gzip'd tar",
  },
  {
    title: 'a zip archive',
    bytes: () => Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(600)]),
    code: ARCHIVE_ERROR.unsupportedFormat,
    message: "zip archives are not accepted: only tar and gzip'd tar",
  },
  {
    title: 'an xz archive',
    bytes: () => Buffer.concat([Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), Buffer.alloc(600)]),
    code: ARCHIVE_ERROR.unsupportedFormat,
    message: "xz-compressed archives are not accepted: only tar and gzip'd tar",
  },
  {
    title: 'a bzip2 archive',
    bytes: () => Buffer.concat([Buffer.from('BZh9', 'latin1'), Buffer.alloc(600)]),
    code: ARCHIVE_ERROR.unsupportedFormat,
    message: "bzip2-compressed archives are not accepted: only tar and gzip'd tar",
  },
  {
    title: 'a brotli stream (no magic: refused as unknown content)',
    bytes: () => brotliCompressSync(packFolder(INVOICES_DIR, { gzip: false })),
    code: ARCHIVE_ERROR.notArchive,
    message: "the file is not a tar or gzip'd tar archive (no gzip signature and no valid tar header at its start)",
  },
  {
    title: "gzip'd data that is not tar",
    bytes: () => gzipSync(Buffer.from('{"just": "json"}'.repeat(64))),
    code: ARCHIVE_ERROR.notArchive,
    message: "the gzip'd data is not a tar archive: only tar and gzip'd tar are accepted",
  },
  {
    title: "a gzip'd empty stream",
    bytes: () => gzipSync(Buffer.alloc(0)),
    code: ARCHIVE_ERROR.notArchive,
    message: 'the archive is empty: not even the end-of-archive blocks are there',
  },
];

describe('what follows the gzip stream is read to the end, however the file falls into read chunks', () => {
  // A small package and a long tail: the file is read in several chunks (FILE_CHUNK_BYTES), and
  // zlib may finish the gzip stream while the rest is still being read. The SHA-256 must cover
  // every byte, and the padding check must see all of it (a race once let a tail past the first
  // chunk go unseen, and hashed only a prefix).
  it('accepts zero padding that spans read chunks, hashing every byte', async () => {
    const bytes = Buffer.concat([packFolder(INVOICES_DIR), Buffer.alloc(900 * 1024)]);
    const result = await read(bytes);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('refuses data after zero padding in a later chunk', async () => {
    const bytes = Buffer.concat([packFolder(INVOICES_DIR), Buffer.alloc(700 * 1024), Buffer.from('HIDDEN PAYLOAD')]);
    const error = await refused(bytes, ARCHIVE_ERROR.trailingData);
    expect(error.message).toContain('nothing may follow it but zero padding');
  });

  it('refuses more padding than is accepted, without reading a long tail to its end', async () => {
    const bytes = Buffer.concat([packFolder(INVOICES_DIR), Buffer.alloc(6 * 1024 * 1024)]);
    const error = await refused(bytes, ARCHIVE_ERROR.trailingData);
    expect(error.message).toMatch(
      /^the file has \d+ bytes after the end of its gzip stream: at most 1048576 bytes of zero padding may follow it$/,
    );
  });
});

describe('refused archives (each with its own code, naming the entry, writing nothing)', () => {
  it.each(refusals)('$title → $code', async ({ bytes, code, message, limits }) => {
    const error = await refused(bytes(), code, limits);
    expect(error.message).toBe(message);
  });

  it.each(
    refusals.filter(
      (c) =>
        c.code !== ARCHIVE_ERROR.notArchive &&
        c.code !== ARCHIVE_ERROR.empty &&
        c.code !== ARCHIVE_ERROR.unsupportedFormat,
    ),
  )("$title is refused the same way gzip'd", async ({ bytes, code, message, limits }) => {
    const raw = bytes();
    if (raw[0] === 0x1f && raw[1] === 0x8b) return;
    const error = await refused(gzipSync(raw), code, limits);
    expect(error.message).toBe(message);
  });

  it('puts the entry in `path` of the problem', async () => {
    const error = await refused(named('../x'), ARCHIVE_ERROR.traversal);
    expect(error.path).toBe('../x');
  });

  it('refuses a missing file as unreadable', async () => {
    const result = await readApoArchive('/nonexistent/folder/x.apo');
    expect(result.ok === false && result.error.code).toBe(ARCHIVE_ERROR.unreadable);
    expect(result.ok === false && result.error.message).toBe(
      'the archive /nonexistent/folder/x.apo could not be read: no such file',
    );
  });

  it('refuses a folder as unreadable', async () => {
    const result = await readApoArchive(INVOICES_DIR);
    expect(result.ok === false && result.error.message).toBe(
      `the archive ${INVOICES_DIR} could not be read: it is a folder`,
    );
  });

  it.skipIf(process.platform === 'win32')('refuses a FIFO instead of waiting on it forever', async () => {
    const { execFileSync } = await import('node:child_process');
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'apollia-fifo-'));
    try {
      execFileSync('mkfifo', [join(dir, 'pipe.apo')]);
      const result = await readApoArchive(join(dir, 'pipe.apo'));
      expect(result.ok === false && result.error).toEqual({
        code: ARCHIVE_ERROR.unreadable,
        message: `the archive ${join(dir, 'pipe.apo')} could not be read: it is not a regular file`,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads packFiles output the same as buildTar', async () => {
    const result = await read(packFiles({ 'apollia.toml': MANIFEST, 'tools/t.py': '@tool\ndef t(): pass\n' }));
    expect(result.ok && [...result.pythonTexts.keys()]).toEqual(['tools/t.py']);
  });
});
