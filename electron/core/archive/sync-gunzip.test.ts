/**
 * The gunzip the archive reader drives step by step (`sync-gunzip.ts`) and the check of what
 * follows the gzip stream (`gunzipped` in `archive-source.ts`), fed every way a file can fall into
 * read chunks: the output must be zlib's own, byte for byte, and each refusal the same, wherever a
 * chunk or the output buffer happens to end.
 */
import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { gunzipped } from './archive-source';
import { ARCHIVE_ERROR, ArchiveRefusal } from './refusal';
import { SyncGunzip } from './sync-gunzip';

/** Text that compresses a few times over, and bytes that do not: both kinds of deflate blocks. */
const PLAIN = Buffer.concat([
  Buffer.from('invoice,amount,due\n'.repeat(3000)),
  randomBytes(40_000),
  Buffer.from('end\n'),
]);
const GZ = gzipSync(PLAIN);

/** Cuts `bytes` at the given offsets. */
function split(bytes: Buffer, cuts: number[]): Buffer[] {
  const at = [0, ...cuts.filter((cut) => cut > 0 && cut < bytes.length).sort((a, b) => a - b), bytes.length];
  return at.slice(1).map((end, i) => bytes.subarray(at[i], end));
}

/** Runs `chunks` through a SyncGunzip with an output buffer of `outBytes`, copying each output. */
function inflateAll(chunks: Buffer[], outBytes: number): { output: Buffer; inflater: SyncGunzip; rest: number } {
  const inflater = new SyncGunzip(outBytes);
  const parts: Buffer[] = [];
  let rest = 0;
  for (const chunk of chunks) {
    let offset = 0;
    while (!inflater.ended) {
      const step = inflater.write(chunk, offset);
      offset += step.consumed;
      parts.push(Buffer.from(step.output));
      if (!step.full) break;
    }
    if (inflater.ended) rest += chunk.length - offset;
  }
  inflater.finish();
  inflater.close();
  return { output: Buffer.concat(parts), inflater, rest };
}

