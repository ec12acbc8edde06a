/**
 * Traffic as the trigger host's intake journal holds it (`triggers/intake-journal.ts`, a `traffic` record): the
 * committed lines and the head after them. Here, below the journal, so the record can read it (`traffic-commit.ts`).
 */
import { crc32 } from 'node:zlib';
/** Traffic's committed lines and head (sealed under the record key), as the journal holds them. */
export interface JournalTraffic {
  head: { count: number; last: string };
  seal: string;
  /** Chained lines of `traffic.jsonl`, oldest first (each carries its `seq`). */
  lines: string[];
}

/** Folds a `traffic` record into what the journal holds of traffic: the newest head, the lines not yet appended. */
export function foldTraffic(held: JournalTraffic | null, record: JournalTraffic, appended = 0): JournalTraffic {
  // Lines chained again from a place (after a cut the record's end moved back) replace those held from there.
  const from = record.lines.length > 0 ? seqOf(record.lines[0] as string) : Number.POSITIVE_INFINITY;
  const kept = (held?.lines ?? []).filter((line) => seqOf(line) < from);
  const lines = [...kept, ...record.lines].filter((line) => seqOf(line) > appended);
  return { head: record.head, seal: record.seal, lines };
}

/** The `seq` of a chained line (0 when it has none). */
export function seqOf(line: string): number {
  const match = /"seq":(\d+),"hmac":"[0-9a-f]*"}$/.exec(line);
  return match ? Number(match[1]) : 0;
}

/** Whole frames (`[u32 LE length][u32 LE CRC-32][JSON]`) of `bytes` until the first torn or corrupt one; `end` after the last whole one. */
export function readFrames(bytes: Buffer, maxRecord: number): { records: unknown[]; end: number } {
  const records: unknown[] = [];
  let at = 0;
  while (at + 8 <= bytes.length) {
    const length = bytes.readUInt32LE(at);
    if (length > maxRecord || at + 8 + length > bytes.length) break;
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (crc32(body) !== bytes.readUInt32LE(at + 4)) break;
    try {
      records.push(JSON.parse(body.toString('utf8')));
    } catch {
      break;
    }
    at += 8 + length;
  }
  return { records, end: at };
}
