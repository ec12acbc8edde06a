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
 */
import { appleDoubleSubject, checkEntryName } from './entry-name';
import { MAX_METADATA_BYTES, MAX_METADATA_HEADERS_PER_ENTRY, MAX_TRAILING_ZERO_BYTES, maxHeaders } from './limits';
import { NameRegistry } from './name-registry';
import { ARCHIVE_ERROR, ArchiveRefusal, quoteName } from './refusal';
import {
  BLOCK,
  decodeLossy,
  decodeName,
  hasValidChecksum,
  headerAmbiguity,
  isSparsePaxKey,
  isZeroBlock,
  parseHeader,
  parsePaxRecords,
} from './tar-header';
import type { TarHeader } from './tar-header';
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

interface PendingMetadata {
  path?: string;
  size?: string;
  linkpath?: string;
  sparse?: boolean;
  /** PAX sparse 1.0 (`GNU.sparse.name`): the real name of a sparse file, for the message. */
  sparseName?: string;
  longName?: Buffer;
  longLink?: Buffer;
  /** A PAX `SCHILY.realsize` (star): libarchive sizes the file by it, the other readers do not. */
  realsize?: string;
}

const METADATA_NAMES: Record<string, string> = {
  x: 'PAX (`x`)',
  g: 'PAX global (`g`)',
  L: 'GNU long-name (`L`)',
  K: 'GNU long-link (`K`)',
};

const TYPE_NAMES: Record<string, string> = {
  '7': 'a contiguous file',
  S: 'a GNU sparse file',
  D: 'a GNU directory dump',
  M: 'a GNU multi-volume continuation',
  N: 'a GNU old long-name entry',
  V: 'a volume label',
};

const padding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;

/** Feeds on the bytes of a tar stream; call `write` for each chunk in order, then `finish`. */
export class TarScanner {
  private state: 'header' | 'data' | 'meta' | 'skip' | 'end' = 'header';
  private readonly partial = Buffer.alloc(BLOCK);
  private partialFill = 0;
  private remaining = 0;
  private skip = 0;
  private metaKind = '';
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
    if (pending.realsize !== undefined) {
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.ambiguousSize,
        `archive entry ${shown} has a PAX \`SCHILY.realsize\` (${JSON.stringify(pending.realsize)}) beside its size of ${header.size} bytes: libarchive (bsdtar) cuts or pads the file to it, GNU tar, Go and Python do not`,
        name,
      );
    }
    const kind = this.entryKind(flag, header, name, shown);
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
  private startMetadata(header: TarHeader, flag: 'x' | 'g' | 'L' | 'K', at: number): void {
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
   * File or folder. A folder is type 5, or a v7 folder: type `\0` (what `bsdtar --format v7`
   * writes) named with a trailing `/`. Readers tell a v7 folder by different names: Python by the
   * header's own name field, libarchive, GNU tar and Go by the final name (after a PAX path or GNU
   * long name), so a `/` on only one of them is refused. Type `0` says "regular file": Python and Go
   * read a file named `x/` there, libarchive and GNU tar a folder, so it is refused too (with a
   * size it is a file whose name ends with `/`, refused by the name checks).
   */
  private entryKind(flag: string, header: TarHeader, name: string, shown: string): 'file' | 'dir' {
    if (flag === '5') return 'dir';
    const finalSlash = name.endsWith('/');
    if (flag === '0') {
      if (finalSlash && header.size === 0) {
        throw new ArchiveRefusal(
          ARCHIVE_ERROR.badPath,
          `archive entry ${shown} ends with \`/\` but has the regular-file type \`0\`: libarchive (bsdtar) and GNU tar read a folder, Python and Go an empty file; write folders with type 5`,
          name,
        );
      }
      return 'file';
    }
    if (finalSlash === header.nameFieldIsFolder) return finalSlash ? 'dir' : 'file';
    throw new ArchiveRefusal(
      ARCHIVE_ERROR.ambiguousName,
      `archive entry ${shown} ends with \`/\` in ${finalSlash ? 'its PAX path or GNU long name but not in its header' : 'its header but not in its PAX path or GNU long name'}: Python reads the header's name to tell a folder from a file, the other readers the final name`,
      name,
    );
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
    const size = data.length;
    switch (this.metaKind) {
      case 'x':
        for (const [key, value] of parsePaxRecords(data, this.metaOffset)) {
          if (key === 'path') this.pending.path = value;
          else if (key === 'size') this.pending.size = value;
          else if (key === 'linkpath') this.pending.linkpath = value;
          else if (key === 'SCHILY.realsize') this.pending.realsize = value;
          else if (isSparsePaxKey(key)) {
            this.pending.sparse = true;
            if (key === 'GNU.sparse.name') this.pending.sparseName = value;
          }
          // Other keys (times, owners, xattrs, comments, charset) do not change what is installed.
        }
        break;
      case 'g':
        // A global header is ignored when it carries only descriptive records (`git archive` writes
        // one with the commit id as `comment`); one that would rename or resize later entries is
        // refused rather than applied, so no entry's effective name depends on a header far away.
        for (const key of parsePaxRecords(data, this.metaOffset).keys()) {
          if (
            key === 'path' ||
            key === 'linkpath' ||
            key === 'size' ||
            key === 'SCHILY.realsize' ||
            isSparsePaxKey(key)
          ) {
            throw new ArchiveRefusal(
              ARCHIVE_ERROR.paxGlobal,
              `the PAX global header at byte ${this.metaOffset} sets \`${key}\` for the entries after it: global headers may not change names or sizes`,
            );
          }
        }
        break;
      case 'L':
        this.pending.longName = stripTrailingNuls(data);
        break;
      case 'K':
        this.pending.longLink = stripTrailingNuls(data);
        break;
    }
    this.afterData(size);
  }
}

