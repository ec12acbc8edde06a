/**
 * Opens an `.apo` file as ONE stream: every raw byte is hashed (SHA-256) as it is read, the format
 * is told by content (gzip magic → gunzip; a tar header with a valid checksum → plain tar; anything
 * else refused by name), and the tar bytes are handed out chunk by chunk. Nothing is buffered
 * beyond one read chunk and one gunzip output chunk.
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { TransformOptions } from 'node:stream';
import { createGunzip, type Gunzip, type ZlibOptions } from 'node:zlib';
import { chunkBytesFor, FILE_CHUNK_BYTES, GUNZIP_CHUNK_BYTES, GUNZIP_QUEUED_CHUNKS, MAX_TRAILING_ZERO_BYTES } from './limits';
import { ARCHIVE_ERROR, ArchiveRefusal } from './refusal';
import { BLOCK, hasValidChecksum, isZeroBlock } from './tar-header';

/** Formats recognised by their magic bytes only to refuse them with a message that names them. */
const OTHER_FORMATS: { name: string; magic: number[] }[] = [
  { name: 'zstd-compressed archives', magic: [0x28, 0xb5, 0x2f, 0xfd] },
  { name: 'xz-compressed archives', magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] },
  { name: 'bzip2-compressed archives', magic: [0x42, 0x5a, 0x68] },
  { name: 'zip archives', magic: [0x50, 0x4b, 0x03, 0x04] },
  { name: 'zip archives', magic: [0x50, 0x4b, 0x05, 0x06] },
  { name: '7z archives', magic: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { name: 'lz4-compressed archives', magic: [0x04, 0x22, 0x4d, 0x18] },
  { name: 'rar archives', magic: [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07] },
];

/** What the first bytes of a file say it is. */
export type Sniffed = { format: 'gzip' | 'tar' } | { format: 'other'; name: string } | { format: 'unknown' };

/** Tells the format from the first bytes (at least 512 when the file has them). */
export function sniffFormat(head: Uint8Array): Sniffed {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return { format: 'gzip' };
  for (const other of OTHER_FORMATS) {
    if (head.length >= other.magic.length && other.magic.every((byte, i) => head[i] === byte)) return { format: 'other', name: other.name };
  }
  if (head.length >= BLOCK && (hasValidChecksum(head.subarray(0, BLOCK)) || isZeroBlock(head.subarray(0, BLOCK)))) return { format: 'tar' };
  return { format: 'unknown' };
}

/** The tar bytes of one archive file, and the SHA-256 of its raw bytes once they are all read. */
export interface ArchiveSource {
  format: 'gzip' | 'tar';
  tarChunks: AsyncIterable<Buffer>;
  /** Hex SHA-256 of the whole file; call only after `tarChunks` is exhausted. */
  sha256(): string;
  /** Stops reading and releases the file and the gunzip stream (safe to call more than once). */
  close(): void;
}

/**
 * Opens `path`, or throws the refusal (unreadable, empty, not tar or gzip'd tar). `onBytes`, when
 * given, sees every raw byte exactly when it is hashed, in order (the signature check of
 * `trust/package-signature.ts` rides on this single read).
 */
