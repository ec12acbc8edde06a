/**
 * `extractVerifiedArchive` (DESIGN.md "Reading without running": install extracts only what
 * inspection verified, with normal modes; a failure leaves nothing behind).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTar, INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { fileEntry, MANIFEST, tarOf } from '../../../test/fixtures/archive/raw-tar';
import { freshDir } from '../../../test/fixtures/archive/sandbox';
import { ARCHIVE_ERROR, extractVerifiedArchive, readApoArchive } from './index';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function prepare(bytes: Buffer): Promise<{ file: string; sha256: string; destination: string; work: string }> {
  const work = freshDir('extract');
  dirs.push(work);
  const file = join(work, 'package.apo');
  writeFileSync(file, bytes);
  const read = await readApoArchive(file);
  return { file, sha256: read.ok ? read.sha256 : 'not-verified', destination: join(work, 'data', 'staging-1'), work };
}

const mode = (path: string) => statSync(path).mode & 0o7777;

describe('extractVerifiedArchive', () => {
  it('extracts the spec example with normal modes, stripping a top-level folder', async () => {
    const { file, sha256, destination } = await prepare(packFolder(INVOICES_DIR, { prefix: 'invoices/' }));
    const result = await extractVerifiedArchive(file, sha256, destination);
    expect(result).toEqual({
      ok: true,
      sha256,
      files: [
        { path: 'apollia.toml', size: 1596, executable: false },
        { path: 'tools/extract.py', size: 371, executable: false },
        { path: 'workflows/reminders.py', size: 370, executable: false },
      ],
      dirs: ['tools', 'workflows'],
    });
    expect(readdirSync(destination).sort()).toEqual(['apollia.toml', 'tools', 'workflows']);
    expect(readFileSync(join(destination, 'tools/extract.py'), 'utf8')).toBe(
      readFileSync(join(INVOICES_DIR, 'tools/extract.py'), 'utf8'),
    );
    expect(mode(destination)).toBe(0o700);
    expect(mode(join(destination, 'tools'))).toBe(0o700);
    expect(mode(join(destination, 'apollia.toml'))).toBe(0o644);
  });

  // Reading reuses its buffers (two read chunks, one inflate buffer): each file's bytes must be
  // written before the buffer holding them is filled again.
  it.each([true, false])(
    'writes files spanning many read and inflate chunks byte for byte (gzip: %s)',
    async (gzip) => {
      const big = randomBytes(3 * 1024 * 1024 + 123);
      const text = Buffer.from('line of text\n'.repeat(200_000));
      const tar = buildTar([
        { name: 'apollia.toml', body: MANIFEST },
        { name: 'data/big.bin', body: big },
        { name: 'data/text.txt', body: text },
      ]);
      const { file, sha256, destination } = await prepare(gzip ? gzipSync(tar) : tar);
      const result = await extractVerifiedArchive(file, sha256, destination);
      expect(result.ok).toBe(true);
      expect(readFileSync(join(destination, 'data/big.bin')).equals(big)).toBe(true);
      expect(readFileSync(join(destination, 'data/text.txt')).equals(text)).toBe(true);
    },
  );

  it("writes a setuid file as 0755 and a setgid, group-writable one as 0644: never the archive's bits", async () => {
    const { file, sha256, destination } = await prepare(
      buildTar([
        { name: 'apollia.toml', body: MANIFEST },
        { name: 'bin/run', body: '#!/bin/sh\n', mode: 0o4755 },
        { name: 'data/plain.txt', body: 'x', mode: 0o2664 },
        { name: 'data/sticky/', type: 'dir', mode: 0o1777 },
      ]),
    );
    const result = await extractVerifiedArchive(file, sha256, destination);
    expect(result.ok).toBe(true);
    expect(mode(join(destination, 'bin/run'))).toBe(0o755);
    expect(mode(join(destination, 'data/plain.txt'))).toBe(0o644);
    expect(mode(join(destination, 'data/sticky'))).toBe(0o700);
  });

  it('writes a setuid file without execute bits as 0644', async () => {
    const { file, sha256, destination } = await prepare(
      buildTar([
        { name: 'apollia.toml', body: MANIFEST },
        { name: 'odd', body: 'x', mode: 0o4644 },
      ]),
    );
    expect((await extractVerifiedArchive(file, sha256, destination)).ok).toBe(true);
    expect(mode(join(destination, 'odd'))).toBe(0o644);
  });

  it('never installs macOS AppleDouble entries, and installs a gzip with zero padding after it', async () => {
    const tar = buildTar([
      { name: '._mailroom', body: 'meta' },
      { name: 'mailroom/', type: 'dir' },
      { name: 'mailroom/apollia.toml', body: MANIFEST },
      { name: 'mailroom/._apollia.toml', body: 'meta' },
      { name: 'mailroom/tools/._.', body: 'meta' },
      { name: 'mailroom/tools/t.py', body: '@tool\ndef t(): pass\n' },
    ]);
    const { file, sha256, destination } = await prepare(Buffer.concat([gzipSync(tar), Buffer.alloc(9534)]));
    const result = await extractVerifiedArchive(file, sha256, destination);
    expect(result.ok && result.files.map((f) => f.path)).toEqual(['apollia.toml', 'tools/t.py']);
    expect(readdirSync(destination).sort()).toEqual(['apollia.toml', 'tools']);
    expect(readdirSync(join(destination, 'tools'))).toEqual(['t.py']);
  });

  it('refuses a hash other than the verified one and creates nothing', async () => {
    const { file, destination } = await prepare(packFolder(INVOICES_DIR));
    const result = await extractVerifiedArchive(file, '0'.repeat(64), destination);
    expect(result.ok === false && result.error.code).toBe(ARCHIVE_ERROR.sha256Mismatch);
    expect(existsSync(destination)).toBe(false);
  });

  it('refuses an archive that fails a check and creates nothing', async () => {
    const { file, destination } = await prepare(
      tarOf(fileEntry('apollia.toml', MANIFEST), fileEntry('../escape', 'x')),
    );
    const result = await extractVerifiedArchive(file, 'anything', destination);
    expect(result.ok === false && result.error).toEqual({
      code: ARCHIVE_ERROR.traversal,
      message: 'archive entry `../escape` contains `..`: entries may not point outside the package',
      path: '../escape',
    });
    expect(existsSync(destination)).toBe(false);
  });

  it('refuses a destination that exists and leaves it as it was', async () => {
    const { file, sha256, destination } = await prepare(packFolder(INVOICES_DIR));
    mkdirSync(destination, { recursive: true });
    writeFileSync(join(destination, 'keep.txt'), 'mine');
    const result = await extractVerifiedArchive(file, sha256, destination);
    expect(result.ok === false && result.error.code).toBe(ARCHIVE_ERROR.destinationExists);
    expect(readdirSync(destination)).toEqual(['keep.txt']);
  });

  it('removes the destination completely when the archive changes after inspection', async () => {
    const { file, sha256, destination } = await prepare(packFolder(INVOICES_DIR));
    // Same checks pass, other bytes: the hash no longer matches what was inspected.
    writeFileSync(file, packFolder(INVOICES_DIR, { gzip: false }));
    const result = await extractVerifiedArchive(file, sha256, destination);
    expect(result.ok === false && result.error.code).toBe(ARCHIVE_ERROR.sha256Mismatch);
    expect(existsSync(destination)).toBe(false);
  });

  it('answers write_failed when the destination cannot be created, and leaves nothing', async () => {
    const { file, sha256, work } = await prepare(packFolder(INVOICES_DIR));
    writeFileSync(join(work, 'not-a-folder'), 'x');
    const destination = join(work, 'not-a-folder', 'staging');
    const result = await extractVerifiedArchive(file, sha256, destination);
    expect(result.ok === false && result.error.code).toBe(ARCHIVE_ERROR.writeFailed);
    expect(readdirSync(work).sort()).toEqual(['not-a-folder', 'package.apo']);
  });
});
