/**
 * The activity record of one data folder (DESIGN.md "Triggers at run time", the activity record):
 * what the person decided, and what changed it without them, kept apart from traffic (deliveries,
 * fires, runs) and never evicted by it.
 *
 * Files, in `activity/` of the data folder, one JSON entry per line, oldest first:
 * - `decisions.jsonl`: every decision ({@link isDecisionKind}); never rotated, never cut.
 * - `traffic.jsonl`, then `traffic.1.jsonl` … `traffic.<N>.jsonl` (older): traffic, rotated when
 *   the current file passes {@link TRAFFIC_FILE_BYTES} and the last rotation is older than
 *   {@link ROTATE_FLOOR_MS}; each rotation is a recorded decision (`traffic_rotated`) naming the
 *   file and its last link, so only a recorded rotation explains traffic missing at its start.
 *
 * Every field of every entry is cleaned before it is written (`entry-text.ts`). Keyed: each line
 * carries `seq` and `hmac`, an HMAC under the record key (`record-key.ts`) of the line before
 * (`record-chain.ts`); the decisions' head is committed in the state with each change, the
 * change's lines in its outbox (`commit`, `record-commit.ts`, DESIGN.md "Commit points"), traffic's
 * head sealed beside the store (`record-head.ts`). {@link ActivityLog.verify} says what it proved
 * (`record-check.ts`, `record-verify.ts`).
 *
 * Every append takes `activity.lock` (the store's cross-process lock file, `store/lock.ts`), so the
 * app, the trigger host and the CLI can all record. The move from a plain SHA-256 record is made
 * once, when the key is made (`record-migration.ts`).
 */
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ACTIVITY_KINDS,
  type ActivityKind,
  type ActivityOutcome,
  isDecisionKind,
} from '../../../shared/activity/activity-kinds';
import { markIoFault, struckAfterCommit } from '../errors/io-fault';
import { withLockFile } from '../store/lock';
import { readCommit, type RecordCommit } from '../store/outbox';
import { cleanField } from './entry-text';
import { appendLines, commitBreaks, pendingLines, sealOf, syncRecordFile } from './record-commit';
import {
  type ChainBreak,
  chainFields,
  chainLines,
  emptyHead,
  mac,
  type RecordHead,
  type RecordStream,
} from './record-chain';
import { type ActivityEvent, lastLine, OUTCOMES, parseEntry, readLines } from './record-files';
import type { ActivityInput } from '../../../shared/activity/activity-kinds';
import { readHeads, type SealedHeads, writeHeads } from './record-head';
import { openRecordKey, readRecordKey } from './record-key';
import { listEntries, rotateIfDue } from './record-rotation';
import { headBreaks, migrateToKeyed } from './record-migration';
import { type RecordReport, type VerifyOptions, verifyRecord } from './record-check';
import type { ChainReport } from './record-verify';
import {
  type JournalTraffic,
  pendingTraffic,
  readJournalTraffic,
  type TrafficJournal,
  trafficBreaks,
  trafficSeal,
} from './traffic-commit';

export { ACTIVITY_KINDS, type ActivityKind, type ActivityOutcome, isDecisionKind };
export type { ActivityEvent, ChainBreak, ChainReport, RecordHead, RecordReport, VerifyOptions };
export { GENESIS } from './record-chain';

