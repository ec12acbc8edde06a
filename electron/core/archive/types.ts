/**
 * Types of the `.apo` archive reader (DESIGN.md "Reading without running"). `index.ts` re-exports
 * them: other core modules (the manifest checker, the store) code against these shapes.
 */
import type { ArchiveFileInfo, Problem } from '../../../shared/manifests/inspection';

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
  /**
   * macOS AppleDouble entries (`._name` beside `name`, or `._.`) that were left out: metadata,
   * not package files; never read, listed or installed. Archive names, for a warning.
   */
  skipped: string[];
}

/** The outcome of `readApoArchive`: the contents, or the first refusal (a value, never a throw). */
export type ArchiveRead = ArchiveContents | { ok: false; sha256: string | null; error: Problem };

/** The outcome of `extractVerifiedArchive`. */
export type ArchiveExtraction =
  | { ok: true; sha256: string; files: ArchiveFileInfo[]; dirs: string[] }
  | { ok: false; error: Problem };

/** What `sniffInputKind` tells the inspect dispatcher from a path's first bytes. */
export type InputKind = 'apo' | 'json' | 'directory' | 'unknown';
