/**
 * The host's bounded queue of activity events: written one at a time, in order; beyond
 * {@link MAX_ACTIVITY_BACKLOG} waiting they are counted and summarised in one event once the queue
 * drains, so a flood of deliveries cannot grow memory or the log without bound (issue 16, "Bad input").
 */
import type { ActivityInput, ActivityLog } from '../activity/activity-log';

/** Most activity events waiting to be written; beyond it they are counted and summarised. */
export const MAX_ACTIVITY_BACKLOG = 200;

/** Writes activity events in order, dropping (and counting) what exceeds the backlog bound. */
export class ActivityQueue {
  private queue: Promise<unknown> = Promise.resolve();
  private backlog = 0;
  private dropped = 0;

  constructor(
    private readonly log: ActivityLog,
    private readonly onProblem: (message: string) => void,
  ) {}

  /** Queues one event (its `at` already set). */
  record(event: ActivityInput): void {
    if (this.backlog >= MAX_ACTIVITY_BACKLOG) {
      this.dropped++;
      return;
    }
    this.backlog++;
    this.queue = this.queue
      .then(async () => {
        await this.log.record(event);
        this.backlog--;
        if (this.backlog === 0 && this.dropped > 0) {
          const dropped = this.dropped;
          this.dropped = 0;
          await this.log.record({ kind: 'trigger_problem', outcome: 'skipped', detail: `${dropped} event(s) not recorded one by one: too many at once` });
        }
      })
      .catch((error) => {
        this.backlog = Math.max(0, this.backlog - 1);
        this.onProblem(`problem the activity log could not be written: ${(error as Error).message}`);
      });
  }

  /** Resolves once every queued event is written (or failed). */
  settled(): Promise<unknown> {
    return this.queue;
  }
}
