/**
 * What a trigger's fire does, said before the first fire (DESIGN.md "Triggers at run time": a fire
 * becomes a run request in `runs/pending/`, the hand-off to an agent runtime this app does not
 * contain; "every screen that arms a trigger says that runs wait for a runtime"), and whether a
 * runtime is taking runs now, judged from the age of the oldest waiting run. Pure: the consent
 * form, the template form, the dashboard and the CLI say the same.
 */
import type { RunCause } from './run-causes';

export { RUN_CAUSES, type RunCause } from './run-causes';

/** A run that has waited this long was not taken: nothing is taking runs from `runs/pending/`. */
export const RUN_NOT_TAKEN_AFTER_MS = 60_000;

/** What a fire does, in one sentence (before anything is armed). */
export const FIRE_QUEUES_WORDS =
  'When an armed trigger fires, Apollia Desktop does not run the agent itself: it queues a run (a file in runs/pending/ of its data folder) that waits until an agent runtime takes it.';

/** Whether runs are being taken, as far as the waiting runs show it. */
export type RunTaking =
  /** No run waits: nothing has fired yet, or every run was taken. */
  | 'nothing_waiting'
  /** Runs wait, all queued within the last minute: a runtime may still take them. */
  | 'waiting'
  /** The oldest waiting run is older than a minute: nothing takes them, no runtime runs here. */
  | 'not_taken';

/** The runs waiting in `runs/pending/` (the trigger status's `pending`). */
export interface PendingRunsSeen {
  total: number;
  /** The oldest waiting run's fire time (ISO 8601), or null. */
  oldest: string | null;
}

/** Whether runs are being taken now, from the age of the oldest waiting run. */
export function runTaking(pending: PendingRunsSeen, now: Date): RunTaking {
  if (pending.total === 0) return 'nothing_waiting';
  const oldest = pending.oldest === null ? Number.NaN : Date.parse(pending.oldest);
  // A waiting run without a readable time is counted as not taken: only a young run gives hope.
  if (Number.isNaN(oldest) || now.getTime() - oldest >= RUN_NOT_TAKEN_AFTER_MS) return 'not_taken';
  return 'waiting';
}

/** The state of the queue now, in one sentence (the time of the oldest run is said beside it by the screen). */
export function runTakingWords(taking: RunTaking, total: number): string {
  const runs = total === 1 ? '1 run is' : `${total.toLocaleString('en-US')} runs are`;
  if (taking === 'nothing_waiting')
    return 'No run is waiting now. Until an agent runtime runs on this computer, the runs your triggers queue wait there.';
  if (taking === 'waiting')
    return `${runs} waiting, queued in the last minute: an agent runtime may still take ${total === 1 ? 'it' : 'them'}.`;
  return `${runs} waiting and nothing has taken ${total === 1 ? 'it' : 'them'}: no agent runtime is taking runs on this computer yet.`;
}

// --- Waiting runs seen and cleared (the Runs view, `runs`) ---

/** Each cause in words, as the Runs view, the dashboard and `runs` say it. */
export const RUN_CAUSE_WORDS: Record<RunCause, string> = {
  schedule: 'on schedule',
  missed: 'a missed time, caught up',
  at: 'at its date',
  file_watch: 'files changed',
  webhook: 'a webhook delivery',
};

// The Runs view's answers (`WaitingRunsView` and its rows, `RunsDiscarded`) are defined once with their
// schemas (shared/contract/api-replies.ts): the Api answers them, a test checks live answers.
export type { RunsDiscarded, WaitingRunView, WaitingRunsView, WaitingTriggerView } from './runs-schema';

/** Whether a trigger with `waiting` runs waiting is at its `limit`. */
export function queueFull(waiting: number, limit: number | null): boolean {
  return limit !== null && waiting >= limit;
}

/** A full queue, in one sentence: said on the trigger's row, in the Runs view and by `runs`. */
export function queueFullWords(waiting: number, limit: number): string {
  return `Its queue is full: ${waiting.toLocaleString('en-US')} ${waiting === 1 ? 'run waits' : 'runs wait'}, its most (${limit.toLocaleString('en-US')}). New fires are skipped and webhook senders are told to try again later, until a run is taken or discarded.`;
}

/** How many runs wait, in words ("1 run waiting", "3 runs waiting"). */
export function runsWaitingWords(n: number): string {
  return n === 1 ? '1 run waiting' : `${n.toLocaleString('en-US')} runs waiting`;
}
