import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  renameSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { checkIntegrity, computeFileDigests, INTEGRITY_ERROR, type FileDigests } from './integrity';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

let root: string;
let outside: string;

/** A freshly "installed" package folder. */
beforeEach(() => {
  const base = mkdtempSync(join(tmpdir(), 'integrity-'));
  root = join(base, 'invoices');
  outside = join(base, 'outside.txt');
  writeFileSync(outside, 'secret outside the package');
  mkdirSync(join(root, 'tools', 'deep'), { recursive: true });
  mkdirSync(join(root, 'empty'));
  writeFileSync(join(root, 'apollia.toml'), '[package]\nname = "invoices"\n');
  writeFileSync(join(root, 'tools', 'ledger.py'), 'def ledger(): pass\n');
  writeFileSync(join(root, 'tools', 'deep', 'data.json'), '{}');
});

async function recorded(): Promise<FileDigests> {
  const result = await computeFileDigests(root);
  if (!result.ok) throw new Error(result.error.message);
  return result.files;
}

describe('computeFileDigests', () => {
  it('records the SHA-256 of every file by its /-separated relative path, in a null-prototype map', async () => {
    const files = await recorded();
    expect({ ...files }).toEqual({
      'apollia.toml': sha256('[package]\nname = "invoices"\n'),
      'tools/ledger.py': sha256('def ledger(): pass\n'),
      'tools/deep/data.json': sha256('{}'),
    });
    expect(Object.getPrototypeOf(files)).toBeNull();
  });

  it('records a file named __proto__ as data', async () => {
    writeFileSync(join(root, '__proto__'), 'x');
    const files = await recorded();
    expect(Object.hasOwn(files, '__proto__')).toBe(true);
    expect(files['__proto__']).toBe(sha256('x'));
  });

  it('refuses a link: install writes none, so the folder is not what install wrote', async () => {
    symlinkSync(outside, join(root, 'tools', 'link.txt'));
    expect(await computeFileDigests(root)).toEqual({
      ok: false,
      error: {
        code: INTEGRITY_ERROR.notRegular,
        message: `\`tools/link.txt\` in ${root} is a link: an installed package holds only files and folders`,
        path: 'tools/link.txt',
      },
    });
  });

  it('refuses more entries than an archive may hold', async () => {
    expect(await computeFileDigests(root, { maxEntries: 4, maxFileBytes: 1024 })).toEqual({
      ok: false,
      error: { code: INTEGRITY_ERROR.tooManyEntries, message: `the folder ${root} holds more than 4 entries` },
    });
  });

  it('refuses a file larger than an archive entry may be', async () => {
    expect(await computeFileDigests(root, { maxEntries: 100, maxFileBytes: 20 })).toEqual({
      ok: false,
      error: {
        code: INTEGRITY_ERROR.fileTooLarge,
        message: `\`apollia.toml\` in ${root} is 28 bytes: at most 20`,
        path: 'apollia.toml',
      },
    });
  });

  it('a missing folder is unreadable', async () => {
    expect(await computeFileDigests(join(root, 'nope'))).toMatchObject({
      ok: false,
      error: { code: INTEGRITY_ERROR.unreadable },
    });
  });
});

