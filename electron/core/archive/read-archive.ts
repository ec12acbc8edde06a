/**
 * `readApoArchive`: the inspect-time read of an `.apo` (DESIGN.md "Reading without running").
 * Keeps in memory only `apollia.toml` and the `*.py` texts (for the module scan); every other
 * file is counted as it streams past and never buffered. Writes nothing anywhere.
 */
import type { ArchiveFileInfo } from '../../../shared/manifests/inspection';
import { checkPackagePath } from './entry-name';
import { DEFAULT_ARCHIVE_LIMITS, MAX_PYTHON_TEXT_BYTES } from './limits';
import { isManifestCandidate, packageRoot, refuseSecondManifest } from './package-root';
import { ARCHIVE_ERROR, ArchiveRefusal, quoteName } from './refusal';
import { isRefusal, scanArchive } from './scan-archive';
import type { ArchiveEntry, EntryVisitor } from './tar-scanner';
import type { ArchiveContents, ArchiveLimits, ArchiveRead } from './types';

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
const LENIENT_UTF8 = new TextDecoder('utf-8');

/** Whether a path is a Python module the module scan reads. */
export function isPythonModule(path: string): boolean {
  return path.toLowerCase().endsWith('.py');
}

/** Collects what inspection needs while the scanner streams the archive. */
class InspectionVisitor implements EntryVisitor {
  readonly files: ArchiveFileInfo[] = [];
  readonly dirs: string[] = [];
  manifestPath: string | null = null;
  manifestText: string | null = null;
  readonly pythonTexts = new Map<string, string>();
  private pythonBytes = 0;
  private current: { path: string; keep: 'manifest' | 'python' | null; parts: Buffer[] } = {
    path: '',
    keep: null,
    parts: [],
  };

  constructor(private readonly limits: ArchiveLimits) {}

  entry(entry: ArchiveEntry): void {
    if (entry.kind === 'dir') {
      this.dirs.push(entry.path);
      this.current = { path: entry.path, keep: null, parts: [] };
      return;
    }
    this.files.push({ path: entry.path, size: entry.size, executable: entry.executable });
    let keep: 'manifest' | 'python' | null = null;
    if (isManifestCandidate(entry.path)) {
      if (this.manifestPath !== null) refuseSecondManifest(this.manifestPath, entry.path);
      if (entry.size > this.limits.maxManifestBytes) {
        throw new ArchiveRefusal(
          ARCHIVE_ERROR.manifestTooLarge,
          `archive entry ${quoteName(entry.path)} declares ${entry.size} bytes: apollia.toml may take at most ${this.limits.maxManifestBytes}`,
          entry.path,
        );
      }
      this.manifestPath = entry.path;
      keep = 'manifest';
    } else if (isPythonModule(entry.path)) {
      if (this.pythonBytes + entry.size > MAX_PYTHON_TEXT_BYTES) {
        throw new ArchiveRefusal(
          ARCHIVE_ERROR.pythonTooLarge,
          `with archive entry ${quoteName(entry.path)} the Python modules would take ${this.pythonBytes + entry.size} bytes: at most ${MAX_PYTHON_TEXT_BYTES} are read for the module scan`,
          entry.path,
        );
      }
      this.pythonBytes += entry.size;
      keep = 'python';
    }
    this.current = { path: entry.path, keep, parts: [] };
  }

  data(chunk: Buffer): void {
    // A copy: the chunk is a view into a read or inflate buffer that the next chunk overwrites.
    if (this.current.keep !== null) this.current.parts.push(Buffer.from(chunk));
  }

  entryEnd(): void {
    const { path, keep, parts } = this.current;
    if (keep === 'manifest') {
      try {
        this.manifestText = STRICT_UTF8.decode(Buffer.concat(parts));
      } catch {
        throw new ArchiveRefusal(
          ARCHIVE_ERROR.manifestEncoding,
          `archive entry ${quoteName(path)} is not valid UTF-8 text`,
          path,
        );
      }
    } else if (keep === 'python') {
      this.pythonTexts.set(path, LENIENT_UTF8.decode(Buffer.concat(parts)));
    }
    this.current = { path: '', keep: null, parts: [] };
  }
}

/**
 * The checked read, and the archive-path prefix of the package root (`''` or `'<folder>/'`) that
 * the contents' paths were stripped of; extraction needs it. Throws an `ArchiveRefusal`.
 */
export async function inspectArchive(
  path: string,
  limits: ArchiveLimits,
  onBytes?: (chunk: Buffer) => void,
): Promise<{ contents: ArchiveContents; prefix: string }> {
  const visitor = new InspectionVisitor(limits);
  const scanned = await scanArchive(path, limits, visitor, onBytes);
  const prefix = packageRoot(visitor.manifestPath, [...visitor.files.map((file) => file.path), ...visitor.dirs]);
  const root = { bytes: Buffer.byteLength(prefix, 'utf8'), levels: prefix === '' ? 0 : 1 };
  for (const archivePath of [...visitor.files.map((file) => file.path), ...visitor.dirs]) {
    if (`${archivePath}/` !== prefix) checkPackagePath(archivePath, archivePath, root, limits);
  }
  const strip = (archivePath: string) => archivePath.slice(prefix.length);
  const pythonTexts = new Map<string, string>();
  for (const [modulePath, text] of visitor.pythonTexts) pythonTexts.set(strip(modulePath), text);
  const contents: ArchiveContents = {
    ok: true,
    sha256: scanned.sha256,
    files: visitor.files.map((file) => ({ ...file, path: strip(file.path) })),
    dirs: visitor.dirs.filter((dir) => `${dir}/` !== prefix).map(strip),
    totalBytes: scanned.totalBytes,
    manifestText: visitor.manifestText ?? '',
    pythonTexts,
    skipped: scanned.skipped,
  };
  return { contents, prefix };
}

/**
 * Reads and checks an `.apo` file once, as a stream, writing nothing.
 *
 * Answers the contents, or the first refusal as a value (`archive.*` code, a message naming the
 * entry); it throws only on a bug. `limits` may tighten (tests) or loosen the DESIGN limits.
 * `onBytes` sees every raw byte of the file as it is read and hashed (for the signature check); on a
 * refusal it may have seen only part of the file, so its result counts only when `ok` is true.
 */
export async function readApoArchive(
  path: string,
  options: { limits?: Partial<ArchiveLimits>; onBytes?: (chunk: Buffer) => void } = {},
): Promise<ArchiveRead> {
  const limits: ArchiveLimits = { ...DEFAULT_ARCHIVE_LIMITS, ...options.limits };
  try {
    return (await inspectArchive(path, limits, options.onBytes)).contents;
  } catch (error) {
    if (isRefusal(error)) return { ok: false, sha256: null, error: error.toProblem() };
    throw error;
  }
}