/** The folder of the record in the data folder. */
export const ACTIVITY_DIR = 'activity';
/** The decisions file, in {@link ACTIVITY_DIR}. */
export const DECISIONS_FILE = 'decisions.jsonl';
/** The current traffic file, in {@link ACTIVITY_DIR}; older ones are `traffic.<n>.jsonl`. */
export const TRAFFIC_FILE = 'traffic.jsonl';
/** The log file of earlier versions (data folder root), taken in once, when the record is keyed. */
export const LEGACY_ACTIVITY_FILE = 'activity.jsonl';
/** The record's lock file name in the data folder. */
export const ACTIVITY_LOCK = 'activity.lock';
/** A traffic file is rotated once it passes this size (1 MiB)… */
export const TRAFFIC_FILE_BYTES = 1024 * 1024;
/** …and the last rotation is this old (5 minutes), so a burst does not write a decision every few seconds. */
export const ROTATE_FLOOR_MS = 5 * 60_000;
/** Past this many times its size, a traffic file is rotated whatever the floor (the disk stays bounded). */
export const ROTATE_HARD_FACTOR = 8;
/** Rotated traffic files kept besides the current one. */
export const TRAFFIC_FILES = 4;
/** Longest `detail` kept; longer text is cut with `…`. */
export const DETAIL_MAX = 300;
/** Longest package, agent or trigger id kept. */
export const NAME_MAX = 200;

/** An entry as a writer gives it: `at` defaults to the clock's (the one shape, `shared/activity/activity-kinds.ts`). */
export type { ActivityInput };

/** Options of a log. */
export interface ActivityLogOptions {
  now?: () => Date;
  /** Size at which the current traffic file is rotated. */
  trafficFileBytes?: number;
  /** Rotated traffic files kept. */
  trafficFiles?: number;
  /** Least time between two rotations (ms). */
  rotateFloorMs?: number;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,3})?Z$/;

/** Makes a detail safe to keep: one line, no secret, bounded (see `entry-text.ts`). */
export function cleanDetail(detail: string): string {
  return cleanField(detail, DETAIL_MAX);
}

/** The activity record of one data folder. */
export class ActivityLog {
  private readonly now: () => Date;
  readonly trafficFileBytes: number;
  readonly trafficFiles: number;
  readonly rotateFloorMs: number;
  /** The key was made in this hold of the lock: no head was sealed before, none is missing. */
  private keyMadeNow = false;

  constructor(
    readonly dataDir: string,
    options: ActivityLogOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.trafficFileBytes = options.trafficFileBytes ?? TRAFFIC_FILE_BYTES;
    this.trafficFiles = options.trafficFiles ?? TRAFFIC_FILES;
    this.rotateFloorMs = options.rotateFloorMs ?? ROTATE_FLOOR_MS;
  }

  /** The folder of the record. */
  get dir(): string {
    return join(this.dataDir, ACTIVITY_DIR);
  }

  /** Path of the decisions file. */
  get decisionsPath(): string {
    return join(this.dir, DECISIONS_FILE);
  }

  /** Path of a traffic file: the current one (0) or the n-th rotated one. */
  trafficPath(n = 0): string {
    return join(this.dir, n === 0 ? TRAFFIC_FILE : `traffic.${n}.jsonl`);
  }

  /** The entry as it is stored: every field cleaned, `at` a real ISO time. */
  clean(input: ActivityInput): ActivityEvent {
    const at = input.at !== undefined && ISO.test(input.at) ? input.at : this.now().toISOString();
    if (!ACTIVITY_KINDS.includes(input.kind)) throw new Error(`unknown activity kind ${String(input.kind)}`);
    const event: ActivityEvent = {
      at,
      kind: input.kind,
      outcome: OUTCOMES.includes(input.outcome) ? input.outcome : 'failed',
      detail: cleanDetail(input.detail),
    };
    for (const key of ['package', 'agent', 'trigger'] as const) {
      const value = input[key];
      if (value !== undefined) event[key] = cleanField(String(value), NAME_MAX);
    }
    return event;
  }

  /**
   * Records one entry: a decision in the decisions file, traffic in the current traffic file
   * (by its kind). Every field is cleaned first. Returns the entry as stored.
   */
  async record(input: ActivityInput): Promise<ActivityEvent> {
    const [event] = await this.recordMany([input]);
    return event as ActivityEvent;
  }

