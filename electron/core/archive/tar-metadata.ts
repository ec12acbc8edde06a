/**
 * PAX (`x`, `g`) and GNU long-name (`L`, `K`) metadata headers: what each sets for the next entry,
 * and the refusals where tar readers would apply that metadata differently (two names for one
 * entry, a `SCHILY.realsize`, a PAX `size` other than the header's). The streaming that reads their
 * data lives in `tar-scanner.ts`; the decoding of PAX records in `tar-header.ts`.
 */
import { ARCHIVE_ERROR, ArchiveRefusal, quoteName } from './refusal';
import { decodeLossy, isSparsePaxKey, parsePaxRecords } from './tar-header';
import type { TarHeader } from './tar-header';

/** The type flags of the metadata headers this reader reads: PAX, PAX global, GNU long name and long link. */
export type MetadataFlag = 'x' | 'g' | 'L' | 'K';

/**
 * What the metadata headers since the last entry say about the next one.
 *
 * Collected header by header, then applied (and checked) when the entry's own header comes.
 */
export interface PendingMetadata {
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

/**
 * Each metadata header's name, for messages.
 *
 * Refusals name the kind of header at fault, the way the tar manuals do.
 */
export const METADATA_NAMES: Record<MetadataFlag, string> = {
  x: 'PAX (`x`)',
  g: 'PAX global (`g`)',
  L: 'GNU long-name (`L`)',
  K: 'GNU long-link (`K`)',
};

/**
 * Applies one metadata header's data to what is pending for the next entry.
 *
 * PAX `x` records set the name, size, link target or sparse marks; a PAX global `g` header is
 * checked and otherwise ignored; GNU `L` and `K` give the long name and long link target.
 */
export function applyMetadata(flag: MetadataFlag, data: Buffer, offset: number, pending: PendingMetadata): void {
  switch (flag) {
    case 'x':
      for (const [key, value] of parsePaxRecords(data, offset)) {
        if (key === 'path') pending.path = value;
        else if (key === 'size') pending.size = value;
        else if (key === 'linkpath') pending.linkpath = value;
        else if (key === 'SCHILY.realsize') pending.realsize = value;
        else if (isSparsePaxKey(key)) {
          pending.sparse = true;
          if (key === 'GNU.sparse.name') pending.sparseName = value;
        }
        // Other keys (times, owners, xattrs, comments, charset) do not change what is installed.
      }
      break;
    case 'g':
      // A global header is ignored when it carries only descriptive records (`git archive` writes
      // one with the commit id as `comment`); one that would rename or resize later entries is
      // refused rather than applied, so no entry's effective name depends on a header far away.
      for (const key of parsePaxRecords(data, offset).keys()) {
        if (
          key === 'path' ||
          key === 'linkpath' ||
          key === 'size' ||
          key === 'SCHILY.realsize' ||
          isSparsePaxKey(key)
        ) {
          throw new ArchiveRefusal(
            ARCHIVE_ERROR.paxGlobal,
            `the PAX global header at byte ${offset} sets \`${key}\` for the entries after it: global headers may not change names or sizes`,
          );
        }
      }
      break;
    case 'L':
      pending.longName = stripTrailingNuls(data);
      break;
    case 'K':
      pending.longLink = stripTrailingNuls(data);
      break;
  }
}

/**
 * Refuses an entry given two names or two link targets.
 *
 * A GNU long name beside a PAX path (or a long link beside a PAX `linkpath`): tar readers disagree
 * on which applies, so the name checked here might not be the name another reader extracts.
 */
export function refuseTwoNames(pending: PendingMetadata, header: TarHeader): void {
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

/**
 * Refuses a PAX `SCHILY.realsize` (star's) beside the header's size.
 *
 * libarchive (bsdtar) cuts or pads the file to it, GNU tar, Go and Python do not: one entry, two sizes.
 */
export function refuseRealsize(pending: PendingMetadata, header: TarHeader, name: string): void {
  if (pending.realsize !== undefined) {
    throw new ArchiveRefusal(
      ARCHIVE_ERROR.ambiguousSize,
      `archive entry ${quoteName(name)} has a PAX \`SCHILY.realsize\` (${JSON.stringify(pending.realsize)}) beside its size of ${header.size} bytes: libarchive (bsdtar) cuts or pads the file to it, GNU tar, Go and Python do not`,
      name,
    );
  }
}

/**
 * Refuses a PAX size other than the header's.
 *
 * A PAX size must be a whole number, equal to the header's, and zero for a folder: node-tar and
 * old readers use the header's size, libarchive reads a folder's PAX size as data.
 */
export function refusePaxSize(pending: PendingMetadata, kind: 'file' | 'dir', header: TarHeader, name: string): void {
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

/** A GNU long name or link without the NUL bytes that end it. */
function stripTrailingNuls(data: Buffer): Buffer {
  let end = data.length;
  while (end > 0 && data[end - 1] === 0) end--;
  return data.subarray(0, end);
}
