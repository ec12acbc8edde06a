/**
 * The trigger host: makes armed triggers live for one data folder (DESIGN.md "Triggers at run
 * time"). Schedules fire at the times `shared/triggers/cron.ts` computes, watched folders are watched,
 * webhooks are received; each fire becomes a run request in `runs/pending/` and events in the
 * activity log. Plain Node: the app holds one instance, `apollia-desktop serve` another (never both:
 * `host-lock.ts`).
 *
 * - `reload()` re-reads the store and starts, stops or restarts exactly the triggers whose armed
 *   configuration changed; with `watchStore` (default) the host calls it itself whenever
 *   `state.json` is replaced, so arming, disarming, rotating, updating or uninstalling from the app
 *   or the CLI takes effect at once.
 * - Time: one timer, never longer than {@link MAX_SLEEP_MS}, so a clock jump or a sleep is noticed
 *   within a minute. A trigger whose due time has passed fires ONCE (cause `missed` when more than
 *   {@link LATE_MS} late) and its next time is counted from now, so a laptop waking after a night
 *   does not fire once per missed time. A clock set back is noticed and every next time recounted.
 * - The live status of every trigger is kept in memory (`status()`) and written to
 *   `triggers/status.json` for the dashboard (see README).
 */
import { fireCauseWords, triggerHostWords } from '../../../shared/words/words';
import { randomUUID } from 'node:crypto';
import { DEFAULT_WEBHOOK_PORT } from '../../../shared/contract/api';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type ActivityInput, ActivityLog } from '../activity/activity-log';
import { noticePolicyChange, readHostPolicy, triggerHeldWhy } from '../policy/policy-effects';
import type { TriggerRecord } from '../store/state';
import { Store } from '../store/store';
import { ActivityQueue, MAX_ACTIVITY_BACKLOG } from './activity-queue';
import { FolderWatch } from './folder-watch';
import {
  type FireResult,
  agentArchived,
  configKey,
  DEFAULT_MAX_WAITING,
  LATE_MS,
  type LiveTrigger,
  MAX_SLEEP_MS,
  SEEN_FILE,
  type TriggerHostOptions,
  waitingLimit,
} from './host-config';
import { type StateFileWatch, watchStateFile } from './state-file-watch';
import {
  type DeliveryStatus,
  type FireStatus,
  type HostStatus,
  readHostStatusFile,
  STATUS_DELIVERIES,
  STATUS_FILE,
  StatusFileWriter,
  type TriggerLiveStatus,
} from './host-status';
import { takeHostLock } from './host-lock';
import { WaitingRuns } from './waiting-runs';
import {
  type RunCause,
  type RunInput,
  type RunPayload,
  type RunRequest,
  RunRequestWriter,
  runTarget,
} from './run-requests';
import { firstDue, type HostClock, isTimed, nextFireAfter, systemClock } from './schedule';
import { replayKey } from './seen-ids';
import { WebhookIntake } from './webhook-intake';
import { WebhookListener, webhookPath } from './webhook-listener';
import { isSecretBoxLocked } from '../secrets/secret-box';

/** The port the listener binds when neither `port` nor Settings gives one (its home is `shared/contract/api.ts`). */
export { DEFAULT_WEBHOOK_PORT };
export { MAX_ACTIVITY_BACKLOG, readHostStatusFile, STATUS_DELIVERIES, STATUS_FILE };
export { QUEUE_FULL_RETRY_AFTER_S } from './webhook-intake';
export type { DeliveryStatus, FireStatus, HostStatus, TriggerLiveStatus };
export { DEFAULT_MAX_WAITING, LATE_MS, MAX_SLEEP_MS, SEEN_FILE, type TriggerHostOptions };

type Live = LiveTrigger;

/** The trigger host of one data folder. */
export class TriggerHost {
  private readonly store: Store;
  private readonly clock: HostClock;
  private readonly listener: WebhookListener;
  private readonly intake: WebhookIntake;
  private readonly live = new Map<string, Live>();
  /** Last fires carried over from the previous status file (a restart does not forget them). */
  private readonly carried = new Map<string, TriggerLiveStatus>();
  private release: (() => Promise<void>) | null = null;
  private timer: unknown = null;
  private lastTick = 0;
  private storeWatcher: StateFileWatch | null = null;
  private reloading: Promise<void> = Promise.resolve();
  /** Fires under way (for `settled` and `stop`). */
  private readonly firing = new Set<Promise<unknown>>();
  private readonly activityQueue: ActivityQueue;
  private readonly statusFile: StatusFileWriter;
  private readonly waiting: WaitingRuns;
  private readonly runs: RunRequestWriter;
  private startedAt = '';
  private running = false;
  /** The Settings port last tried by {@link rebind} (so a taken port is not retried at every reload). */
  private boundFor: number | null = null;
  /** The policy the last reload applied (its state, what it says, what is wrong with it). */
  private policyFingerprint = '';