export async function openArchiveSource(path: string, onBytes?: (chunk: Buffer) => void): Promise<ArchiveSource> {
  // Opened without blocking and checked on the open handle (no stat-then-open race): a FIFO or a
  // device would block or never end, so only a regular file is read.
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw unreadable(path, error);
  }
  let fileBytes: number;
  try {
    const info = await handle.stat();
    fileBytes = info.size;
    if (!info.isFile()) throw Object.assign(new Error('not a regular file'), { code: info.isDirectory() ? 'EISDIR' : 'ENOTREGULAR' });
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw unreadable(path, error);
  }
  const file = handle.createReadStream({ highWaterMark: chunkBytesFor(fileBytes, FILE_CHUNK_BYTES) });
  const raw = file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const hash = createHash('sha256');
  let rawBytes = 0;
  // The last raw chunks, covering at least MAX_TRAILING_ZERO_BYTES: where the gzip stream ends is
  // known only at the end, and the bytes after it must then be checked to be zero padding.
  const tail: Buffer[] = [];
  let tailBytes = 0;
  const keepTail = (chunk: Buffer) => {
    tail.push(chunk);
    tailBytes += chunk.length;
    while (tail.length > 1 && tailBytes - tail[0]!.length >= MAX_TRAILING_ZERO_BYTES) tailBytes -= tail.shift()!.length;
  };
  const head: Buffer[] = [];
  let headBytes = 0;
  let ended = false;
  try {
    while (headBytes < BLOCK) {
      const next = await raw.next();
      if (next.done) {
        ended = true;
        break;
      }
      head.push(next.value);
      headBytes += next.value.length;
    }
  } catch (error) {
    file.destroy();
    throw unreadable(path, error);
  }
  const first = Buffer.concat(head);
  for (const chunk of head) {
    hash.update(chunk);
    onBytes?.(chunk);
  }
  rawBytes += first.length;
  keepTail(first);

  if (first.length === 0) {
    file.destroy();
    throw new ArchiveRefusal(ARCHIVE_ERROR.notArchive, "the file is empty: only tar and gzip'd tar archives are accepted");
  }
  const sniffed = sniffFormat(first);
  if (sniffed.format === 'other') {
    file.destroy();
    throw new ArchiveRefusal(ARCHIVE_ERROR.unsupportedFormat, `${sniffed.name} are not accepted: only tar and gzip'd tar`);
  }
  if (sniffed.format === 'unknown') {
    file.destroy();
    throw new ArchiveRefusal(ARCHIVE_ERROR.notArchive, "the file is not a tar or gzip'd tar archive (no gzip signature and no valid tar header at its start)");
  }

  async function* rawChunks(): AsyncGenerator<Buffer> {
    yield first;
    if (ended) return;
    for (;;) {
      let next: IteratorResult<Buffer>;
      try {
        next = await raw.next();
      } catch (error) {
        throw unreadable(path, error);
      }
      if (next.done) return;
      hash.update(next.value);
      onBytes?.(next.value);
      rawBytes += next.value.length;
      keepTail(next.value);
      yield next.value;
    }
  }

  if (sniffed.format === 'tar') {
    return {
      format: 'tar',
      tarChunks: rawChunks(),
      sha256: () => hash.digest('hex'),
      close: () => file.destroy(),
    };
  }

  // Sized to the file: gzip'd package text inflates a few times over; a large one gets the full 1 MiB.
  // Each side holds a few chunks (zlib's default, 16 KiB, is less than one), so that reading,
  // inflating and scanning overlap instead of taking turns (issue 17; measured in limits.ts).
  const outChunk = chunkBytesFor(fileBytes, GUNZIP_CHUNK_BYTES, 4);
  // (A zlib stream hands stream options on to its Transform: node's lib/zlib.js, ZlibBase.)
  const options: ZlibOptions & TransformOptions = { chunkSize: outChunk, writableHighWaterMark: chunkBytesFor(fileBytes, FILE_CHUNK_BYTES) * GUNZIP_QUEUED_CHUNKS, readableHighWaterMark: outChunk * GUNZIP_QUEUED_CHUNKS };
  const gunzip = createGunzip(options);
  // The gzip stream has ended (zlib stops at its last member): what follows is only read, hashed
  // and checked as padding, never inflated.
  let inflated = false;
  let closed = false;
  gunzip.once('end', () => {
    inflated = true;
  });
  // Feeds the raw chunks to gunzip with backpressure; a read error or a zlib error ends up as the
  // gunzip stream's error, which the iterator in `gunzipped` throws. Stops when gunzip is closed.
  // After the gzip stream it reads on to the end of the file, so the SHA-256 covers every byte and
  // the padding check sees all of it, however the file falls into read chunks; it stops early once
  // more follows than could be accepted (then the check refuses it).
  const feed = async () => {
    try {
      for await (const chunk of rawChunks()) {
        if (closed) return;
        // After the gzip stream, whatever the stream's state (zlib may end and destroy it while this
        // loop waits for a read): only the reader closing the source stops the tail being read.
        if (inflated) {
          if (rawBytes - gunzip.bytesWritten > MAX_TRAILING_ZERO_BYTES) return;
          continue;
        }
        if (gunzip.destroyed) return; // a zlib error: `gunzipped` throws it
        if (!gunzip.write(chunk))
          await new Promise<void>((resolve) => {
            const done = () => {
              gunzip.off('drain', done);
              gunzip.off('close', done);
              gunzip.off('end', done);
              resolve();
            };
            gunzip.on('drain', done);
            gunzip.on('close', done);
            gunzip.on('end', done);
          });
      }
      if (!gunzip.destroyed && !inflated) gunzip.end();
    } catch (error) {
      gunzip.destroy(error as Error);
    }
  };
  const fed = feed();
  return {
    format: 'gzip',
    tarChunks: gunzipped(gunzip, async () => {
      await fed;
      return { rawBytes, tail: Buffer.concat(tail) };
    }),
    sha256: () => hash.digest('hex'),
    close: () => {
      closed = true;
      gunzip.destroy();
      file.destroy();
    },
  };
}

async function* gunzipped(gunzip: Gunzip, rawEnd: () => Promise<{ rawBytes: number; tail: Buffer }>): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (error) {
    throw gzipRefusal(error);
  }
  // zlib silently stops at the end of the last gzip member when a zero byte follows, whatever comes
  // after it. Zero padding (bsdtar pads its stdout to a 10240-byte block) is accepted up to the same
  // bound as after the tar end; any other byte after the gzip stream is refused (a reader must see
  // every byte it hashed: no hidden payload another tool might unpack).
  const { rawBytes, tail } = await rawEnd();
  const after = rawBytes - gunzip.bytesWritten;
  if (after <= 0) return;
  if (after > MAX_TRAILING_ZERO_BYTES) {
    throw new ArchiveRefusal(ARCHIVE_ERROR.trailingData, `the file has ${after} bytes after the end of its gzip stream: at most ${MAX_TRAILING_ZERO_BYTES} bytes of zero padding may follow it`);
  }
  const padding = tail.subarray(tail.length - after);
  const nonZero = padding.findIndex((byte) => byte !== 0);
  if (nonZero !== -1) {
    throw new ArchiveRefusal(ARCHIVE_ERROR.trailingData, `the file has data after the end of its gzip stream (${nonZero} bytes after it): nothing may follow it but zero padding`);
  }
}

function gzipRefusal(error: unknown): unknown {
  if (error instanceof ArchiveRefusal) return error;
  const code = (error as { code?: string }).code;
  const message = (error as { message?: string }).message ?? String(error);
  if (code === 'Z_BUF_ERROR') return new ArchiveRefusal(ARCHIVE_ERROR.truncated, 'the archive is truncated: its gzip stream ends early');
  if (code?.startsWith('Z_')) return new ArchiveRefusal(ARCHIVE_ERROR.corruptGzip, `the gzip stream is corrupt (${message})`);
  return error;
}

function unreadable(path: string, error: unknown): ArchiveRefusal {
  const code = (error as { code?: string }).code;
  const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'ENOTREGULAR' ? 'it is not a regular file' : code === 'EACCES' ? 'permission denied' : ((error as Error).message ?? String(error));
  return new ArchiveRefusal(ARCHIVE_ERROR.unreadable, `the archive ${path} could not be read: ${why}`);
}
