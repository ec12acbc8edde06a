/**
 * When a time-based trigger fires next: the SAME functions the consent form and the dashboard use
 * (`shared/triggers/cron.ts`: `nextCronTimes`, `nextIntervalTimes`), so what the user was shown is what runs.
 *
 * DESIGN.md "Cron": `.apo` cron triggers use the AND rule for the two day fields (`dayRule: 'and'`),
 * template `schedule` triggers standard cron (`'or'`) in their time zone; `at` fires once.
 */
import { nextCronTimes, nextIntervalTimes } from '../../../shared/triggers/cron';
import type { TriggerRecord } from '../store/state';

/** The clock and timers of the host, injected so tests drive time by hand. */
export interface HostClock {
  now(): Date;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

/** The real clock: `Date` and unref'd `setTimeout` (a waiting timer never keeps a process alive on its own). */
export const systemClock: HostClock = {
  now: () => new Date(),
  setTimer: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    handle.unref?.();
    return handle;
  },
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Whether a trigger fires by the clock. */
export function isTimed(trigger: TriggerRecord): boolean {
  return trigger.type === 'cron' || trigger.type === 'schedule' || trigger.type === 'interval' || trigger.type === 'at';
}

/**
 * The first fire time strictly after `after`, or null when there is none (a cron that never
 * matches, a malformed interval, an `at` that has passed).
 */
export function nextFireAfter(trigger: TriggerRecord, after: Date): Date | null {
  if (trigger.type === 'cron' || trigger.type === 'schedule') {
    try {
      return (
        nextCronTimes(
          trigger.schedule ?? '',
          { dayRule: trigger.dayRule, timezone: trigger.timezone ?? 'UTC' },
          after,
          1,
        )[0] ?? null
      );
    } catch {
      return null;
    }
  }
  if (trigger.type === 'interval') {
    return (
      nextIntervalTimes(trigger.every ?? '', after, 1, trigger.armedAt ? new Date(trigger.armedAt) : undefined)[0] ??
      null
    );
  }
  if (trigger.type === 'at') {
    const at = trigger.at === null ? Number.NaN : Date.parse(trigger.at);
    return Number.isFinite(at) && at > after.getTime() ? new Date(at) : null;
  }
  return null;
}

/**
 * The time a timed trigger is due at when the host takes it up: the first fire time after the
 * later of its arming and its last fire. It may be in the past (missed while the host was not
 * running or the computer slept): then it fires once, not once per missed time.
 */
export function firstDue(trigger: TriggerRecord, lastFire: Date | null): Date | null {
  const armedAt = trigger.armedAt ? new Date(trigger.armedAt) : null;
  if (trigger.type === 'at') {
    if (lastFire !== null) return null;
    const at = trigger.at === null ? Number.NaN : Date.parse(trigger.at);
    return Number.isFinite(at) ? new Date(at) : null;
  }
  const from = [armedAt, lastFire].filter((d): d is Date => d !== null).sort((a, b) => b.getTime() - a.getTime())[0];
  if (!from) return null;
  return nextFireAfter(trigger, from);
}
