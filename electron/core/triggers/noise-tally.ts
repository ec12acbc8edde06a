/**
 * Refusals nobody signed for, counted: an unauthenticated caller chooses the path, the headers and
 * how often it calls, so what it sends is never kept, and one entry per cause per minute is all it
 * can add to the activity record (DESIGN.md "Triggers at run time": noise is aggregated, never
 * stored verbatim).
 *
 * A cause is the answer's fixed status and reason (never the caller's text) and the armed trigger
 * the address named, if any (a store id, not the caller's). Each minute's counts are written once
 * the minute is over (and when the host stops): `12 × 401 signature does not match, 10:04–10:05`.
 */
import type { HostClock } from './schedule';
import type { DeliveryAnswer } from './webhook-listener';

/** One counted cause over one minute. */
export interface NoiseSummary {
  trigger: string | null;
  status: number;
  reason: string;
  count: number;
  /** ISO time of the minute's start. */
  from: string;
}

/** Counts refusals per cause per minute; `flush` hands each minute's counts over once. */
export class NoiseTally {
  private minute = -1;
  private readonly counts = new Map<string, { trigger: string | null; answer: DeliveryAnswer; count: number }>();
  private timer: unknown = null;

  constructor(
    private readonly clock: HostClock,
    private readonly onSummary: (summary: NoiseSummary) => void,
  ) {}

  /** Counts one refusal. */
  count(trigger: string | null, answer: DeliveryAnswer): void {
    const now = this.clock.now().getTime();
    const minute = Math.floor(now / 60_000);
    if (minute !== this.minute) this.flush();
    this.minute = minute;
    const key = JSON.stringify([trigger, answer.status, answer.reason]);
    const entry = this.counts.get(key);
    if (entry) entry.count++;
    else this.counts.set(key, { trigger, answer: { status: answer.status, reason: answer.reason }, count: 1 });
    this.timer ??= this.clock.setTimer(
      () => {
        this.timer = null;
        this.flush();
      },
      (minute + 1) * 60_000 - now,
    );
  }

  /** Hands over the counts held (the minute so far) and starts afresh. */
  flush(): void {
    if (this.timer !== null) this.clock.clearTimer(this.timer);
    this.timer = null;
    const from = new Date(this.minute * 60_000).toISOString();
    const entries = [...this.counts.values()];
    this.counts.clear();
    for (const { trigger, answer, count } of entries)
      this.onSummary({ trigger, status: answer.status, reason: answer.reason, count, from });
  }
}
