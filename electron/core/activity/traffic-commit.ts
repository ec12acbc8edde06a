/**
 * Traffic's commit (DESIGN.md "Commit points": the intake journal holds traffic entries with the runs): the trigger
 * host's traffic entries are chained after `traffic.jsonl`'s end, handed to the intake journal with traffic's head
 * after them (sealed under the record key, as the decisions' head is in `state.json`), and appended to
 * `traffic.jsonl` once the journal's batch is synced. Lines the journal committed that `traffic.jsonl` lacks (a
 * kill between the sync and the append) are appended first by every writer of traffic, under the record's lock.
 * `verify` compares traffic with the journal's head (`record-check.ts`).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { foldTraffic, type JournalTraffic, readFrames } from './journal-traffic';
import { chainFields, mac, type RecordHead } from './record-chain';

export type { JournalTraffic };

/** The host's intake journal, relative to the data folder (`triggers/intake-journal.ts` `JOURNAL_FILE`). */
const JOURNAL_FILE = join('triggers', 'intake.journal');

/** The journal file as `verify` names it (relative to the data folder). */
export const TRAFFIC_HEAD_FILE = JOURNAL_FILE;

/** What the record needs of the host's journal to commit traffic there. */
export interface TrafficJournal {
  /** The last traffic head the journal committed, with the lines not yet known to be in `traffic.jsonl`. */
  committed(): JournalTraffic | null;
  /** Appends a traffic record to the journal's batch; resolves once the batch's sync returned. */
  commit(traffic: JournalTraffic): Promise<void>;
  /** `traffic.jsonl` now holds traffic's lines up to `count`. */
  appended(count: number): void;
}

/** The seal of traffic's committed head: an HMAC under the record key, so whoever lacks the key cannot forge or roll one. */
export function trafficSeal(key: Uint8Array, head: RecordHead): string {
  return mac(key, `apollia traffic head\n${JSON.stringify([head.count, head.last])}`);
}

/** Traffic's commit as the journal file holds it now (read by a process other than the host: `verify`, the CLI). */
export async function readJournalTraffic(dataDir: string): Promise<JournalTraffic | null> {
  let bytes: Buffer;
  try {
    bytes = await readFile(join(dataDir, JOURNAL_FILE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let held: JournalTraffic | null = null;
  for (const record of readFrames(bytes, 16 * 1024 * 1024).records) {
    const value = record as { t?: unknown } & JournalTraffic;
    if (value.t === 'traffic') held = foldTraffic(held, value);
  }
  return held;
}

/** Whether the head's seal holds under the key. */
export function trafficSealHolds(key: Uint8Array, traffic: JournalTraffic): boolean {
  return traffic.seal === trafficSeal(key, traffic.head);
}

/**
 * The journal's lines `traffic.jsonl` lacks, when they follow its end (`tail`): none when it holds them, or when it
 * ends elsewhere (cut or replaced: `verify` names that break, and appending would only hide where it is).
 */
export function pendingTraffic(traffic: JournalTraffic | null, tail: RecordHead): string[] {
  if (!traffic) return [];
  const pending = traffic.lines.filter((line) => (chainFields(line)?.seq ?? 0) > tail.count);
  const first = pending.length > 0 ? chainFields(pending[0] as string) : null;
  if (!first || first.seq !== tail.count + 1 || first.hmac !== tail.last) return [];
  return pending;
}

/** Traffic's head committed in the journal against the record's end: each a detail for a `record_broken` decision. */
export function trafficBreaks(key: Uint8Array, traffic: JournalTraffic, tail: RecordHead): string[] {
  if (!trafficSealHolds(key, traffic))
    return [`traffic's head committed in ${JOURNAL_FILE} failed its seal: it was changed without the record key`];
  const { head } = traffic;
  if (tail.count < head.count)
    return [
      `${head.count - tail.count} traffic entries were missing at the end (the head committed in ${JOURNAL_FILE} counted ${head.count}, the record ended at ${tail.count})`,
    ];
  if (tail.count === head.count && tail.last !== head.last)
    return [
      `the last traffic entry was not the one the head committed in ${JOURNAL_FILE} named: the record was changed or replaced`,
    ];
  return [];
}
