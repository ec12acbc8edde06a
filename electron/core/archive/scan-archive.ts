/**
 * One checked pass over an `.apo`: source (hash + gunzip) → tar scanner (limits, names, types) →
 * visitor. Shared by reading (inspect) and extraction (install), so both apply the very same checks.
 */
import { openArchiveSource } from './archive-source';
import { ArchiveRefusal } from './refusal';
import { TarScanner, type EntryVisitor } from './tar-scanner';
import type { ArchiveLimits } from './types';

/** What a completed pass knows besides what the visitor collected. */
export interface ScanResult {
  sha256: string;
  totalBytes: number;
  /** macOS AppleDouble entries left out (archive names). */
  skipped: string[];
}

/**
 * Reads `path` once, handing every accepted entry to `visitor`. Throws an `ArchiveRefusal` at the
 * first problem; on any exit the file and zlib are closed at once, so a refusal at a
 * header costs no further reading.
 */
export async function scanArchive(
  path: string,
  limits: ArchiveLimits,
  visitor: EntryVisitor,
  onBytes?: (chunk: Buffer) => void,
): Promise<ScanResult> {
  const source = await openArchiveSource(path, onBytes);
  const scanner = new TarScanner(limits, visitor);
  try {
    for await (const chunk of source.tarChunks) await scanner.write(chunk);
    scanner.finish();
    return { sha256: source.sha256(), totalBytes: scanner.totalBytes, skipped: scanner.skipped };
  } finally {
    source.close();
  }
}

/** Whether `error` is an expected refusal (as opposed to a bug or an I/O failure to report as such). */
export function isRefusal(error: unknown): error is ArchiveRefusal {
  return error instanceof ArchiveRefusal;
}
