/**
 * The fire path of a trigger host (DESIGN.md "Triggers at run time"): a schedule's, a folder's or a
 * webhook's fire becoming a run request in `runs/pending/`, or a skip when the trigger's runs
 * waiting are at their limit, and the activity events that say so. `trigger-host.ts` holds one and
 * decides when a trigger fires; this file decides what a fire does.
 *
 * - A due time passed by more than {@link LATE_MS} fired late (cause `missed`); a repeating trigger's
 *   next time is counted from now, so a laptop waking after a night fires once, not once per missed time.
 * - A clock set back is noticed at the next tick and every next time recounted.
 * - An `at` trigger fires once and is done: it is disarmed in the store.
 */
import { fireCauseWords } from '../../../shared/words/words';
import { randomUUID } from 'node:crypto';
import type { ActivityInput } from '../activity/activity-log';
import type { TriggerRecord } from '../store/state';
import type { Store } from '../store/store';
import { type FireResult, LATE_MS, type LiveTrigger, waitingLimit } from './host-config';
import {
  type RunCause,
  type RunInput,
  type RunPayload,
  type RunRequest,
  type RunRequestWriter,
  runTarget,
} from './run-requests';
import { type HostClock, nextFireAfter } from './schedule';
import type { WaitingRuns } from './waiting-runs';

/**
 * Who a trigger's activity events name: the trigger, and its package and agent when it has them.
 * One home, so the host, the fire path and the webhook intake name a trigger alike.
 */
export function activityWho(trigger: TriggerRecord): Pick<ActivityInput, 'package' | 'agent' | 'trigger'> {
  return {
    trigger: trigger.id,
    ...(trigger.packageName ? { package: trigger.packageName } : {}),
    ...(trigger.agentId ? { agent: trigger.agentId } : {}),
  };
}

/**
 * What the fire path needs of its host.
 * The host owns the store, the run file writer and the count of runs waiting; fires only use them.
 */
export interface FireHost {
  readonly clock: HostClock;
  readonly store: Store;
  readonly waiting: WaitingRuns;
  readonly runs: RunRequestWriter;
  record(event: ActivityInput): void;
  line(text: string): void;
  statusChanged(): void;
  /** Why the trigger may not fire now (the policy, integrity: `fire-gate.ts`), asked before each fire; null: it may. */
  held(trigger: TriggerRecord): Promise<string | null>;
}

/**
 * The fires of one host: each becomes a run request or a skip, and is tracked until done.
 * Tracking lets the host's `settled()` and `stop()` wait for every fire under way.
 */
export class TriggerFires {
  /** Fires under way (for {@link settled}). */
  private readonly firing = new Set<Promise<unknown>>();

  constructor(private readonly host: FireHost) {}

  /**
   * Fires every timed trigger of `lives` that is due at `now`, once each (one tick of the host's timer).
   * A missed time fires once and the next is counted from `now`; a clock set back (`now` more than a
   * second before `lastTick`, the previous tick) first counts every next time again from `now`.
   */
  fireDue(lives: ReadonlyMap<string, LiveTrigger>, now: Date, lastTick: number): void {
    if (now.getTime() < lastTick - 1_000) {
      // The clock was set back: count every next time again from the new now.
      for (const live of lives.values()) {
        if (live.nextAt && live.trigger.type !== 'at') {
          live.nextAt = nextFireAfter(live.trigger, now);
          live.status.next = live.nextAt?.toISOString() ?? null;
        }
      }
      this.host.line(`clock set back to ${now.toISOString()}: next times counted again`);
    }
    for (const live of lives.values()) {
      if (!live.nextAt || live.nextAt.getTime() > now.getTime()) continue;
      const late = now.getTime() - live.nextAt.getTime() > LATE_MS;
      const cause: RunCause = late ? 'missed' : live.trigger.type === 'at' ? 'at' : 'schedule';
      if (live.trigger.type === 'at') {
        live.nextAt = null;
        live.status.next = null;
        live.status.state = 'done';
        const done = this.fire(live, cause, {}).then(() => this.finishAt(live.trigger));
        this.track(done);
      } else {
        live.nextAt = nextFireAfter(live.trigger, now);
        live.status.next = live.nextAt?.toISOString() ?? null;
        this.fire(live, cause, {});
      }
    }
  }

  /**
   * Fires `live` once: a run request, or a skip when its runs waiting are at the limit (a slot is reserved first, so
   * the limit holds while fires write in parallel). A schedule's or a folder's fire is recorded here; a webhook
   * delivery's is recorded once, by the intake, with the delivery (one entry per delivery, see {@link FireResult}).
   */
  fire(live: LiveTrigger, cause: RunCause, extra: Omit<RunInput, 'text'>, payload?: RunPayload): Promise<FireResult> {
    const at = this.host.clock.now().toISOString();
    return this.track(this.fireNow(live, at, cause, extra, payload));
  }

