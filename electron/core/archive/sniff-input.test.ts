/** `sniffInputKind`: the inspect dispatcher's first look, by content (DESIGN.md "Reading without running"). */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { freshDir } from '../../../test/fixtures/archive/sandbox';
import { sniffInputKind } from './index';

const dir = freshDir('sniff');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const kindOf = (name: string, bytes: Buffer | string) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return sniffInputKind(path);
};

describe('sniffInputKind', () => {
  it("tells gzip'd tar and plain tar as apo, whatever the extension", async () => {
    expect(await kindOf('a.json', packFolder(INVOICES_DIR))).toBe('apo');
    expect(await kindOf('b.txt', packFolder(INVOICES_DIR, { gzip: false }))).toBe('apo');
  });

  it('hands other archive formats to the apo reader, whose refusal names them', async () => {
    expect(await kindOf('c.apo', Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), Buffer.alloc(100)]))).toBe(
      'apo',
    );
  });

  it('hands an empty file to the apo reader, which refuses it as an unfinished download', async () => {
    expect(await kindOf('g.apo', '')).toBe('apo');
    expect(await kindOf('g.txt', '')).toBe('apo');
  });

  it('tells JSON by `{` after a BOM and whitespace', async () => {
    expect(await kindOf('d.bin', '\uFEFF \n\t{"id": "x"}')).toBe('json');
    expect(await kindOf('e.bin', '{}')).toBe('json');
  });

  it('answers directory for a folder and unknown for anything else', async () => {
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    expect(await sniffInputKind(folder)).toBe('directory');
    expect(await kindOf('f.apo', '[1, 2]')).toBe('unknown');
    expect(await sniffInputKind(join(dir, 'missing'))).toBe('unknown');
  });
});
