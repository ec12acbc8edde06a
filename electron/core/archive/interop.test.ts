/**
 * Interop: one valid package packed by the real tools authors use, at test time, and
 * the verdict the app gives each archive. GNU tar in every `--format` (with `./`, a top folder or
 * bare names; long and UTF-8 names; a base-256 uid), bsdtar (libarchive: its formats, stdout
 * padding, an xattr, a sparse file), Python's tarfile, node-tar, `git archive`, and crafted
 * macOS-style archives (AppleDouble, binary xattrs). The refusals that must stay are made with the
 * same tools.
 *
 * node-tar is a second, independent reader: every accepted archive must list the same files with it.
 *
 * A missing tool FAILS the test under CI (`process.env.CI`), never a silent skip there; outside CI
 * the cases that need it are skipped. Every archive is built once, in `beforeAll`, under the run's
 * TMPDIR (test/global-setup.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { create, list, Parser } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApoDetails, ApoInspection } from '../../../shared/manifests/inspection';
import { fileEntry, manifestEntry, paxRaw, tarOf } from '../../../test/fixtures/archive/raw-tar';
import { inSandbox } from '../../../test/fixtures/archive/sandbox';
import { buildTar, INVOICES_DIR, paxHeader } from '../../../test/helpers/pack';
import { inspectApo } from '../apollia/index';
import { packEntries, packFolder } from './pack';
import { readApoArchive } from './read-archive';
import { ARCHIVE_ERROR } from './refusal';

type Tool = 'tar' | 'bsdtar' | 'python3' | 'git';

interface Case {
  id: string;
  tools: Tool[];
  /** Builds the archive in `work`, returns its path. */
  build(work: string): string;
  /** `ok`, or the refusal code. */
  expected: 'ok' | string;
  /** The package's files, when accepted (package-relative, sorted). */
  files?: string[];
  /** Part of the refusal message to find, when refused. */
  message?: string;
}

const LONG_DIR = `docs/${'long-folder-name-'.repeat(4)}a/${'another-long-part-'.repeat(3)}b`;
const LONG_FILE = `${LONG_DIR}/notes.md`;
const UTF8_FILE = 'docs/café-Ünïcode-日本語.md';

let work = '';
/**
 * `mailroom/`: the spec example plus a long path and a UTF-8 name. `plain/`: the example alone (v7 holds names of at
 * most 99 bytes).
 */
let mailroom = '';
let plain = '';
let mailroomFiles: string[] = [];
let plainFiles: string[] = [];
const missing = new Set<Tool>();
const built = new Map<string, { path?: string; error?: string }>();

