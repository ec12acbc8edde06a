/**
 * The app's feed checks (DESIGN.md "Feeds, updates and install links": "checked at start, daily
 * (jittered), and on demand"): a first check soon after start, then one a day, each a little early
 * or late (a publisher's server is not hit by every app at the same second). Each run checks every
 * feed (`outdated`, which keeps the check's time, serial and refusal) and, only in the process that
 * holds the trigger host, applies mode auto's updates that ask nothing new (`applyAuto`): anything
 * that asks more waits for the person, with a notice. Runs never overlap: a run still going when
 * the next is due is not doubled.
 *
 * The clock, timers and the Api are injected (tested in plain Node); Electron main and `serve` each run one.
 */

/** A day, the period between checks. */
export const FEED_CHECK_PERIOD_MS = 24 * 60 * 60_000;
/** At most this much before or after the day (one hour). */
export const FEED_CHECK_JITTER_MS = 60 * 60_000;
/** The first check waits this long after start, so the window and the trigger host start first. */
export const FEED_CHECK_FIRST_DELAY_MS = 30_000;

/** What the checks need from the host. */
export interface FeedCheckDeps {
  /** Checks every feed (the Api's `feeds.outdated`); a refusal is a value, never a throw. */
  check(): Promise<unknown>;
  /** Applies mode auto's updates that ask nothing new (`feeds.applyAuto`). */
  applyAuto(): Promise<unknown>;
  /** Whether this process holds the trigger host now: only then is anything applied. */
  holdsHost(): boolean;
  setTimer(callback: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
  /** A number in [0, 1) (`Math.random`). */
  random(): number;
  /** Says a failure in the host's log. */
  log(message: string, error?: unknown): void;
}

/** The delay before the next daily check: a day, give or take up to {@link FEED_CHECK_JITTER_MS}. */
export function nextCheckDelay(random: number): number {
  return FEED_CHECK_PERIOD_MS + Math.round((random * 2 - 1) * FEED_CHECK_JITTER_MS);
}

/** The app's feed checks: `start()` once the Api exists; `runNow()` for a check on demand; `stop()` at quit. */
export class FeedChecks {
  private timer: unknown = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly deps: FeedCheckDeps) {}

  /** Schedules the first check soon after start, then daily. */
  start(): void {
    this.schedule(FEED_CHECK_FIRST_DELAY_MS);
  }

  /** Runs a check now (or joins the one running). */
  runNow(): Promise<void> {
    this.running ??= this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** No further check is scheduled; one running ends on its own. */
  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.deps.clearTimer(this.timer);
    this.timer = null;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = this.deps.setTimer(() => {
      this.timer = null;
      void this.runNow().finally(() => this.schedule(nextCheckDelay(this.deps.random())));
    }, ms);
  }

  private async run(): Promise<void> {
    try {
      await this.deps.check();
      if (this.deps.holdsHost()) await this.deps.applyAuto();
    } catch (error) {
      this.deps.log('Apollia Desktop: the feeds were not checked:', error);
    }
  }
}
