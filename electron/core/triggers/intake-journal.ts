/**
 * The intake journal (DESIGN.md "Commit points", "Triggers at run time"): the trigger host's durable
 * truth for what it accepted. Every accepted fire (a webhook delivery after every check of the door,
 * a schedule's or a folder's fire) is one record appended to `triggers/intake.journal`; a delivery's
 * webhook-id rides in its run's record, so "seen" and "queued" are written, and survive, together.
 *
 * Group commit: one write and one `fdatasync` cover a batch, and every append of the batch resolves
 * once it returns. A batch is what waits when the journal is free: while a sync runs, everything that
 * arrives is the next batch; when the journal is idle, the appends of the current turn of the event
 * loop (a batch starts on the next `setImmediate`, or at once when {@link JOURNAL_BATCH_MAX} wait), so
 * a lone fire waits for no timer. The write itself is one `pwrite` from the main thread (a copy into
 * the page cache, cheaper than a round trip through libuv's pool); only the `fdatasync` goes to the pool. A failed write or sync rejects the whole
 * batch and cuts the file back to where the batch began, so nothing of it counts (the caller answers
 * 503 and the sender's retry is taken); a file that cannot be cut back refuses every later append.
 *
 * Framing: `[u32 LE length][u32 LE CRC-32 of the bytes][JSON bytes]` per record. At open the records
 * are read up to the first frame that is short, too long or fails its checksum (a torn tail, from a
 * crash mid-append) and the file is cut there, so later appends follow whole records.
 *
 * Trim: the journal is rewritten (temp, fsync, rename, folder fsync: either file is whole) with only
 * the runs not yet done (a run is done once its file was fsynced in `runs/pending/` or it was found
 * taken: a `done` record), the seen ids still inside the replay window, and each trigger's last fire. It runs between two
 * batches, once {@link TRIM_BYTES} were appended since the last one.
 *
 * Traffic (the activity record's traffic entries, `activity/traffic-commit.ts`): a `traffic` record holds the
 * entries' chained lines and traffic's head after them, sealed under the record key; the batch's sync commits them
 * with the runs, and the lines are appended to `traffic.jsonl` after it. A trim keeps the last head and the lines
 * not yet known to be in `traffic.jsonl` ({@link IntakeJournal.trafficAppended}).
 */
