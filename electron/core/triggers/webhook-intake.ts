/**
 * What the host does with what reaches its webhook listener (DESIGN.md "Triggers at run time"): a
 * verified delivery becomes a run request, answered 2xx only once its intake journal record is synced
 * (`intake-journal.ts`); its webhook-id rides in that record and counts as seen only then
 * (`seen-ids.ts`, keyed by the secret); a full queue is a 429
 * with `Retry-After`; everything nobody signed for is counted, not kept (`noise-tally.ts`).
 */
import { deliveryWords } from '../../../shared/words/words';
import { unlink } from 'node:fs/promises';
import type { ActivityInput } from '../activity/activity-log';
import type { TriggerRecord } from '../store/state';
import type { FireResult, LiveTrigger } from './host-config';
import { NoiseTally, type NoiseSummary } from './noise-tally';
import type { RunCause, RunInput, RunPayload } from './run-requests';
import type { HostClock } from './schedule';
import type { SeenMark } from './intake-journal';
import { readLegacySeen, SeenIds } from './seen-ids';
import { STATUS_DELIVERIES } from './host-status';
import type { DeliveryAnswer, VerifiedDelivery, WebhookTarget } from './webhook-listener';

/**
 * An answer in the activity record's words: what it meant to the person first, the sender's reason
 * and the HTTP status after it (`Refused: not signed right — signature does not match (HTTP 401)`).
 */
function answerWords(answer: { status: number; reason: string }): string {
  const words = deliveryWords(answer.status);
  // "Ignored — ignored: …" says it twice: a reason that already starts with the words stands alone.
  const said = answer.reason.toLowerCase().startsWith(words.toLowerCase()) ? '' : `${words} — `;
  return `${said}${answer.reason} (HTTP ${answer.status})`;
}

/** How long a sender is asked to wait when the trigger's queue is full (seconds). */
export const QUEUE_FULL_RETRY_AFTER_S = 60;

/** What the intake needs of its host. */
export interface IntakeHost {
  readonly clock: HostClock;
  live(id: string): LiveTrigger | undefined;
  lives(): Iterable<LiveTrigger>;
  /** Hands a delivery on as a run; the intake records it, with the delivery, as one entry. */
  fire(live: LiveTrigger, cause: RunCause, extra: Omit<RunInput, 'text'>, payload?: RunPayload): Promise<FireResult>;
  record(event: ActivityInput): void;
  line(text: string): void;
  statusChanged(): void;
  who(trigger: TriggerRecord): Pick<ActivityInput, 'package' | 'agent' | 'trigger'>;
  /** The run writer's journal: a run's seen id rides in its record (`tagSeen`), an ignored delivery's alone. */
  readonly journal: {
    tagSeen(payload: RunPayload, replay: string): void;
    seenOnly(mark: SeenMark): Promise<void>;
  };
}

/** The webhook intake of one host: replay store, hand-off, counted refusals, the shared-secret warning. */
export class WebhookIntake {
  private readonly seen: SeenIds;
  private readonly noise: NoiseTally;
  /** The groups of triggers last warned about for sharing one secret (so a reload does not warn again). */
  private sharedWarned = '';

  constructor(
    private readonly host: IntakeHost,
    private readonly legacySeenPath: string,
  ) {
    this.seen = new SeenIds(() => host.clock.now());
    this.noise = new NoiseTally(host.clock, (summary) => this.noiseSummary(summary));
  }

  /**
   * Takes back the seen ids the journal held at start; an earlier version's replay file is carried into the journal
   * (its ids still inside the window), then removed.
   */
  async load(marks: SeenMark[]): Promise<void> {
    this.seen.restore(marks);
    const legacy = await readLegacySeen(this.legacySeenPath, this.host.clock.now().getTime());
    const carried: SeenMark[] = [];
    for (const { key, at } of legacy) {
      const parsed: unknown = JSON.parse(key);
      if (Array.isArray(parsed) && typeof parsed[0] === 'string' && typeof parsed[1] === 'string')
        carried.push({ k: parsed[0], id: parsed[1], at });
    }
    await Promise.all(carried.map((mark) => this.host.journal.seenOnly(mark)));
    this.seen.restore(carried);
    await unlink(this.legacySeenPath).catch(() => undefined);
  }

  /** Writes the counts held so far (the host is stopping). */
  close(): void {
    this.noise.flush();
  }

