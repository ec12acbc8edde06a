/**
 * Bombs (DESIGN.md "Reading without running": a limit is refused as soon as a header shows it is
 * crossed, so a bomb costs milliseconds and little memory). The inputs are generated once per run
 * into a temp folder; speed itself is measured by `npm run bench`, never asserted here.
 */
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTar } from '../../../test/helpers/pack';
import { fileEntry, MANIFEST, tarOf, writeZeroBomb } from '../../../test/fixtures/archive/raw-tar';
import { freshDir, listing } from '../../../test/fixtures/archive/sandbox';
import { gzipSync } from 'node:zlib';
import { ARCHIVE_ERROR, readApoArchive } from './index';

const GiB = 1024 * 1024 * 1024;
const MiB = 1024 * 1024;
let dir = '';

beforeAll(async () => {
  dir = freshDir('bombs');
  await writeZeroBomb(join(dir, 'gib.apo'), [{ name: 'data/zeros.bin', size: GiB }]);
  // Four 60 MiB files pass; the fifth crosses 256 MiB at its header.
  await writeZeroBomb(
    join(dir, 'total.apo'),
    Array.from({ length: 5 }, (_, i) => ({ name: `data/part-${i}.bin`, size: 60 * MiB })),
  );
  const many = Array.from({ length: 10_001 }, (_, i) => fileEntry(`f/${String(i).padStart(5, '0')}.txt`));
  writeFileSync(
    join(dir, 'many.apo'),
    gzipSync(tarOf(buildTar([{ name: 'apollia.toml', body: MANIFEST }], { end: false }), ...many)),
  );
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bombs', () => {
  it("refuses a gzip'd 1 GiB entry at its header, writing nothing", async () => {
    const before = listing(dir);
    const result = await readApoArchive(join(dir, 'gib.apo'));
    expect(result.ok === false && result.error).toEqual({
      code: ARCHIVE_ERROR.fileTooLarge,
      message: 'archive entry `data/zeros.bin` declares 1073741824 bytes: at most 67108864 are accepted per file',
      path: 'data/zeros.bin',
    });
    expect(listing(dir)).toEqual(before);
  });

  it('refuses a total-size bomb at the header that crosses 256 MiB', async () => {
    const result = await readApoArchive(join(dir, 'total.apo'));
    expect(result.ok === false && result.error).toEqual({
      code: ARCHIVE_ERROR.totalTooLarge,
      message: `with entry \`data/part-4.bin\` the archive's files would take ${82 + 5 * 60 * MiB} bytes: at most ${256 * MiB} are accepted in total`,
      path: 'data/part-4.bin',
    });
  });

  it('refuses the 10,001st entry', async () => {
    const result = await readApoArchive(join(dir, 'many.apo'));
    expect(result.ok === false && result.error).toEqual({
      code: ARCHIVE_ERROR.tooManyEntries,
      message: 'the archive has more than 10000 entries (entry `f/09999.txt` is one too many)',
      path: 'f/09999.txt',
    });
  });

  it('left only its own inputs in the temp folder', () => {
    expect(readdirSync(dir).sort()).toEqual(['gib.apo', 'many.apo', 'total.apo']);
  });
});
