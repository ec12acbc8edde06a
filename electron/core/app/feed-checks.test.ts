/** The app's feed checks: soon after start, then daily with jitter; auto only while holding the host; never doubled. */
import { describe, expect, it } from 'vitest';
import {
  FEED_CHECK_FIRST_DELAY_MS,
  FEED_CHECK_JITTER_MS,
  FEED_CHECK_PERIOD_MS,
  FeedChecks,
  type FeedCheckDeps,
  nextCheckDelay,
} from './feed-checks';

/** Timers a test fires by hand, and what each run did. */
function harness(holds: boolean, random = 0.5) {
  const timers: { callback: () => void; ms: number; cleared: boolean }[] = [];
  const calls: string[] = [];
  let finishCheck: (() => void) | null = null;
  const deps: FeedCheckDeps = {
    check: () =>
      new Promise<void>((resolve) => {
        calls.push('check');
        finishCheck = resolve;
      }),
    applyAuto: async () => {
      calls.push('auto');
    },
    holdsHost: () => holds,
    setTimer: (callback, ms) => {
      const timer = { callback, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimer: (timer) => {
      (timer as { cleared: boolean }).cleared = true;
    },
    random: () => random,
    log: (message) => calls.push(`log ${message}`),
  };
  return { deps, timers, calls, finish: () => finishCheck?.() };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('FeedChecks', () => {
  it('checks soon after start, applies auto while it holds the host, then schedules the next day', async () => {
    const h = harness(true, 0.75);
    const checks = new FeedChecks(h.deps);
    checks.start();
    expect(h.timers.map((t) => t.ms)).toEqual([FEED_CHECK_FIRST_DELAY_MS]);
    h.timers[0]?.callback();
    await settle();
    expect(h.calls).toEqual(['check']);
    h.finish();
    await settle();
    await settle();
    expect(h.calls).toEqual(['check', 'auto']);
    expect(h.timers[1]?.ms).toBe(FEED_CHECK_PERIOD_MS + FEED_CHECK_JITTER_MS / 2);
  });

  it('only checks when another process holds the trigger host', async () => {
    const h = harness(false);
    const checks = new FeedChecks(h.deps);
    const run = checks.runNow();
    await settle();
    h.finish();
    await run;
    expect(h.calls).toEqual(['check']);
  });

  it('a check on demand while one runs joins it, and stop() leaves nothing scheduled', async () => {
    const h = harness(true);
    const checks = new FeedChecks(h.deps);
    checks.start();
    const first = checks.runNow();
    const second = checks.runNow();
    expect(second).toBe(first);
    await settle();
    h.finish();
    await first;
    expect(h.calls.filter((c) => c === 'check')).toHaveLength(1);
    checks.stop();
    expect(h.timers[0]?.cleared).toBe(true);
  });

  it('a failing check is logged, not thrown', async () => {
    const h = harness(true);
    h.deps.check = async () => {
      throw new Error('offline');
    };
    await new FeedChecks(h.deps).runNow();
    expect(h.calls).toEqual(['log Apollia Desktop: the feeds were not checked:']);
  });

  it('the daily delay stays within the jitter either side of a day', () => {
    expect(nextCheckDelay(0)).toBe(FEED_CHECK_PERIOD_MS - FEED_CHECK_JITTER_MS);
    expect(nextCheckDelay(0.5)).toBe(FEED_CHECK_PERIOD_MS);
    expect(nextCheckDelay(0.999999)).toBeLessThanOrEqual(FEED_CHECK_PERIOD_MS + FEED_CHECK_JITTER_MS);
  });
});