  /**
   * A verified delivery: never answered 2xx unless its run file is durable (or the trigger's
   * `events` filter ignores it). The webhook-id is held while this runs and counts as seen only
   * once the run is written; a full queue (429) or a failed write (503) forgets it, so the
   * sender's retry is taken.
   */
  async deliver(target: WebhookTarget, delivery: VerifiedDelivery): Promise<DeliveryAnswer> {
    const live = this.host.live(target.triggerId);
    if (!live || live.target !== target || live.replay === null) {
      const answer = { status: 401, reason: 'signature does not match' };
      this.refused(null, answer);
      return answer;
    }
    const key = live.replay;
    const claim = this.seen.claim(key, delivery.webhookId);
    if (claim === 'replay')
      return this.counted(live, { status: 409, reason: 'replay: this webhook-id was already delivered' });
    if (claim === 'busy')
      return this.counted(live, {
        status: 503,
        reason: 'a delivery with this webhook-id is being handled; try again',
        retryAfter: 1,
      });
    if (claim === 'full')
      return this.counted(live, {
        status: 503,
        reason: 'too many deliveries in the last minutes; try again',
        retryAfter: 30,
      });
    try {
      if (target.events !== null && (delivery.type === null || !target.events.includes(delivery.type))) {
        const reason = `ignored: event type ${delivery.type === null ? '(none)' : `\`${delivery.type}\``} is not one this trigger takes (${target.events.join(', ')})`;
        await this.commitSeen(key, delivery.webhookId);
        return this.delivered(live, { status: 200, reason }, 'delivery_refused', 'skipped');
      }
      const payload: RunPayload = {
        untrusted: true,
        webhook_id: delivery.webhookId,
        type: delivery.type,
        body: delivery.body,
      };
      // The id counts as seen in the run's own journal record, synced before the 202.
      this.host.journal.tagSeen(payload, key);
      const fired = await this.host.fire(live, 'webhook', {}, payload);
      const id = delivery.webhookId;
      if (fired.outcome === 'queued') {
        this.seen.commit(key, id);
        return this.delivered(
          live,
          { status: 202, reason: 'queued' },
          'delivery_accepted',
          'ok',
          `webhook-id ${id}: run ${fired.run} queued`,
        );
      }
      this.seen.release(key, id);
      if (fired.outcome === 'skipped')
        return this.delivered(
          live,
          {
            status: 429,
            reason: 'this trigger already has its most runs waiting; try again later',
            retryAfter: QUEUE_FULL_RETRY_AFTER_S,
          },
          'delivery_refused',
          'skipped',
          `webhook-id ${id}: not queued, ${fired.detail}; the sender was told to retry`,
        );
      return this.delivered(
        live,
        { status: 503, reason: 'the delivery could not be queued; try again', retryAfter: 5 },
        'delivery_refused',
        'failed',
        `webhook-id ${id}: ${fired.detail}; the sender was told to retry`,
      );
    } catch (error) {
      this.seen.release(key, delivery.webhookId);
      throw error;
    }
  }

  /**
   * Marks an ignored delivery's id seen (a journal record of its own); one that cannot be written is reported and
   * not seen (a replay of it is ignored again: no run either way).
   */
  private async commitSeen(key: string, webhookId: string): Promise<void> {
    const at = this.host.clock.now().getTime();
    try {
      await this.host.journal.seenOnly({ k: key, id: webhookId, at });
      this.seen.commit(key, webhookId, at);
    } catch (error) {
      this.seen.release(key, webhookId);
      this.host.line(`problem the replay store could not be written: ${(error as Error).message}`);
    }
  }

  /** A delivery's answer kept in the trigger's live status and the activity record. */
  private delivered(
    live: LiveTrigger,
    answer: DeliveryAnswer,
    kind: 'delivery_accepted' | 'delivery_refused',
    outcome: 'ok' | 'refused' | 'skipped' | 'failed',
    detail?: string,
  ): DeliveryAnswer {
    this.statusDelivery(live, answer);
    this.host.record({
      kind,
      ...this.host.who(live.trigger),
      outcome,
      detail: detail ?? answerWords(answer),
    });
    this.host.line(
      `${kind === 'delivery_accepted' ? 'delivery' : 'refused'} ${live.trigger.id} ${answer.status} ${answer.reason}`,
    );
    return answer;
  }

  /** An answer that is counted (a replay, a busy store), not recorded one by one. */
  private counted(live: LiveTrigger, answer: DeliveryAnswer): DeliveryAnswer {
    this.refused(live.trigger.id, answer);
    return answer;
  }

  private statusDelivery(live: LiveTrigger, answer: DeliveryAnswer): void {
    live.status.deliveries = [
      { at: this.host.clock.now().toISOString(), status: answer.status, reason: answer.reason },
      ...live.status.deliveries,
    ].slice(0, STATUS_DELIVERIES);
    this.host.statusChanged();
  }

  /**
   * A refusal nobody signed for: shown on the armed trigger's status, counted in the record (see {@link NoiseTally}).
   */
  refused(triggerId: string | null, answer: DeliveryAnswer): void {
    const live = triggerId === null ? null : (this.host.live(triggerId) ?? null);
    const known = live?.target ? live : null;
    if (known) this.statusDelivery(known, answer);
    this.noise.count(known ? known.trigger.id : null, answer);
  }

  private noiseSummary(summary: NoiseSummary): void {
    const live = summary.trigger === null ? null : (this.host.live(summary.trigger) ?? null);
    const detail = `${summary.count} × ${answerWords(summary)}, in the minute from ${summary.from.slice(11, 16)} UTC (counted, not kept one by one)`;
    this.host.record({
      kind: 'delivery_refused',
      ...(live ? this.host.who(live.trigger) : summary.trigger ? { trigger: summary.trigger } : {}),
      outcome: 'refused',
      detail,
    });
    this.host.line(`refused ${summary.trigger ?? '-'} ${summary.count} × ${summary.status} ${summary.reason}`);
  }

  /**
   * One secret on two live triggers: a delivery for one is a replay on the other (the replay store
   * is keyed by the secret) and either sender can start the other's trigger. Said once per change,
   * on the host's lines and in the activity record.
   */
  warnSharedSecrets(): void {
    const bySecret = new Map<string, string[]>();
    for (const live of this.host.lives())
      if (live.replay !== null) bySecret.set(live.replay, [...(bySecret.get(live.replay) ?? []), live.trigger.id]);
    const groups = [...bySecret.values()].filter((ids) => ids.length > 1).map((ids) => ids.sort());
    const key = JSON.stringify(groups.sort());
    if (key === this.sharedWarned) return;
    this.sharedWarned = key;
    for (const ids of groups) {
      const detail = `one signing secret is set on ${ids.length} triggers (${ids.join(', ')}): either sender can start the other trigger, and a delivery for one is refused on the other as a replay; give each trigger its own secret`;
      this.host.line(`warning ${detail}`);
      for (const id of ids) {
        const live = this.host.live(id);
        if (live)
          this.host.record({ kind: 'trigger_problem', ...this.host.who(live.trigger), outcome: 'skipped', detail });
      }
    }
  }
}
