/**
 * `sniffInputKind`: what an input looks like from its first bytes, for the inspect dispatcher
 * (DESIGN.md: formats are told by content, not by extension).
 */
import { open, stat } from 'node:fs/promises';
import { sniffFormat } from './archive-source';
import type { InputKind } from './types';

const HEAD_BYTES = 4096;

/**
 * `'directory'` for a folder; `'apo'` for gzip or tar content, and also for the other archive
 * formats this app recognises only to refuse (zstd, xz, zip, …), so the dispatcher hands them to
 * `readApoArchive`, whose refusal names the format, and for an empty file (`archive.empty`); `'json'` when the first
 * character after an
 * optional BOM and whitespace is `{`; else (and for an unreadable path) `'unknown'`.
 */
export async function sniffInputKind(path: string): Promise<InputKind> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) return 'directory';
    if (!info.isFile()) return 'unknown';
    const handle = await open(path, 'r');
    let head: Buffer;
    try {
      const buffer = Buffer.alloc(HEAD_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
      head = buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
    // An empty file says nothing of what it was meant to be: most often an unfinished download of a
    // package. The archive reader refuses it as `archive.empty` ("download it again").
    if (head.length === 0) return 'apo';
    const format = sniffFormat(head).format;
    if (format === 'gzip' || format === 'tar' || format === 'other') return 'apo';
    let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
    while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
    return head[i] === 0x7b ? 'json' : 'unknown';
  } catch {
    return 'unknown';
  }
}