  /**
   * Records several entries in order, under one hold of the lock (the trigger host's batches), and
   * seals the heads after them. A head that does not match the record's end (cut, replaced, gone)
   * is recorded first as a `record_broken` decision, so the next seal cannot hide it.
   */
  async recordMany(inputs: readonly ActivityInput[]): Promise<ActivityEvent[]> {
    const events = inputs.map((input) => this.clean(input));
    if (events.length === 0) return events;
    await this.locked(async (key) => {
      // A change the store committed comes first: its lines were chained after the record's end; then traffic the
      // host's journal committed.
      const commit = await readCommit(this.dataDir);
      await this.flushOutbox(key, commit);
      const journal = await this.flushTraffic(key, await readJournalTraffic(this.dataDir));
      const heads = { decisions: await this.tail(key, 'decisions'), traffic: await this.tail(key, 'traffic') };
      const broken = (await this.breaks(key, commit, heads, journal)).map((detail) =>
        this.clean({ kind: 'record_broken', outcome: 'failed', detail }),
      );
      const decisions = [...broken, ...events.filter((e) => isDecisionKind(e.kind))];
      if (decisions.length > 0) heads.decisions = await this.append(key, 'decisions', heads.decisions, decisions);
      await this.appendTraffic(key, heads, events, commit);
    });
    return events;
  }

  /**
   * The trigger host's entries (DESIGN.md "Commit points"): under the record's lock, the committed outboxes are
   * flushed (the store's, then the journal's traffic), the decisions among `inputs` appended (after a
   * `record_broken` when a head does not match the record's end), the traffic chained after `traffic.jsonl`'s end
   * and handed to the journal with the head after it (sealed), then, once the journal's batch is synced, appended.
   * With no head in the journal yet, the first batch checks traffic against `activity-head.json`'s (a data folder of
   * the version before), then commits its own: that file is not needed again. With no entries: only the flush.
   */
  async recordTraffic(inputs: readonly ActivityInput[], journal: TrafficJournal): Promise<ActivityEvent[]> {
    const events = inputs.map((input) => this.clean(input));
    await this.locked(async (key) => {
      const commit = await readCommit(this.dataDir);
      await this.flushOutbox(key, commit);
      const committed = await this.flushTraffic(key, journal.committed(), journal);
      // Nothing to record (the host's start): only what the journal committed and the record lacks.
      if (events.length === 0) return;
      const heads = { decisions: await this.tail(key, 'decisions'), traffic: await this.tail(key, 'traffic') };
      const broken = (await this.breaks(key, commit, heads, committed)).map((detail) =>
        this.clean({ kind: 'record_broken', outcome: 'failed', detail }),
      );
      const decisions = [...broken, ...events.filter((e) => isDecisionKind(e.kind))];
      if (decisions.length > 0) heads.decisions = await this.append(key, 'decisions', heads.decisions, decisions);
      const traffic = events.filter((e) => !isDecisionKind(e.kind));
      if (traffic.length > 0 || committed === null || broken.length > 0) {
        const chained = chainLines(key, heads.traffic, traffic);
        await journal.commit({ head: chained.head, seal: trafficSeal(key, chained.head), lines: chained.lines });
        await appendLines(this.trafficPath(), chained.lines);
        journal.appended(chained.head.count);
        heads.traffic = chained.head;
        const rotation = traffic.length > 0 ? await rotateIfDue(this, key, heads.traffic) : null;
        if (rotation) heads.decisions = await this.append(key, 'decisions', heads.decisions, [rotation]);
      }
      // Traffic's head is the journal's; a record no store commits is still sealed beside the store.
      if (commit === null) await writeHeads(this.dataDir, key, heads);
    });
    return events;
  }

  /** Appends the journal's committed traffic lines `traffic.jsonl` lacks (caller holds the lock); returns `committed`. */
  private async flushTraffic(
    key: Uint8Array,
    committed: JournalTraffic | null,
    journal?: TrafficJournal,
  ): Promise<JournalTraffic | null> {
    if (!committed) return null;
    const tail = await this.tail(key, 'traffic');
    const lines = pendingTraffic(committed, tail);
    await appendLines(this.trafficPath(), lines);
    journal?.appended(tail.count + lines.length);
    return committed;
  }

