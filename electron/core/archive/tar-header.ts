/**
 * Decoding of one 512-byte tar header (POSIX ustar, GNU and v7 layouts) and of PAX records.
 * Pure functions over bytes: the streaming lives in `tar-scanner.ts`, the policy on metadata and
 * entry types in `tar-metadata.ts` and `tar-entry-type.ts`.
 */
import { ARCHIVE_ERROR, ArchiveRefusal, quoteName } from './refusal';

/** Size of a tar block. */
export const BLOCK = 512;

/** The fields of a header this reader uses. */
export interface TarHeader {
  /** `prefix/name` for POSIX ustar, else `name` (decoded later: see `decodeName`). */
  nameBytes: Buffer;
  linkBytes: Buffer;
  /** The type flag as a character; `'\0'` is a regular file in old archives. */
  typeflag: string;
  /** Whether the 100-byte name field itself (without any prefix) ends with `/`: a v7 folder's mark. */
  nameFieldIsFolder: boolean;
  size: number;
  mode: number;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** True when the block is all zero bytes (the end-of-archive marker). */
export function isZeroBlock(block: Uint8Array): boolean {
  for (let i = 0; i < block.length; i++) if (block[i] !== 0) return false;
  return true;
}

/**
 * Whether the stored checksum matches: the sum of all bytes with the checksum field counted as
 * spaces, unsigned (POSIX) or signed (some historic writers).
 */
export function hasValidChecksum(block: Uint8Array): boolean {
  if (block.length < BLOCK) return false;
  const stored = parseOctal(block.subarray(148, 156));
  if (stored === null) return false;
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const byte = i >= 148 && i < 156 ? 0x20 : block[i]!;
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  return stored === unsigned || stored === signed;
}

/**
 * Parses an octal numeric field: optional leading spaces, octal digits, then NUL or space padding.
 * An all-padding field is 0. Returns null for anything else.
 */
export function parseOctal(field: Uint8Array): number | null {
  let i = 0;
  while (i < field.length && field[i] === 0x20) i++;
  let value = 0;
  let digits = 0;
  for (; i < field.length; i++) {
    const byte = field[i]!;
    if (byte >= 0x30 && byte <= 0x37) {
      value = value * 8 + (byte - 0x30);
      digits++;
    } else break;
  }
  for (; i < field.length; i++) if (field[i] !== 0 && field[i] !== 0x20) return null;
  return digits === 0 ? 0 : value;
}

/**
 * A numeric field: octal, or GNU base-256 (first byte 0x80 for a positive number, 0xff negative).
 * Negative and unreadable values are null; values past 2^53 become Infinity (and fail any limit).
 */
export function parseNumeric(field: Uint8Array): number | null {
  const first = field[0];
  if (first === 0x80) {
    let value = 0;
    for (let i = 1; i < field.length; i++) value = value * 256 + field[i]!;
    return Number.isSafeInteger(value) ? value : Infinity;
  }
  if (first === 0xff) return null;
  return parseOctal(field);
}

/**
 * The numeric fields this reader does not use but the others parse: Go and Python refuse a header
 * where one is not a number (octal, or base-256), and libarchive refuses to open an archive whose
 * first header has one (its format bid), so the app refuses it in every header.
 */
const NUMERIC_FIELDS: readonly [string, number, number][] = [
  ['mode', 100, 108],
  ['uid', 108, 116],
  ['gid', 116, 124],
  ['mtime', 136, 148],
  ['devmajor', 329, 337],
  ['devminor', 337, 345],
];

function cString(field: Buffer): Buffer {
  const nul = field.indexOf(0);
  return nul === -1 ? field : field.subarray(0, nul);
}

/**
 * Decodes a header block whose checksum was already verified. `offset` (the header's byte offset in
 * the tar stream) makes a corrupt-field message findable with a hex viewer.
 */
export function parseHeader(block: Buffer, offset: number): TarHeader {
  const typeflag = String.fromCharCode(block[156]!);
  const name = cString(block.subarray(0, 100));
  // POSIX ustar ("ustar\0" "00") has a 155-byte prefix; GNU ("ustar  \0") uses those bytes otherwise.
  const posix = block.toString('latin1', 257, 263) === 'ustar\0';
  const prefix = posix ? cString(block.subarray(345, 500)) : Buffer.alloc(0);
  const nameBytes = prefix.length > 0 ? Buffer.concat([prefix, Buffer.from('/'), name]) : name;
  const size = parseNumeric(block.subarray(124, 136));
  if (size === null) {
    throw new ArchiveRefusal(
      ARCHIVE_ERROR.corruptHeader,
      `the tar header at byte ${offset} (entry ${quoteName(decodeLossy(nameBytes))}) has an unreadable size field`,
      decodeLossy(nameBytes),
    );
  }
  for (const [field, from, to] of NUMERIC_FIELDS) {
    const bytes = block.subarray(from, to);
    if (bytes[0] !== 0x80 && bytes[0] !== 0xff && parseOctal(bytes) === null) {
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.corruptHeader,
        `the tar header at byte ${offset} (entry ${quoteName(decodeLossy(nameBytes))}) has an unreadable ${field} field: Go and Python refuse such a header, and bsdtar cannot open an archive that starts with one`,
        decodeLossy(nameBytes),
      );
    }
  }
  const mode = parseOctal(block.subarray(100, 108)) ?? 0;
  return {
    nameBytes,
    linkBytes: cString(block.subarray(157, 257)),
    typeflag,
    nameFieldIsFolder: name.length > 0 && name[name.length - 1] === 0x2f,
    size,
    mode,
  };
}

