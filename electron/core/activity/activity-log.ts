/**
 * The activity record of one data folder (DESIGN.md "Triggers at run time", the activity record):
 * what the person decided, and what changed it without them, kept apart from traffic (deliveries,
 * fires, runs) and never evicted by it.
 *
 * Files, in `activity/` of the data folder, one JSON entry per line, oldest first:
 * - `decisions.jsonl`: every decision ({@link isDecisionKind}); never rotated, never cut.
 * - `traffic.jsonl`, then `traffic.1.jsonl` … `traffic.<N>.jsonl` (older): traffic, rotated when
 *   the current file passes {@link TRAFFIC_FILE_BYTES}; the oldest file beyond
 *   {@link TRAFFIC_FILES} is dropped. A flood of traffic can only push out older traffic.
 *
 * Every field of every entry is cleaned before it is written (`entry-text.ts`: secrets redacted,
 * control characters escaped, bounded), whoever the caller is. Never a secret or a payload body.
 *
 * Tamper-evident: each line carries `prev`, the SHA-256 of the line before it in its stream (the
 * first decision: 64 zeros; traffic runs on across rotation). {@link ActivityLog.verify} says
 * whether each chain is intact and where it breaks. It shows a line changed, removed or inserted;
 * someone who rewrites every line after it is seen only by comparing the last hash with one noted
 * before (`activity verify` prints it).
 *
 * Every append takes `activity.lock` (the store's cross-process lock file, `store/lock.ts`), so the
 * app, the trigger host and the CLI can all record. A log kept by an earlier version
 * (`activity.jsonl`) is taken in, cleaned and chained, the first time the record is opened.
 */
import { createHash } from 'node:crypto';
import { appendFile, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ACTIVITY_KINDS,
  type ActivityKind,
  type ActivityOutcome,
  isDecisionKind,
} from '../../../shared/activity/activity-kinds';
import { withLockFile } from '../store/lock';
import { cleanField } from './entry-text';

export { ACTIVITY_KINDS, type ActivityKind, type ActivityOutcome, isDecisionKind };

/** The folder of the record in the data folder. */
export const ACTIVITY_DIR = 'activity';
/** The decisions file, in {@link ACTIVITY_DIR}. */
export const DECISIONS_FILE = 'decisions.jsonl';
/** The current traffic file, in {@link ACTIVITY_DIR}; older ones are `traffic.<n>.jsonl`. */
export const TRAFFIC_FILE = 'traffic.jsonl';
/** The log file of earlier versions (data folder root), taken in on first open. */
export const LEGACY_ACTIVITY_FILE = 'activity.jsonl';
/** The record's lock file name in the data folder. */
export const ACTIVITY_LOCK = 'activity.lock';
/** A traffic file is rotated once it passes this size (1 MiB). */
export const TRAFFIC_FILE_BYTES = 1024 * 1024;
/** Rotated traffic files kept besides the current one. */
export const TRAFFIC_FILES = 4;
/** Longest `detail` kept; longer text is cut with `…`. */
export const DETAIL_MAX = 300;
/** Longest package, agent or trigger id kept. */
export const NAME_MAX = 200;
/** The `prev` of the first line of a stream. */
export const GENESIS = '0'.repeat(64);

/** One entry as it is shown (`activity --json`). */
export interface ActivityEvent {
  /** ISO 8601 time it was recorded. */
  at: string;
  kind: ActivityKind;
  package?: string;
  agent?: string;
  trigger?: string;
  outcome: ActivityOutcome;
  /** One short line; never a secret or a payload body. */
  detail: string;
}

/** What a caller passes to {@link ActivityLog.record}: `at` defaults to the log's clock. */
export type ActivityInput = Omit<ActivityEvent, 'at'> & { at?: string };

/** Options of a log. */
export interface ActivityLogOptions {
  now?: () => Date;
  /** Size at which the current traffic file is rotated. */
  trafficFileBytes?: number;
  /** Rotated traffic files kept. */
  trafficFiles?: number;
}

/** Where a chain breaks, for {@link ChainReport}. */
export interface ChainBreak {
  /** The file, relative to the data folder. */
  file: string;
  /** 1-based line number in that file. */
  line: number;
  reason: string;
}

/** What {@link ActivityLog.verify} finds for one stream. */
export interface ChainReport {
  intact: boolean;
  /** Entries read. */
  entries: number;
  /** The files read, oldest first, relative to the data folder. */
  files: string[];
  /** The first break, or null. */
  broken: ChainBreak | null;
  /** The hash of the last line (note it to tell later whether everything after was rewritten), or null when empty. */
  lastHash: string | null;
  /** Traffic only: the oldest kept line follows lines rotated out (its `prev` cannot be checked). */
  rotatedOut: boolean;
}