  constructor(private readonly options: TriggerHostOptions) {
    this.store = new Store(options.dataDir);
    this.clock = options.clock ?? systemClock;
    this.waiting = new WaitingRuns(options.dataDir);
    this.runs = new RunRequestWriter(options.dataDir, options.runFileFaults);
    this.statusFile = new StatusFileWriter(options.dataDir, () => this.status());
    this.activityQueue = new ActivityQueue(
      new ActivityLog(options.dataDir, { now: () => this.clock.now() }),
      (message) => this.line(message),
    );
    this.intake = new WebhookIntake(
      {
        clock: this.clock,
        live: (id) => this.live.get(id),
        lives: () => this.live.values(),
        fire: (live, cause, extra, payload) => this.fire(live, cause, extra, payload),
        record: (event) => this.record(event),
        line: (text) => this.line(text),
        statusChanged: () => this.statusChanged(),
        who: (trigger) => this.who(trigger),
      },
      join(options.dataDir, SEEN_FILE),
    );
    this.listener = new WebhookListener(
      {
        target: (id) => this.live.get(id)?.target ?? null,
        deliver: (target, delivery) => this.intake.deliver(target, delivery),
        refused: (id, answer) => this.intake.refused(id, answer),
      },
      options.listenerLimits,
    );
  }

  /** The listener's base URL (`http://127.0.0.1:<port>`), once started. */
  get origin(): string {
    return this.listener.origin;
  }

  /** The URL a webhook trigger is delivered to. */
  urlOf(triggerId: string): string {
    return `${this.listener.origin}${webhookPath(triggerId)}`;
  }

  /**
   * Takes the data folder's host lock (`host.busy` when another host holds it), binds the
   * listener, loads the replay store and the previous status, and makes every armed trigger live.
   */
  async start(): Promise<void> {
    await mkdir(this.options.dataDir, { recursive: true });
    this.release = await takeHostLock(this.options.dataDir);
    try {
      await this.intake.load();
      await this.loadCarried();
      await this.listener.start(this.options.port ?? (await this.settingsPort()));
    } catch (error) {
      await this.listener.stop();
      await this.release();
      this.release = null;
      throw error;
    }
    this.running = true;
    this.startedAt = this.clock.now().toISOString();
    this.lastTick = this.clock.now().getTime();
    this.record({
      kind: 'host_started',
      outcome: 'ok',
      detail: `${triggerHostWords('started', this.origin)} (process ${process.pid})`,
    });
    await this.reload();
    if (this.options.watchStore !== false)
      this.storeWatcher = watchStateFile(
        this.options.dataDir,
        () => void this.reload(),
        (message) => this.line(message),
      );
  }

  /** Stops everything it started (timers, watchers, listener), writes the final status, releases the lock. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.storeWatcher?.close();
    this.storeWatcher = null;
    if (this.timer !== null) this.clock.clearTimer(this.timer);
    this.timer = null;
    await this.reloading;
    await this.listener.stop();
    await Promise.all([...this.live.values()].map((l) => l.watch?.close()));
    await this.firesDone();
    await this.runs.close();
    await this.intake.close();
    this.record({
      kind: 'host_stopped',
      outcome: 'ok',
      detail: `${triggerHostWords('stopped')} (process ${process.pid})`,
    });
    await this.activityQueue.settled();
    await this.statusFile.flush();
    this.live.clear();
    await this.release?.();
    this.release = null;
  }

  /** The live status (what `triggers/status.json` holds). */
  status(): HostStatus {
    const triggers: Record<string, TriggerLiveStatus> = Object.create(null);
    const pending = this.waiting.view;
    for (const [id, live] of this.live) triggers[id] = { ...live.status, waiting: pending.byTrigger.get(id) ?? 0 };
    return {
      pid: process.pid,
      origin: this.running ? this.origin : null,
      startedAt: this.startedAt,
      updatedAt: this.clock.now().toISOString(),
      running: this.running,
      pending: { total: pending.total, oldest: pending.oldest },
      triggers,
    };
  }

