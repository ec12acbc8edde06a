/**
 * Keeps every accepted name of one archive and refuses duplicates, names that collide after
 * normalisation and case folding, and a file and a folder at one path (DESIGN.md "Reading without
 * running"), including a file `a` next to an entry `a/b` in either order.
 */
import { collisionKey } from './entry-name';
import { ARCHIVE_ERROR, ArchiveRefusal, quoteName } from './refusal';

interface KnownName {
  /** The name as the archive spells it. */
  name: string;
  kind: 'file' | 'dir';
  /** False for a folder only implied by a deeper entry (`a` of `a/b`). */
  explicit: boolean;
  /** For an implied folder: the entry that implied it. */
  via?: string;
}

/** The names seen so far, by collision key. */
export class NameRegistry {
  private readonly names = new Map<string, KnownName>();

  /** Whether `path` is an accepted entry, or a folder implied by one, spelled exactly so. */
  has(path: string): boolean {
    return this.names.get(collisionKey(path))?.name === path;
  }

  /** Records `path` (already checked by `checkEntryName`) or throws the refusal. */
  add(path: string, kind: 'file' | 'dir'): void {
    const key = collisionKey(path);
    const known = this.names.get(key);
    if (known) {
      if (known.name !== path) {
        throw new ArchiveRefusal(
          ARCHIVE_ERROR.nameCollision,
          `archive entries ${quoteName(known.name)} and ${quoteName(path)} are the same name on systems that ignore case or Unicode normalisation`,
          path,
        );
      }
      if (known.kind !== kind) {
        if (known.explicit)
          throw new ArchiveRefusal(
            ARCHIVE_ERROR.fileDirConflict,
            `archive entry ${quoteName(path)} appears both as a file and as a folder`,
            path,
          );
        throw conflict(path, known.via ?? path, path);
      }
      if (known.explicit)
        throw new ArchiveRefusal(
          ARCHIVE_ERROR.duplicate,
          `archive entry ${quoteName(path)} appears more than once`,
          path,
        );
      known.explicit = true;
    } else {
      this.names.set(key, { name: path, kind, explicit: true });
    }

    let slash = path.indexOf('/');
    while (slash !== -1) {
      const parent = path.slice(0, slash);
      const parentKey = collisionKey(parent);
      const seen = this.names.get(parentKey);
      if (!seen) {
        this.names.set(parentKey, { name: parent, kind: 'dir', explicit: false, via: path });
      } else if (seen.kind === 'file') {
        throw conflict(seen.name, path, path);
      } else if (seen.name !== parent) {
        throw new ArchiveRefusal(
          ARCHIVE_ERROR.nameCollision,
          `archive entries ${quoteName(seen.name)} and ${quoteName(parent)} (in ${quoteName(path)}) are the same folder on systems that ignore case or Unicode normalisation`,
          path,
        );
      }
      slash = path.indexOf('/', slash + 1);
    }
  }
}

function conflict(file: string, inside: string, entry: string): ArchiveRefusal {
  return new ArchiveRefusal(
    ARCHIVE_ERROR.fileDirConflict,
    `archive entry ${quoteName(file)} is a file, but ${quoteName(inside)} uses it as a folder`,
    entry,
  );
}
