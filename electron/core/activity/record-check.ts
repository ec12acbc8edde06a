/**
 * `activity verify` over a data folder's record (`ActivityLog.verify`): both keyed chains checked
 * against the heads — the decisions' as the store committed it in the state (its seal checked under
 * the record key; a change whose append was interrupted is completed first), traffic's as the trigger host's
 * intake journal committed it (its seal checked; lines a kill kept from `traffic.jsonl` appended first; the sealed
 * `activity-head.json` of the version before until the host committed one) — and what was proved, or where each
 * breaks and how. Writes only that recovery.
 */
import { type RecordCommit, readCommit } from '../store/outbox';
import { sealOf } from './record-commit';
import type { ReadLine, RecordHead, RecordStream } from './record-chain';
import { type ActivityEvent, parseEntry } from './record-files';
import { readHeads } from './record-head';
import { readRecordKey } from './record-key';
import { rotationLinks } from './record-migration';
import { type ChainReport, type HeadSource, verifyStream } from './record-verify';
import { readJournalTraffic, TRAFFIC_HEAD_FILE, trafficSealHolds } from './traffic-commit';

/** What `ActivityLog.verify` compares with: the heads the store committed, when it carries them. */
export interface VerifyOptions {
  committed?: { decisions?: RecordHead; traffic?: RecordHead };
  /** The store names packages: an empty record there was deleted. */
  expectRecord?: boolean;
}

/** What `ActivityLog.verify` proved, per stream, and the breaks the record itself holds. */
export interface RecordReport {
  intact: boolean;
  decisions: ChainReport;
  traffic: ChainReport;
  /** `record_broken` entries: breaks found (and recorded) by a writer before this check. */
  recordedBreaks: ActivityEvent[];
}

/** What the check reads of the log (structural: no import back to it). */
export interface CheckedLog {
  readonly dataDir: string;
  readStream(stream: RecordStream): Promise<ReadLine[]>;
  recover(commit?: RecordCommit | null): Promise<void>;
  recoverTraffic(): Promise<void>;
}

/** The record's folder in the data folder (`ActivityLog.dir`), for a break of the whole record. */
const ACTIVITY_DIR = 'activity';

/** `report` broken at the head kept in `file`, whose seal fails (`reason`). */
function headBreak(report: ChainReport, file: string, reason: string): ChainReport {
  return { ...report, intact: false, head: null, broken: { kind: 'head', file, line: 0, reason } };
}

/** What `ActivityLog.verify` does, once an earlier version's file is taken in. */
export async function verifyRecord(log: CheckedLog, options: VerifyOptions): Promise<RecordReport> {
  const key = await readRecordKey(log.dataDir);
  const sealed = key ? await readHeads(log.dataDir, key) : ({ state: 'missing' } as const);
  // The head the store committed, unless one is given; a change whose append was interrupted is completed first.
  const commit = options.committed ? null : await readCommit(log.dataDir);
  if (commit && key) await log.recover(commit);
  const commitForged = commit !== null && (key === null || commit.seal !== sealOf(key, commit.head));
  // Traffic's head as the host's intake journal committed it (its lines a kill kept from traffic.jsonl appended first).
  const journal = options.committed ? null : await readJournalTraffic(log.dataDir);
  if (journal && key && journal.lines.length > 0) await log.recoverTraffic();
  const journalForged = journal !== null && (key === null || !trafficSealHolds(key, journal));
  const committedHeads = options.committed ?? {
    ...(commit && !commitForged ? { decisions: commit.head } : {}),
    ...(journal && !journalForged ? { traffic: journal.head } : {}),
  };
  const decisionLines = await log.readStream('decisions');
  const check = (stream: RecordStream, lines: typeof decisionLines): ChainReport => {
    const committed = committedHeads[stream];
    const source: HeadSource = committed ? 'committed' : sealed.state === 'ok' ? 'sealed' : 'none';
    const head = committed ?? (sealed.state === 'ok' ? sealed.heads[stream] : null);
    const report = verifyStream({
      stream,
      key,
      lines,
      head,
      headSource: source,
      expectRecord: key !== null || options.expectRecord === true,
      rotations: rotationLinks(decisionLines.map((l) => l.text)),
      dir: ACTIVITY_DIR,
    });
    if (report.intact && stream === 'decisions' && commitForged && key !== null)
      return headBreak(
        report,
        'state.json',
        "the record's head committed in state.json fails its seal under the record key: it was changed without the key",
      );
    if (stream === 'traffic' && journalForged && key !== null)
      return headBreak(
        report,
        TRAFFIC_HEAD_FILE,
        "traffic's head committed in the intake journal fails its seal under the record key: it was changed without the key",
      );
    if (
      report.intact &&
      !committed &&
      sealed.state === 'forged' &&
      !(stream === 'decisions' && commit) &&
      !(stream === 'traffic' && journal)
    )
      return headBreak(
        report,
        'activity-head.json',
        'its seal fails under the record key: it was changed without the key',
      );
    return report;
  };
  const decisions = check('decisions', decisionLines);
  const traffic = check('traffic', await log.readStream('traffic'));
  const recordedBreaks = decisionLines
    .map((l) => parseEntry(l.text))
    .filter((e): e is ActivityEvent => e?.kind === 'record_broken');
  return { intact: decisions.intact && traffic.intact, decisions, traffic, recordedBreaks };
}
