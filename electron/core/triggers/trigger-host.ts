/**
 * The trigger host: makes armed triggers live for one data folder (DESIGN.md "Triggers at run
 * time"). Schedules fire at the times `shared/triggers/cron.ts` computes, watched folders are watched,
 * webhooks are received; each fire becomes a run request in `runs/pending/` and events in the
 * activity log (`trigger-fires.ts`, the fire path). This file is the host's lifecycle: start, stop,
 * the lock, the status file, and making triggers live (arming, re-arming). Plain Node: the app holds
 * one instance, `apollia-desktop serve` another (never both: `host-lock.ts`).
 *
 * - `reload()` re-reads the store and starts, stops or restarts exactly the triggers whose armed
 *   configuration changed; with `watchStore` (default) the host calls it itself whenever
 *   `state.json` is replaced, so arming, disarming, rotating, updating or uninstalling from the app
 *   or the CLI takes effect at once.
 * - Time: one timer, never longer than {@link MAX_SLEEP_MS}, so a clock jump or a sleep is noticed
 *   within a minute; at each tick `trigger-fires.ts` fires what is due, once each (missed times too).
 * - The live status of every trigger is kept in memory (`status()`) and written to
 *   `triggers/status.json` for the dashboard (see README).
 */
import { triggerHostWords } from '../../../shared/words/words';
import { DEFAULT_WEBHOOK_PORT } from '../../../shared/contract/api';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type ActivityInput, ActivityLog } from '../activity/activity-log';
import { noticePolicyChange, readHostPolicy } from '../policy/policy-effects';
import { FireGate } from './fire-gate';
import type { TriggerRecord } from '../store/state';
import { Store } from '../store/store';
import type { ActivityQueue } from './activity-queue';
import { FolderWatch } from './folder-watch';
import {
  agentArchived,
  configKey,
  type LiveTrigger,
  MAX_SLEEP_MS,
  SEEN_FILE,
  type TriggerHostOptions,
} from './host-config';
import { type StateFileWatch, watchStateFile } from './state-file-watch';
import {
  type CarriedStatus,
  carriedStatus,
  type HostStatus,
  StatusFileWriter,
  type TriggerLiveStatus,
} from './host-status';
import { takeHostLock } from './host-lock';
import { WaitingRuns } from './waiting-runs';
import type { JournalStats } from './intake-journal';
import { RunRequestWriter } from './run-requests';
import { firstDue, type HostClock, isTimed, systemClock } from './schedule';
import { activityWho, TriggerFires } from './trigger-fires';
import { replayKey, SEEN_WINDOW_MS } from './seen-ids';
import { WebhookIntake } from './webhook-intake';
import { WebhookListener, webhookPath } from './webhook-listener';
import { isSecretBoxLocked } from '../secrets/secret-box';
import { startActivityExport, stopActivityExport } from './activity-export';
import { hostActivityQueue } from './traffic-journal';

/** The port the listener binds when neither `port` nor Settings gives one (its home is `shared/contract/api.ts`). */
export { DEFAULT_WEBHOOK_PORT };
export { MAX_ACTIVITY_BACKLOG } from './activity-queue';
export { readHostStatusFile, STATUS_DELIVERIES, STATUS_FILE } from './host-status';
export { QUEUE_FULL_RETRY_AFTER_S } from './webhook-intake';
export type { DeliveryStatus, FireStatus, HostStatus, TriggerLiveStatus } from './host-status';
export { DEFAULT_MAX_WAITING, LATE_MS, MAX_SLEEP_MS, SEEN_FILE, type TriggerHostOptions } from './host-config';

/** The trigger host of one data folder. */
export class TriggerHost {
  private readonly store: Store;
  private readonly clock: HostClock;
  private readonly listener: WebhookListener;
  private readonly intake: WebhookIntake;
  private readonly live = new Map<string, LiveTrigger>();
  /** Last fires carried over from the previous status file (a restart does not forget them). */
  private readonly carried = new Map<string, CarriedStatus>();
  private release: (() => Promise<void>) | null = null;
  private timer: unknown = null;
  private lastTick = 0;
  private storeWatcher: StateFileWatch | null = null;
  private reloading: Promise<void> = Promise.resolve();
  /** The fire path: every fire becomes a run or a skip there, tracked for `settled` and `stop`. */
  private readonly fires: TriggerFires;
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
  private personCollector: string | null = null; // the person's collector for the record, as the last reload read it
  private readonly gate: FireGate;

