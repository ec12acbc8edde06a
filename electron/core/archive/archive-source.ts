/**
 * Opens an `.apo` file as ONE pass: every raw byte is hashed (SHA-256) as it is read, the format
 * is told by content (gzip magic → gunzip; a tar header with a valid checksum → plain tar; anything
 * else refused by name), and the tar bytes are handed out chunk by chunk. Nothing is buffered
 * beyond two read chunks and one gunzip output chunk, each allocated once and reused.
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { chunkBytesFor, FILE_CHUNK_BYTES, GUNZIP_CHUNK_BYTES, MAX_TRAILING_ZERO_BYTES } from './limits';
import { ARCHIVE_ERROR, ArchiveRefusal } from './refusal';
import { SyncGunzip } from './sync-gunzip';
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
    if (head.length >= other.magic.length && other.magic.every((byte, i) => head[i] === byte))
      return { format: 'other', name: other.name };
  }
  if (head.length >= BLOCK && (hasValidChecksum(head.subarray(0, BLOCK)) || isZeroBlock(head.subarray(0, BLOCK))))
    return { format: 'tar' };
  return { format: 'unknown' };
}

/** The tar bytes of one archive file, and the SHA-256 of its raw bytes once they are all read. */
export interface ArchiveSource {
  format: 'gzip' | 'tar';
  /** Each chunk is valid only until the next is asked for: the buffers behind them are reused. */
  tarChunks: AsyncIterable<Buffer>;
  /** Hex SHA-256 of the whole file; call only after `tarChunks` is exhausted. */
  sha256(): string;
  /** Stops reading and releases the file and zlib (safe to call more than once). */
  close(): void;
}

/**
 * Reads a file front to back into two buffers it reuses: while the caller works on one chunk, the
 * next is being read into the other. A chunk is valid until the call after the one that returned it.
 */
class ChunkReader {
  private readonly buffers: [Buffer, Buffer];
  private turn = 0;
  private position = 0;
  private pending: Promise<number> | null = null;
  private done = false;

  constructor(
    private readonly handle: FileHandle,
    chunkBytes: number,
  ) {
    this.buffers = [Buffer.allocUnsafe(chunkBytes), Buffer.allocUnsafe(chunkBytes)];
  }

  /** The next chunk, or null at the end of the file. */
  async next(): Promise<Buffer | null> {
    if (this.done) return null;
    const buffer = this.buffers[this.turn]!;
    const bytes = await (this.pending ?? this.read(buffer));
    this.pending = null;
    if (this.done) return null; // closed while the read was in flight
    if (bytes === 0) {
      this.done = true;
      return null;
    }
    this.position += bytes;
    this.turn ^= 1;
    this.pending = this.read(this.buffers[this.turn]!);
    // A failed read ahead is seen by the `next()` that waits for it, not as an unhandled rejection.
    this.pending.catch(() => undefined);
    return buffer.subarray(0, bytes);
  }

  /** Stops reading; closes the file once a read in flight has ended. */
  close(): void {
    this.done = true;
    const inFlight = this.pending ?? Promise.resolve(0);
    this.pending = null;
    void inFlight
      .then(
        () => this.handle.close(),
        () => this.handle.close(),
      )
      .catch(() => undefined);
  }

  private async read(buffer: Buffer): Promise<number> {
    return (await this.handle.read(buffer, 0, buffer.length, this.position)).bytesRead;
  }
}

