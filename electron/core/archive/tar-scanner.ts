/**
 * A streaming tar reader that enforces DESIGN.md "Reading without running" header by header.
 *
 * Why hand-written rather than node-tar's `Parser`: node-tar has no entry-count or total-size
 * limit, runs its `filter` before its own checks, applies PAX global headers to later entries,
 * strips `..` and leading `/` with a warning instead of refusing, and tolerates bad checksums and
 * trailing garbage in non-strict modes (TOOLCHAIN.md). Every refusal here must be exact (its own
 * code, naming the entry) and must happen the moment a header shows it, before any data of the
 * entry is read; a small state machine over ustar/PAX/GNU headers does that directly, with no
 * per-entry stream objects, which also keeps it fast (the bench target is ≤ 1.5× `tar -tzf`).
 *
 * The scanner never buffers file data: each slice of an entry's data is handed to the visitor (as
 * a view into the decompressed chunk) and dropped.
 *
 * This file is the scanning loop and the archive-wide limits; a header's bytes are decoded in
 * `tar-header.ts`, PAX and GNU metadata applied and checked in `tar-metadata.ts`, entry types and
 * the file-or-folder rules in `tar-entry-type.ts`.
 */
import { appleDoubleSubject, checkEntryName } from './entry-name';
import { MAX_METADATA_BYTES, MAX_METADATA_HEADERS_PER_ENTRY, MAX_TRAILING_ZERO_BYTES, maxHeaders } from './limits';
import { NameRegistry } from './name-registry';
import { ARCHIVE_ERROR, ArchiveRefusal, quoteName } from './refusal';
import { entryKind, refuseEntryType, sparseRefusal } from './tar-entry-type';
import {
  BLOCK,
  decodeLossy,
  decodeName,
  hasValidChecksum,
  headerAmbiguity,
  isZeroBlock,
  parseHeader,
} from './tar-header';
import type { TarHeader } from './tar-header';
import {
  applyMetadata,
  METADATA_NAMES,
  type MetadataFlag,
  type PendingMetadata,
  refusePaxSize,
  refuseRealsize,
  refuseTwoNames,
} from './tar-metadata';
import type { ArchiveLimits } from './types';

/** One accepted entry, its name checked and normalised (archive-relative, not yet package-relative). */
export interface ArchiveEntry {
  path: string;
  kind: 'file' | 'dir';
  size: number;
  /** Any execute bit in the archive's mode: the only part of the mode install keeps. */
  executable: boolean;
}

/**
 * What the reader (`read-archive.ts`) and the extractor (`extract-archive.ts`) do with entries.
 * A method may return a promise (the extractor writes); the scanner then waits for it.
 * A method may throw an `ArchiveRefusal` to refuse at that point.
 */
export interface EntryVisitor {
  entry(entry: ArchiveEntry): void | Promise<void>;
  data(chunk: Buffer): void | Promise<void>;
  entryEnd(): void | Promise<void>;
}

const padding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;

/** Feeds on the bytes of a tar stream; call `write` for each chunk in order, then `finish`. */
export class TarScanner {
  private state: 'header' | 'data' | 'meta' | 'skip' | 'end' = 'header';
  private readonly partial = Buffer.alloc(BLOCK);
  private partialFill = 0;
  private remaining = 0;
  private skip = 0;
  private metaKind: MetadataFlag = 'x';
  private metaOffset = 0;
  private metaParts: Buffer[] = [];
  private pending: PendingMetadata = {};
  /** Metadata headers since the last entry, and which of `x`, `L`, `K` were among them. */
  private metaRun = 0;
  private metaSeen = '';
  /**
   * A v7 folder (type `\0`, name ending in `/`) that declares data: GNU tar skips that many bytes
   * after it, libarchive, Go and Python none. Accepted only as the last entry, with at least that
   * many zero bytes after it, so every reader sees the same (nothing more).
   */
  private v7Tail: { name: string; size: number } | null = null;
  private offset = 0;
  private headers = 0;
  private entries = 0;
  private sawHeader = false;
  private endZeros = 0;
  private current: { name: string; size: number } = { name: '', size: 0 };
  private readonly registry = new NameRegistry();
  /** AppleDouble entries seen, each with the package path it describes (null: the archive root). */
  private readonly appleDouble: { name: string; subject: string | null }[] = [];
  private skippedBytes = 0;
  /** Sum of the accepted files' sizes. */
  totalBytes = 0;
  /** The macOS AppleDouble entries (`._name`) left out, as the archive names them. */
  get skipped(): string[] {
    return this.appleDouble.map((entry) => entry.name);
  }

