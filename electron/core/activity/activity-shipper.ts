/**
 * Ships the activity record to the collector in effect (the organization's, else the person's) while the trigger host runs (one per
 * data folder: the app, or `serve`), as OpenTelemetry logs ({@link OtlpActivityExport}). It reads
 * the record's files, never the writers' calls: whoever records (the Api, the host, the CLI), the
 * entry is shipped at the next poll, and no decision ever waits on the network.
 *
 * - **Where**: the collector in effect (`shared/activity/collector.ts`): the policy's `activityExport.otlp` (DESIGN.md
 *   "Managed policy"), else the person's `settings.activityCollector`, asked at each poll; a change of address starts that collector from the record's first line.
 * - **What was sent**: `activity-export.json` in the data folder (outside `activity/`) keeps the
 *   address, each stream's last `seq` the collector accepted with every line before it, and the
 *   counts (entries sent, entries and batches failed, the last failure in words). After a restart
 *   shipping goes on after that `seq`: a collector may see a line twice, never miss one.
 * - **Failures**: a batch that fails after the exporter's retries is counted, and its lines are
 *   sent again at the next poll (the oldest beyond {@link RETRY_MAX} are left to the next restart,
 *   which starts after the last accepted `seq`).
 * - **Reading**: each file is read from where the last poll stopped (by inode and birth time, so a
 *   rotated traffic file is followed to its new name, and a file deleted and made again is new); a
 *   stream none of whose files was seen before, or one that shrank, was replaced: sent again from its
 *   first line. A line without `seq` (a plain line from before the key) is sent only when the
 *   collector starts from nothing.
 */
import { open, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ActivityLog } from './activity-log';
import { chainFields, type RecordStream } from './record-chain';
import {
  EXPORT_QUEUE_ROOM,
  OtlpActivityExport,
  type OtlpExportOptions,
  type OtlpExportStats,
  type StoredLine,
} from './otlp-export';

/** The shipper's file in the data folder: the address, what the collector accepted, the counts. */
export const EXPORT_STATUS_FILE = 'activity-export.json';
/** How often the record's files are looked at (ms). */
export const SHIP_INTERVAL_MS = 2000;
/** How long stopping waits for the collector to take what is queued (ms). */
export const STOP_GRACE_MS = 3000;
/** Lines of failed batches kept in memory to send again. */
export const RETRY_MAX = 10_000;

/** What `activity-export.json` holds. */
export interface ExportStatus extends OtlpExportStats {
  url: string;
  /** Per stream, the last `seq` accepted with every line before it. */
  shipped: Record<RecordStream, number>;
  updatedAt: string;
}

/** Options of a shipper. */
export interface ShipperOptions {
  dataDir: string;
  /** The collector's address now (the policy's `activityExport.otlp`, else the person's), or null: nothing is shipped. */
  endpoint: () => string | null;
  now?: () => Date;
  /** The exporter's timings (tests). */
  exportOptions?: Pick<OtlpExportOptions, 'timeoutMillis' | 'scheduledDelayMillis' | 'maxExportBatchSize'>;
  /** A problem in words, for the host's log. */
  line?: (text: string) => void;
  /** How long {@link ActivityShipper.stop} waits for the collector (ms); {@link STOP_GRACE_MS} unless given. */
  stopGraceMs?: number;
}

const STREAMS: readonly RecordStream[] = ['decisions', 'traffic'];

/** The shipper's file, or null when there is none or it is unreadable. */
export async function readExportStatus(dataDir: string): Promise<ExportStatus | null> {
  try {
    const value = JSON.parse(await readFile(join(dataDir, EXPORT_STATUS_FILE), 'utf8')) as ExportStatus;
    if (typeof value?.url !== 'string' || typeof value.shipped?.decisions !== 'number') return null;
    return value;
  } catch {
    return null;
  }
}

/** A line read with its place in its stream (`seq`), or null for a plain line. */
interface ReadLine extends StoredLine {
  seq: number | null;
}

