/**
 * `extractVerifiedArchive`: the install-time write of an `.apo` (DESIGN.md "Reading without
 * running": install extracts only from what inspection verified, into a fresh staging folder, with
 * normal modes; a failure leaves nothing behind).
 *
 * Two passes over the file, each with every check of `readApoArchive`: the first verifies the
 * archive and finds the package root without writing anything; the second writes, and its
 * SHA-256 is compared with the verified one at the end, so bytes that changed between inspection
 * and install (or between the passes) are never left installed.
 */
import { chmod, mkdir, open, readdir, rm, type FileHandle } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { DEFAULT_ARCHIVE_LIMITS } from './limits';
import { ARCHIVE_ERROR, ArchiveRefusal } from './refusal';
import { inspectArchive } from './read-archive';
import { isRefusal, scanArchive } from './scan-archive';
import type { ArchiveEntry, EntryVisitor } from './tar-scanner';
import type { ArchiveContents, ArchiveExtraction } from './types';

// Files the normal modes of DESIGN.md "Reading without running" (0644, 0755 when the archive marks them executable);
// folders their owner's alone (DESIGN.md "Consent, install, apply": the data folder 0700), so no other user of the
// computer reaches a package's files, whatever the folders above.
const FILE_MODE = 0o644;
const EXECUTABLE_MODE = 0o755;
const DIR_MODE = 0o700;

/** Writes accepted entries below `destination`, stripping the package-root prefix. */
class ExtractionVisitor implements EntryVisitor {
  private handle: FileHandle | null = null;
  private mode = FILE_MODE;

  constructor(
    private readonly destination: string,
    private readonly prefix: string,
  ) {}

  async entry(entry: ArchiveEntry): Promise<void> {
    if (entry.kind === 'dir' && `${entry.path}/` === this.prefix) return;
    if (!entry.path.startsWith(this.prefix)) {
      throw new ArchiveRefusal(
        ARCHIVE_ERROR.sha256Mismatch,
        'the archive changed while it was being installed',
        entry.path,
      );
    }
    const target = resolve(this.destination, entry.path.slice(this.prefix.length));
    // Names were checked (no `..`, not absolute); this is the belt to those braces.
    if (!target.startsWith(this.destination + sep))
      throw new Error(`extraction target escapes the destination: ${target}`);
    if (entry.kind === 'dir') {
      await mkdir(target, { recursive: true, mode: DIR_MODE });
      return;
    }
    await mkdir(dirname(target), { recursive: true, mode: DIR_MODE });
    this.mode = entry.executable ? EXECUTABLE_MODE : FILE_MODE;
    // `wx`: create, never open something that already exists (or a link planted there).
    this.handle = await open(target, 'wx', this.mode);
  }

  async data(chunk: Buffer): Promise<void> {
    if (this.handle) await this.handle.write(chunk);
  }

  async entryEnd(): Promise<void> {
    if (!this.handle) return;
    const handle = this.handle;
    this.handle = null;
    try {
      // Explicit, so neither the archive's mode bits (setuid, group-write) nor the umask decide.
      await handle.chmod(this.mode);
    } finally {
      await handle.close();
    }
  }

  async abort(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    await handle?.close().catch(() => undefined);
  }
}

/** Sets every folder below `root` (and `root`) to 0700, whatever the umask made of them. */
async function normaliseFolderModes(root: string): Promise<void> {
  await chmod(root, DIR_MODE);
  for (const item of await readdir(root, { withFileTypes: true })) {
    if (item.isDirectory()) await normaliseFolderModes(join(root, item.name));
  }
}

/**
 * Extracts the `.apo` at `path` into `destination`, which must not exist yet (it is created; the
 * store passes a fresh staging folder inside the data folder and renames it into place after).
 *
 * Succeeds only if the archive passes every check of `readApoArchive` and its SHA-256 equals
 * `expectedSha256` (what inspection verified and the user consented to). Files get 0644, or 0755
 * when the archive gave them any execute bit; folders 0700; never the archive's owners or setuid
 * bits. On any failure `destination` is removed completely and the problem returned as a value.
 */
export async function extractVerifiedArchive(
  path: string,
  expectedSha256: string,
  destination: string,
): Promise<ArchiveExtraction> {
  let verified: ArchiveContents;
  let prefix: string;
  try {
    ({ contents: verified, prefix } = await inspectArchive(path, DEFAULT_ARCHIVE_LIMITS));
  } catch (error) {
    if (isRefusal(error)) return { ok: false, error: error.toProblem() };
    throw error;
  }
  if (verified.sha256 !== expectedSha256.toLowerCase()) {
    return { ok: false, error: mismatch(expectedSha256, verified.sha256) };
  }

  const root = resolve(destination);
  try {
    await mkdir(dirname(root), { recursive: true });
  } catch (error) {
    return {
      ok: false,
      error: {
        code: ARCHIVE_ERROR.writeFailed,
        message: `the folder for ${root} could not be created: ${(error as Error).message}`,
        path: root,
      },
    };
  }
  try {
    await mkdir(root, { mode: DIR_MODE });
  } catch (error) {
    if ((error as { code?: string }).code === 'EEXIST') {
      return {
        ok: false,
        error: {
          code: ARCHIVE_ERROR.destinationExists,
          message: `the install folder ${root} already exists: extraction needs a fresh folder`,
          path: root,
        },
      };
    }
    return {
      ok: false,
      error: {
        code: ARCHIVE_ERROR.writeFailed,
        message: `the install folder ${root} could not be created: ${(error as Error).message}`,
        path: root,
      },
    };
  }

  const visitor = new ExtractionVisitor(root, prefix);
  try {
    const written = await scanArchive(path, DEFAULT_ARCHIVE_LIMITS, visitor);
    if (written.sha256 !== verified.sha256)
      throw new ArchiveRefusal(ARCHIVE_ERROR.sha256Mismatch, mismatch(verified.sha256, written.sha256).message);
    await normaliseFolderModes(root);
    return { ok: true, sha256: written.sha256, files: verified.files, dirs: verified.dirs };
  } catch (error) {
    await visitor.abort();
    await rm(root, { recursive: true, force: true });
    if (isRefusal(error)) return { ok: false, error: error.toProblem() };
    return {
      ok: false,
      error: {
        code: ARCHIVE_ERROR.writeFailed,
        message: `the package could not be written to ${root}: ${(error as Error).message}`,
        path: root,
      },
    };
  }
}

function mismatch(expected: string, actual: string): { code: string; message: string } {
  return {
    code: ARCHIVE_ERROR.sha256Mismatch,
    message: `the archive's SHA-256 is ${actual}, not the ${expected} that was inspected: it changed since, and is not installed`,
  };
}