  /**
   * What a writer finds wrong with the heads before it writes: decisions against the head the store
   * committed (the sealed file's until the state carries one: read once, at format 7's first
   * change), traffic against the head the intake journal committed (the sealed file's until the host committed one).
   */
  private async breaks(
    key: Uint8Array,
    commit: RecordCommit | null,
    heads: SealedHeads,
    journal: JournalTraffic | null,
  ): Promise<string[]> {
    const read = await readHeads(this.dataDir, key);
    const sealed = read.state === 'missing' && this.keyMadeNow ? ({ state: 'ok', heads } as const) : read;
    const decisions = commit ? commitBreaks(key, commit, heads.decisions) : headBreaks(sealed, heads, ['decisions']);
    const traffic = journal
      ? trafficBreaks(key, journal, heads.traffic)
      : sealed.state === 'ok'
        ? headBreaks(sealed, heads, ['traffic'])
        : [];
    return [...decisions, ...traffic];
  }

  /**
   * Appends traffic (a writer other than the host: after the journal's committed lines, covered by the host's next
   * head), rotates it when due (a recorded decision), and, while the store commits no head, seals the heads in
   * `activity-head.json` (caller holds the lock).
   */
  private async appendTraffic(
    key: Uint8Array,
    heads: SealedHeads,
    events: readonly ActivityEvent[],
    commit: RecordCommit | null,
  ): Promise<void> {
    const traffic = events.filter((e) => !isDecisionKind(e.kind));
    if (traffic.length > 0) {
      heads.traffic = await this.append(key, 'traffic', heads.traffic, traffic);
      const rotation = await rotateIfDue(this, key, heads.traffic);
      if (rotation) heads.decisions = await this.append(key, 'decisions', heads.decisions, [rotation]);
    }
    if (commit === null) await writeHeads(this.dataDir, key, heads);
  }

  /**
   * The record's side of the store's commit (DESIGN.md "Commit points"; `record-commit.ts`): under
   * the record's lock, the previous commit's outbox is flushed, the decisions among `inputs` are
   * chained after the record's end (after a `record_broken` when the end does not match the
   * committed head), `write` is handed the new commit (the store writes it in the state: the
   * commit point), then the lines are appended. A failed append is made again from the outbox by
   * the next writer or the next open; traffic among `inputs` is appended after. Returns the
   * entries as stored.
   */
  async commit(
    previous: RecordCommit | null,
    inputs: readonly ActivityInput[],
    write: (commit: RecordCommit) => Promise<void>,
    onAppendProblem: (error: unknown) => void = () => undefined,
  ): Promise<ActivityEvent[]> {
    const events = inputs.map((input) => this.clean(input));
    await this.locked(async (key) => {
      // The lines the previous outbox covered are durable before it is replaced; a fault here changed nothing.
      await this.flushOutbox(key, previous)
        .then(() => syncRecordFile(this.decisionsPath))
        .catch((error: unknown) => {
          throw markIoFault(error, this.decisionsPath, 'before_commit');
        });
      const hasTraffic = events.some((e) => !isDecisionKind(e.kind));
      const journal = hasTraffic ? await this.flushTraffic(key, await readJournalTraffic(this.dataDir)) : null;
      const tail = await this.tail(key, 'decisions');
      const heads = { decisions: tail, traffic: await this.tail(key, 'traffic') };
      const broken = (await this.breaks(key, previous, heads, journal)).map((detail) =>
        this.clean({ kind: 'record_broken', outcome: 'failed', detail }),
      );
      const chained = chainLines(key, tail, [...broken, ...events.filter((e) => isDecisionKind(e.kind))]);
      let after: unknown = null;
      try {
        await write({ head: chained.head, seal: sealOf(key, chained.head), outbox: chained.lines });
      } catch (error) {
        // Before the rename nothing was changed; after it (the folder's fsync) the change stands and is recorded.
        if (!struckAfterCommit(error)) throw error;
        after = error;
      }
      try {
        await appendLines(this.decisionsPath, chained.lines);
        heads.decisions = chained.head;
        if (hasTraffic) await this.appendTraffic(key, heads, events, previous);
      } catch (error) {
        onAppendProblem(error);
      }
      if (after !== null) throw after;
    });
    return events;
  }