  constructor(
    private readonly limits: ArchiveLimits,
    private readonly visitor: EntryVisitor,
  ) {}

  /** Consumes the next chunk of the tar stream. */
  async write(chunk: Buffer): Promise<void> {
    let pos = 0;
    while (pos < chunk.length) {
      const available = chunk.length - pos;
      switch (this.state) {
        case 'header': {
          let block: Buffer;
          if (this.partialFill === 0 && available >= BLOCK) {
            block = chunk.subarray(pos, pos + BLOCK);
            pos += BLOCK;
          } else {
            const n = Math.min(BLOCK - this.partialFill, available);
            chunk.copy(this.partial, this.partialFill, pos, pos + n);
            this.partialFill += n;
            pos += n;
            if (this.partialFill < BLOCK) continue;
            this.partialFill = 0;
            block = this.partial;
          }
          const at = this.offset;
          this.offset += BLOCK;
          const pendingWork = this.header(block, at);
          if (pendingWork) await pendingWork;
          break;
        }
        case 'data': {
          const n = Math.min(this.remaining, available);
          const slice = chunk.subarray(pos, pos + n);
          pos += n;
          this.offset += n;
          this.remaining -= n;
          const written = this.visitor.data(slice);
          if (written) await written;
          if (this.remaining === 0) {
            const ended = this.visitor.entryEnd();
            if (ended) await ended;
            this.afterData(this.current.size);
          }
          break;
        }
        case 'meta': {
          const n = Math.min(this.remaining, available);
          this.metaParts.push(Buffer.from(chunk.subarray(pos, pos + n)));
          pos += n;
          this.offset += n;
          this.remaining -= n;
          if (this.remaining === 0) this.finishMetadata();
          break;
        }
        case 'skip': {
          const n = Math.min(this.skip, available);
          pos += n;
          this.offset += n;
          this.skip -= n;
          if (this.skip === 0) this.state = 'header';
          break;
        }
        case 'end': {
          for (let i = pos; i < chunk.length; i++) {
            if (chunk[i] !== 0) {
              throw new ArchiveRefusal(
                ARCHIVE_ERROR.trailingData,
                `the archive has data after its end-of-archive blocks (at byte ${this.offset + i - pos}): nothing may follow them but zero padding`,
              );
            }
          }
          this.endZeros += available;
          this.offset += available;
          pos = chunk.length;
          if (this.endZeros > MAX_TRAILING_ZERO_BYTES + 2 * BLOCK) {
            throw new ArchiveRefusal(
              ARCHIVE_ERROR.trailingData,
              `the archive has more than ${MAX_TRAILING_ZERO_BYTES} bytes of zero padding after its end: refused as a possible bomb`,
            );
          }
          break;
        }
      }
    }
  }

  /** Called at the end of the stream: refuses an archive cut short. */
  finish(): void {
    this.finishStream();
    // An AppleDouble entry is metadata only when what it describes is there too; a lone `._x` is
    // refused rather than guessed at (it may be a real file, whose data was not kept).
    for (const { name, subject } of this.appleDouble) {
      if (subject !== null && !this.registry.has(subject)) {
        throw new ArchiveRefusal(
          ARCHIVE_ERROR.appleDoubleOrphan,
          `archive entry ${quoteName(name)} looks like macOS metadata (AppleDouble) but there is no ${quoteName(subject)} beside it: rename it if it is a package file`,
          name,
        );
      }
    }
  }

  private finishStream(): void {
    const cut = (what: string) =>
      new ArchiveRefusal(ARCHIVE_ERROR.truncated, `the archive is truncated: ${what}`, this.current.name || undefined);
    switch (this.state) {
      case 'end':
        if (this.endZeros < 2 * BLOCK) throw cut('it ends after one of the two end-of-archive blocks');
        if (this.v7Tail !== null && this.endZeros < this.v7Tail.size + padding(this.v7Tail.size)) {
          const { name, size } = this.v7Tail;
          throw new ArchiveRefusal(
            ARCHIVE_ERROR.ambiguousSize,
            `archive entry ${quoteName(name)} is an old-style (v7) folder that declares ${size} bytes of data, more than the zero bytes after it: GNU tar reads that many bytes after the folder and finds the archive cut short, libarchive, Go and Python read none`,
            name,
          );
        }
        return;
      case 'header':
        if (this.partialFill > 0) throw cut(`it ends inside a header, at byte ${this.offset + this.partialFill}`);
        if (!this.sawHeader)
          throw new ArchiveRefusal(
            ARCHIVE_ERROR.notArchive,
            'the archive is empty: not even the end-of-archive blocks are there',
          );
        throw cut('it ends without the end-of-archive blocks');
      case 'data':
        throw cut(
          `entry ${quoteName(this.current.name)} has only ${this.current.size - this.remaining} of its ${this.current.size} bytes`,
        );
      case 'meta':
        throw cut(`it ends inside a metadata header, at byte ${this.offset}`);
      case 'skip':
        throw cut(`it ends inside the padding of entry ${quoteName(this.current.name)}`);
    }
  }