  /** Waits until every fire, activity event and status write started so far is done (tests, `serve`). */
  async settled(): Promise<void> {
    await this.reloading;
    await this.firesDone();
    await this.activityQueue.settled();
    await this.statusFile.flush();
  }

  /** Re-reads the store and brings the live triggers in line with it. */
  reload(): Promise<void> {
    const run = this.reloading.then(() => this.reloadNow());
    this.reloading = run.catch((error) =>
      this.line(`problem host could not read the store: ${(error as Error).message}`),
    );
    return run;
  }

  /** The port Settings asks for, or the default (also when the store cannot be read: start still serves). */
  private async settingsPort(): Promise<number> {
    try {
      return (await this.store.read()).settings.webhookPort ?? DEFAULT_WEBHOOK_PORT;
    } catch {
      return DEFAULT_WEBHOOK_PORT;
    }
  }

  /**
   * Moves the listener to the port Settings now holds. When that port cannot be bound (taken), the
   * listener goes back to the port it had and the refusal is a `trigger_problem`; webhook URLs follow
   * the port the listener ends on.
   */
  private async rebind(port: number): Promise<void> {
    const old = this.listener.port;
    await this.listener.stop();
    try {
      await this.listener.start(port);
      this.line(`listening on ${this.origin}`);
    } catch (error) {
      const reason = `the webhook port ${port} from Settings cannot be used (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); still on ${old}`;
      this.line(`problem ${reason}`);
      this.record({ kind: 'trigger_problem', outcome: 'failed', detail: reason });
      await this.listener.start(old);
    }
    this.boundFor = port;
    for (const live of this.live.values())
      if (live.trigger.type === 'webhook') live.status.url = this.urlOf(live.trigger.id);
  }

  private async reloadNow(): Promise<void> {
    if (!this.running) return;
    const state = await this.store.read();
    // The organization's policy on top of what the person armed: a kind it does not allow stays armed in the store but
    // is not made live; an unreadable policy pauses every trigger.
    const { view: policy, fingerprint } = readHostPolicy(this.options.policy);
    this.policyFingerprint = fingerprint;
    await noticePolicyChange(this.options.dataDir, state, policy, async (events) =>
      events.forEach((event) => this.record(event)),
    ).catch((error: unknown) =>
      this.line(`problem the policy change could not be recorded: ${(error as Error).message}`),
    );
    const port = policy.effective?.webhookPort ?? state.settings.webhookPort ?? DEFAULT_WEBHOOK_PORT;
    if (this.options.port === undefined && port !== this.boundFor && port !== this.listener.port)
      await this.rebind(port);
    const wanted = new Map<string, { trigger: TriggerRecord; sealed: string | null }>();
    for (const trigger of Object.values(state.triggers)) {
      if (!trigger.armed || agentArchived(state, trigger)) continue;
      if (triggerHeldWhy(policy, trigger.type) !== null) continue;
      const sealed =
        trigger.secretRef !== null && Object.hasOwn(state.webhookSecrets, trigger.secretRef)
          ? (state.webhookSecrets[trigger.secretRef] ?? null)
          : null;
      wanted.set(trigger.id, { trigger, sealed });
    }
    for (const [id, live] of [...this.live]) {
      const want = wanted.get(id);
      if (want && configKey(want.trigger, want.sealed) === live.key) continue;
      this.live.delete(id);
      this.carried.set(id, live.status);
      await live.watch?.close();
      if (!want) this.line(`stopped ${id}`);
    }
    for (const [id, { trigger, sealed }] of wanted) {
      if (this.live.has(id)) continue;
      await this.makeLive(trigger, sealed);
    }
    this.intake.warnSharedSecrets();
    await this.waiting.refresh();
    this.schedule();
    this.statusChanged();
  }

