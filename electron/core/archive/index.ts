/**
 * Safe, streaming reading of `.apo` archives (DESIGN.md "Reading without running"): read and check
 * for inspection (`readApoArchive`), extract what inspection verified for install
 * (`extractVerifiedArchive`), and tell an input's kind from its first bytes (`sniffInputKind`).
 */
export type { ArchiveContents, ArchiveExtraction, ArchiveLimits, ArchiveRead, InputKind } from './types';
export { DEFAULT_ARCHIVE_LIMITS, MAX_PYTHON_TEXT_BYTES } from './limits';
export { ARCHIVE_ERROR, type ArchiveErrorCode } from './refusal';
export { readApoArchive } from './read-archive';
export { extractVerifiedArchive } from './extract-archive';
export { sniffInputKind } from './sniff-input';