/**
 * An entry named twice (a GNU long name and a PAX path) or given two link targets: tar readers disagree on which
 * applies.
 */
function refuseTwoNames(pending: PendingMetadata, header: TarHeader): void {
  if (pending.longName !== undefined && pending.path !== undefined) {
    const long = decodeLossy(pending.longName);
    throw new ArchiveRefusal(
      ARCHIVE_ERROR.ambiguousName,
      `archive entry ${quoteName(long)} is named twice, by a GNU long-name header (\`L\`) and by a PAX \`path\` (${quoteName(pending.path)}): tar readers disagree on which applies (bsdtar and Python take the first of the two headers, GNU tar the PAX path, Go the long name)`,
      long,
    );
  }
  if (pending.longLink !== undefined && pending.linkpath !== undefined) {
    const shown = pending.path ?? decodeLossy(pending.longName ?? header.nameBytes);
    throw new ArchiveRefusal(
      ARCHIVE_ERROR.ambiguousName,
      `archive entry ${quoteName(shown)} has two link targets, by a GNU long-link header (\`K\`: ${quoteName(decodeLossy(pending.longLink))}) and by a PAX \`linkpath\` (${quoteName(pending.linkpath)}): tar readers disagree on which applies`,
      shown,
    );
  }
}

/** Only files and folders are accepted: a link, a device, a FIFO, a sparse file or another type is refused. */
function refuseEntryType(flag: string, name: string, link: () => string): void {
  const shown = quoteName(name);
  switch (flag) {
    case '1':
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.hardlink,
        `archive entry ${shown} is a hard link (to ${quoteName(link())}): links are not accepted`,
        name,
      );
    case '2':
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.symlink,
        `archive entry ${shown} is a symbolic link (to ${quoteName(link())}): links are not accepted`,
        name,
      );
    case '3':
    case '4':
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.device,
        `archive entry ${shown} is a ${flag === '3' ? 'character' : 'block'} device: only files and folders are accepted`,
        name,
      );
    case '6':
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.fifo,
        `archive entry ${shown} is a FIFO (named pipe): only files and folders are accepted`,
        name,
      );
    case '0':
    case '\0':
    case '5':
      break;
    case 'S':
      throw sparseRefusal(name);
    default:
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.unsupportedType,
        `archive entry ${shown} is ${TYPE_NAMES[flag] ?? `of tar type \`${JSON.stringify(flag).slice(1, -1)}\``}: only files and folders are accepted`,
        name,
      );
  }
}

/** A PAX size must be a whole number, equal to the header's, and zero for a folder. */
function refusePaxSize(pending: PendingMetadata, kind: 'file' | 'dir', header: TarHeader, name: string): void {
  const shown = quoteName(name);
  if (pending.size !== undefined) {
    if (!/^[0-9]{1,16}$/.test(pending.size)) {
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.paxSize,
        `archive entry ${shown} has a PAX size \`${pending.size}\` that is not a whole number of bytes`,
        name,
      );
    }
    if (kind === 'dir' && Number(pending.size) !== 0) {
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.ambiguousSize,
        `archive entry ${shown} is a folder with a PAX size of ${pending.size} bytes: libarchive (bsdtar) reads that many bytes of data after it, GNU tar, Go and Python none`,
        name,
      );
    }
    if (Number(pending.size) !== header.size) {
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.paxSize,
        `archive entry ${shown} has a PAX size of ${pending.size} bytes but its header says ${header.size}`,
        name,
      );
    }
  }
}

function sparseRefusal(name: string): ArchiveRefusal {
  return new ArchiveRefusal(
    ARCHIVE_ERROR.unsupportedType,
    `archive entry ${quoteName(name)} is a sparse file (a file with holes): only plain files and folders are accepted; repack without sparse entries (GNU tar: drop \`--sparse\`; bsdtar: \`--no-read-sparse\`) or fill the file's holes first`,
    name,
  );
}

function stripTrailingNuls(data: Buffer): Buffer {
  let end = data.length;
  while (end > 0 && data[end - 1] === 0) end--;
  return data.subarray(0, end);
}