/** Why an entry's header would be read differently by another tar reader, and the refusal code. */
export interface HeaderAmbiguity {
  code: typeof ARCHIVE_ERROR.ambiguousName | typeof ARCHIVE_ERROR.ambiguousSize;
  /** Completes "archive entry `x` (header at byte n) …". */
  why: string;
}

/** Latin-1 bytes for a message: printable ASCII as is, others as `\xNN` (NUL as `\0`). */
function showBytes(text: string): string {
  return text.replace(/[^\x20-\x7e]|\\/g, (char) =>
    char === '\0' ? '\\0' : char === '\\' ? '\\\\' : `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

function anyNonZero(block: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (block[i] !== 0) return true;
  return false;
}

/**
 * Where libarchive (bsdtar), GNU tar, Go's archive/tar or CPython's tarfile would read this entry
 * header (a file or folder, not a metadata header) otherwise than `parseHeader` does, or null.
 * Bytes 345–499 are the ustar prefix in a POSIX header; in a GNU header they are atime, ctime, the
 * old sparse map and realsize; v7 leaves them unused. The readers disagree on them:
 * - POSIX (`ustar\0`): all read the prefix; only Go knows star's 131-byte prefix (`tar\0` at 508).
 * - GNU (`ustar  \0`): libarchive applies a sparse map (386–481) or a realsize (483–494) on any
 *   entry; CPython reads 345… as a prefix whatever the magic (only GNU tar and Go never do).
 * - any other `ustar…` magic: libarchive and CPython read the prefix, GNU tar and Go do not.
 * - no magic (v7): CPython reads a prefix, the others do not.
 * Checked on the block after its checksum: pure, constant time.
 */
export function headerAmbiguity(block: Uint8Array): HeaderAmbiguity | null {
  const magic = Buffer.from(block.buffer, block.byteOffset + 257, 8).toString('latin1');
  if (magic.startsWith('ustar\0')) {
    const star = block[508] === 0x74 && block[509] === 0x61 && block[510] === 0x72 && block[511] === 0;
    if (star && block.subarray(345, 476).indexOf(0) === -1) {
      return {
        code: ARCHIVE_ERROR.ambiguousName,
        why: "has a prefix field of more than 130 bytes in a header marked as star's (`tar\\0` at byte 508): Go reads only 131 bytes of it, the other readers up to 155",
      };
    }
    return null;
  }
  if (magic === 'ustar  \0') {
    if (block[345] !== 0) {
      return {
        code: ARCHIVE_ERROR.ambiguousName,
        why: "has bytes in the atime field of its GNU header (from byte 345): Python's tarfile reads them as a name prefix, libarchive, GNU tar and Go do not",
      };
    }
    if (anyNonZero(block, 386, 483)) {
      return {
        code: ARCHIVE_ERROR.ambiguousSize,
        why: 'has an old GNU sparse map (bytes 386–482 of its GNU header) though it is not a sparse entry: libarchive (bsdtar) rebuilds the file from the map, GNU tar, Go and Python read the data as stored',
      };
    }
    if (anyNonZero(block, 483, 495)) {
      return {
        code: ARCHIVE_ERROR.ambiguousSize,
        why: "has a GNU realsize field (bytes 483–494 of its GNU header): libarchive (bsdtar) gives the file that size, GNU tar, Go and Python the size field's",
      };
    }
    return null;
  }
  if (block[345] === 0) return null;
  if (magic.startsWith('ustar')) {
    return {
      code: ARCHIVE_ERROR.ambiguousName,
      why: `has the magic \`${showBytes(magic)}\` (neither POSIX's \`ustar\\0\` nor GNU's \`ustar  \\0\`) and a prefix field: libarchive (bsdtar) and Python put the prefix before its name, GNU tar and Go do not`,
    };
  }
  return {
    code: ARCHIVE_ERROR.ambiguousName,
    why: "has no `ustar` magic (a v7 header) but bytes where ustar keeps its prefix (from byte 345): Python's tarfile puts them before its name, libarchive, GNU tar and Go do not",
  };
}