describe('checkIntegrity', () => {
  it('an untouched folder is ok', async () => {
    expect(await checkIntegrity(root, await recorded())).toEqual({
      state: 'ok',
      changed: [],
      missing: [],
      added: [],
      truncated: false,
    });
  });

  it('an edited file is changed, a deleted one missing, a new one added', async () => {
    const files = await recorded();
    appendFileSync(join(root, 'tools', 'ledger.py'), 'import os\n');
    rmSync(join(root, 'tools', 'deep', 'data.json'));
    writeFileSync(join(root, 'empty', 'new.py'), 'x');
    expect(await checkIntegrity(root, files)).toEqual({
      state: 'changed',
      changed: ['tools/ledger.py'],
      missing: ['tools/deep/data.json'],
      added: ['empty/new.py'],
      truncated: false,
    });
  });

  it('a file swapped for a link to a file with the same bytes is changed, and never read through', async () => {
    const files = await recorded();
    const copy = join(root, '..', 'copy.toml');
    writeFileSync(copy, '[package]\nname = "invoices"\n');
    rmSync(join(root, 'apollia.toml'));
    symlinkSync(copy, join(root, 'apollia.toml'));
    expect(await checkIntegrity(root, files)).toMatchObject({
      state: 'changed',
      changed: ['apollia.toml'],
      missing: [],
      added: [],
    });
  });

  it('a folder swapped for a link is changed, and the files below it are missing (not followed)', async () => {
    const files = await recorded();
    const elsewhere = join(root, '..', 'elsewhere');
    renameSync(join(root, 'tools'), elsewhere);
    symlinkSync(elsewhere, join(root, 'tools'));
    expect(await checkIntegrity(root, files)).toEqual({
      state: 'changed',
      changed: ['tools'],
      missing: ['tools/deep/data.json', 'tools/ledger.py'],
      added: [],
      truncated: false,
    });
  });

  it('a FIFO, or a folder where a file was, is changed', async () => {
    const files = await recorded();
    execFileSync('mkfifo', [join(root, 'pipe')]);
    rmSync(join(root, 'tools', 'ledger.py'));
    mkdirSync(join(root, 'tools', 'ledger.py'));
    expect(await checkIntegrity(root, files)).toEqual({
      state: 'changed',
      changed: ['pipe', 'tools/ledger.py'],
      missing: [],
      added: [],
      truncated: false,
    });
  });

  it('a deleted package folder makes every file missing', async () => {
    const files = await recorded();
    rmSync(root, { recursive: true });
    expect(await checkIntegrity(root, files)).toEqual({
      state: 'changed',
      changed: [],
      missing: ['apollia.toml', 'tools/deep/data.json', 'tools/ledger.py'],
      added: [],
      truncated: false,
    });
  });

  it('stops at the entry limit and says the list is incomplete', async () => {
    const files = await recorded();
    for (let i = 0; i < 20; i++) writeFileSync(join(root, `extra-${String(i).padStart(2, '0')}`), 'x');
    const report = await checkIntegrity(root, files, { maxEntries: 10, maxFileBytes: 1024 });
    expect(report.state).toBe('changed');
    expect(report.truncated).toBe(true);
    expect(report.missing).toEqual([]);
  });

  it('reads only own properties of the recorded map', async () => {
    const files = await recorded();
    const withInherited = Object.assign(Object.create({ 'ghost.txt': sha256('x') }), files);
    expect(await checkIntegrity(root, withInherited)).toMatchObject({ state: 'ok', missing: [] });
  });

  it.skipIf(process.getuid?.() === 0)(
    'an unlistable subfolder is changed; an unlistable root is unreadable',
    async () => {
      const files = await recorded();
      chmodSync(join(root, 'tools', 'deep'), 0o000);
      try {
        expect(await checkIntegrity(root, files)).toMatchObject({
          state: 'changed',
          changed: ['tools/deep'],
          missing: ['tools/deep/data.json'],
        });
        chmodSync(root, 0o000);
        expect(await checkIntegrity(root, files)).toMatchObject({
          state: 'unreadable',
          error: { code: INTEGRITY_ERROR.unreadable },
        });
      } finally {
        chmodSync(root, 0o755);
        chmodSync(join(root, 'tools', 'deep'), 0o755);
      }
    },
  );
});

describe('a package folder that is a link', () => {
  it('is not followed: computing refuses it, checking finds every file missing', async () => {
    const files = await recorded();
    const link = join(root, '..', 'linked');
    symlinkSync(root, link);
    expect(await computeFileDigests(link)).toEqual({
      ok: false,
      error: {
        code: INTEGRITY_ERROR.unreadable,
        message: `the folder ${link} cannot be checked: not a folder (a link)`,
      },
    });
    expect(await checkIntegrity(link, files)).toMatchObject({
      state: 'changed',
      missing: ['apollia.toml', 'tools/deep/data.json', 'tools/ledger.py'],
    });
  });
});