const OUTCOMES: readonly ActivityOutcome[] = ['ok', 'refused', 'skipped', 'failed'];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,3})?Z$/;

/** Makes a detail safe to keep: one line, no secret, bounded (see `entry-text.ts`). */
export function cleanDetail(detail: string): string {
  return cleanField(detail, DETAIL_MAX);
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function parseLine(line: string): (ActivityEvent & { prev: string }) | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.at !== 'string' || typeof v.kind !== 'string' || !ACTIVITY_KINDS.includes(v.kind as ActivityKind))
    return null;
  if (typeof v.outcome !== 'string' || !OUTCOMES.includes(v.outcome as ActivityOutcome) || typeof v.detail !== 'string')
    return null;
  const event: ActivityEvent & { prev: string } = {
    at: v.at,
    kind: v.kind as ActivityKind,
    outcome: v.outcome as ActivityOutcome,
    detail: v.detail,
    prev: typeof v.prev === 'string' ? v.prev : '',
  };
  for (const key of ['package', 'agent', 'trigger'] as const)
    if (typeof v[key] === 'string') event[key] = v[key] as string;
  return event;
}

/** The last line of a file (without its newline) and whether the file ends with one; null when empty or missing. */
async function lastLine(path: string): Promise<{ text: string; terminated: boolean } | null> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return null;
    // Lines are bounded (cleaned fields), so the tail holds the whole last line.
    const length = Math.min(size, 64 * 1024);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    const text = buffer.toString('utf8');
    const terminated = text.endsWith('\n');
    const body = terminated ? text.slice(0, -1) : text;
    return { text: body.slice(body.lastIndexOf('\n') + 1), terminated };
  } finally {
    await handle.close();
  }
}