  private afterData(size: number): void {
    this.skip = padding(size);
    this.state = this.skip > 0 ? 'skip' : 'header';
  }

  private header(block: Buffer, at: number): void | Promise<void> {
    if (isZeroBlock(block)) {
      if (this.metaSeen !== '') {
        throw new ArchiveRefusal(
          ARCHIVE_ERROR.corruptHeader,
          `the archive ends (at byte ${at}) right after a metadata header, with no entry for it`,
        );
      }
      this.sawHeader = true;
      this.state = 'end';
      this.endZeros = BLOCK;
      return;
    }
    this.refuseUnreadableHeader(block, at);
    this.sawHeader = true;
    const header = parseHeader(block, at);
    this.headers++;
    if (this.headers > maxHeaders(this.limits)) {
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.tooManyEntries,
        `the archive has more than ${maxHeaders(this.limits)} headers`,
      );
    }

    const flag = header.typeflag;
    if (flag === 'x' || flag === 'g' || flag === 'L' || flag === 'K') {
      this.startMetadata(header, flag, at);
      return;
    }

    const pending = this.pending;
    this.pending = {};
    this.metaRun = 0;
    this.metaSeen = '';
    refuseTwoNames(pending, header);
    const name = pending.path ?? decodeName(pending.longName ?? header.nameBytes);
    this.current = { name, size: header.size };
    const shown = quoteName(name);
    refuseEntryType(flag, name, () => pending.linkpath ?? decodeLossy(pending.longLink ?? header.linkBytes));
    if (pending.sparse) throw sparseRefusal(pending.sparseName ?? name);
    const ambiguity = headerAmbiguity(block);
    if (ambiguity !== null)
      throw new ArchiveRefusal(ambiguity.code, `archive entry ${shown} (header at byte ${at}) ${ambiguity.why}`, name);
    refuseRealsize(pending, header, name);
    const kind = entryKind(flag, header, name);
    refusePaxSize(pending, kind, header, name);
    // No data follows a folder, whatever its size field says (POSIX stores none; libarchive, GNU
    // tar, Go and Python read none after a type 5), except the v7 case GNU tar reads (`v7Tail`).
    const dataSize = kind === 'dir' ? 0 : header.size;
    if (kind === 'dir' && flag !== '5' && header.size > 0) this.v7Tail = { name, size: header.size };
    const subject = kind === 'file' ? appleDoubleSubject(name, this.limits) : undefined;
    const path = subject === undefined ? checkEntryName(name, kind, this.limits) : null;
    this.entries++;
    if (this.entries > this.limits.maxEntries) {
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.tooManyEntries,
        `the archive has more than ${this.limits.maxEntries} entries (entry ${shown} is one too many)`,
        name,
      );
    }
    if (subject !== undefined) return this.skipAppleDouble(name, subject, dataSize);
    if (path === null) return;
    this.refuseOverLimits(dataSize, name);
    this.registry.add(path, kind);
    this.totalBytes += dataSize;
    const entry: ArchiveEntry = { path, kind, size: dataSize, executable: (header.mode & 0o111) !== 0 };
    const visited = this.visitor.entry(entry);
    if (visited) return visited.then(() => this.startData(dataSize));
    return this.startData(dataSize);
  }

  /**
   * A header that is not one (the first: not a tar archive at all; a later one: corrupt), or any header after an old
   * v7 folder that declares data (readers disagree on where the next header is).
   */
  private refuseUnreadableHeader(block: Buffer, at: number): void {
    if (!hasValidChecksum(block)) {
      if (!this.sawHeader)
        throw new ArchiveRefusal(
          ARCHIVE_ERROR.notArchive,
          "the gzip'd data is not a tar archive: only tar and gzip'd tar are accepted",
        );
      const shown = decodeLossy(
        block.subarray(0, Math.max(0, block.indexOf(0) === -1 ? 100 : Math.min(100, block.indexOf(0)))),
      );
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.corruptHeader,
        `the tar header at byte ${at} (entry ${quoteName(shown)}) fails its checksum: the archive is corrupt`,
        shown,
      );
    }
    if (this.v7Tail !== null) {
      const { name, size } = this.v7Tail;
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.ambiguousSize,
        `archive entry ${quoteName(name)} is an old-style (v7) folder that declares ${size} bytes of data and more entries follow it: GNU tar skips that many bytes after the folder, libarchive, Go and Python read the next header there; write folders with type 5 and size 0`,
        name,
      );
    }
  }

  /** A PAX or GNU long-name header: its data is read as metadata for the next entry (at most one of each kind). */
  private startMetadata(header: TarHeader, flag: MetadataFlag, at: number): void {
    const what = flag === 'x' || flag === 'g' ? 'PAX' : 'GNU long-name';
    if (header.size > MAX_METADATA_BYTES) {
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.metadataTooLarge,
        `the ${what} header at byte ${at} declares ${header.size} bytes: at most ${MAX_METADATA_BYTES} are accepted`,
      );
    }
    this.metaRun++;
    if (this.metaRun > MAX_METADATA_HEADERS_PER_ENTRY) {
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.repeatedMetadata,
        `the archive has more than ${MAX_METADATA_HEADERS_PER_ENTRY} metadata headers (PAX, GNU long name) in a row (the last at byte ${at}): bsdtar stops reading after 32, and no writer needs more than one of each kind per entry`,
      );
    }
    if (flag !== 'g') {
      if (this.metaSeen.includes(flag)) {
        throw new ArchiveRefusal(
          ARCHIVE_ERROR.repeatedMetadata,
          `the ${METADATA_NAMES[flag]} header at byte ${at} is the second one for the same entry: tar readers disagree on which applies (bsdtar and GNU tar take the last, Python the first)`,
        );
      }
      this.metaSeen += flag;
    }
    this.metaKind = flag;
    this.metaOffset = at;
    this.metaParts = [];
    this.remaining = header.size;
    this.current = { name: '', size: header.size };
    if (header.size === 0) this.finishMetadata();
    else this.state = 'meta';
  }

  /** A file's data within the per-file and total limits. */
  private refuseOverLimits(dataSize: number, name: string): void {
    const shown = quoteName(name);
    if (dataSize > this.limits.maxFileBytes) {
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.fileTooLarge,
        `archive entry ${shown} declares ${dataSize} bytes: at most ${this.limits.maxFileBytes} are accepted per file`,
        name,
      );
    }
    if (this.totalBytes + dataSize > this.limits.maxTotalBytes) {
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.totalTooLarge,
        `with entry ${shown} the archive's files would take ${this.totalBytes + dataSize} bytes: at most ${this.limits.maxTotalBytes} are accepted in total`,
        name,
      );
    }
  }

  /**
   * Skips a macOS AppleDouble entry's data unread: it is never a package file (not checked as a
   * name, not a package-root candidate, not Python, never installed). Its bytes still count
   * against the size limits, so metadata cannot be a bomb.
   */
  private skipAppleDouble(name: string, subject: string | null, size: number): void {
    const shown = quoteName(name);
    if (size > this.limits.maxFileBytes) {
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.fileTooLarge,
        `archive entry ${shown} declares ${size} bytes: at most ${this.limits.maxFileBytes} are accepted per file`,
        name,
      );
    }
    if (this.totalBytes + this.skippedBytes + size > this.limits.maxTotalBytes) {
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.totalTooLarge,
        `with entry ${shown} the archive's files would take ${this.totalBytes + this.skippedBytes + size} bytes: at most ${this.limits.maxTotalBytes} are accepted in total`,
        name,
      );
    }
    this.skippedBytes += size;
    this.appleDouble.push({ name, subject });
    this.current = { name, size };
    this.skip = size + padding(size);
    this.state = this.skip > 0 ? 'skip' : 'header';
  }

  private startData(size: number): void | Promise<void> {
    if (size > 0) {
      this.remaining = size;
      this.state = 'data';
      return;
    }
    const ended = this.visitor.entryEnd();
    if (ended) return ended.then(() => this.afterData(0));
    this.afterData(0);
  }

  private finishMetadata(): void {
    const data = Buffer.concat(this.metaParts);
    this.metaParts = [];
    applyMetadata(this.metaKind, data, this.metaOffset, this.pending);
    this.afterData(data.length);
  }
}