/**
 * Opens `path`, or throws the refusal (unreadable, empty, not tar or gzip'd tar). `onBytes`, when
 * given, sees every raw byte exactly when it is hashed, in order (the signature check of
 * `trust/package-signature.ts` rides on this single read); like the tar chunks, a chunk it is
 * given is valid only during the call.
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
    if (!info.isFile())
      throw Object.assign(new Error('not a regular file'), { code: info.isDirectory() ? 'EISDIR' : 'ENOTREGULAR' });
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw unreadable(path, error);
  }
  const reader = new ChunkReader(handle, chunkBytesFor(fileBytes, FILE_CHUNK_BYTES));
  const hash = createHash('sha256');
  const nextRaw = async (): Promise<Buffer | null> => {
    let chunk: Buffer | null;
    try {
      chunk = await reader.next();
    } catch (error) {
      throw unreadable(path, error);
    }
    if (chunk === null) return null;
    hash.update(chunk);
    onBytes?.(chunk);
    return chunk;
  };

  // The first block tells the format (a chunk is at least MIN_CHUNK_BYTES, so one read holds it
  // unless the file is shorter; a short read is topped up).
  let first: Buffer;
  try {
    const head: Buffer[] = [];
    let headBytes = 0;
    let chunk: Buffer | null;
    while (headBytes < BLOCK && (chunk = await nextRaw()) !== null) {
      head.push(headBytes === 0 && chunk.length >= BLOCK ? chunk : Buffer.from(chunk));
      headBytes += chunk.length;
    }
    first = head.length === 1 ? head[0]! : Buffer.concat(head);
  } catch (error) {
    reader.close();
    throw error;
  }
  const refuse = (refusal: ArchiveRefusal): never => {
    reader.close();
    throw refusal;
  };
  if (first.length === 0)
    refuse(new ArchiveRefusal(ARCHIVE_ERROR.empty, "the file is empty: only tar and gzip'd tar archives are accepted"));
  const sniffed = sniffFormat(first);
  if (sniffed.format === 'other')
    refuse(
      new ArchiveRefusal(ARCHIVE_ERROR.unsupportedFormat, `${sniffed.name} are not accepted: only tar and gzip'd tar`),
    );
  if (sniffed.format === 'unknown')
    refuse(
      new ArchiveRefusal(
        ARCHIVE_ERROR.notArchive,
        "the file is not a tar or gzip'd tar archive (no gzip signature and no valid tar header at its start)",
      ),
    );

  async function* rawChunks(): AsyncGenerator<Buffer> {
    yield first;
    for (let chunk = await nextRaw(); chunk !== null; chunk = await nextRaw()) yield chunk;
  }

  if (sniffed.format === 'tar') {
    return { format: 'tar', tarChunks: rawChunks(), sha256: () => hash.digest('hex'), close: () => reader.close() };
  }
  // Sized to the file: gzip'd package text inflates a few times over; a large one gets the full 1 MiB.
  const inflater = new SyncGunzip(chunkBytesFor(fileBytes, GUNZIP_CHUNK_BYTES, 4));
  return {
    format: 'gzip',
    tarChunks: gunzipped(rawChunks(), inflater),
    sha256: () => hash.digest('hex'),
    close: () => {
      inflater.close();
      reader.close();
    },
  };
}

/**
 * The inflated bytes of `raw` (each chunk valid until the next), then the check of what follows the
 * gzip stream. `raw` is read to its end, so that the SHA-256 covers every byte of the file, unless
 * more follows than could be accepted. Throws the refusal.
 */
export async function* gunzipped(raw: AsyncIterable<Buffer>, inflater: SyncGunzip): AsyncGenerator<Buffer> {
  // zlib silently stops at the end of the last gzip member when a zero byte follows, whatever comes
  // after it. Zero padding (bsdtar pads its stdout to a 10240-byte block) is accepted up to the same
  // bound as after the tar end; any other byte after the gzip stream is refused (a reader must see
  // every byte it hashed: no hidden payload another tool might unpack).
  let after = 0;
  let firstNonZero = -1;
  try {
    for await (const chunk of raw) {
      let offset = 0;
      while (!inflater.ended) {
        const step = inflater.write(chunk, offset);
        offset += step.consumed;
        if (step.output.length > 0) yield step.output;
        // Room left in the output: zlib has taken all of the chunk it can (all of it, or up to the
        // end of the gzip stream).
        if (!step.full) break;
      }
      if (!inflater.ended) continue;
      const rest = chunk.subarray(offset);
      if (firstNonZero === -1) {
        const at = rest.findIndex((byte) => byte !== 0);
        if (at !== -1) firstNonZero = after + at;
      }
      after += rest.length;
      if (after > MAX_TRAILING_ZERO_BYTES) break;
    }
    inflater.finish();
  } catch (error) {
    throw gzipRefusal(error);
  }
  if (after > MAX_TRAILING_ZERO_BYTES) {
    throw new ArchiveRefusal(
      ARCHIVE_ERROR.trailingData,
      `the file has ${after} bytes after the end of its gzip stream: at most ${MAX_TRAILING_ZERO_BYTES} bytes of zero padding may follow it`,
    );
  }
  if (firstNonZero !== -1) {
    throw new ArchiveRefusal(
      ARCHIVE_ERROR.trailingData,
      `the file has data after the end of its gzip stream (${firstNonZero} bytes after it): nothing may follow it but zero padding`,
    );
  }
}

function gzipRefusal(error: unknown): unknown {
  if (error instanceof ArchiveRefusal) return error;
  const code = (error as { code?: string }).code;
  const message = (error as { message?: string }).message ?? String(error);
  if (code === 'Z_BUF_ERROR')
    return new ArchiveRefusal(ARCHIVE_ERROR.truncated, 'the archive is truncated: its gzip stream ends early');
  if (code?.startsWith('Z_'))
    return new ArchiveRefusal(ARCHIVE_ERROR.corruptGzip, `the gzip stream is corrupt (${message})`);
  return error;
}

function unreadable(path: string, error: unknown): ArchiveRefusal {
  const code = (error as { code?: string }).code;
  const why =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EISDIR'
        ? 'it is a folder'
        : code === 'ENOTREGULAR'
          ? 'it is not a regular file'
          : code === 'EACCES'
            ? 'permission denied'
            : ((error as Error).message ?? String(error));
  return new ArchiveRefusal(ARCHIVE_ERROR.unreadable, `the archive ${path} could not be read: ${why}`);
}
