/**
 * The numbers that bound reading an `.apo` (DESIGN.md "Reading without running"), and the few
 * caps DESIGN leaves to this module, each with the reason for its value.
 */
import { MAX_MANIFEST_BYTES } from '../../../shared/base/limits';
import type { ArchiveLimits } from './types';

const MiB = 1024 * 1024;

/** DESIGN.md "Reading without running": the contract's limits. */
export const DEFAULT_ARCHIVE_LIMITS: Readonly<ArchiveLimits> = Object.freeze({
  maxEntries: 10_000,
  maxTotalBytes: 256 * MiB,
  maxFileBytes: 64 * MiB,
  maxManifestBytes: MAX_MANIFEST_BYTES,
  maxPathBytes: 255,
  maxDepth: 32,
});

/**
 * Total size of the `*.py` texts kept in memory for the module scan. DESIGN says only the
 * manifest and the Python texts are buffered; 16 MiB of Python source is far beyond any real
 * package (the spec's example has 2 KiB) and keeps the reader's peak memory well under 150 MB.
 */
export const MAX_PYTHON_TEXT_BYTES = 16 * MiB;

/**
 * Size of one PAX (`x`/`g`) or GNU long-name/long-link (`L`/`K`) metadata header's data. A name
 * is at most 255 bytes; 64 KiB leaves room for ordinary PAX records (times, SCHILY.xattr) while a
 * "metadata bomb" is refused at its header.
 */
export const MAX_METADATA_BYTES = 64 * 1024;

/**
 * Metadata headers (PAX `x`/`g`, GNU `L`/`K`) in a row before one entry. An entry has at most one
 * `x`, one `L` and one `K` (a second one is refused: readers disagree on which applies), and real
 * writers put at most one `g` before it (`git archive`, Python's tarfile with global PAX headers);
 * bsdtar gives up after 32 ("Too many special headers"), so a longer run would read differently.
 */
export const MAX_METADATA_HEADERS_PER_ENTRY = 4;

/**
 * Headers of any kind (entries plus PAX/GNU metadata) per archive. Metadata headers are not
 * entries, but each costs work: at most three per entry (PAX + long name + long link) is generous.
 */
export function maxHeaders(limits: ArchiveLimits): number {
  return limits.maxEntries * 4 + 16;
}

/**
 * Zero bytes accepted after the end-of-archive blocks. Tar writers pad the archive to a whole
 * record (GNU tar: 10 KiB by default, up to a few hundred KiB with `-b`); 1 MiB covers any record
 * size, and anything beyond it is refused so a stream of zeros cannot be a bomb.
 */
export const MAX_TRAILING_ZERO_BYTES = 1 * MiB;

/**
 * Read size of the archive file (two such buffers, reused: one read ahead while the other is
 * inflated). On the bench's 74 MiB package (`out/cli/cli.cjs inspect --json`, medians of 9,
 * alternating): 256 KiB, 512 KiB and 1 MiB reads are within the noise of each other (277–283 ms,
 * 66–68 MB peak RSS); 2 MiB adds 5 MB.
 */
export const FILE_CHUNK_BYTES = 512 * 1024;

/**
 * The gunzip output buffer, reused for every step (`sync-gunzip.ts`). Same bench: 256 KiB, 1 MiB and
 * 4 MiB are within the noise of each other (280–290 ms); 1 MiB keeps the calls into zlib and the tar
 * scanner few (one per MiB inflated) for a buffer allocated once.
 */
export const GUNZIP_CHUNK_BYTES = 1024 * 1024;

/** The smallest read or gunzip chunk: zlib's own default output chunk. */
export const MIN_CHUNK_BYTES = 16 * 1024;

/**
 * A stream chunk sized to the input: a 1 KiB package must not allocate 1 MiB buffers.
 * `fileBytes × expansion` (the file's size, times what gunzip may make of it) rounded up to a power
 * of two, between {@link MIN_CHUNK_BYTES} and `max` (the measured best for large inputs above).
 */
export function chunkBytesFor(fileBytes: number, max: number, expansion = 1): number {
  const wanted = Math.max(MIN_CHUNK_BYTES, fileBytes * expansion);
  return Math.min(max, 2 ** Math.ceil(Math.log2(wanted)));
}
