/**
 * The keyed chain of the activity record (DESIGN.md "Triggers at run time", the activity record):
 * each line carries `hmac`, the HMAC-SHA256 under the record key of the whole line before it (the
 * first line of a stream: of the stream's name), and `seq`, its place in its stream (1-based, on
 * across rotation). The record's head is the count of lines and the HMAC the next line will carry.
 *
 * Lines written before the record was keyed carry `prev`, a plain SHA-256 of the line before; they
 * may only open a stream, and the first keyed line after them is the recorded move
 * (`record_keyed`), whose HMAC of the last plain line anchors them all. Pure: no I/O.
 */
import { createHash, createHmac } from 'node:crypto';

/** The `prev` of the first line of a plain (earlier versions') stream. */
export const GENESIS = '0'.repeat(64);

/** A stream of the record: decisions (never cut) or traffic (rotated). */
export type RecordStream = 'decisions' | 'traffic';

/** A stream's head: lines written so far, and the HMAC the next line carries. */
export interface RecordHead {
  count: number;
  last: string;
}

/** What kind of break `verify` found. */
export type BreakKind = 'changed' | 'cut' | 'deleted' | 'replaced' | 'recomputed' | 'head';

/** Each break kind in words, for `activity verify` and the dashboard. */
export const BREAK_WORDS: Record<BreakKind, string> = {
  changed: 'a line was changed, removed or inserted',
  cut: 'lines are missing at the end',
  deleted: 'the record was deleted',
  replaced: 'the record was replaced by one this folder did not write',
  recomputed: 'the chain was recomputed without the record key',
  head: "the record's sealed head is missing or was changed",
};

/** One line read back, with where it was read. */
export interface ReadLine {
  /** The file, relative to the data folder. */
  file: string;
  /** 1-based line number in that file. */
  line: number;
  text: string;
}

/** Where a chain breaks. */
export interface ChainBreak {
  kind: BreakKind;
  /** The file, relative to the data folder (the record's folder when the record is gone). */
  file: string;
  /** 1-based line number in that file (0: the file as a whole, or its end). */
  line: number;
  reason: string;
}

/** The HMAC-SHA256 of `text` under `key`, hex. */
export function mac(key: Uint8Array, text: string): string {
  return createHmac('sha256', key).update(text, 'utf8').digest('hex');
}

/** The plain SHA-256 of `text`, hex (the chain of earlier versions). */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The `hmac` the first line of `stream` carries. */
export function startMac(key: Uint8Array, stream: RecordStream): string {
  return mac(key, `apollia activity record: ${stream}`);
}

/** The head of an empty stream. */
export function emptyHead(key: Uint8Array, stream: RecordStream): RecordHead {
  return { count: 0, last: startMac(key, stream) };
}

/**
 * The lines of `entries` chained after `head`, and the head after them. The store's outbox can
 * carry both: the lines are what is appended, the head what is committed with them.
 */
export function chainLines(
  key: Uint8Array,
  head: RecordHead,
  entries: readonly object[],
): { lines: string[]; head: RecordHead } {
  const lines: string[] = [];
  let { count, last } = head;
  for (const entry of entries) {
    count++;
    const line = JSON.stringify({ ...entry, seq: count, hmac: last });
    lines.push(line);
    last = mac(key, line);
  }
  return { lines, head: { count, last } };
}

/** The chain fields of a line: `seq` and `hmac` (keyed), or `prev` (plain); null when not JSON. */
export function chainFields(text: string): { seq?: number; hmac?: string; prev?: string; kind?: string } | null {
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    return {
      ...(typeof value.seq === 'number' ? { seq: value.seq } : {}),
      ...(typeof value.hmac === 'string' ? { hmac: value.hmac } : {}),
      ...(typeof value.prev === 'string' ? { prev: value.prev } : {}),
      ...(typeof value.kind === 'string' ? { kind: value.kind } : {}),
    };
  } catch {
    return null;
  }
}
