/**
 * Checks one archive entry name against DESIGN.md "Reading without running" and turns it into the
 * package path this app uses (`/`-separated, no `./`, no trailing `/`).
 *
 * The package must install on every OS this app runs on (Linux, macOS, Windows), so names that
 * Windows cannot hold (reserved device names, `<>:"|?*`, a trailing dot or space) are refused here
 * rather than failing, or silently changing meaning, at install on someone's Windows machine.
 */
import { ARCHIVE_ERROR, ArchiveRefusal, quoteName } from './refusal';
import type { ArchiveLimits } from './types';

/** Controls, invisible format characters (bidi overrides, zero-width), line/paragraph separators. */
const CONTROL_OR_INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
/**
 * `CON`, `PRN`, `AUX`, `NUL`, `COM0-9`, `LPT0-9` (and the superscript digits Windows also reserves), with or without an
 * extension.
 */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/iu;
const WINDOWS_FORBIDDEN = /[<>:"|?*]/;

/**
 * Validates `raw` (the effective name: PAX `path` or GNU long name if present, else the header's)
 * and returns the normalised path, or `null` for the archive's own root (`./`).
 * Order of checks: the first problem found is the one reported.
 */
export function checkEntryName(raw: string, kind: 'file' | 'dir', limits: ArchiveLimits): string | null {
  const shown = quoteName(raw);
  if (raw.length === 0) throw new ArchiveRefusal(ARCHIVE_ERROR.emptyName, 'an archive entry has an empty name', raw);
  if (CONTROL_OR_INVISIBLE.test(raw)) {
    throw new ArchiveRefusal(
      ARCHIVE_ERROR.controlChar,
      `archive entry ${shown} has a NUL, control or invisible character in its name`,
      raw,
    );
  }
  // A first bound before the name is split (the exact one, from the package root, follows below).
  if (Buffer.byteLength(raw, 'utf8') > 2 * limits.maxPathBytes + 3)
    refuseLength(raw, Buffer.byteLength(raw, 'utf8'), limits);
  if (/^[\\/]/.test(raw) || /^[A-Za-z]:[\\/]/.test(raw)) {
    throw new ArchiveRefusal(
      ARCHIVE_ERROR.absolutePath,
      `archive entry ${shown} has an absolute path: entries must be relative to the package`,
      raw,
    );
  }
  if (/^[A-Za-z]:/.test(raw)) {
    throw new ArchiveRefusal(
      ARCHIVE_ERROR.driveRelative,
      `archive entry ${shown} names a Windows drive: entries must be relative to the package`,
      raw,
    );
  }
  if (raw.includes('\\')) {
    throw new ArchiveRefusal(
      ARCHIVE_ERROR.backslash,
      `archive entry ${shown} has a backslash in its name: only \`/\` separates folders`,
      raw,
    );
  }

  let path = raw;
  if (path.endsWith('/')) {
    if (kind === 'file')
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.badPath,
        `archive entry ${shown} is a file whose name ends with \`/\``,
        raw,
      );
    path = path.slice(0, -1);
  }
  // One leading `./` is what `tar -C folder .` writes; `.` alone (or `./`) is that folder itself.
  if (path === '.') {
    if (kind === 'dir') return null;
    throw new ArchiveRefusal(ARCHIVE_ERROR.badPath, `archive entry ${shown} is a file named \`.\``, raw);
  }
  if (path.startsWith('./')) path = path.slice(2);

  const components = path.split('/');
  if (components.includes('..')) {
    throw new ArchiveRefusal(
      ARCHIVE_ERROR.traversal,
      `archive entry ${shown} contains \`..\`: entries may not point outside the package`,
      raw,
    );
  }
  if (components.some((part) => part === '' || part === '.')) {
    throw new ArchiveRefusal(
      ARCHIVE_ERROR.badPath,
      `archive entry ${shown} has an empty or \`.\` folder in its path`,
      raw,
    );
  }
  // The limits count from the package root, which is known only once the manifest is found: here
  // the first component is allowed for (it may be the package's top folder); `checkPackagePath`
  // applies the exact limits once the root is known.
  const top =
    components.length > 1
      ? { bytes: Buffer.byteLength(components[0]!, 'utf8') + 1, levels: 1 }
      : { bytes: 0, levels: 0 };
  checkPackagePath(raw, path, top, limits);
  for (const part of components) {
    if (WINDOWS_RESERVED.test(part)) {
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.reservedName,
        `archive entry ${shown} uses \`${part}\`, a name Windows reserves: the package could not be installed there`,
        raw,
      );
    }
    if (WINDOWS_FORBIDDEN.test(part)) {
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.forbiddenChar,
        `archive entry ${shown} has one of < > : " | ? * in its name: the package could not be installed on Windows`,
        raw,
      );
    }
    if (/[. ]$/.test(part)) {
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.trailingDotOrSpace,
        `archive entry ${shown} has a name ending with a dot or a space: Windows would drop it`,
        raw,
      );
    }
  }
  return path;
}