/** Decodes a name strictly as UTF-8, or refuses: names must mean the same on every OS. */
export function decodeName(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    const lossy = decodeLossy(bytes);
    throw new ArchiveRefusal(
      ARCHIVE_ERROR.badEncoding,
      `archive entry ${quoteName(lossy)} has a name that is not valid UTF-8`,
      lossy,
    );
  }
}

/** A best-effort rendering of bytes, for messages only. */
export function decodeLossy(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/**
 * PAX keys whose values this reader acts on, and so must be valid UTF-8 (plus every
 * `GNU.sparse.*` key). Every other value (times, owners, `SCHILY.xattr.*`, `LIBARCHIVE.xattr.*`,
 * comments) may be any bytes: extended attributes are binary (macOS `com.apple.FinderInfo`,
 * `com.apple.provenance`), and they change nothing that is installed.
 */
const ACTED_ON_KEYS = new Set(['path', 'linkpath', 'size']);

/** Whether the value of PAX record `key` is read by this reader (and must therefore be UTF-8). */
export function isActedOnPaxKey(key: string): boolean {
  return ACTED_ON_KEYS.has(key) || key.startsWith('GNU.sparse.');
}

/**
 * PAX keys that make libarchive (bsdtar) read an entry's data otherwise than GNU tar, Go and
 * Python: a sparse map (`GNU.sparse.*`, Solaris's `SUN.holesdata`), refused as a sparse file.
 */
export function isSparsePaxKey(key: string): boolean {
  return key.startsWith('GNU.sparse.') || key === 'SUN.holesdata';
}

/**
 * Parses PAX extended header records (`"<length> <key>=<value>\n"`, POSIX.1-2001). Lengths are
 * byte counts, so a value may hold any byte, NUL included (the effective name is checked later).
 * Keys must be UTF-8 without NUL; values only for the keys this reader acts on (`isActedOnPaxKey`);
 * the others are kept as a lossy rendering, never used. Nothing may follow the last record: no
 * NUL padding (with the other refusals where readers disagree).
 */
export function parsePaxRecords(data: Buffer, offset: number): Map<string, string> {
  const records = new Map<string, string>();
  let pos = 0;
  const corrupt = (why: string) =>
    new ArchiveRefusal(ARCHIVE_ERROR.corruptPax, `the PAX header at byte ${offset} is malformed: ${why}`);
  while (pos < data.length) {
    // NUL padding after the last record: no writer we can run pads PAX data (GNU tar, bsdtar,
    // Python, node-tar, git archive), and bsdtar ignores the whole header when it is there.
    if (data[pos] === 0)
      throw corrupt(
        `NUL bytes follow its records (from byte ${pos} of its data): libarchive (bsdtar) ignores such a header, other readers apply it`,
      );
    const space = data.indexOf(0x20, pos);
    if (space === -1 || space - pos > 12) throw corrupt('a record has no length');
    const lengthText = data.toString('latin1', pos, space);
    if (!/^[1-9][0-9]*$/.test(lengthText)) throw corrupt(`record length \`${lengthText}\` is not a number`);
    const length = Number(lengthText);
    const end = pos + length;
    if (end > data.length || data[end - 1] !== 0x0a)
      throw corrupt('a record runs past the header or does not end with a newline');
    const record = data.subarray(space + 1, end - 1);
    const equals = record.indexOf(0x3d);
    if (equals <= 0) throw corrupt('a record has no `key=value`');
    const keyBytes = record.subarray(0, equals);
    if (keyBytes.indexOf(0) !== -1)
      throw corrupt(
        "a record's key holds a NUL byte: Go refuses such a header, libarchive (bsdtar) ignores it, Python applies it",
      );
    let key: string;
    try {
      key = UTF8.decode(keyBytes);
    } catch {
      throw corrupt("a record's key is not valid UTF-8");
    }
    const valueBytes = record.subarray(equals + 1);
    let value: string;
    if (isActedOnPaxKey(key)) {
      try {
        value = UTF8.decode(valueBytes);
      } catch {
        throw corrupt(`the value of \`${key}\` is not valid UTF-8`);
      }
    } else {
      if ((key === 'uname' || key === 'gname') && valueBytes.indexOf(0) !== -1)
        throw corrupt(`the value of \`${key}\` holds a NUL byte: Go refuses such a header`);
      value = decodeLossy(valueBytes);
    }
    records.set(key, value);
    pos = end;
  }
  return records;
}