async function drain(chunks: Buffer[], outBytes = 1 << 16): Promise<Buffer> {
  async function* raw() {
    yield* chunks;
  }
  const parts: Buffer[] = [];
  for await (const chunk of gunzipped(raw(), new SyncGunzip(outBytes))) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

async function refusal(chunks: Buffer[]): Promise<ArchiveRefusal> {
  const error = await drain(chunks).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ArchiveRefusal)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe('SyncGunzip', () => {
  it.each([1, 7, 512, 65_536, 1 << 20])('inflates exactly what zlib does into a %i-byte output buffer', (outBytes) => {
    expect(inflateAll([GZ], outBytes).output.equals(PLAIN)).toBe(true);
  });

  it('inflates the same however the input is cut', () => {
    const cuts = [1, 2, 9, 10, 11, 300, 4096, GZ.length - 9, GZ.length - 8, GZ.length - 1];
    for (const cut of cuts) expect(inflateAll(split(GZ, [cut]), 4096).output.equals(PLAIN), `cut at ${cut}`).toBe(true);
    expect(
      inflateAll(
        split(
          GZ,
          Array.from({ length: GZ.length }, (_, i) => i),
        ),
        333,
      ).output.equals(PLAIN),
      'one byte at a time',
    ).toBe(true);
  });

  it('inflates a stream of several gzip members as one (cat a.gz b.gz), as gunzip does', () => {
    const second = gzipSync(Buffer.from('second member\n'));
    const { output, inflater } = inflateAll([Buffer.concat([GZ, second])], 1000);
    expect(output.equals(gunzipSync(Buffer.concat([GZ, second])))).toBe(true);
    expect(inflater.bytesIn).toBe(GZ.length + second.length);
  });

  it('stops at the end of the stream before zero bytes, whether they come in the same input or the next', () => {
    const padded = inflateAll([Buffer.concat([GZ, Buffer.alloc(10)])], 4096);
    expect(padded.inflater.ended).toBe(true);
    expect(padded.inflater.bytesIn).toBe(GZ.length);
    expect(padded.rest).toBe(10);
    const apart = inflateAll([GZ, Buffer.alloc(10)], 4096);
    expect(apart.output.equals(PLAIN)).toBe(true);
    expect(apart.inflater.bytesIn).toBe(GZ.length);
    expect(apart.rest).toBe(10);
  });

  it('ends when the last output fills the buffer exactly', () => {
    const exact = gzipSync(Buffer.alloc(4096, 'a'));
    const { output, inflater, rest } = inflateAll([Buffer.concat([exact, Buffer.alloc(3)])], 4096);
    expect(output.length).toBe(4096);
    expect(inflater.ended).toBe(true);
    expect(rest).toBe(3);
  });

  it('throws zlib’s own errors: Z_BUF_ERROR for a cut stream, Z_DATA_ERROR for corrupt data', () => {
    expect(() => inflateAll([GZ.subarray(0, GZ.length - 20)], 4096)).toThrow(
      expect.objectContaining({ code: 'Z_BUF_ERROR' }),
    );
    const corrupt = Buffer.from(GZ);
    corrupt.writeUInt16LE(corrupt.readUInt16LE(20) ^ 0xffff, 20);
    expect(() => inflateAll([corrupt], 4096)).toThrow(expect.objectContaining({ code: expect.stringMatching(/^Z_/) }));
  });

  it('refuses to write once closed or errored: node aborts the whole process on a closed handle', () => {
    const closed = new SyncGunzip(4096);
    closed.close();
    expect(() => closed.write(GZ, 0)).toThrow('the gunzip was closed');
    expect(() => closed.finish()).toThrow('the gunzip was closed');
    const corrupt = new SyncGunzip(4096);
    const bad = Buffer.from(GZ);
    bad.writeUInt16LE(bad.readUInt16LE(20) ^ 0xffff, 20);
    const first = (() => {
      try {
        corrupt.write(bad, 0);
        return null;
      } catch (error) {
        return error;
      }
    })();
    expect(first).toMatchObject({ code: expect.stringMatching(/^Z_/) });
    expect(() => corrupt.write(GZ, 0)).toThrow(first as Error);
  });
});

describe('what follows the gzip stream, wherever the read chunks fall', () => {
  const gz = packFolder(INVOICES_DIR);
  const plain = gunzipSync(gz);
  /** Cuts at and around the end of the gzip stream, and around the byte after the padding. */
  const cutsNear = (end: number) => [-2, -1, 0, 1, 2].map((d) => end + d);

  it('accepts zero padding, inflating all of the stream, however it is cut', async () => {
    const bytes = Buffer.concat([gz, Buffer.alloc(100)]);
    for (const cut of [...cutsNear(gz.length), ...cutsNear(gz.length + 50)]) {
      expect((await drain(split(bytes, [cut]), 4096)).equals(plain), `cut at ${cut}`).toBe(true);
    }
  });

  it('refuses a byte after the padding, counting from the end of the stream, however it is cut', async () => {
    const bytes = Buffer.concat([gz, Buffer.alloc(100), Buffer.from('x')]);
    for (const cut of [...cutsNear(gz.length), ...cutsNear(gz.length + 100)]) {
      const error = await refusal(split(bytes, [cut]));
      expect(error.code, `cut at ${cut}`).toBe(ARCHIVE_ERROR.trailingData);
      expect(error.message).toBe(
        'the file has data after the end of its gzip stream (100 bytes after it): nothing may follow it but zero padding',
      );
    }
  });

  it('refuses garbage right after the stream as a corrupt gzip stream, however it is cut', async () => {
    const bytes = Buffer.concat([gz, Buffer.from('garbage')]);
    for (const cut of cutsNear(gz.length)) {
      const error = await refusal(split(bytes, [cut]));
      expect(error.code, `cut at ${cut}`).toBe(ARCHIVE_ERROR.corruptGzip);
    }
  });

  it('refuses a stream cut short as truncated, and a padding longer than 1 MiB by its length', async () => {
    expect((await refusal([gz.subarray(0, gz.length - 4)])).code).toBe(ARCHIVE_ERROR.truncated);
    const long = await refusal(
      split(Buffer.concat([gz, Buffer.alloc((1 << 20) + 1)]), [gz.length + 1000, gz.length + 600_000]),
    );
    expect(long.message).toBe(
      'the file has 1048577 bytes after the end of its gzip stream: at most 1048576 bytes of zero padding may follow it',
    );
  });
});