function available(tool: Tool): boolean {
  const probe = spawnSync(tool, ['--version'], { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0;
}

function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Buffer {
  return execFileSync(command, args, {
    cwd: options.cwd ?? work,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 << 20,
  });
}

/** The files below `dir`, package-relative and sorted (pack's own walk, folders left out). */
function filesOf(dir: string): string[] {
  return packEntries(dir).filter((path) => !lstatSync(join(dir, path)).isDirectory());
}

function python(script: string, ...args: string[]): void {
  run('python3', ['-c', script, ...args]);
}

const GNU_FORMATS = ['gnu', 'oldgnu', 'pax', 'posix', 'ustar'] as const;

/** Every case: the tool, the command, the expected verdict. */
function cases(): Case[] {
  const out: Case[] = [];
  const ok = (id: string, tools: Tool[], build: Case['build'], files: () => string[] = () => mailroomFiles): void => {
    // `files` is read when the test runs, after beforeAll made the folders.
    out.push({
      id,
      tools,
      build,
      expected: 'ok',
      get files() {
        return files();
      },
    });
  };
  const refused = (id: string, tools: Tool[], build: Case['build'], code: string, message: string): void => {
    out.push({ id, tools, build, expected: code, message });
  };

  // GNU tar: every format, three layouts, gzip'd and plain.
  for (const format of GNU_FORMATS) {
    ok(`GNU tar --format=${format}, -C mailroom . (./ names), gzip`, ['tar'], () => {
      run('tar', [`--format=${format}`, '-czf', `gnu-${format}-dot.apo`, '-C', mailroom, '.']);
      return join(work, `gnu-${format}-dot.apo`);
    });
    ok(`GNU tar --format=${format}, mailroom/ top folder`, ['tar'], () => {
      run('tar', [`--format=${format}`, '-cf', `gnu-${format}-top.apo`, '-C', work, 'mailroom']);
      return join(work, `gnu-${format}-top.apo`);
    });
    ok(`GNU tar --format=${format}, bare names, gzip`, ['tar'], () => {
      run(
        'tar',
        [
          `--format=${format}`,
          '-czf',
          join(work, `gnu-${format}-bare.apo`),
          'apollia.toml',
          'docs',
          'tools',
          'workflows',
        ],
        { cwd: mailroom },
      );
      return join(work, `gnu-${format}-bare.apo`);
    });
  }
  for (const layout of ['dot', 'top'] as const) {
    ok(
      `GNU tar --format=v7, ${layout === 'dot' ? '-C plain .' : 'plain/ top folder'}`,
      ['tar'],
      () => {
        const file = join(work, `gnu-v7-${layout}.apo`);
        run('tar', ['--format=v7', '-cf', file, ...(layout === 'dot' ? ['-C', plain, '.'] : ['-C', work, 'plain'])]);
        return file;
      },
      () => plainFiles,
    );
  }
  ok('GNU tar --format=gnu with a base-256 uid and gid (3000000)', ['tar'], () => {
    run('tar', [
      '--format=gnu',
      '--owner=big:3000000',
      '--group=big:3000000',
      '-czf',
      'gnu-base256.apo',
      '-C',
      mailroom,
      '.',
    ]);
    return join(work, 'gnu-base256.apo');
  });
  ok(
    'GNU tar --xattrs --format=pax with a binary xattr',
    ['tar', 'python3'],
    () => {
      run('tar', ['--xattrs', '--format=pax', '-czf', 'gnu-xattrs.apo', '-C', join(work, 'xattr'), '.']);
      return join(work, 'gnu-xattrs.apo');
    },
    () => plainFiles,
  );

  // bsdtar (libarchive).
  ok('bsdtar default (restricted pax), gzip', ['bsdtar'], () => {
    run('bsdtar', ['-czf', 'bsd-default.apo', '-C', mailroom, '.']);
    return join(work, 'bsd-default.apo');
  });
  for (const format of ['pax', 'ustar', 'gnutar'] as const) {
    ok(`bsdtar --format ${format}, top folder`, ['bsdtar'], () => {
      run('bsdtar', ['--format', format, '-cf', `bsd-${format}.apo`, '-C', work, 'mailroom']);
      return join(work, `bsd-${format}.apo`);
    });
  }
  ok(
    'bsdtar --format v7 (folders as type 0 with a trailing /)',
    ['bsdtar'],
    () => {
      run('bsdtar', ['--format', 'v7', '-cf', 'bsd-v7.apo', '-C', work, 'plain']);
      return join(work, 'bsd-v7.apo');
    },
    () => plainFiles,
  );
  ok('bsdtar -czf - > x.apo (zero padding after the gzip stream)', ['bsdtar'], () => {
    writeFileSync(join(work, 'bsd-stdout.apo'), run('bsdtar', ['-czf', '-', '-C', mailroom, '.']));
    return join(work, 'bsd-stdout.apo');
  });
  ok(
    'bsdtar on a file with a binary xattr (SCHILY.xattr and LIBARCHIVE.xattr)',
    ['bsdtar', 'python3'],
    () => {
      run('bsdtar', ['-czf', 'bsd-xattr.apo', '-C', join(work, 'xattr'), '.']);
      return join(work, 'bsd-xattr.apo');
    },
    () => plainFiles,
  );

  // Python's tarfile.
  for (const format of ['GNU', 'PAX', 'USTAR'] as const) {
    ok(`Python tarfile ${format}_FORMAT, gzip`, ['python3'], () => {
      const file = join(work, `py-${format}.apo`);
      python(
        `import sys, tarfile\nwith tarfile.open(sys.argv[1], 'w:gz', format=tarfile.${format}_FORMAT) as t: t.add(sys.argv[2], arcname='mailroom')`,
        file,
        mailroom,
      );
      return file;
    });
  }

  // node-tar: the app's own `pack`, and node-tar's defaults.
  ok('node-tar via apollia-desktop pack', [], () => {
    writeFileSync(join(work, 'node-pack.apo'), packFolder(mailroom));
    return join(work, 'node-pack.apo');
  });
  ok('node-tar defaults (tar.c with a top folder)', [], () => {
    const file = join(work, 'node-default.apo');
    create({ file, gzip: true, cwd: work, sync: true }, ['mailroom']);
    return file;
  });

  // git archive.
  for (const format of ['tar', 'tar.gz'] as const) {
    ok(`git archive --format=${format} --prefix=mailroom/`, ['git'], () => {
      const file = join(work, `git.${format}.apo`);
      run('git', ['archive', `--format=${format}`, '--prefix=mailroom/', '-o', file, 'HEAD'], {
        cwd: join(work, 'repo'),
      });
      return file;
    });
  }

  // macOS-style archives, crafted as a Mac's `tar` (bsdtar) writes them.
  ok(
    'macOS tar czf x.apo mailroom: ._mailroom beside the folder, provenance xattr',
    [],
    () => {
      const file = join(work, 'mac-top.apo');
      writeFileSync(file, gzipSync(macArchive('mailroom/')));
      return file;
    },
    () => plainFiles,
  );
  ok(
    'macOS tar czf x.apo -C mailroom .: starts with ./._.',
    [],
    () => {
      const file = join(work, 'mac-dot.apo');
      writeFileSync(file, gzipSync(macArchive('./')));
      return file;
    },
    () => plainFiles,
  );

  // Refusals that must stay.
  refused(
    'GNU tar of a folder with a symbolic link',
    ['tar'],
    () => {
      run('tar', ['-czf', 'r-symlink.apo', '-C', join(work, 'with-symlink'), '.']);
      return join(work, 'r-symlink.apo');
    },
    ARCHIVE_ERROR.symlink,
    'is a symbolic link (to `/etc/passwd`): links are not accepted',
  );
  refused(
    'GNU tar of a folder with a hard link',
    ['tar'],
    () => {
      run('tar', ['-czf', 'r-hardlink.apo', '-C', join(work, 'with-hardlink'), '.']);
      return join(work, 'r-hardlink.apo');
    },
    ARCHIVE_ERROR.hardlink,
    'is a hard link',
  );
  refused(
    'Python tarfile with a ../ name',
    ['python3'],
    () => {
      const file = join(work, 'r-traversal.apo');
      python(
        `import sys, tarfile\nwith tarfile.open(sys.argv[1], 'w') as t:\n  t.add(sys.argv[2] + '/apollia.toml', arcname='apollia.toml')\n  t.add(sys.argv[2] + '/tools/extract.py', arcname='../evil.py')`,
        file,
        plain,
      );
      return file;
    },
    ARCHIVE_ERROR.traversal,
    'archive entry `../evil.py` contains `..`',
  );
  refused(
    'Python tarfile with a Latin-1 name',
    ['python3'],
    () => {
      const file = join(work, 'r-latin1.apo');
      python(
        `import sys, tarfile\nwith tarfile.open(sys.argv[1], 'w', format=tarfile.USTAR_FORMAT, encoding='latin-1') as t:\n  t.add(sys.argv[2] + '/apollia.toml', arcname='apollia.toml')\n  t.add(sys.argv[2] + '/tools/extract.py', arcname='caf\\u00e9.py')`,
        file,
        plain,
      );
      return file;
    },
    ARCHIVE_ERROR.badEncoding,
    'has a name that is not valid UTF-8',
  );
  refused(
    'two GNU tar archives concatenated',
    ['tar'],
    () => {
      run('tar', ['-cf', 'r-one.tar', '-C', plain, '.']);
      run('tar', ['-cf', 'r-two.tar', '-C', plain, 'tools']);
      writeFileSync(
        join(work, 'r-concat.apo'),
        Buffer.concat([readFileSync(join(work, 'r-one.tar')), readFileSync(join(work, 'r-two.tar'))]),
      );
      return join(work, 'r-concat.apo');
    },
    ARCHIVE_ERROR.trailingData,
    'nothing may follow them but zero padding',
  );
  refused(
    'bsdtar -czf - with bytes appended after the padding',
    ['bsdtar'],
    () => {
      const file = join(work, 'r-trailing.apo');
      writeFileSync(file, Buffer.concat([run('bsdtar', ['-czf', '-', '-C', plain, '.']), Buffer.from('appended')]));
      return file;
    },
    ARCHIVE_ERROR.trailingData,
    'nothing may follow it but zero padding',
  );
  refused(
    'GNU tar of a gzip with data after it (no padding)',
    ['tar'],
    () => {
      run('tar', ['-czf', 'r-garbage.apo', '-C', plain, '.']);
      appendFileSync(join(work, 'r-garbage.apo'), 'garbage');
      return join(work, 'r-garbage.apo');
    },
    ARCHIVE_ERROR.corruptGzip,
    'the gzip stream is corrupt',
  );
  refused(
    'GNU tar --format=pax with a path of 300 bytes in the package',
    ['tar'],
    () => {
      run('tar', ['--format=pax', '-czf', 'r-long.apo', '-C', join(work, 'too-long'), '.']);
      return join(work, 'r-long.apo');
    },
    ARCHIVE_ERROR.pathTooLong,
    'bytes in the package: at most 255 are accepted',
  );
  refused(
    'bsdtar of a file with holes (PAX sparse, written unasked)',
    ['bsdtar'],
    () => {
      run('bsdtar', ['-czf', 'r-sparse.apo', '-C', join(work, 'sparse'), '.']);
      return join(work, 'r-sparse.apo');
    },
    ARCHIVE_ERROR.unsupportedType,
    'archive entry `./holes.bin` is a sparse file (a file with holes): only plain files and folders are accepted; repack without sparse entries',
  );
  refused(
    'GNU tar --sparse of a file with holes',
    ['tar'],
    () => {
      run('tar', ['--sparse', '--format=gnu', '-czf', 'r-gnu-sparse.apo', '-C', join(work, 'sparse'), '.']);
      return join(work, 'r-gnu-sparse.apo');
    },
    ARCHIVE_ERROR.unsupportedType,
    'is a sparse file (a file with holes)',
  );
  return out;
}

/** What bsdtar on a Mac writes: AppleDouble `._` entries and binary xattrs in PAX records. */
function macArchive(root: 'mailroom/' | './'): Buffer {
  const record = (key: string, value: Buffer) => {
    const body = Buffer.concat([Buffer.from(` ${key}=`), value, Buffer.from('\n')]);
    let length = body.length + 1;
    while (String(length).length + body.length !== length) length = String(length).length + body.length;
    return Buffer.concat([Buffer.from(String(length)), body]);
  };
  const provenance = Buffer.from([0x01, 0x02, 0x00, 0xa7, 0xff, 0x3c, 0x10, 0x80, 0x9e, 0x00, 0xcd]);
  const xattrs = paxRaw(
    Buffer.concat([
      record('LIBARCHIVE.xattr.com.apple.provenance', Buffer.from(provenance.toString('base64').replace(/=+$/, ''))),
      record('SCHILY.xattr.com.apple.provenance', provenance),
    ]),
  );
  const appleDouble = Buffer.concat([
    Buffer.from([0x00, 0x05, 0x16, 0x07, 0x00, 0x02, 0x00, 0x00]),
    Buffer.from('Mac OS X        '),
    Buffer.alloc(40),
  ]);
  const files = plainFiles.map((path) => ({ path, body: readFileSync(join(plain, path)) }));
  const parts: Buffer[] = [];
  if (root === 'mailroom/')
    parts.push(
      buildTar(
        [
          { name: '._mailroom', body: appleDouble },
          { name: 'mailroom/', type: 'dir' },
        ],
        { end: false },
      ),
    );
  else
    parts.push(
      buildTar(
        [
          { name: './._.', body: appleDouble },
          { name: './', type: 'dir' },
        ],
        { end: false },
      ),
    );
  for (const file of files) {
    const slash = file.path.lastIndexOf('/');
    const appleName = `${root}${file.path.slice(0, slash + 1)}._${file.path.slice(slash + 1)}`;
    parts.push(xattrs, fileEntry(appleName, appleDouble));
    parts.push(xattrs, fileEntry(`${root}${file.path}`, file.body));
  }
  return tarOf(...parts);
}

/** node-tar's own listing of an archive: files only, package-relative, without what the app left out. */
function nodeTarFiles(path: string, skipped: string[]): string[] {
  const names: string[] = [];
  list({
    file: path,
    sync: true,
    strict: true,
    onReadEntry: (entry) => {
      if (
        (entry.type === 'File' || entry.type === 'OldFile') &&
        !entry.path.endsWith('/') &&
        !skipped.includes(entry.path)
      )
        names.push(entry.path.replace(/^\.\//, ''));
    },
  });
  const prefix = names.includes('apollia.toml')
    ? ''
    : `${names.find((name) => name.endsWith('/apollia.toml'))?.split('/')[0]}/`;
  return names.map((name) => name.slice(prefix.length)).sort();
}

let all: Case[] = [];
const verdicts = new Map<string, ApoInspection>();
const nodeTarLists = new Map<string, string[] | Error>();

beforeAll(async () => {
  for (const tool of ['tar', 'bsdtar', 'python3', 'git'] as const) if (!available(tool)) missing.add(tool);
  work = mkdtempSync(join(tmpdir(), 'interop-'));
  mailroom = join(work, 'mailroom');
  plain = join(work, 'plain');
  cpSync(INVOICES_DIR, mailroom, { recursive: true });
  cpSync(INVOICES_DIR, plain, { recursive: true });
  mkdirSync(join(mailroom, LONG_DIR), { recursive: true });
  writeFileSync(join(mailroom, LONG_FILE), 'A path longer than 100 bytes.\n');
  writeFileSync(join(mailroom, UTF8_FILE), 'A UTF-8 name.\n');
  mailroomFiles = filesOf(mailroom);
  plainFiles = filesOf(plain);

  cpSync(plain, join(work, 'xattr'), { recursive: true });
  if (!missing.has('python3')) {
    python(
      `import os, sys\nos.setxattr(sys.argv[1], 'user.com.dropbox.attrs', bytes([0, 255, 254, 128, 10, 65]))`,
      join(work, 'xattr/tools/extract.py'),
    );
  }
  cpSync(plain, join(work, 'with-symlink'), { recursive: true });
  symlinkSync('/etc/passwd', join(work, 'with-symlink/tools/passwd'));
  cpSync(plain, join(work, 'with-hardlink'), { recursive: true });
  linkSync(join(work, 'with-hardlink/tools/extract.py'), join(work, 'with-hardlink/tools/again.py'));
  cpSync(plain, join(work, 'too-long'), { recursive: true });
  const deep = join(work, 'too-long', ...Array.from({ length: 6 }, (_, i) => `${String(i)}${'x'.repeat(49)}`));
  mkdirSync(deep, { recursive: true });
  writeFileSync(join(deep, 'notes.md'), 'too deep a path\n');
  cpSync(plain, join(work, 'sparse'), { recursive: true });
  writeFileSync(join(work, 'sparse/holes.bin'), '');
  truncateSync(join(work, 'sparse/holes.bin'), 1 << 20);
  appendFileSync(join(work, 'sparse/holes.bin'), 'end\n');
  if (!missing.has('git')) {
    const repo = join(work, 'repo');
    cpSync(mailroom, repo, { recursive: true });
    const env = {
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.com',
    };
    run('git', ['init', '-q'], { cwd: repo, env });
    run('git', ['add', '.'], { cwd: repo, env });
    run('git', ['-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'package'], { cwd: repo, env });
  }

  all = cases();
  for (const c of all) {
    if (c.tools.some((tool) => missing.has(tool))) continue;
    try {
      built.set(c.id, { path: c.build(work) });
    } catch (error) {
      built.set(c.id, { error: `${(error as Error).message}\n${String((error as { stderr?: Buffer }).stderr ?? '')}` });
    }
  }
  for (const c of all) {
    const path = built.get(c.id)?.path;
    if (!path) continue;
    const inspection = await inspectApo(path);
    verdicts.set(c.id, inspection);
    if (inspection.ok) {
      try {
        const skipped = inspection.warnings.length > 0 ? skippedOf(path) : [];
        nodeTarLists.set(c.id, nodeTarFiles(path, skipped));
      } catch (error) {
        nodeTarLists.set(c.id, error as Error);
      }
    }
  }
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The AppleDouble names in an archive, as node-tar sees them (for the node-tar comparison). */
function skippedOf(path: string): string[] {
  const names: string[] = [];
  list({
    file: path,
    sync: true,
    onReadEntry: (entry) => {
      if (/(^|\/)\._[^/]+$/.test(entry.path)) names.push(entry.path);
    },
  });
  return names;
}

/** Fails under CI when a tool is missing, else skips: never a silent pass. */
function needTools(c: Case, skip: (note?: string) => void): void {
  const absent = c.tools.filter((tool) => missing.has(tool));
  if (absent.length === 0) return;
  const note = `${absent.join(', ')} not installed`;
  if (process.env['CI']) throw new Error(`${note}: the interop test needs it under CI (.ci/run installs it)`);
  skip(note);
}

describe('archives of one valid package made by real tools', () => {
  it('builds every case (the list is not empty)', () => {
    expect(cases().length).toBeGreaterThan(40);
  });

  for (const c of cases()) {
    it(`${c.id} → ${c.expected}`, (context) => {
      needTools(c, (note) => context.skip(note));
      const result = built.get(c.id);
      if (!result?.path) throw new Error(`the archive could not be made: ${result?.error ?? 'not built'}`);
      const inspection = verdicts.get(c.id);
      if (!inspection) throw new Error('not inspected');
      if (c.expected === 'ok') {
        if (!inspection.ok)
          throw new Error(`refused: ${inspection.errors.map((e) => `${e.code}: ${e.message}`).join('; ')}`);
        const details = inspection.details as ApoDetails;
        expect(details.files.map((file) => file.path).sort()).toEqual(c.files);
        expect(nodeTarLists.get(c.id), 'node-tar lists the same files').toEqual(c.files);
      } else {
        expect(inspection.ok).toBe(false);
        expect(inspection.errors[0]?.code).toBe(c.expected);
        expect(inspection.errors[0]?.message).toContain(c.message);
      }
    });
  }

  it('says in a warning that the macOS metadata entries were left out', () => {
    const inspection = verdicts.get('macOS tar czf x.apo mailroom: ._mailroom beside the folder, provenance xattr');
    expect(inspection?.warnings).toEqual([
      {
        code: 'archive.apple_double_skipped',
        message:
          '4 macOS metadata entries (AppleDouble `._*`) left out, not package files and not installed: `._mailroom`, `mailroom/._apollia.toml`, `mailroom/tools/._extract.py`, `mailroom/workflows/._reminders.py`',
      },
    ]);
  });
});

/** What node-tar's Parser (non-strict, as `tar.t`/`tar.x` run by default) makes of `bytes`. */
function nodeTarReads(bytes: Buffer): string[] {
  const out: string[] = [];
  const parser = new Parser({
    onReadEntry: (entry) => {
      out.push(`${entry.path}:${entry.size}`);
      entry.resume();
    },
  });
  parser.on('warn', () => undefined);
  parser.write(bytes);
  parser.end();
  return out;
}

describe('node-tar as a reader of untrusted archives loses refusals (archive README, "node-tar")', () => {
  it.each([
    [
      'a PAX size that disagrees with the header',
      () => tarOf(manifestEntry(), paxHeader({ size: '2048' }), fileEntry('f', 'x')),
      ['apollia.toml:82', 'f:2048'],
      ARCHIVE_ERROR.paxSize,
    ],
    [
      'a malformed PAX record (dropped silently)',
      () => tarOf(manifestEntry(), paxRaw('99 path=evil\n'), fileEntry('f', 'x')),
      ['apollia.toml:82', 'f:1'],
      ARCHIVE_ERROR.corruptPax,
    ],
    [
      'entries after a lone zero block',
      () => tarOf(manifestEntry(), Buffer.alloc(512), fileEntry('hidden.py', 'x')),
      ['apollia.toml:82', 'hidden.py:1'],
      ARCHIVE_ERROR.trailingData,
    ],
  ])('%s: node-tar reads on, the app refuses', async (_what, bytes, nodeTar, code) => {
    expect(nodeTarReads(bytes())).toEqual(nodeTar);
    const { result } = await inSandbox(bytes(), (file) => readApoArchive(file));
    expect(result.ok === false && result.error.code).toBe(code);
  });
});