  private async makeLive(trigger: TriggerRecord, sealed: string | null): Promise<void> {
    const carried = this.carried.get(trigger.id);
    const status: TriggerLiveStatus = {
      id: trigger.id,
      type: trigger.type,
      state: 'scheduled',
      url: null,
      folder: null,
      next: null,
      problem: null,
      lastFire: carried?.lastFire ?? null,
      deliveries: carried?.deliveries ?? [],
      waiting: 0,
    };
    const live: Live = {
      trigger,
      key: configKey(trigger, sealed),
      status,
      nextAt: null,
      watch: null,
      target: null,
      replay: null,
    };
    this.live.set(trigger.id, live);
    if (isTimed(trigger)) {
      const lastFire = status.lastFire ? new Date(status.lastFire.at) : null;
      live.nextAt = firstDue(trigger, lastFire);
      status.next = live.nextAt?.toISOString() ?? null;
      if (live.nextAt === null) {
        status.state = trigger.type === 'at' ? 'done' : 'problem';
        status.problem = trigger.type === 'at' ? null : 'this schedule has no next time';
        this.line(`${status.state} ${trigger.id}${status.problem ? ` ${status.problem}` : ''}`);
      } else this.line(`scheduled ${trigger.id} next ${status.next}`);
    } else if (trigger.type === 'webhook') {
      status.url = this.urlOf(trigger.id);
      if (sealed === null) {
        this.problem(live, 'armed without a signing secret: rotate its secret to receive deliveries');
        return;
      }
      try {
        const secret = await this.options.secretBox.decrypt(Buffer.from(sealed, 'base64'));
        live.target = { triggerId: trigger.id, secret, events: trigger.events };
        live.replay = replayKey(secret);
        status.state = 'listening';
        this.line(`listening ${trigger.id} ${status.url}`);
      } catch (error) {
        // A locked keychain keeps the secret intact: unlocking it is the fix, never a new secret.
        if (isSecretBoxLocked(error))
          this.problem(
            live,
            "the keychain holding its signing secret is locked or not answering: unlock it, then quit and start the app (or serve) again: the secret is unchanged, don't rotate it",
          );
        else
          this.problem(
            live,
            `its signing secret cannot be opened on this computer (${(error as Error).message}): rotate it`,
          );
      }
    } else if (trigger.type === 'file_watch') {
      status.folder = trigger.folder;
      if (trigger.folder === null) {
        this.problem(live, 'armed without a folder: pick one to watch');
        return;
      }
      status.state = 'watching';
      const timing = this.options.folderTiming ?? {};
      live.watch = new FolderWatch({
        folder: trigger.folder,
        dataDir: this.options.dataDir,
        recursive: trigger.recursive === true,
        clock: this.clock,
        ...timing,
        onBurst: (paths, more) =>
          this.fire(live, 'file_watch', { changed_paths: paths, ...(more > 0 ? { changed_paths_more: more } : {}) }),
        onProblem: (reason) => this.problem(live, reason),
        onResume: () => {
          if (this.live.get(trigger.id) !== live) return;
          status.state = 'watching';
          status.problem = null;
          this.line(`watching ${trigger.id} ${trigger.folder}`);
          this.statusChanged();
        },
      });
      await live.watch.start();
      if (live.watch.currentProblem === null) this.line(`watching ${trigger.id} ${trigger.folder}`);
    }
  }

  private problem(live: Live, reason: string): void {
    if (this.live.get(live.trigger.id) !== live) return;
    live.status.state = 'problem';
    live.status.problem = reason;
    this.line(`problem ${live.trigger.id} ${reason}`);
    this.record({ kind: 'trigger_problem', ...this.who(live.trigger), outcome: 'failed', detail: reason });
    this.statusChanged();
  }

  // ---- time --------------------------------------------------------------------------------

  private schedule(): void {
    if (this.timer !== null) this.clock.clearTimer(this.timer);
    this.timer = null;
    if (!this.running) return;
    const now = this.clock.now().getTime();
    let wait = MAX_SLEEP_MS;
    for (const live of this.live.values())
      if (live.nextAt) wait = Math.min(wait, Math.max(0, live.nextAt.getTime() - now));
    this.timer = this.clock.setTimer(() => {
      this.timer = null;
      this.tick();
    }, wait);
  }

