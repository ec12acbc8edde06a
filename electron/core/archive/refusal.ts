/**
 * Refusals of the archive reader: one stable dotted code per reason (STYLE.md "errors with error
 * codes"), so the UI, the CLI and the tests can tell them apart, and a message that names the entry.
 */
import type { Problem } from '../../../shared/manifests/inspection';
import type { RefusalCode } from '../../../shared/contract/refusal-codes';

/**
 * Every code the archive reader can answer with. Tests assert on these; the UI may map them to help
 * texts. Grouped as in DESIGN.md "Reading without running".
 */
export const ARCHIVE_ERROR = {
  /** The file could not be opened or read (missing, a folder, no permission). */
  unreadable: 'archive.unreadable',
  /** A file of 0 bytes: an unfinished download or copy, told apart so the person is told to download it again. */
  empty: 'archive.empty',
  /** Unknown content: neither tar nor gzip'd tar. */
  notArchive: 'archive.not_archive',
  /** A recognised format that is not accepted (zstd, xz, bzip2, zip, 7z, lz4, rar). */
  unsupportedFormat: 'archive.unsupported_format',
  /** The gzip layer is damaged (bad CRC, bad length, bad deflate data). */
  corruptGzip: 'archive.corrupt_gzip',
  /** A tar header fails its checksum or has unreadable numeric fields. */
  corruptHeader: 'archive.corrupt_header',
  /** A PAX record is malformed. */
  corruptPax: 'archive.corrupt_pax',
  /** The archive ends inside a header or an entry's data, or without the end-of-archive blocks. */
  truncated: 'archive.truncated',
  /** Bytes other than zero padding after the end of the tar archive or after the gzip stream. */
  trailingData: 'archive.trailing_data',
  symlink: 'archive.symlink',
  hardlink: 'archive.hardlink',
  device: 'archive.device',
  fifo: 'archive.fifo',
  /** Any other tar type (contiguous, sparse, GNU dump/multi-volume/label, vendor types). */
  unsupportedType: 'archive.unsupported_type',
  /** A PAX global header that would change names or sizes of the entries after it. */
  paxGlobal: 'archive.pax_global',
  /** A PAX `size` that is negative, not a number, or disagrees with the header. */
  paxSize: 'archive.pax_size',
  /** A metadata header (PAX, GNU long name) larger than a name or PAX records can need. */
  metadataTooLarge: 'archive.metadata_too_large',
  /**
   * One reading of every archive: the entry's name would be another one for libarchive
   * (bsdtar), GNU tar, Go or CPython: a GNU long name (`L`/`K`) and a PAX `path`/`linkpath` on one
   * entry, a prefix field only some readers apply (odd `ustar` magic, GNU or v7 headers), a folder
   * mark (`/`) only some readers see.
   */
  ambiguousName: 'archive.ambiguous_name',
  /**
   * Another reader would read other data or another size for the entry: GNU sparse or
   * realsize fields on a plain entry, `SCHILY.realsize`, a folder with a PAX size or a v7 folder with
   * a size before other entries.
   */
  ambiguousSize: 'archive.ambiguous_size',
  /** Two PAX `x`, GNU `L` or `K` headers for one entry, or too many metadata headers in a row. */
  repeatedMetadata: 'archive.repeated_metadata',
  /** A name that is not valid UTF-8. */
  badEncoding: 'archive.bad_encoding',
  emptyName: 'archive.empty_name',
  controlChar: 'archive.control_char',
  pathTooLong: 'archive.path_too_long',
  absolutePath: 'archive.absolute_path',
  driveRelative: 'archive.drive_relative',
  backslash: 'archive.backslash',
  traversal: 'archive.traversal',
  /** Empty (`a//b`) or `.` components other than one leading `./`, or a file name ending in `/`. */
  badPath: 'archive.bad_path',
  tooDeep: 'archive.too_deep',
  /** `CON`, `aux.txt`, `LPT1`: names Windows reserves. */
  reservedName: 'archive.reserved_name',
  /** `<>:"|?*` in a name: characters Windows refuses. */
  forbiddenChar: 'archive.forbidden_char',
  /** A name ending with a dot or a space: Windows silently drops them. */
  trailingDotOrSpace: 'archive.trailing_dot_or_space',
  duplicate: 'archive.duplicate',
  /** Two different names that are the same after NFKC normalisation and case folding. */
  nameCollision: 'archive.name_collision',
  fileDirConflict: 'archive.file_dir_conflict',
  tooManyEntries: 'archive.too_many_entries',
  fileTooLarge: 'archive.file_too_large',
  totalTooLarge: 'archive.total_too_large',
  manifestTooLarge: 'archive.manifest_too_large',
  pythonTooLarge: 'archive.python_too_large',
  manifestEncoding: 'archive.manifest_encoding',
  noManifest: 'archive.no_manifest',
  multipleManifests: 'archive.multiple_manifests',
  /** `apollia.toml` sits in a top-level folder but other entries lie outside that folder. */
  manifestNotAtRoot: 'archive.manifest_not_at_root',
  /** A `._name` entry (macOS AppleDouble metadata) with no `name` beside it to describe. */
  appleDoubleOrphan: 'archive.apple_double_orphan',
  /** Extraction: the archive's SHA-256 is not the one inspection verified. */
  sha256Mismatch: 'archive.sha256_mismatch',
  /** Extraction: the destination folder already exists. */
  destinationExists: 'archive.destination_exists',
  /** Extraction: writing to the destination failed (disk full, permissions). */
  writeFailed: 'archive.write_failed',
} as const satisfies Record<string, RefusalCode>;

/** One of the codes above. */
export type ArchiveErrorCode = (typeof ARCHIVE_ERROR)[keyof typeof ARCHIVE_ERROR];

/**
 * A refusal thrown inside the reader and turned into a `Problem` value at its edge
 * (`readApoArchive` and `extractVerifiedArchive` never throw it to their callers).
 */
export class ArchiveRefusal extends Error {
  constructor(
    readonly code: ArchiveErrorCode,
    message: string,
    readonly entry?: string,
  ) {
    super(message);
    this.name = 'ArchiveRefusal';
  }

  /** The refusal as the shared `Problem` value. */
  toProblem(): Problem {
    return this.entry === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, path: this.entry };
  }
}

/** Characters that would not show in a message: controls, format characters (bidi), separators. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * An entry name as it appears in a message: in backticks, with control characters escaped so the
 * message itself stays one readable line, and cut after 120 characters (a 5,000-character name
 * would drown the sentence; its length is given instead).
 */
export function quoteName(name: string): string {
  const escaped = name.replace(
    INVISIBLE,
    (char) => `\\u{${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}}`,
  );
  const shown = [...escaped];
  return shown.length > 120
    ? `\`${shown.slice(0, 120).join('')}…\` (${Buffer.byteLength(name)} bytes)`
    : `\`${escaped}\``;
}
