/**
 * The move to a keyed record, made once, when the record key is made (DESIGN.md "Triggers at run
 * time", the activity record): an earlier version's `activity.jsonl` is taken in (plain-chained,
 * as that version would have), then one `record_keyed` decision says from which entry on the chain
 * is keyed and whether the plain part was intact; its HMAC of the last plain line anchors them all.
 * The key is the marker: with a key, `activity.jsonl` is never read again.
 *
 * Also what a writer checks before it seals a new head (a head that does not match the record's
 * end is recorded as `record_broken`), and the recorded rotations traffic's check needs.
 */
import { appendFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isDecisionKind } from '../../../shared/activity/activity-kinds';
import { emptyHead, GENESIS, type ReadLine, type RecordHead, type RecordStream, sha256 } from './record-chain';
import { type ActivityEvent, parseEntry, readLines } from './record-files';
import { type SealedHeads, writeHeads } from './record-head';
import { verifyStream } from './record-verify';

/** What the move needs of the log (structural: no import back to it). */
export interface MigratingLog {
  readonly dataDir: string;
  readonly decisionsPath: string;
  trafficPath(n?: number): string;
  clean(input: ActivityEvent): ActivityEvent;
  tail(key: Uint8Array, stream: RecordStream): Promise<RecordHead>;
  append(key: Uint8Array, stream: RecordStream, head: RecordHead, events: readonly object[]): Promise<RecordHead>;
  readStream(stream: RecordStream): Promise<ReadLine[]>;
}

/** Appends `events` plain-chained (SHA-256 of the line before), as the version before the key did. */
async function appendPlain(path: string, events: readonly ActivityEvent[]): Promise<void> {
  const lines = await readLines(path);
  let prev = lines.length === 0 ? GENESIS : sha256(lines.at(-1) as string);
  let text = '';
  for (const event of events) {
    const line = JSON.stringify({ ...event, prev });
    text += `${line}\n`;
    prev = sha256(line);
  }
  await appendFile(path, text, { mode: 0o600 });
}

/** Takes in `activity.jsonl` (the data folder root), cleaned and filed by kind; returns how many entries. */
async function takeInLegacy(log: MigratingLog): Promise<number> {
  const legacy = join(log.dataDir, 'activity.jsonl');
  const events = (await readLines(legacy)).map(parseEntry).filter((e): e is ActivityEvent => e !== null);
  const cleaned = events.map((event) => log.clean(event));
  const decisions = cleaned.filter((e) => isDecisionKind(e.kind));
  const traffic = cleaned.filter((e) => !isDecisionKind(e.kind));
  if (decisions.length > 0) await appendPlain(log.decisionsPath, decisions);
  if (traffic.length > 0) await appendPlain(log.trafficPath(), traffic);
  await rm(legacy, { force: true });
  return cleaned.length;
}

/** The move to the keyed chain, under the record's lock, right after the key was made. */
export async function migrateToKeyed(log: MigratingLog, key: Uint8Array): Promise<void> {
  const imported = await takeInLegacy(log);
  const decisions = await log.readStream('decisions');
  const traffic = await log.readStream('traffic');
  const heads: SealedHeads = { decisions: await log.tail(key, 'decisions'), traffic: await log.tail(key, 'traffic') };
  if (decisions.length + traffic.length > 0 && heads.decisions.count + heads.traffic.count > 0) {
    const plain = verifyStream({
      stream: 'decisions',
      key: null,
      lines: decisions,
      head: null,
      headSource: 'none',
      expectRecord: false,
      dir: 'activity',
    });
    const state = plain.broken
      ? `broken when keyed, at ${plain.broken.file} line ${plain.broken.line}: ${plain.broken.reason}`
      : 'intact when keyed';
    const detail = `From decision ${heads.decisions.count + 1} on each line carries an HMAC of the one before under record.key; the ${heads.decisions.count} decisions and ${heads.traffic.count} traffic entries before were chained with plain SHA-256 (${state})${imported > 0 ? `; activity.jsonl (${imported} entries) taken in, never again` : ''}`;
    const entry = log.clean({ at: '', kind: 'record_keyed', outcome: 'ok', detail });
    heads.decisions = await log.append(key, 'decisions', heads.decisions, [entry]);
  } else {
    heads.decisions = emptyHead(key, 'decisions');
    heads.traffic = emptyHead(key, 'traffic');
  }
  // Sealed once, with the key: until the store commits the decisions' head (and the host's journal traffic's), a
  // missing head is a break.
  await writeHeads(log.dataDir, key, heads);
}

/**
 * What a writer finds wrong with the sealed head before it seals a new one: each a detail for a
 * `record_broken` decision (none when the head matches the record's end, or lags it after a crash).
 */
export function headBreaks(
  sealed: { state: 'missing' } | { state: 'forged' } | { state: 'ok'; heads: SealedHeads },
  tails: SealedHeads,
  streams: readonly RecordStream[] = ['decisions', 'traffic'],
): string[] {
  if (sealed.state === 'forged')
    return ["the record's sealed head (activity-head.json) failed its seal: it was changed without the record key"];
  // The head is written with the key (the move), so a key without a head means the head was removed.
  if (sealed.state === 'missing')
    return [
      `the record's sealed head (activity-head.json) was gone (the record then held ${tails.decisions.count} decisions): whether entries were cut from the end cannot be told`,
    ];
  const out: string[] = [];
  for (const stream of streams) {
    const head = sealed.heads[stream];
    const tail = tails[stream];
    if (tail.count < head.count)
      out.push(
        `${head.count - tail.count} ${stream} entries were missing at the end (the sealed head counted ${head.count}, the record ended at ${tail.count})`,
      );
    else if (tail.count === head.count && tail.last !== head.last)
      out.push(`the last ${stream} entry was not the one the sealed head named: the record was changed or replaced`);
  }
  return out;
}

/** The recorded rotations' dropped files: the place of each one's last entry and the HMAC the next carries. */
export function rotationLinks(decisionLines: readonly string[]): RecordHead[] {
  const out: RecordHead[] = [];
  for (const text of decisionLines) {
    if (!text.includes('"traffic_rotated"')) continue;
    try {
      const dropped = (JSON.parse(text) as { rotation?: { dropped?: { count?: unknown; next?: unknown } } }).rotation
        ?.dropped;
      if (
        Number.isSafeInteger(dropped?.count) &&
        typeof dropped?.next === 'string' &&
        /^[0-9a-f]{64}$/.test(dropped.next)
      )
        out.push({ count: dropped.count as number, last: dropped.next });
    } catch {
      // Not JSON: the decisions' own check names the line.
    }
  }
  return out;
}
