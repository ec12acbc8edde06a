/**
 * Which tar entry types are accepted (files and folders only) and how a folder is told from a
 * file: type `5`, or an old v7 folder (type `\0`, named with a trailing `/`), where tar readers
 * disagree on which name carries the `/`. Policy only; the scanning lives in `tar-scanner.ts`.
 */
import { ARCHIVE_ERROR, ArchiveRefusal, quoteName } from './refusal';
import type { TarHeader } from './tar-header';

/** The other tar types by what they are, for the refusal's message. */
const TYPE_NAMES: Record<string, string> = {
  '7': 'a contiguous file',
  S: 'a GNU sparse file',
  D: 'a GNU directory dump',
  M: 'a GNU multi-volume continuation',
  N: 'a GNU old long-name entry',
  V: 'a volume label',
};

/**
 * Refuses every entry type but a file or a folder.
 *
 * Only files and folders are accepted: a link, a device, a FIFO, a sparse file or another type is
 * refused, each with its own code so the message can say what the entry is.
 */
export function refuseEntryType(flag: string, name: string, link: () => string): void {
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

/**
 * Tells a file from a folder.
 *
 * A folder is type 5, or a v7 folder: type `\0` (what `bsdtar --format v7`
 * writes) named with a trailing `/`. Readers tell a v7 folder by different names: Python by the
 * header's own name field, libarchive, GNU tar and Go by the final name (after a PAX path or GNU
 * long name), so a `/` on only one of them is refused. Type `0` says "regular file": Python and Go
 * read a file named `x/` there, libarchive and GNU tar a folder, so it is refused too (with a
 * size it is a file whose name ends with `/`, refused by the name checks).
 */
export function entryKind(flag: string, header: TarHeader, name: string): 'file' | 'dir' {
  const shown = quoteName(name);
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
 * The refusal of a sparse file, with how to repack without one.
 *
 * Reading a sparse map means trusting author-given offsets to rebuild a file with zeros, for a
 * filesystem artefact no package needs; the message names the real file (`GNU.sparse.name`).
 */
export function sparseRefusal(name: string): ArchiveRefusal {
  return new ArchiveRefusal(
    ARCHIVE_ERROR.unsupportedType,
    `archive entry ${quoteName(name)} is a sparse file (a file with holes): only plain files and folders are accepted; repack without sparse entries (GNU tar: drop \`--sparse\`; bsdtar: \`--no-read-sparse\`) or fill the file's holes first`,
    name,
  );
}
