/**
 * The tar test suites of libarchive, Go's archive/tar and CPython's tarfile against the app.
 * Each peer archive (read from `../shared/peer-tar/src/`, beside the clone; never copied into
 * the repository) is grafted into a valid package, before and after the package's own entries.
 * Every verdict is pinned (the snapshot beside this file: `ok` or the refusal code), the cases where
 * readers disagree are asserted by hand, and every accepted graft must extract with bsdtar to exactly
 * the files, sizes and bytes the app installs.
 *
 * Without the peer archives the tests fail under CI and are skipped elsewhere.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { fileEntry, manifestEntry, tarOf } from '../../../test/fixtures/archive/raw-tar';
import {
  appReading,
  extractWith,
  hasReader,
  packageView,
  peerTarDir,
} from '../../../test/fixtures/archive/tar-readers';
import { BLOCK, hasValidChecksum, isZeroBlock, parseNumeric } from './tar-header';

const peers = peerTarDir();
const work = mkdtempSync(join(tmpdir(), 'peer-tar-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every peer archive as `suite/name`, sorted. */
function peerNames(): string[] {
  if (peers === null) return [];
  return ['cpython', 'go', 'libarchive'].flatMap((suite) =>
    readdirSync(join(peers, suite))
      .filter((file) => file.endsWith('.tar.gz'))
      .map((file) => `${suite}/${file.slice(0, -'.tar.gz'.length)}`)
      .sort(),
  );
}

/**
 * A peer archive less its end-of-archive blocks: header by header while the headers are sound,
 * cut at the first zero block; otherwise (a damaged archive, which is the point of some) the whole
 * archive less its trailing zero blocks.
 */
function entriesOf(tar: Buffer): Buffer {
  let pos = 0;
  while (pos + BLOCK <= tar.length) {
    const block = tar.subarray(pos, pos + BLOCK);
    if (isZeroBlock(block)) return tar.subarray(0, pos);
    const size = hasValidChecksum(block) ? parseNumeric(block.subarray(124, 136)) : null;
    if (size === null || !Number.isSafeInteger(size)) break;
    pos += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  let end = tar.length - (tar.length % BLOCK);
  while (end >= BLOCK && isZeroBlock(tar.subarray(end - BLOCK, end))) end -= BLOCK;
  return tar.subarray(0, end);
}

const PACKAGE = () => Buffer.concat([manifestEntry(), fileEntry('tools/extract.py', 'def run():\n    return 1\n')]);

/** The two grafts of one peer archive. */
function grafts(name: string): { before: Buffer; after: Buffer } {
  const entries = entriesOf(gunzipSync(readFileSync(join(peers!, `${name}.tar.gz`))));
  return { before: tarOf(PACKAGE(), entries), after: tarOf(entries, PACKAGE()) };
}

const verdicts = new Map<
  string,
  { before: Awaited<ReturnType<typeof appReading>>; after: Awaited<ReturnType<typeof appReading>> }
>();

async function verdictOf(name: string) {
  let known = verdicts.get(name);
  if (!known) {
    const { before, after } = grafts(name);
    const file = (label: string, bytes: Buffer) => {
      const path = join(work, `${name.replace('/', '__')}-${label}.tar`);
      writeFileSync(path, bytes);
      return path;
    };
    known = {
      before: await appReading(file('before', before), work),
      after: await appReading(file('after', after), work),
    };
    verdicts.set(name, known);
  }
  return known;
}

function needPeers(skip: (note: string) => void): void {
  if (peers !== null) return;
  if (process.env['CI'])
    throw new Error('../shared/peer-tar/src is not beside the clone: the peer test needs it under CI');
  skip('the peer test archives (../shared/peer-tar/src/ beside the clone) not found');
}

const shown = (reading: Awaited<ReturnType<typeof appReading>>) => (reading.ok ? 'ok' : reading.code);

describe('the peer test archives (libarchive, Go, CPython) grafted into a package', () => {
  it('finds them (more than 100)', (context) => {
    needPeers((note) => context.skip(note));
    expect(peerNames().length).toBeGreaterThan(100);
  });

  it('gives every graft the pinned verdict (before → after)', async (context) => {
    needPeers((note) => context.skip(note));
    const table: Record<string, string> = {};
    for (const name of peerNames()) {
      const { before, after } = await verdictOf(name);
      table[name] = `${shown(before)} → ${shown(after)}`;
    }
    expect(table).toMatchSnapshot();
  }, 120_000);

  it.for([
    // Entries readers read differently, as the peers' own archives show them.
    ['go/pax-multi-hdrs', 'archive.repeated_metadata'],
    ['go/gnu-multi-hdrs', 'archive.repeated_metadata'],
    ['libarchive/test_read_format_gtar_redundant_L', 'archive.repeated_metadata'],
    ['libarchive/test_read_format_tar_pax_sun_holesdata', 'archive.unsupported_type'],
    ['go/invalid-go17', 'archive.ambiguous_name'],
    // A GNU realsize field in the wild (an Eye-Fi card's writer): bsdtar lists 2176 bytes, GNU tar and Python 14.
    ['go/nil-uid', 'archive.ambiguous_size'],
    // Stricter than all three, by decision (archive README, "One reading").
    ['go/gnu-long-nul', 'archive.control_char'],
    ['go/gnu-not-utf8', 'archive.bad_encoding'],
    ['libarchive/test_read_format_tar_empty_with_gnulabel', 'archive.unsupported_type'],
  ] as const)('%s → %s', async ([name, code], context) => {
    needPeers((note) => context.skip(note));
    const { before, after } = await verdictOf(name);
    expect([shown(before), shown(after)]).toEqual([code, code]);
  });

  it('refuses the v7 folder with a size followed by another entry (libarchive test_compat_tar_directory_1): `tar -tvf` skips the entry after it', async (context) => {
    needPeers((note) => context.skip(note));
    // `directory1/` (type \0, size 1) then `directory2/`: libarchive, Go and Python read two
    // folders, and so does `tar -x`; GNU tar's `tar -t` reads `directory2/` as the first folder's
    // data and lists one. Read as the last entry it is accepted (one-reading.test.ts).
    const { before, after } = await verdictOf('libarchive/test_compat_tar_directory_1');
    expect([shown(before), shown(after)]).toEqual(['archive.ambiguous_size', 'archive.ambiguous_size']);
  });

  it('extracts every accepted graft with bsdtar to exactly what the app installs', async (context) => {
    needPeers((note) => context.skip(note));
    if (!hasReader('bsdtar')) {
      if (process.env['CI']) throw new Error('bsdtar is not installed: the peer test needs it under CI');
      context.skip('bsdtar not installed');
    }
    const mismatches: string[] = [];
    let compared = 0;
    for (const name of peerNames()) {
      const { before, after } = grafts(name);
      const readings = await verdictOf(name);
      for (const [label, bytes, reading] of [
        ['before', before, readings.before],
        ['after', after, readings.after],
      ] as const) {
        if (!reading.ok) continue;
        const file = join(work, `bsd-${compared++}.tar`);
        writeFileSync(file, bytes);
        const bsd = extractWith('bsdtar', file, work);
        const view = packageView(bsd.tree, reading.skipped);
        if (!bsd.ok || JSON.stringify(view) !== JSON.stringify(reading.tree))
          mismatches.push(
            `${name} (${label}): bsdtar ${bsd.ok ? 'ok' : 'error'} ${view.join('; ')}\n  app: ${reading.tree.join('; ')}`,
          );
      }
    }
    expect(compared).toBeGreaterThan(20);
    expect(mismatches).toEqual([]);
  }, 120_000);
});
