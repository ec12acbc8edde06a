/**
 * Safe, streaming reading of `.apo` archives (DESIGN.md "Reading without running").
 * INTERFACE STUB: the archive work replaces the bodies; the signatures are the contract.
 */
import type { ArchiveFileInfo, Problem } from '../../../shared/inspection';

/** The limits of DESIGN.md "Reading without running". */
export interface ArchiveLimits {
  maxEntries: number;
  maxTotalBytes: number;
  maxFileBytes: number;
  maxManifestBytes: number;
  maxPathBytes: number;
  maxDepth: number;
}

/** What a successful read returns: no file contents but the manifest and the Python modules. */
export interface ArchiveContents {
  ok: true;
  /** SHA-256 of the archive file's bytes, hex. */
  sha256: string;
  /** Regular files, paths relative to the package root. */
  files: ArchiveFileInfo[];
  /** Directories, paths relative to the package root, no trailing slash. */
  dirs: string[];
  totalBytes: number;
  /** The text of `apollia.toml`. */
  manifestText: string;
  /** Texts of every `*.py` file, by package-relative path, for the module scan. */
  pythonTexts: Map<string, string>;
}

export type ArchiveRead = ArchiveContents | { ok: false; sha256: string | null; error: Problem };

/** Reads and checks an `.apo` file once, as a stream, writing nothing. */
export async function readApoArchive(path: string, options: { limits?: Partial<ArchiveLimits> } = {}): Promise<ArchiveRead> {
  void path;
  void options;
  return { ok: false, sha256: null, error: { code: 'archive.unimplemented', message: 'archive reading is not implemented yet' } };
}