  /** Appends the lines of `commit`'s outbox the record lacks (caller holds the lock). */
  private async flushOutbox(key: Uint8Array, commit: RecordCommit | null): Promise<void> {
    if (!commit || commit.outbox.length === 0) return;
    await appendLines(this.decisionsPath, pendingLines(commit, await this.tail(key, 'decisions')));
  }

  /**
   * At open (the store's read, `verify`): the committed outbox's lines the record lacks (a change
   * whose append was cut short by a kill or a full disk) are appended. Cheap when none is missing:
   * the last line's place is compared without the lock.
   */
  async recover(commit?: RecordCommit | null): Promise<void> {
    const committed = commit === undefined ? await readCommit(this.dataDir) : commit;
    // Without the key nothing can be linked (and a key is never made here: its loss is a break verify names).
    if (!committed || committed.outbox.length === 0 || (await readRecordKey(this.dataDir)) === null) return;
    const last = await lastLine(this.decisionsPath);
    const seq = last ? chainFields(last.text)?.seq : undefined;
    if (seq !== undefined && seq >= committed.head.count && last?.terminated) return;
    await this.locked(async (key) => this.flushOutbox(key, await readCommit(this.dataDir)));
  }

  /** At `verify`: the traffic lines the host's journal committed that `traffic.jsonl` lacks are appended. */
  async recoverTraffic(): Promise<void> {
    if ((await readRecordKey(this.dataDir)) === null) return;
    await this.locked(async (key) => this.flushTraffic(key, await readJournalTraffic(this.dataDir)));
  }

  /** The current heads of the record (count and the HMAC the next line carries), read from its files. */
  async heads(): Promise<SealedHeads> {
    return this.locked(async (key) => ({
      decisions: await this.tail(key, 'decisions'),
      traffic: await this.tail(key, 'traffic'),
    }));
  }