  constructor(private readonly options: TriggerHostOptions) {
    // The host's own commits (an `at` done, the integrity pause) record through the store (DESIGN.md "Commit points").
    this.store = new Store(options.dataDir, {
      record: new ActivityLog(options.dataDir, { now: () => this.clock.now() }),
    });
    this.gate = new FireGate({
      dataDir: options.dataDir,
      store: this.store,
      policy: options.policy,
      record: (event) => this.record(event),
      line: (text) => this.line(text),
    });
    this.clock = options.clock ?? systemClock;
    this.waiting = new WaitingRuns(options.dataDir);
    this.runs = new RunRequestWriter(options.dataDir, {
      now: () => this.clock.now().getTime(),
      seenWindowMs: SEEN_WINDOW_MS,
      ...(options.journalTrimBytes !== undefined ? { trimBytes: options.journalTrimBytes } : {}),
      ...(options.runFileFaults ? { faults: options.runFileFaults } : {}),
      onProblem: (text) => this.line(text),
      onFiled: (trigger) => this.waiting.filed(trigger),
      onQueued: (trigger) => this.waiting.queued(trigger),
    });
    this.statusFile = new StatusFileWriter(options.dataDir, () => this.status());
    this.activityQueue = hostActivityQueue(options, this.runs.journal, this.clock, (text) => this.line(text));
    this.fires = new TriggerFires({
      clock: this.clock,
      store: this.store,
      waiting: this.waiting,
      runs: this.runs,
      record: (event) => this.record(event),
      line: (text) => this.line(text),
      statusChanged: () => this.statusChanged(),
      held: (trigger) => this.gate.held(trigger),
    });
    this.intake = new WebhookIntake(
      {
        clock: this.clock,
        live: (id) => this.live.get(id),
        lives: () => this.live.values(),
        fire: (live, cause, extra, payload) => this.fires.fire(live, cause, extra, payload),
        record: (event) => this.record(event),
        line: (text) => this.line(text),
        statusChanged: () => this.statusChanged(),
        who: activityWho,
        journal: this.runs,
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
      // The journal first: the runs it holds are made and its seen ids restored before any delivery.
      const journal = await this.runs.open();
      // Traffic the journal committed that traffic.jsonl lacks is appended before anything else is recorded.
      await this.activityQueue.recover();
      await this.intake.load(journal.seen);
      for (const [id, status] of await carriedStatus(this.options.dataDir, journal.fires)) this.carried.set(id, status);
      // The organization's webhook port wins over the one asked for (`serve --port`) and over Settings.
      const fixed = readHostPolicy(this.options.policy).view.effective?.webhookPort ?? null;
      this.boundFor = fixed ?? this.options.port ?? (await this.settingsPort());
      await this.listener.start(this.boundFor);
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
    startActivityExport(this, this.options, () => this.personCollector);
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
    await this.fires.settled();
    this.intake.close();
    this.record({
      kind: 'host_stopped',
      outcome: 'ok',
      detail: `${triggerHostWords('stopped')} (process ${process.pid})`,
    });
    await this.activityQueue.settled();
    await this.runs.close(); // after the last entries: traffic is committed in the journal
    await stopActivityExport(this);
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

  /** The intake journal's counters (batches synced, records in them, failed syncs, trims): the bench prints them. */
  intakeStats(): JournalStats {
    return { ...this.runs.journal.stats };
  }

  /** Waits until every fire, activity event and status write started so far is done (tests, `serve`). */
  async settled(): Promise<void> {
    await this.reloading;
    await this.fires.settled();
    await this.runs.settled();
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
    this.personCollector = state.settings.activityCollector;
    // The organization's policy on top of what the person armed: a kind it does not allow stays armed in the store but
    // is not made live; an unreadable policy pauses every trigger.
    const { view: policy, fingerprint } = readHostPolicy(this.options.policy);
    this.policyFingerprint = fingerprint;
    await noticePolicyChange(this.options.dataDir, state, policy, async (events) =>
      events.forEach((event) => this.record(event)),
    ).catch((error: unknown) =>
      this.line(`problem the policy change could not be recorded: ${(error as Error).message}`),
    );
    // Integrity: every package hashed at the host's start and periodically, else what was installed since.
    await this.gate.refresh(state, this.gate.due(this.clock.now().getTime()), this.clock.now().getTime());
    // The policy's port first (DESIGN.md "Managed policy"), then the one the host was started on, then Settings'.
    const port =
      policy.effective?.webhookPort ?? this.options.port ?? state.settings.webhookPort ?? DEFAULT_WEBHOOK_PORT;
    if (port !== this.boundFor && (port === 0 || port !== this.listener.port)) await this.rebind(port);
    const wanted = new Map<string, { trigger: TriggerRecord; sealed: string | null }>();
    for (const trigger of Object.values(state.triggers)) {
      if (!trigger.armed || agentArchived(state, trigger)) continue;
      // Paused by the policy (its kind, its package withheld whole) or by integrity: armed, not live.
      if (this.gate.heldNow(policy, trigger) !== null) continue;
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
    const live: LiveTrigger = {
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
          this.fires.fire(live, 'file_watch', {
            changed_paths: paths,
            ...(more > 0 ? { changed_paths_more: more } : {}),
          }),
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

  private problem(live: LiveTrigger, reason: string): void {
    if (this.live.get(live.trigger.id) !== live) return;
    live.status.state = 'problem';
    live.status.problem = reason;
    this.line(`problem ${live.trigger.id} ${reason}`);
    this.record({ kind: 'trigger_problem', ...activityWho(live.trigger), outcome: 'failed', detail: reason });
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
    else
      void this.gate.periodic(this.clock.now().getTime()).then(
        (changed) => (changed ? this.reload() : undefined),
        (error: unknown) =>
          this.line(`problem the installed files could not be re-hashed: ${(error as Error).message}`),
      );
    const now = this.clock.now();
    this.fires.fireDue(this.live, now, this.lastTick);
    this.lastTick = now.getTime();
    this.schedule();
    this.statusChanged();
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
}
