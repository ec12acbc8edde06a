/**
 * What a trigger host is given (its options and bounds), and what decides which armed triggers it
 * makes live and when one must be restarted (`trigger-host.ts`).
 */
import { join } from 'node:path';
import type { ActivityLog } from '../activity/activity-log';
import type { SecretBox } from '../secrets/secret-box';
import type { DurableFolderFaults } from '../store/durable-folder';
import type { StoreState, TriggerRecord } from '../store/state';
import type { HostClock } from './schedule';
import type { PolicyLocations } from '../policy/read-policy';
import type { FolderWatch } from './folder-watch';
import type { TriggerLiveStatus } from './host-status';
import type { ListenerLimits, WebhookTarget } from './webhook-listener';

/** Longest single wait of the schedule timer. */
export const MAX_SLEEP_MS = 60_000;
/** A due time passed by more than this fired late: its cause is `missed`. */
export const LATE_MS = 60_000;
/** Most runs a trigger without `max_concurrent` may have waiting; beyond it a fire is skipped. */
export const DEFAULT_MAX_WAITING = 100;

/** Most runs `trigger` may have waiting: its `max_concurrent`, else {@link DEFAULT_MAX_WAITING}. */
export function waitingLimit(trigger: Pick<TriggerRecord, 'maxConcurrent'>): number {
  return trigger.maxConcurrent ?? DEFAULT_MAX_WAITING;
}
/** An earlier version's replay store, relative to the data folder (carried into the intake journal, then removed). */
export const SEEN_FILE = join('triggers', 'webhook-seen.jsonl');

/** Options of a host. */
export interface TriggerHostOptions {
  dataDir: string;
  secretBox: SecretBox;
  /**
   * Listener port, fixed for the host's life; 0 for a free one. Without it the port is Settings'
   * (`settings.webhookPort`), else the default webhook port (`shared/contract/api.ts`), and a change in Settings rebinds
   * the listener at the next reload.
   */
  port?: number;
  clock?: HostClock;
  /** Re-read the store whenever its file changes (default true). */
  watchStore?: boolean;
  listenerLimits?: Partial<ListenerLimits>;
  folderTiming?: { debounceMs?: number; maxWaitMs?: number; checkMs?: number };
  /** Where the organization's policy files are; absent, this machine's location and `APOLLIA_POLICY_FILE`. */
  policy?: PolicyLocations;
  /** One line per live trigger at start, then one per event (what `serve` prints). Never a secret or a body. */
  onLine?: (line: string) => void;
  /** Test hooks of the run file writer (to watch its steps, hold its folder fsyncs, or fail one file). */
  runFileFaults?: DurableFolderFaults;
  /** Bytes appended to the intake journal that make a trim (tests shrink it; default `TRIM_BYTES`). */
  journalTrimBytes?: number;
  /** Where activity entries go (the bench measures the keyed record against a plain one); default the data folder's record. */
  activityLog?: Pick<ActivityLog, 'recordMany'> & Partial<Pick<ActivityLog, 'recordTraffic'>>;
}

/** What makes a trigger's live configuration: a change to anything but `armed` (or its sealed secret) restarts it. */
export function configKey(trigger: TriggerRecord, sealed: string | null): string {
  const { armed: _a, ...rest } = trigger;
  return JSON.stringify([rest, sealed]);
}

/** Whether the trigger's agent was archived: its triggers are not made live. */
export function agentArchived(state: StoreState, trigger: TriggerRecord): boolean {
  if (trigger.agentId === null || !Object.hasOwn(state.agents, trigger.agentId)) return false;
  return state.agents[trigger.agentId]?.archived === true;
}

/** A trigger the host made live: its record, its live status, and what runs it (timer, watch, webhook target). */
export interface LiveTrigger {
  trigger: TriggerRecord;
  /** {@link configKey} of what it was made live with. */
  key: string;
  status: TriggerLiveStatus;
  nextAt: Date | null;
  watch: FolderWatch | null;
  target: WebhookTarget | null;
  /** The replay key of its secret (`seen-ids.ts` `replayKey`), when it has one open. */
  replay: string | null;
}

/**
 * What became of one fire: its run queued (with the run's id), skipped because the trigger's runs waiting are at
 * the limit, or not written; `detail` says why in the activity record's words.
 */
export type FireResult =
  | { outcome: 'queued'; run: string }
  | { outcome: 'skipped'; detail: string }
  | { outcome: 'failed'; detail: string };
