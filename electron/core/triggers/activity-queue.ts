/**
 * The host's bounded queue of activity entries: written in order, in batches (one hold of the
 * record's lock for all that waited {@link ACTIVITY_BATCH_MS}), so a burst of deliveries costs a few
 * appends, not one each, and leaves the file system's threads to the run files. Traffic's lines and head ride in
 * the intake journal's batch (`traffic-journal.ts`): one sync commits them with the runs.
 * Beyond {@link MAX_ACTIVITY_BACKLOG} waiting, entries are counted and summarised in one entry once
 * the queue drains, so a flood cannot grow memory without bound.
 */
import type { ActivityInput } from '../activity/activity-log';

/**
 * How long an entry waits for others to share its append (traffic and decisions alike: the record is
 * never what a 2xx waits for).
 */
export const ACTIVITY_BATCH_MS = 100;
/** Most activity entries waiting to be written; beyond it they are counted and summarised. */
export const MAX_ACTIVITY_BACKLOG = 2_000;

/** Writes activity entries in order, dropping (and counting) what exceeds the backlog bound. */
export class ActivityQueue {
  private waiting: ActivityInput[] = [];
  private dropped = 0;
  private draining: Promise<void> | null = null;

  constructor(
    /** Writes one batch (the host's: traffic through its intake journal, `ActivityLog.recordTraffic`). */
    private readonly write: (batch: readonly ActivityInput[]) => Promise<unknown>,
    private readonly onProblem: (message: string) => void,
  ) {}

  /** Queues one entry (its `at` already set). */
  record(event: ActivityInput): void {
    if (this.waiting.length >= MAX_ACTIVITY_BACKLOG) {
      this.dropped++;
      return;
    }
    this.waiting.push(event);
    this.draining ??= this.drain();
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0 || this.dropped > 0) {
      // Gather what comes in the next moments into this batch: a burst costs a few appends, not one per turn.
      await new Promise((resolve) => setTimeout(resolve, ACTIVITY_BATCH_MS));
      const batch = this.waiting;
      this.waiting = [];
      if (batch.length === 0 && this.dropped > 0) {
        batch.push({
          kind: 'trigger_problem',
          outcome: 'skipped',
          detail: `${this.dropped} activity entries not recorded one by one: too many at once`,
        });
        this.dropped = 0;
      }
      try {
        await this.write(batch);
      } catch (error) {
        this.onProblem(`problem the activity record could not be written: ${(error as Error).message}`);
      }
    }
    this.draining = null;
  }

  /** At the host's start: what the journal committed and the record lacks is written (a problem is said, not thrown). */
  async recover(): Promise<void> {
    await this.write([]).catch((error: unknown) =>
      this.onProblem(`problem the activity record could not be completed: ${(error as Error).message}`),
    );
  }

  /** Resolves once every queued entry is written (or failed). */
  async settled(): Promise<void> {
    while (this.draining) await this.draining;
  }
}