/**
 * Applies the path-length and depth limits to `path` (normalised) counted from the package root:
 * `root` is what lies above the package (`mailroom/`: 9 bytes, 1 level; none: 0). The same
 * package packed as `./…` or as `mailroom/…` thus gets the same verdict.
 */
export function checkPackagePath(
  raw: string,
  path: string,
  root: { bytes: number; levels: number },
  limits: ArchiveLimits,
): void {
  const bytes = Buffer.byteLength(path, 'utf8') - root.bytes;
  if (bytes > limits.maxPathBytes) refuseLength(raw, bytes, limits);
  const levels = path.split('/').length - root.levels;
  if (levels > limits.maxDepth) {
    throw new ArchiveRefusal(
      ARCHIVE_ERROR.tooDeep,
      `archive entry ${quoteName(raw)} is ${levels} levels deep in the package: at most ${limits.maxDepth} are accepted`,
      raw,
    );
  }
}

function refuseLength(raw: string, bytes: number, limits: ArchiveLimits): never {
  throw new ArchiveRefusal(
    ARCHIVE_ERROR.pathTooLong,
    `archive entry ${quoteName(raw)} has a path of ${bytes} bytes in the package: at most ${limits.maxPathBytes} are accepted`,
    raw,
  );
}

/**
 * Whether `raw` (a file entry) is macOS AppleDouble metadata: `._<name>` naming the resource fork
 * and extended attributes of `<name>` in the same folder, or `._.` for the folder itself (what
 * macOS `tar` writes, e.g. `._mailroom` beside `mailroom/`, or `./._.` for `tar -C dir .`).
 * Answers `undefined` when it is not; else the package path of what it describes (`null` for
 * the archive root), after checking that path like any entry name (a refusal names `raw`).
 * The caller then requires that subject to be in the archive.
 */
export function appleDoubleSubject(raw: string, limits: ArchiveLimits): string | null | undefined {
  const slash = raw.lastIndexOf('/');
  const base = raw.slice(slash + 1);
  if (base.length < 3 || !base.startsWith('._')) return undefined;
  const folder = raw.slice(0, slash + 1);
  const subject = base === '._.' ? folder || '.' : folder + base.slice(2);
  try {
    return checkEntryName(subject, 'dir', limits);
  } catch (error) {
    if (!(error instanceof ArchiveRefusal)) throw error;
    throw new ArchiveRefusal(
      error.code,
      `${error.message} (in the name of the macOS metadata entry ${quoteName(raw)})`,
      raw,
    );
  }
}

/**
 * The key under which two names are "the same file" on some OS this app installs to.
 *
 * NFKC first (so `café` in NFC and NFD, and the ligature `ﬁ` and `fi`, meet), then full case
 * folding approximated as upper- then lower-casing (JavaScript's `toUpperCase` applies the full
 * Unicode case mappings: `ß` → `SS` → `ss`, final sigma `ς` → `Σ` → `σ`), then NFKC again to
 * recompose what the case mappings decomposed. This folds more than macOS or Windows do, which is
 * the safe direction: a collision refused here can never become an overwrite at install.
 */
export function collisionKey(path: string): string {
  return path.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}