  /** Fires every timed trigger that is due, once each, then sets the timer again. */
  tick(): void {
    if (!this.running) return;
    // A policy change is noticed within one timer wait (at most a minute): the triggers it holds or releases follow.
    if (readHostPolicy(this.options.policy).fingerprint !== this.policyFingerprint) void this.reload();
    const now = this.clock.now();
    if (now.getTime() < this.lastTick - 1_000) {
      // The clock was set back: count every next time again from the new now.
      for (const live of this.live.values()) {
        if (live.nextAt && live.trigger.type !== 'at') {
          live.nextAt = nextFireAfter(live.trigger, now);
          live.status.next = live.nextAt?.toISOString() ?? null;
        }
      }
      this.line(`clock set back to ${now.toISOString()}: next times counted again`);
    }
    this.lastTick = now.getTime();
    for (const live of this.live.values()) {
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
    this.schedule();
    this.statusChanged();
  }

  /** An `at` trigger fires once and is done: it is disarmed in the store. */
  private async finishAt(trigger: TriggerRecord): Promise<void> {
    const done = await this.store
      .update((state) => {
        const current = Object.hasOwn(state.triggers, trigger.id) ? state.triggers[trigger.id] : undefined;
        if (!current?.armed || current.type !== 'at' || current.at !== trigger.at)
          return { result: false, write: false };
        current.armed = false;
        current.armedAt = null;
        return { result: true };
      })
      .catch(() => false);
    if (done)
      this.record({ kind: 'disarm', ...this.who(trigger), outcome: 'ok', detail: `fired once at ${trigger.at}; done` });
  }

  // ---- firing ------------------------------------------------------------------------------

  private who(trigger: TriggerRecord): Pick<ActivityInput, 'package' | 'agent' | 'trigger'> {
    return {
      trigger: trigger.id,
      ...(trigger.packageName ? { package: trigger.packageName } : {}),
      ...(trigger.agentId ? { agent: trigger.agentId } : {}),
    };
  }

  /**
   * Fires `live` once: a run request, or a skip when its runs waiting are at the limit (a slot is reserved first, so
   * the limit holds while fires write in parallel). A schedule's or a folder's fire is recorded here; a webhook
   * delivery's is recorded once, by the intake, with the delivery (one entry per delivery, see {@link FireResult}).
   */
  private fire(live: Live, cause: RunCause, extra: Omit<RunInput, 'text'>, payload?: RunPayload): Promise<FireResult> {
    const at = this.clock.now().toISOString();
    return this.track(this.fireNow(live, at, cause, extra, payload));
  }

  private track<T>(work: Promise<T>): Promise<T> {
    const tracked = work.catch(() => undefined);
    this.firing.add(tracked);
    void tracked.then(() => this.firing.delete(tracked));
    return work;
  }

  private async firesDone(): Promise<void> {
    while (this.firing.size > 0) await Promise.all([...this.firing]);
  }

  private async fireNow(
    live: Live,
    at: string,
    cause: RunCause,
    extra: Omit<RunInput, 'text'>,
    payload?: RunPayload,
  ): Promise<FireResult> {
    const { trigger } = live;
    const result = await this.hand(trigger, at, cause, extra, payload);
    if (cause !== 'webhook') this.recordFire(trigger, at, cause, extra, result);
    live.status.lastFire = { at, cause, outcome: result.outcome, run: result.outcome === 'queued' ? result.run : null };
    this.statusChanged();
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
    const waiting = await this.waiting.reserve(trigger.id, limit);
    if (waiting !== null) {
      this.line(`skipped ${trigger.id} ${cause}: ${waiting} run(s) already waiting`);
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
      await this.runs.write(request);
    } catch (error) {
      this.waiting.done(trigger.id, false);
      this.line(`failed ${trigger.id} ${cause}: the run request could not be written`);
      return {
        outcome: 'failed',
        detail: `the run request could not be written: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      };
    }
    this.waiting.done(trigger.id, true);
    this.line(`fired ${trigger.id} ${cause} run ${request.id}`);
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
    const who = this.who(trigger);
    this.record({
      at,
      kind: 'trigger_fired',
      ...who,
      outcome: 'ok',
      detail: extra.changed_paths
        ? changedCount(extra.changed_paths.length + (extra.changed_paths_more ?? 0))
        : fireCauseWords(cause),
    });
    if (result.outcome === 'queued')
      this.record({ kind: 'run_queued', ...who, outcome: 'ok', detail: `run ${result.run} (${cause})` });
    else if (result.outcome === 'skipped')
      this.record({ kind: 'run_skipped', ...who, outcome: 'skipped', detail: result.detail });
    else this.record({ kind: 'run_queued', ...who, outcome: 'failed', detail: result.detail });
  }

  // ---- bookkeeping -------------------------------------------------------------------------

  private line(text: string): void {
    this.options.onLine?.(text);
  }

  /** Queues one activity event (bounded: see {@link ActivityQueue}). */
  private record(event: ActivityInput): void {
    this.activityQueue.record({ ...event, at: event.at ?? this.clock.now().toISOString() });
  }

  private statusChanged(): void {
    if (this.running) this.statusFile.changed();
  }

  private async loadCarried(): Promise<void> {
    const previous = await readHostStatusFile(this.options.dataDir);
    if (!previous) return;
    for (const [id, status] of Object.entries(previous.triggers)) this.carried.set(id, status);
  }
}

/** How many paths a watched folder's fire saw change, in words. */
function changedCount(count: number): string {
  return count === 1 ? '1 file changed' : `${count} files changed`;
}
