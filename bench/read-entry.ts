/**
 * Child-process entry of the bench: only the archive layer (`readApoArchive`), to show how much of
 * an inspection is reading the archive and how much is the manifest checks' own start-up.
 */
import { readApoArchive } from '../electron/core/archive/index';

readApoArchive(process.argv[2] ?? '').then(
  (read) =>
    console.log(
      JSON.stringify(
        read.ok
          ? { ok: true, name: `${read.files.length} files`, error: null }
          : { ok: false, name: null, error: read.error },
      ),
    ),
  (error: unknown) => {
    console.error(error);
    process.exit(3);
  },
);