/** Ships one data folder's record to the collector in effect. */
export class ActivityShipper {
  private readonly log: ActivityLog;
  private readonly now: () => Date;
  private export: OtlpActivityExport | null = null;
  private status: ExportStatus | null = null;
  /** The last `seq` handed to the exporter, per stream. */
  private readonly emitted: Record<RecordStream, number> = { decisions: 0, traffic: 0 };
  /** Lines handed over and not yet accepted, by stream and `seq`. */
  private readonly pending: Record<RecordStream, Set<number>> = { decisions: new Set(), traffic: new Set() };
  private retry: StoredLine[] = [];
  /** Bytes read of each file, by its identity (inode and birth time: an inode is reused once a file is deleted). */
  private offsets = new Map<string, number>();
  /** The identities of each stream's files at the last poll. */
  private seen: Record<RecordStream, Set<string>> = { decisions: new Set(), traffic: new Set() };
  private fromStart = false;
  private polling: Promise<void> = Promise.resolve();
  private timer: ReturnType<typeof setInterval> | null = null;
  /** Stopped for good: a shipper is started once. */
  private stopped = false;

  constructor(private readonly options: ShipperOptions) {
    this.log = new ActivityLog(options.dataDir);
    this.now = options.now ?? (() => new Date());
  }

  /** Polls every {@link SHIP_INTERVAL_MS} (the timer holds no process open). */
  start(): void {
    if (this.timer !== null || this.stopped) return;
    this.timer = setInterval(() => void this.poll(), SHIP_INTERVAL_MS);
    this.timer.unref?.();
    void this.poll();
  }

  /** Hands the lines recorded since the last poll to the exporter (one poll at a time). */
  poll(): Promise<void> {
    const run = this.polling.then(() => this.pollNow());
    this.polling = run.catch((error: unknown) =>
      this.options.line?.(`the activity export could not read the record: ${(error as Error).message}`),
    );
    return this.polling;
  }

  /** Polls, then waits for every batch handed over to be answered, and writes the status. */
  async flush(): Promise<void> {
    await this.poll();
    await this.export?.flush();
    await this.writeStatus();
  }