  /** Runs `fn` holding the record's lock with the record key (made now, with the move to a keyed record, when there is none). */
  private async locked<T>(fn: (key: Buffer) => Promise<T>): Promise<T> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    return withLockFile(join(this.dataDir, ACTIVITY_LOCK), async () => {
      const { key, created } = await openRecordKey(this.dataDir);
      if (created) await migrateToKeyed(this, key);
      this.keyMadeNow = created;
      try {
        return await fn(key);
      } finally {
        this.keyMadeNow = false;
      }
    });
  }

  /** The head of a stream from the end of its files: the last chained line's place and its HMAC. */
  async tail(key: Uint8Array, stream: RecordStream): Promise<RecordHead> {
    const paths = stream === 'decisions' ? [this.decisionsPath] : [this.trafficPath(), this.trafficPath(1)];
    for (const path of paths) {
      const last = await lastLine(path);
      if (last === null) continue;
      let lines = [last.text];
      if (chainFields(last.text)?.seq === undefined) lines = await readLines(path);
      for (let i = lines.length - 1; i >= 0; i--) {
        const text = lines[i] as string;
        const fields = chainFields(text);
        if (fields?.seq !== undefined) return { count: fields.seq, last: mac(key, text) };
        // A plain line (before the record was keyed): its place is its line number.
        if (fields?.prev !== undefined) return { count: await this.plainCount(stream, path, i), last: mac(key, text) };
      }
    }
    return emptyHead(key, stream);
  }

  /** The place in its stream of the plain line `index` of `path` (lines of older traffic files before it). */
  private async plainCount(stream: RecordStream, path: string, index: number): Promise<number> {
    if (stream === 'decisions') return index + 1;
    let before = 0;
    for (let n = this.trafficFiles; n >= 1; n--)
      if (this.trafficPath(n) !== path) before += (await readLines(this.trafficPath(n))).length;
      else break;
    return before + index + 1;
  }

  /** Appends `events` to the stream after `head`; returns the head after them (caller holds the lock). */
  async append(
    key: Uint8Array,
    stream: RecordStream,
    head: RecordHead,
    events: readonly object[],
  ): Promise<RecordHead> {
    const path = stream === 'decisions' ? this.decisionsPath : this.trafficPath();
    const chained = chainLines(key, head, events);
    // A line cut short by a crash: another's stays as it is (verify shows it); the next starts on a line of its own.
    await appendLines(path, chained.lines);
    return chained.head;
  }

  /** Every stored file of a stream, oldest first. */
  files(stream: RecordStream): string[] {
    if (stream === 'decisions') return [this.decisionsPath];
    return Array.from({ length: this.trafficFiles + 1 }, (_, i) => this.trafficPath(this.trafficFiles - i));
  }

  /**
   * Entries newest first, optionally only those of one agent (the store agent id), only decisions,
   * at most `limit`. A line that is not an entry (a torn last line after a crash) is passed over.
   * With `agent` and `package` (the agent's package), the package's own entries that name no agent
   * (its install, update, uninstall) are that agent's too: they changed what it may do.
   */
  async list(
    filter: { agent?: string; package?: string; limit?: number; decisionsOnly?: boolean } = {},
  ): Promise<ActivityEvent[]> {
    await this.takeInLegacyIfAny();
    return listEntries(this, filter);
  }

  /** Before the record is keyed, an earlier version's `activity.jsonl` is taken in (once: the key is the marker). */
  async takeInLegacyIfAny(): Promise<void> {
    if ((await readRecordKey(this.dataDir)) !== null) return;
    const present = await stat(join(this.dataDir, LEGACY_ACTIVITY_FILE)).then(
      () => true,
      () => false,
    );
    if (present) await this.locked(async () => undefined);
  }

  /** The lines of a stream with where each was read, oldest first. */
  async readStream(stream: RecordStream): Promise<{ file: string; line: number; text: string }[]> {
    const out: { file: string; line: number; text: string }[] = [];
    for (const path of this.files(stream)) {
      const file = path.slice(this.dataDir.length + 1);
      (await readLines(path)).forEach((text, i) => out.push({ file, line: i + 1, text }));
    }
    return out;
  }

  /**
   * The stored lines for a collector, byte for byte as kept (their `seq` and `hmac` included, so a
   * holder of the key can verify the chain and anyone can compare heads): decisions, then traffic,
   * each oldest first; with `since`, those at or after it; a line that is not an entry is left out.
   */
  async exportLines(
    options: { since?: string; decisionsOnly?: boolean } = {},
  ): Promise<{ stream: RecordStream; text: string }[]> {
    const out: { stream: RecordStream; text: string }[] = [];
    for (const stream of options.decisionsOnly ? (['decisions'] as const) : (['decisions', 'traffic'] as const))
      for (const { text } of await this.readStream(stream)) {
        const entry = parseEntry(text);
        if (entry && (options.since === undefined || entry.at >= options.since)) out.push({ stream, text });
      }
    return out;
  }

  /**
   * Checks both streams against the record key and their heads (the committed ones when given,
   * else the sealed ones), and says what it proved or where each breaks and how. Reads only.
   */
  async verify(options: VerifyOptions = {}): Promise<RecordReport> {
    await this.takeInLegacyIfAny();
    return verifyRecord(this, options);
  }
}