async function readLines(path: string): Promise<string[]> {
  try {
    const text = await readFile(path, 'utf8');
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    return lines;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** The activity record of one data folder. */
export class ActivityLog {
  private readonly now: () => Date;
  private readonly trafficFileBytes: number;
  private readonly trafficFiles: number;

  constructor(
    readonly dataDir: string,
    options: ActivityLogOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.trafficFileBytes = options.trafficFileBytes ?? TRAFFIC_FILE_BYTES;
    this.trafficFiles = options.trafficFiles ?? TRAFFIC_FILES;
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
  private clean(input: ActivityInput): ActivityEvent {
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

  /** Records several entries in order, under one hold of the lock (the trigger host's batches). */
  async recordMany(inputs: readonly ActivityInput[]): Promise<ActivityEvent[]> {
    const events = inputs.map((input) => this.clean(input));
    if (events.length === 0) return events;
    await this.locked(async () => {
      const decisions = events.filter((e) => isDecisionKind(e.kind));
      const traffic = events.filter((e) => !isDecisionKind(e.kind));
      if (decisions.length > 0) await this.appendChained(this.decisionsPath, decisions);
      if (traffic.length > 0) {
        await this.appendChained(this.trafficPath(), traffic);
        if ((await stat(this.trafficPath())).size > this.trafficFileBytes) await this.rotate();
      }
    });
    return events;
  }

  /** Runs `fn` holding the record's lock, once the folder exists and an earlier version's log is taken in. */
  private async locked<T>(fn: () => Promise<T>): Promise<T> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    return withLockFile(join(this.dataDir, ACTIVITY_LOCK), async () => {
      await this.takeInLegacy();
      return fn();
    });
  }

  /** Appends `events` to `path`, each line chained to the one before (caller holds the lock). */
  private async appendChained(path: string, events: readonly ActivityEvent[], first?: string): Promise<void> {
    const last = await lastLine(path);
    let prev: string;
    let text = '';
    if (last === null) prev = first ?? (path === this.trafficPath() ? await this.rotatedTail() : GENESIS);
    else {
      prev = sha256(last.text);
      // A line cut short by a crash stays as it is (verify shows it); the next starts on a line of its own.
      if (!last.terminated) text += '\n';
    }
    for (const event of events) {
      const line = JSON.stringify({ ...event, prev });
      text += `${line}\n`;
      prev = sha256(line);
    }
    await appendFile(path, text, { mode: 0o600 });
  }

  /** The hash of the last line of the newest rotated traffic file: where a new current file's chain continues. */
  private async rotatedTail(): Promise<string> {
    const last = await lastLine(this.trafficPath(1));
    return last === null ? GENESIS : sha256(last.text);
  }

  /** Current traffic file → `.1`, `.1` → `.2`…, the oldest beyond the bound dropped (caller holds the lock). */
  private async rotate(): Promise<void> {
    await rm(this.trafficPath(this.trafficFiles), { force: true });
    for (let n = this.trafficFiles - 1; n >= 0; n--) {
      await rename(this.trafficPath(n), this.trafficPath(n + 1)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    }
  }

  /**
   * Takes in `activity.jsonl` of an earlier version: each entry cleaned, filed and chained; then the old file goes
   * (caller holds the lock).
   */
  private async takeInLegacy(): Promise<void> {
    const legacy = join(this.dataDir, LEGACY_ACTIVITY_FILE);
    const lines = await readLines(legacy);
    if (lines.length === 0) {
      await rm(legacy, { force: true });
      return;
    }
    const events = lines.map(parseLine).filter((e): e is ActivityEvent & { prev: string } => e !== null);
    const cleaned = events.map(({ prev: _prev, ...event }) => this.clean(event));
    const decisions = cleaned.filter((e) => isDecisionKind(e.kind));
    const traffic = cleaned.filter((e) => !isDecisionKind(e.kind));
    if (decisions.length > 0) await this.appendChained(this.decisionsPath, decisions);
    if (traffic.length > 0) await this.appendChained(this.trafficPath(), traffic);
    await rm(legacy, { force: true });
  }

  /** Every stored file of a stream, oldest first. */
  private files(stream: 'decisions' | 'traffic'): string[] {
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
    const all: ActivityEvent[] = [];
    for (const stream of filter.decisionsOnly ? (['decisions'] as const) : (['decisions', 'traffic'] as const)) {
      for (const path of this.files(stream)) {
        for (const line of await readLines(path)) {
          const parsed = parseLine(line);
          if (!parsed) continue;
          const { prev: _prev, ...event } = parsed;
          if (
            filter.agent !== undefined &&
            event.agent !== filter.agent &&
            !(filter.package !== undefined && event.agent === undefined && event.package === filter.package)
          )
            continue;
          all.push(event);
        }
      }
    }
    // Newest first; entries of one instant keep the order they were written in.
    const order = all.map((event, i) => ({ event, i }));
    order.sort((a, b) => (a.event.at === b.event.at ? b.i - a.i : a.event.at < b.event.at ? 1 : -1));
    const sorted = order.map((o) => o.event);
    return filter.limit === undefined ? sorted : sorted.slice(0, filter.limit);
  }

  private async takeInLegacyIfAny(): Promise<void> {
    try {
      await stat(join(this.dataDir, LEGACY_ACTIVITY_FILE));
    } catch {
      return;
    }
    await this.locked(async () => undefined);
  }

  /** Checks both chains: whether each is intact, and where it first breaks. */
  async verify(): Promise<{ intact: boolean; decisions: ChainReport; traffic: ChainReport }> {
    await this.takeInLegacyIfAny();
    const decisions = await this.verifyStream('decisions');
    const traffic = await this.verifyStream('traffic');
    return { intact: decisions.intact && traffic.intact, decisions, traffic };
  }

  private async verifyStream(stream: 'decisions' | 'traffic'): Promise<ChainReport> {
    const report: ChainReport = {
      intact: true,
      entries: 0,
      files: [],
      broken: null,
      lastHash: null,
      rotatedOut: false,
    };
    let expected: string | null = null;
    for (const path of this.files(stream)) {
      const lines = await readLines(path);
      if (lines.length === 0) continue;
      const file = path.slice(this.dataDir.length + 1);
      report.files.push(file);
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i] as string;
        const entry = parseLine(line);
        const breakAt = (reason: string) => {
          report.intact = false;
          report.broken ??= { file, line: i + 1, reason };
        };
        if (!entry) breakAt('not an activity entry (changed by hand, or a write cut short)');
        else if (!/^[0-9a-f]{64}$/.test(entry.prev)) breakAt('it carries no hash of the line before');
        else if (expected === null) {
          // The first line kept: the decisions' must start the chain; traffic may follow rotated-out lines.
          if (entry.prev !== GENESIS) {
            if (stream === 'traffic') report.rotatedOut = true;
            else breakAt('the first entry does not start the chain: entries before it were removed');
          }
        } else if (entry.prev !== expected)
          breakAt(
            `it does not follow line ${i === 0 ? 'the end of the file before' : i} (an entry was changed, removed or inserted)`,
          );
        if (entry) report.entries++;
        expected = sha256(line);
        if (report.broken) return { ...report, lastHash: null };
      }
    }
    report.lastHash = expected;
    return report;
  }
}