  /**
   * Stops polling, hands over what was recorded up to now, sends what is queued, writes the status.
   * Waits at most `stopGraceMs` for the collector (quitting the app never waits on a dead one): what
   * it did not accept by then is sent at the next start.
   */
  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.poll();
    this.stopped = true;
    const exporter = this.export;
    this.export = null;
    if (exporter) {
      let grace: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        exporter.shutdown(),
        new Promise<void>((resolve) => {
          grace = setTimeout(resolve, this.options.stopGraceMs ?? STOP_GRACE_MS);
          grace.unref?.();
        }),
      ]);
      clearTimeout(grace);
    }
    await this.writeStatus();
    // A batch answered after this is not counted here: the next start sends it again.
    this.status = null;
  }

  /** The counts and cursor now (null while nothing is shipped). */
  current(): ExportStatus | null {
    return this.status ? { ...this.status, shipped: this.acked() } : null;
  }

  private async pollNow(): Promise<void> {
    if (this.stopped) return;
    const url = this.options.endpoint();
    if (url !== (this.export?.url ?? null)) await this.switchTo(url);
    if (this.export === null) return;
    const again = this.retry;
    this.retry = [];
    this.export.emit(again);
    let room = EXPORT_QUEUE_ROOM - again.length;
    for (const stream of STREAMS) {
      const { lines, replaced } = await this.readNew(stream);
      if (replaced) {
        // A record replaced or deleted since: the collector gets the new chain from its first line (its evidence).
        this.options.line?.(
          `the activity record's ${stream} were replaced since the last look: sent again from the first`,
        );
        this.emitted[stream] = 0;
        this.pending[stream].clear();
      }
      for (const line of lines) {
        if (line.seq !== null) {
          if (line.seq <= this.emitted[stream]) continue;
          this.emitted[stream] = line.seq;
          this.pending[stream].add(line.seq);
        } else if (!this.fromStart) continue;
        this.export.emit([{ stream, text: line.text }]);
        // Catching up: the processor's queue is bounded; wait for what it holds to go before handing more.
        if (--room <= 0) {
          await this.export.flush();
          room = EXPORT_QUEUE_ROOM;
        }
      }
    }
    this.fromStart = false;
  }

  /** Starts (or stops) shipping to `url`: after what it accepted before, or from the first line. */
  private async switchTo(url: string | null): Promise<void> {
    await this.export?.shutdown();
    this.export = null;
    this.status = null;
    this.offsets = new Map();
    this.seen = { decisions: new Set(), traffic: new Set() };
    this.retry = [];
    for (const stream of STREAMS) this.pending[stream].clear();
    if (url === null) return;
    const before = await readExportStatus(this.options.dataDir);
    const same = before?.url === url ? before : null;
    this.status = same ?? {
      url,
      shipped: { decisions: 0, traffic: 0 },
      sent: 0,
      failed: 0,
      failedBatches: 0,
      lastError: null,
      lastFailureAt: null,
      lastSentAt: null,
      updatedAt: this.now().toISOString(),
    };
    for (const stream of STREAMS) this.emitted[stream] = this.status.shipped[stream];
    this.fromStart = this.status.shipped.decisions === 0 && this.status.shipped.traffic === 0;
    try {
      this.export = new OtlpActivityExport({
        url,
        now: this.now,
        ...this.options.exportOptions,
        onResult: (result) => this.answered(result),
      });
    } catch (error) {
      this.options.line?.(`the activity export is off: ${(error as Error).message}`);
      this.status = null;
    }
  }

  /** A batch's answer: accepted lines leave `pending`; failed ones are sent again at the next poll. */
  private answered(result: { ok: boolean; lines: StoredLine[]; error: string | null }): void {
    const status = this.status;
    if (!status) return;
    const at = this.now().toISOString();
    for (const line of result.lines) {
      const seq = seqOf(line.text);
      if (result.ok) {
        if (seq !== null) this.pending[line.stream].delete(seq);
      } else if (this.retry.length < RETRY_MAX) this.retry.push(line);
    }
    if (result.ok) {
      status.sent += result.lines.length;
      status.lastSentAt = at;
    } else {
      status.failed += result.lines.length;
      status.failedBatches += 1;
      status.lastError = result.error;
      status.lastFailureAt = at;
      this.options.line?.(`the activity export to ${status.url} failed: ${result.error ?? 'no answer'}`);
    }
    void this.writeStatus();
  }

  /** Per stream, the last `seq` accepted with every line before it. */
  private acked(): Record<RecordStream, number> {
    const out = { decisions: 0, traffic: 0 };
    for (const stream of STREAMS) {
      const waiting = [...this.pending[stream]];
      out[stream] = waiting.length > 0 ? Math.min(...waiting) - 1 : this.emitted[stream];
    }
    return out;
  }

  /** Writes `activity-export.json` (temp, rename): a lost write only means a line sent twice. */
  private async writeStatus(): Promise<void> {
    const status = this.current();
    if (!status) return;
    status.updatedAt = this.now().toISOString();
    const path = join(this.options.dataDir, EXPORT_STATUS_FILE);
    const temp = `${path}.${process.pid}.tmp`;
    try {
      await writeFile(temp, `${JSON.stringify(status)}\n`, { mode: 0o600 });
      await rename(temp, path);
    } catch (error) {
      this.options.line?.(`the activity export's status could not be written: ${(error as Error).message}`);
    }
  }

  /**
   * The complete lines of a stream's files past what earlier polls read, oldest first, and whether
   * the stream was replaced since (none of its files is one read before, or one shrank): then its
   * lines are all new, whatever their `seq`.
   */
  private async readNew(stream: RecordStream): Promise<{ lines: ReadLine[]; replaced: boolean }> {
    const files: { path: string; ino: string; size: number }[] = [];
    for (const path of this.log.files(stream)) {
      const info = await stat(path).catch(() => null);
      if (info !== null) files.push({ path, ino: `${info.ino}:${info.birthtimeMs}`, size: info.size });
    }
    const seen = this.seen[stream];
    const replaced =
      seen.size > 0 &&
      (files.every((f) => !seen.has(f.ino)) || files.some((f) => f.size < (this.offsets.get(f.ino) ?? 0)));
    if (replaced) for (const ino of seen) this.offsets.delete(ino);
    this.seen[stream] = new Set(files.map((f) => f.ino));
    const lines: ReadLine[] = [];
    for (const file of files) {
      const from = this.offsets.get(file.ino) ?? 0;
      if (file.size <= from) continue;
      const handle = await open(file.path, 'r');
      try {
        const buffer = Buffer.alloc(file.size - from);
        await handle.read(buffer, 0, buffer.length, from);
        const end = buffer.lastIndexOf(0x0a);
        if (end < 0) continue;
        this.offsets.set(file.ino, from + end + 1);
        for (const text of buffer.subarray(0, end).toString('utf8').split('\n'))
          if (text.trim() !== '') lines.push({ stream, text, seq: seqOf(text) });
      } finally {
        await handle.close();
      }
    }
    return { lines, replaced };
  }
}

/** A line's `seq`, or null (a plain line, or not an entry). */
function seqOf(text: string): number | null {
  return chainFields(text)?.seq ?? null;
}
