/**
 * The host's side of traffic's commit (`activity/traffic-commit.ts`): the activity record hands its traffic lines and
 * head to the intake journal, whose batch's one sync commits them with the runs; `traffic.jsonl` is appended after.
 */
import { ActivityLog } from '../activity/activity-log';
import type { JournalTraffic, TrafficJournal } from '../activity/traffic-commit';
import type { IntakeJournal } from './intake-journal';
import { ActivityQueue } from './activity-queue';
import type { TriggerHostOptions } from './host-config';
import { killPoint } from './kill-point';
import type { HostClock } from './schedule';

/** Traffic's commit through the host's intake journal. */
export class HostTrafficJournal implements TrafficJournal {
  constructor(private readonly journal: IntakeJournal) {}

  committed(): JournalTraffic | null {
    return this.journal.committedTraffic;
  }

  async commit(traffic: JournalTraffic): Promise<void> {
    await this.journal.append({ t: 'traffic', ...traffic }, undefined, true);
    // A crash test's kill: committed in the journal, not yet in traffic.jsonl.
    killPoint('after-traffic-sync');
  }

  appended(count: number): void {
    this.journal.trafficAppended(count);
  }
}

/**
 * The host's queue of activity batches, written by its log (the data folder's, unless the options give one): traffic
 * through the journal (a log without `recordTraffic`, a bench's stand-in: as that log records).
 */
export function hostActivityQueue(
  options: Pick<TriggerHostOptions, 'dataDir' | 'activityLog'>,
  journal: IntakeJournal,
  clock: HostClock,
  onProblem: (message: string) => void,
): ActivityQueue {
  const log = options.activityLog ?? new ActivityLog(options.dataDir, { now: () => clock.now() });
  const traffic = new HostTrafficJournal(journal);
  return new ActivityQueue(
    (batch) => (log.recordTraffic ? log.recordTraffic(batch, traffic) : log.recordMany(batch)),
    onProblem,
  );
}
