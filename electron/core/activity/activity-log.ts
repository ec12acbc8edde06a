/**
 * The activity log: one append-only, bounded record of everything that changes what an agent may
 * do, and everything that happens to it (DESIGN.md "Triggers at run time", issue 16 item 6).
 *
 * Format: `activity.jsonl` in the data folder, one JSON event per line, oldest first. Every append
 * takes `activity.lock` (the store's cross-process lock file, `store/lock.ts`), so the app, the
 * trigger host and the CLI can all record; when the file passes `maxBytes` it is rewritten
 * atomically keeping the newest events that fit in half of it (oldest dropped first).
 *
 * Never a secret or a payload body: `detail` is one short line, cut to {@link DETAIL_MAX} characters,
 * and anything shaped like a webhook secret (`whsec_…`) is replaced by `whsec_[hidden]` before it is
 * written, whoever the caller is.
 */
import { appendFile, mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../store/atomic-file';
import { withLockFile } from '../store/lock';

/** The log's file name in the data folder. */
export const ACTIVITY_FILE = 'activity.jsonl';
/** The log's lock file name in the data folder. */
export const ACTIVITY_LOCK = 'activity.lock';
/** Default bound of the log file: 1 MiB (about 5 000 events). */
export const ACTIVITY_MAX_BYTES = 1024 * 1024;
/** Longest `detail` kept; longer text is cut with `…`. */
export const DETAIL_MAX = 300;

/** What happened. */
export type ActivityKind =
  | 'install'
  | 'update'
  | 'uninstall'
  | 'apply'
  | 'grant'
  | 'revoke'
  | 'arm'
  | 'disarm'
  | 'secret_rotated'
  | 'trigger_fired'
  | 'delivery_accepted'
  | 'delivery_refused'
  | 'run_queued'
  | 'run_skipped'
  | 'trigger_problem'
  | 'integrity_changed'
  | 'key_change_accepted'
  | 'key_change_refused'
  | 'key_trusted'
  | 'key_removed'
  | 'host_started'
  | 'host_stopped'
  // What changed decisions without the person: the organization's policy (policy/README.md).
  | 'policy_applied'
  | 'policy_changed'
  | 'policy_unreadable';

/** Every kind, for validation of lines read back. */
export const ACTIVITY_KINDS: readonly ActivityKind[] = [
  'install',
  'update',
  'uninstall',
  'apply',
  'grant',
  'revoke',
  'arm',
  'disarm',
  'secret_rotated',
  'trigger_fired',
  'delivery_accepted',
  'delivery_refused',
  'run_queued',
  'run_skipped',
  'trigger_problem',
  'integrity_changed',
  'key_change_accepted',
  'key_change_refused',
  'key_trusted',
  'key_removed',
  'host_started',
  'host_stopped',
  'policy_applied',
  'policy_changed',
  'policy_unreadable',
];

/** How it ended: done, refused by a check, skipped by a limit, or failed. */
export type ActivityOutcome = 'ok' | 'refused' | 'skipped' | 'failed';

/** One event as it is stored and shown (`activity --json`). */
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
  maxBytes?: number;
}

const SECRET = /whsec_[A-Za-z0-9+/=_-]*/g;

/** Makes a detail safe to keep: one line, no secret, bounded. */
export function cleanDetail(detail: string): string {
  const line = detail
    .replace(SECRET, 'whsec_[hidden]')
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim();
  return line.length > DETAIL_MAX ? `${line.slice(0, DETAIL_MAX - 1)}…` : line;
}

function parseLine(line: string): ActivityEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.at !== 'string' || typeof v.kind !== 'string' || !ACTIVITY_KINDS.includes(v.kind as ActivityKind)) return null;
  if (typeof v.outcome !== 'string' || typeof v.detail !== 'string') return null;
  const event: ActivityEvent = { at: v.at, kind: v.kind as ActivityKind, outcome: v.outcome as ActivityOutcome, detail: v.detail };
  for (const key of ['package', 'agent', 'trigger'] as const) if (typeof v[key] === 'string') event[key] = v[key] as string;
  return event;
}

/** The activity log of one data folder. */
export class ActivityLog {
  private readonly now: () => Date;
  private readonly maxBytes: number;

  constructor(
    readonly dataDir: string,
    options: ActivityLogOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.maxBytes = options.maxBytes ?? ACTIVITY_MAX_BYTES;
  }

  /** Path of the log file. */
  get path(): string {
    return join(this.dataDir, ACTIVITY_FILE);
  }

  /**
   * Appends one event (cleaned: see {@link cleanDetail}); drops the oldest events when the file
   * passes its bound. Returns the event as stored.
   */
  async record(input: ActivityInput): Promise<ActivityEvent> {
    const event: ActivityEvent = { at: input.at ?? this.now().toISOString(), kind: input.kind, outcome: input.outcome, detail: cleanDetail(input.detail) };
    if (input.package !== undefined) event.package = input.package;
    if (input.agent !== undefined) event.agent = input.agent;
    if (input.trigger !== undefined) event.trigger = input.trigger;
    await mkdir(this.dataDir, { recursive: true });
    await withLockFile(join(this.dataDir, ACTIVITY_LOCK), async () => {
      await appendFile(this.path, `${JSON.stringify(event)}\n`, { mode: 0o600 });
      const size = (await stat(this.path)).size;
      if (size > this.maxBytes) await this.compact();
    });
    return event;
  }

  /** Keeps the newest lines that fit in half the bound (caller holds the lock). */
  private async compact(): Promise<void> {
    const lines = (await readFile(this.path, 'utf8')).split('\n').filter((l) => l !== '');
    const kept: string[] = [];
    let bytes = 0;
    for (let i = lines.length - 1; i >= 0; i--) {
      const size = Buffer.byteLength(lines[i] as string) + 1;
      if (bytes + size > this.maxBytes / 2) break;
      kept.push(lines[i] as string);
      bytes += size;
    }
    kept.reverse();
    await writeFileAtomic(this.path, kept.length === 0 ? '' : `${kept.join('\n')}\n`);
  }

  /**
   * Events newest first, optionally only those of one agent (the store agent id), at most `limit`. A missing log is empty;
   * a line that is not an event (a torn last line after a crash) is passed over. With `agent` and
   * `package` (the agent's package), the package's own events that name no agent (its install,
   * update, uninstall) are that agent's too: they changed what it may do.
   */
  async list(filter: { agent?: string; package?: string; limit?: number } = {}): Promise<ActivityEvent[]> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const events: ActivityEvent[] = [];
    const lines = text.split('\n');
    for (let i = lines.length - 1; i >= 0; i--) {
      const line = lines[i] as string;
      if (line === '') continue;
      const event = parseLine(line);
      if (!event) continue;
      if (filter.agent !== undefined && event.agent !== filter.agent && !(filter.package !== undefined && event.agent === undefined && event.package === filter.package)) continue;
      events.push(event);
      if (filter.limit !== undefined && events.length >= filter.limit) break;
    }
    return events;
  }
}