  /**
   * Waits until every fire started so far is done, including those started while waiting.
   * A fire can start another (an `at` trigger's disarm), so the wait repeats until none is left.
   */
  async settled(): Promise<void> {
    while (this.firing.size > 0) await Promise.all([...this.firing]);
  }

  private track<T>(work: Promise<T>): Promise<T> {
    const tracked = work.catch(() => undefined);
    this.firing.add(tracked);
    void tracked.then(() => this.firing.delete(tracked));
    return work;
  }

  private async fireNow(
    live: LiveTrigger,
    at: string,
    cause: RunCause,
    extra: Omit<RunInput, 'text'>,
    payload?: RunPayload,
  ): Promise<FireResult> {
    const { trigger } = live;
    // Before each fire: the policy read now and the package's files as hashed (DESIGN.md "Managed policy", "Trust
    // after install"); a paused trigger's fire is not a fire (the pause itself is recorded where it is decided).
    const held = await this.host.held(trigger);
    if (held !== null) {
      this.host.line(`held ${trigger.id} ${cause}: ${held}`);
      return { outcome: 'skipped', detail: held };
    }
    const result = await this.hand(trigger, at, cause, extra, payload);
    if (cause !== 'webhook') this.recordFire(trigger, at, cause, extra, result);
    live.status.lastFire = { at, cause, outcome: result.outcome, run: result.outcome === 'queued' ? result.run : null };
    this.host.statusChanged();
    return result;
  }

  /** Writes the run request of one fire, when the trigger's runs waiting leave room for it. */
  private async hand(
    trigger: TriggerRecord,
    at: string,
    cause: RunCause,
    extra: Omit<RunInput, 'text'>,
    payload?: RunPayload,
  ): Promise<FireResult> {
    const limit = waitingLimit(trigger);
    const waiting = await this.host.waiting.reserve(trigger.id, limit);
    if (waiting !== null) {
      this.host.line(`skipped ${trigger.id} ${cause}: ${waiting} run(s) already waiting`);
      return {
        outcome: 'skipped',
        detail: `${waiting} run(s) already waiting (limit ${limit}${trigger.maxConcurrent === null ? ', the default' : ', max_concurrent'})`,
      };
    }
    const request: RunRequest = {
      id: randomUUID(),
      trigger: trigger.id,
      target: runTarget(trigger),
      input: { text: trigger.input, ...extra },
      fired_at: at,
      cause,
    };
    if (payload) request.payload = payload;
    try {
      await this.host.runs.write(request);
    } catch (error) {
      this.host.waiting.done(trigger.id, false);
      this.host.line(`failed ${trigger.id} ${cause}: the run request could not be written`);
      return {
        outcome: 'failed',
        detail: `the run request could not be written: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      };
    }
    this.host.waiting.done(trigger.id, true);
    this.host.line(`fired ${trigger.id} ${cause} run ${request.id}`);
    return { outcome: 'queued', run: request.id };
  }

  /** A schedule's or a folder's fire in the activity record: that it fired, then what became of its run. */
  private recordFire(
    trigger: TriggerRecord,
    at: string,
    cause: RunCause,
    extra: Omit<RunInput, 'text'>,
    result: FireResult,
  ): void {
    const who = activityWho(trigger);
    this.host.record({
      at,
      kind: 'trigger_fired',
      ...who,
      outcome: 'ok',
      detail: extra.changed_paths
        ? changedCount(extra.changed_paths.length + (extra.changed_paths_more ?? 0))
        : fireCauseWords(cause),
    });
    if (result.outcome === 'queued')
      this.host.record({ kind: 'run_queued', ...who, outcome: 'ok', detail: `run ${result.run} (${cause})` });
    else if (result.outcome === 'skipped')
      this.host.record({ kind: 'run_skipped', ...who, outcome: 'skipped', detail: result.detail });
    else this.host.record({ kind: 'run_queued', ...who, outcome: 'failed', detail: result.detail });
  }

  /** An `at` trigger fires once and is done: it is disarmed in the store. */
  private async finishAt(trigger: TriggerRecord): Promise<void> {
    // One commit (DESIGN.md "Commit points"): the trigger disarmed and its `disarm` recorded together.
    await this.host.store
      .update(
        (state) => {
          const current = Object.hasOwn(state.triggers, trigger.id) ? state.triggers[trigger.id] : undefined;
          if (!current?.armed || current.type !== 'at' || current.at !== trigger.at)
            return { result: false, write: false };
          current.armed = false;
          current.armedAt = null;
          return { result: true };
        },
        (done) =>
          done
            ? [
                {
                  kind: 'disarm',
                  ...activityWho(trigger),
                  at: this.host.clock.now().toISOString(),
                  outcome: 'ok',
                  detail: `fired once at ${trigger.at}; done`,
                },
              ]
            : [],
      )
      .catch(() => false);
  }
}

/** How many paths a watched folder's fire saw change, in words. */
function changedCount(count: number): string {
  return count === 1 ? '1 file changed' : `${count} files changed`;
}