import { writeSync } from 'node:fs';
import { mkdir, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { syncDir } from '../store/atomic-file';
import { foldTraffic, type JournalTraffic, readFrames, seqOf } from '../activity/journal-traffic';
import { killPoint, testTrimBytes } from './kill-point';

export { foldTraffic, type JournalTraffic };

/** The journal, relative to the data folder. */
export const JOURNAL_FILE = join('triggers', 'intake.journal');
/** An append that makes this many waiting starts the batch at once (else it starts on the next turn). */
export const JOURNAL_BATCH_MAX = 32;
/**
 * A record appended to ride (traffic: the activity record is never what a 2xx waits for) starts no batch of its
 * own: it goes with the next batch of runs, or alone this long after it was appended (ms).
 */
export const RIDE_MS = 1_000;
/** Bytes appended since the last trim that make the next one. */
export const TRIM_BYTES = 4 * 1024 * 1024;
/** Largest record read back (a run with a 256 KiB body, escaped, fits many times). */
const MAX_RECORD = 16 * 1024 * 1024;
const HEADER = 8;

/** A webhook-id counted seen under a replay key (`seen-ids.ts`), at a time in ms. */
export interface SeenMark {
  k: string;
  id: string;
  at: number;
}

/** A run as the journal holds it: the run request, opaque here but for its id and file name. */
export interface JournalRun {
  id: string;
  [field: string]: unknown;
}

/** A trigger's last fire the journal holds: when (the run's `fired_at`), why, and its run. */
export interface LastFire {
  trigger: string;
  at: string;
  cause: string;
  run: string;
}

/**
 * One journal record: a run (with the webhook-id it makes seen), a seen id alone, runs done, or (written by a trim)
 * each trigger's last fire, whose runs the trim forgot.
 */
export type JournalRecord =
  | { t: 'run'; run: JournalRun; seen?: SeenMark }
  | { t: 'seen'; seen: SeenMark }
  | { t: 'done'; runs: string[] }
  | { t: 'fired'; fires: LastFire[] }
  | ({ t: 'traffic' } & JournalTraffic);

/**
 * What a journal held at open: the runs not done, every seen id (the caller drops the old ones), and each trigger's
 * last fire (so a schedule whose fire was journaled, but not yet in the host's status file, does not fire again).
 */
export interface JournalContents {
  runs: JournalRun[];
  seen: SeenMark[];
  fires: LastFire[];
  /** Bytes of a torn tail cut off at open (0 when the file ended on a whole record). */
  tornBytes: number;
  /** Traffic's last committed head and the lines committed with it and before (null: none yet). */
  traffic: JournalTraffic | null;
}

/**
 * Counters for the bench and the status: batches synced, records they held, failed syncs, trims, and the time a sync
 * was under way (ms, from the `fdatasync` asked to its answer on the main thread).
 */
export interface JournalStats {
  batches: number;
  records: number;
  failed: number;
  trims: number;
  syncMs: number;
}

/** Options of a journal (tests shrink the trim threshold; the host's clock counts the replay window). */
export interface JournalOptions {
  now: () => number;
  seenWindowMs: number;
  trimBytes?: number;
}

interface Waiting {
  /** The record as JSON (framed with the rest of its batch, into one buffer, at its commit). */
  json: string;
  record: JournalRecord;
  resolve: () => void;
  reject: (error: Error) => void;
  ride: boolean;
}

/** Frames one record (see the module comment). */
export function frameRecord(record: JournalRecord): Buffer {
  return frameBatch([{ json: JSON.stringify(record) }]);
}

/** Frames records given as JSON into one buffer (the bytes of one batch, one write; the bench's floor frames with it too). */
export function frameBatch(batch: readonly { json: string }[]): Buffer {
  let total = 0;
  const lengths = batch.map((w) => {
    const length = Buffer.byteLength(w.json, 'utf8');
    total += HEADER + length;
    return length;
  });
  const bytes = Buffer.allocUnsafe(total);
  let at = 0;
  batch.forEach((w, i) => {
    const length = lengths[i] as number;
    bytes.write(w.json, at + HEADER, length, 'utf8');
    bytes.writeUInt32LE(length, at);
    bytes.writeUInt32LE(crc32(bytes.subarray(at + HEADER, at + HEADER + length)), at + 4);
    at += HEADER + length;
  });
  return bytes;
}

/** Reads whole records from `bytes` until the first torn or corrupt frame; `end` is where the last whole one ends. */
export function readRecords(bytes: Buffer): { records: JournalRecord[]; end: number } {
  const { records, end } = readFrames(bytes, MAX_RECORD);
  return { records: records as JournalRecord[], end };
}

/** The intake journal of one data folder (see the module comment). */
export class IntakeJournal {
  private handle: FileHandle | null = null;
  private size = 0;
  private sinceTrim = 0;
  private queue: Waiting[] = [];
  private timer: NodeJS.Immediate | null = null;
  private rideTimer: NodeJS.Timeout | null = null;
  private rideDue = false;
  private draining: Promise<void> | null = null;
  private broken: Error | null = null;
  /** What a trim keeps: runs not done by id, seen ids by key and id. */
  private readonly runs = new Map<string, JournalRun>();
  private readonly seen = new Map<string, SeenMark>();
  private readonly fires = new Map<string, LastFire>();
  private traffic: JournalTraffic | null = null;
  private trafficCount = 0;
  readonly stats: JournalStats = { batches: 0, records: 0, failed: 0, trims: 0, syncMs: 0 };
  readonly path: string;

  constructor(
    dataDir: string,
    private readonly options: JournalOptions,
  ) {
    this.path = join(dataDir, JOURNAL_FILE);
  }

  /** Opens the journal (made when missing), cuts a torn tail, and says what it holds. */
  async open(): Promise<JournalContents> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const handle = await open(this.path, 'a+', 0o600);
    await handle.close();
    this.handle = await open(this.path, 'r+');
    const bytes = await this.handle.readFile();
    const { records, end } = readRecords(bytes);
    if (end < bytes.length) {
      await this.handle.truncate(end);
      await this.handle.datasync();
    }
    await syncDir(dirname(this.path));
    for (const record of records) this.apply(record);
    this.size = end;
    this.sinceTrim = end;
    return {
      runs: [...this.runs.values()],
      seen: [...this.seen.values()],
      fires: [...this.fires.values()],
      tornBytes: bytes.length - end,
      traffic: this.traffic,
    };
  }

  /**
   * Appends `record`; resolves once a sync covering it returned, rejects when its batch failed (nothing of it counts).
   * `json` is the record as `JSON.stringify` makes it, when the caller has it already (the run writer serializes a run
   * once, for its record and its file).
   */
  append(record: JournalRecord, json?: string, ride = false): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    if (!this.handle) return Promise.reject(Object.assign(new Error('the intake journal is closed'), { code: 'EIO' }));
    const text = json ?? JSON.stringify(record);
    return new Promise((resolve, reject) => {
      this.queue.push({ json: text, record, resolve, reject, ride });
      if (ride)
        this.rideTimer ??= setTimeout(() => {
          this.rideTimer = null;
          this.rideDue = true;
          this.kick();
        }, RIDE_MS);
      else if (this.queue.length >= JOURNAL_BATCH_MAX) this.kick();
      // While a batch syncs, the drain takes this one next; the turn's kick is then a no-op (and never misses one).
      else this.timer ??= setImmediate(() => this.kick());
    });
  }

  /** Waits for the batches under way, then closes the file. */
  async close(): Promise<void> {
    if (this.rideTimer) clearTimeout(this.rideTimer);
    this.rideTimer = null;
    this.rideDue = true;
    this.kick();
    while (this.draining) await this.draining;
    await this.handle?.close();
    this.handle = null;
  }

  private kick(): void {
    if (this.timer) clearImmediate(this.timer);
    this.timer = null;
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
    });
  }

  /** One batch after the other: everything waiting when the last sync returned is the next batch. */
  private async drain(): Promise<void> {
    // Records that ride wait for a batch of runs, or for their time.
    while (this.queue.length > 0 && (this.rideDue || this.queue.some((w) => !w.ride))) {
      this.rideDue = false;
      const batch = this.queue.splice(0);
      await this.commit(batch);
      if (this.sinceTrim >= (this.options.trimBytes ?? testTrimBytes() ?? TRIM_BYTES)) await this.trim();
    }
  }

  private async commit(batch: Waiting[]): Promise<void> {
    const handle = this.handle;
    const start = this.size;
    const bytes = frameBatch(batch);
    try {
      if (!handle || this.broken) throw this.broken ?? new Error('the intake journal is closed');
      for (let at = 0; at < bytes.length; ) at += writeSync(handle.fd, bytes, at, bytes.length - at, start + at);
      killPoint('after-append');
      const asked = performance.now();
      try {
        await handle.datasync();
      } finally {
        this.stats.syncMs += performance.now() - asked;
      }
    } catch (error) {
      this.stats.failed++;
      await this.cutBack(start);
      const failure = Object.assign(new Error(`the intake journal could not be written: ${(error as Error).message}`), {
        code: (error as NodeJS.ErrnoException).code ?? 'EIO',
      });
      for (const w of batch) w.reject(failure);
      return;
    }
    killPoint('after-sync');
    this.size = start + bytes.length;
    this.sinceTrim += bytes.length;
    this.stats.batches++;
    this.stats.records += batch.length;
    for (const w of batch) this.apply(w.record);
    for (const w of batch) w.resolve();
  }

  /** A failed batch leaves nothing: the file is cut back to where it began (or, failing that, refuses every append). */
  private async cutBack(start: number): Promise<void> {
    try {
      // The next batch's fdatasync makes the cut durable with it (it covers the file's size).
      await this.handle?.truncate(start);
    } catch (error) {
      this.broken = Object.assign(
        new Error(
          `the intake journal ${this.path} could not be cut back after a failed write: ${(error as Error).message}`,
        ),
        { code: 'EIO' },
      );
    }
  }

  /** Keeps what a trim must keep (see the module comment). */
  private apply(record: JournalRecord): void {
    if (record.t === 'run') {
      this.runs.set(record.run.id, record.run);
      if (record.seen) this.seen.set(`${record.seen.k} ${record.seen.id}`, record.seen);
      const { trigger, fired_at: at, cause } = record.run;
      if (typeof trigger === 'string' && typeof at === 'string' && typeof cause === 'string')
        this.fired({ trigger, at, cause, run: record.run.id });
    } else if (record.t === 'seen') this.seen.set(`${record.seen.k} ${record.seen.id}`, record.seen);
    else if (record.t === 'fired') for (const fire of record.fires) this.fired(fire);
    else if (record.t === 'traffic') this.traffic = foldTraffic(this.traffic, record, this.trafficCount);
    else for (const id of record.runs) this.runs.delete(id);
  }

  /** Traffic's committed head and the lines not yet known to be in `traffic.jsonl` (what a trim keeps). */
  get committedTraffic(): JournalTraffic | null {
    return this.traffic;
  }

  /** `traffic.jsonl` holds traffic's lines up to `count`: a trim need not keep them. */
  trafficAppended(count: number): void {
    this.trafficCount = Math.max(this.trafficCount, count);
    if (this.traffic) this.traffic = { ...this.traffic, lines: this.traffic.lines.filter((l) => seqOf(l) > count) };
  }

  /** Keeps a trigger's latest fire (ISO times compare as strings). */
  private fired(fire: LastFire): void {
    const known = this.fires.get(fire.trigger);
    if (!known || known.at <= fire.at) this.fires.set(fire.trigger, fire);
  }

  /** Rewrites the journal with the runs not done and the seen ids inside the window (between two batches). */
  private async trim(): Promise<void> {
    const floor = this.options.now() - this.options.seenWindowMs;
    for (const [key, mark] of this.seen) if (mark.at < floor) this.seen.delete(key);
    const kept = Buffer.concat([
      ...(this.traffic ? [frameRecord({ t: 'traffic', ...this.traffic })] : []),
      ...(this.fires.size > 0 ? [frameRecord({ t: 'fired', fires: [...this.fires.values()] })] : []),
      ...[...this.seen.values()].map((seen) => frameRecord({ t: 'seen', seen })),
      ...[...this.runs.values()].map((run) => frameRecord({ t: 'run', run })),
    ]);
    const temp = `${this.path}.trim-${process.pid}`;
    try {
      const handle = await open(temp, 'w', 0o600);
      try {
        await handle.writeFile(kept);
        await handle.sync();
      } finally {
        await handle.close();
      }
      killPoint('during-trim');
      await rename(temp, this.path);
    } catch {
      // The old journal stays whole and in use; the next batch tries again.
      await unlink(temp).catch(() => undefined);
      return;
    }
    // Renamed: the new journal is the one in use from here (its folder's fsync is retried by the next trim).
    await syncDir(dirname(this.path)).catch(() => undefined);
    await this.handle?.close();
    this.handle = await open(this.path, 'r+');
    this.size = kept.length;
    this.sinceTrim = 0;
    this.stats.trims++;
  }
}
