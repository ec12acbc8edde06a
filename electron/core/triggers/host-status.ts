/**
 * The trigger host's live status (DESIGN.md "Triggers at run time"; triggers README "Live
 * status"): what each armed trigger is doing, its last fire and deliveries, and the runs waiting,
 * kept in memory by the host and written to `triggers/status.json` for the dashboard and `list`.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../store/atomic-file';
import type { TriggerRecord } from '../store/state';
import type { RunCause } from './run-requests';
import type { LastFire } from './intake-journal';

/** Deliveries kept per trigger in the status. */
export const STATUS_DELIVERIES = 10;
/** The status file, relative to the data folder. */
export const STATUS_FILE = join('triggers', 'status.json');
/** One delivery as the status keeps it. */
export interface DeliveryStatus {
  at: string;
  status: number;
  reason: string;
}

/** The last fire of a trigger. */
export interface FireStatus {
  at: string;
  cause: RunCause;
  outcome: 'queued' | 'skipped' | 'failed';
  run: string | null;
}

/** The live status of one trigger (in `triggers/status.json`). */
export interface TriggerLiveStatus {
  id: string;
  type: TriggerRecord['type'];
  state: 'listening' | 'watching' | 'scheduled' | 'problem' | 'done';
  url: string | null;
  folder: string | null;
  next: string | null;
  problem: string | null;
  lastFire: FireStatus | null;
  deliveries: DeliveryStatus[];
  /** Runs of this trigger waiting in `runs/pending/`. */
  waiting: number;
}

/** The whole status file. */
export interface HostStatus {
  pid: number;
  origin: string | null;
  startedAt: string;
  updatedAt: string;
  running: boolean;
  /**
   * Runs waiting in `runs/pending/` and the oldest one's fire time: nonzero with an old `oldest` means nothing is
   * taking them.
   */
  pending: { total: number; oldest: string | null };
  triggers: Record<string, TriggerLiveStatus>;
}

/** What a restarted host carries of a trigger's earlier status: its last fire and its last deliveries. */
export type CarriedStatus = Pick<TriggerLiveStatus, 'lastFire' | 'deliveries'>;

/**
 * What a starting host carries over: each trigger's last fire and deliveries from the status file the last host wrote,
 * and the last fire the intake journal holds when it is later: a fire journaled just before a crash is the trigger's
 * last fire though the status file (written within 250 ms) never said so, so a schedule does not fire that time again.
 */
export async function carriedStatus(dataDir: string, fires: readonly LastFire[]): Promise<Map<string, CarriedStatus>> {
  const carried = new Map<string, CarriedStatus>(Object.entries((await readHostStatusFile(dataDir))?.triggers ?? {}));
  for (const fire of fires) {
    const known = carried.get(fire.trigger);
    if (known?.lastFire && known.lastFire.at >= fire.at) continue;
    const lastFire: FireStatus = { at: fire.at, cause: fire.cause as RunCause, outcome: 'queued', run: fire.run };
    carried.set(fire.trigger, { deliveries: known?.deliveries ?? [], lastFire });
  }
  return carried;
}

/** Reads `triggers/status.json` as the host last wrote it, or null (missing or unreadable). */
export async function readHostStatusFile(dataDir: string): Promise<HostStatus | null> {
  try {
    const value = JSON.parse(await readFile(join(dataDir, STATUS_FILE), 'utf8')) as HostStatus;
    if (typeof value !== 'object' || value === null || typeof value.triggers !== 'object' || value.triggers === null)
      return null;
    const triggers: Record<string, TriggerLiveStatus> = Object.create(null);
    for (const [id, status] of Object.entries(value.triggers)) triggers[id] = status;
    return { ...value, triggers };
  } catch {
    return null;
  }
}

/**
 * How long status changes are gathered into one write (each write is a temp file, two fsyncs and a rename: a burst of
 * deliveries writes it four times a second, not once per delivery). The dashboard polls it every 2 s.
 */
export const STATUS_COALESCE_MS = 250;

/**
 * Writes the host's status to {@link STATUS_FILE}: changes within {@link STATUS_COALESCE_MS} are written once,
 * writes never overlap, and `flush` writes what is pending and waits (stop, tests, `serve`).
 */
export class StatusFileWriter {
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly dataDir: string,
    private readonly snapshot: () => HostStatus,
  ) {}

  /** The status changed: write it soon. */
  changed(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.queueWrite();
    }, STATUS_COALESCE_MS);
  }

  /** Writes the current status now (after any write under way) and waits for it. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.queueWrite();
    await this.writing;
  }

  private queueWrite(): void {
    this.writing = this.writing.then(() => this.write()).catch(() => undefined);
  }

  private async write(): Promise<void> {
    await mkdir(join(this.dataDir, 'triggers'), { recursive: true, mode: 0o700 });
    await writeFileAtomic(join(this.dataDir, STATUS_FILE), `${JSON.stringify(this.snapshot(), null, 2)}\n`);
  }
}
