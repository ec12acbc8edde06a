/**
 * The Runs view's answers (the runs waiting in `runs/pending/`), once with TypeBox; `run-queue.ts` re-exports the
 * types. Loaded only by tests and tools.
 */
import { type Static, Type } from 'typebox';
import { closed, oneOf, orNull } from '../base/schema-kit';
import { RUN_CAUSES } from './run-causes';

const str = Type.String();
const nstr = orNull('string');

/** One run waiting in `runs/pending/`, as the Runs view lists it: never its payload's body. */
export const WaitingRunViewSchema = closed({
  /** The run's id, from its file name: what `discardWaitingRun` takes. */
  id: str,
  /** The store id of the trigger that queued it, from its file name. */
  trigger: str,
  /** The trigger's name, from the store; null when that trigger is no longer on this computer. */
  triggerName: nstr,
  /** The agent it starts and its name, from the store; null for a workflow or a trigger no longer here. */
  agentId: nstr,
  agentName: nstr,
  /** What the run file says it starts (`target`, bounded); null when the file could not be read. */
  target: nstr,
  /** When it fired (ISO 8601), from its file name. */
  firedAt: str,
  /** Why it fired; null when the file could not be read or names no known cause. */
  cause: oneOf([...RUN_CAUSES, null]),
  /** A webhook payload's `type` (bounded text the sender chose), or null; the body is never read out. */
  payloadType: nstr,
  /** Whether it carries a webhook payload. */
  hasPayload: Type.Boolean(),
  /** Why the file could not be read (too large, not JSON, a link, not a file), or null when it was. */
  unreadable: nstr,
});
export type WaitingRunView = Static<typeof WaitingRunViewSchema>;

/** One trigger's runs waiting, and whether its queue is full. */
export const WaitingTriggerViewSchema = closed({
  trigger: str,
  triggerName: nstr,
  agentId: nstr,
  agentName: nstr,
  waiting: Type.Number(),
  /** Most runs it may have waiting (`max_concurrent`, else the host's default); null when the trigger is gone. */
  limit: orNull('number'),
  /** At its limit: new fires are skipped, webhook deliveries turned away, until a run is taken or discarded. */
  full: Type.Boolean(),
});
export type WaitingTriggerView = Static<typeof WaitingTriggerViewSchema>;

/** `waitingRuns`: what waits in `runs/pending/`, oldest first. */
export const WaitingRunsViewSchema = closed({
  /** Every run waiting (counted from file names), with the trigger filter applied. */
  total: Type.Number(),
  /** The oldest runs, at most the listing's cap, each read under a size bound. */
  runs: Type.Array(WaitingRunViewSchema),
  /** Runs waiting that are not listed (past the cap). */
  notListed: Type.Number(),
  /** Per trigger, most waiting first. */
  triggers: Type.Array(WaitingTriggerViewSchema),
});
export type WaitingRunsView = Static<typeof WaitingRunsViewSchema>;

/** `discardWaitingRun` / `discardTriggerRuns`: what was discarded. */
export const RunsDiscardedSchema = closed({
  /** The trigger whose runs were discarded (one run: its trigger). */
  trigger: str,
  /** The ids of the runs removed from `runs/pending/`. */
  discarded: Type.Array(str),
  /** Runs that were gone when it came to remove them (an agent runtime took them meanwhile). */
  alreadyTaken: Type.Number(),
});
export type RunsDiscarded = Static<typeof RunsDiscardedSchema>;
