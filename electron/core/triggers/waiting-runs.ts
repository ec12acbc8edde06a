/**
 * How many runs each trigger has waiting, kept without reading `runs/pending/` at every fire: the
 * folder is read on reload, in the background once the count is a second old, and whenever a
 * trigger is at its limit (the runtime may have taken some since); in between, the runs this host
 * queued are counted as they are queued. A run waits from the moment its journal record is synced
 * (the 2xx), not from when its file is made: a run journaled but not yet filed (its file is made off
 * the answer's path) is counted as `unfiled` until its file is renamed into `runs/pending/`, then as
 * written since the last read. A slot is reserved before the journal append, so fires write in
 * parallel and the limit still holds. A run filed while the folder is being read may be counted
 * twice: between fires the count errs high, never low, so no run is taken over the limit.
 *
 * At the limit, the folder is read afresh (a read begun after the fire arrived), unless the runs in
 * flight alone fill it (a read cannot free their slots, only their filings can, and reading the
 * folder while the writer makes their files slows the writer: a hold that read every few
 * milliseconds starved it, 0.09× against 0.21× with the stand-in runtime polling each millisecond), and a fire is
 * refused at once only against a real backlog counted exactly: as many files in `runs/pending/` as
 * the limit, the runtime not taking them (no read within {@link WAITING_HOLD_MS} found fewer of the
 * trigger's files than were there before: a runtime that is taking them frees a slot soon, and the
 * fire is held), no run filed during that read, and no run of the trigger
 * journaled and not yet told filed (its file is renamed in on the writer's thread and this host told
 * after, so the read may have found it: counted there and as unfiled, it would count twice). Else the
 * folder is read again. When some of the runs counted are in flight (a slot reserved, or journaled
 * and its file not made yet), the fire is held instead, the folder read again every
 * {@link WAITING_RECHECK_MS}, for at most {@link WAITING_HOLD_MS}: a runtime that takes runs as they
 * come frees slots within milliseconds, and a burst faster than the files are made is not answered
 * 429 for runs the runtime would have taken. At most {@link WAITING_HOLD_MAX} fires of one trigger are held at once
 * (each keeps a hand-off slot at the door while it waits); one more is refused at once.
 */
import { type PendingRuns, pendingRuns } from './run-requests';

/** Reads what `runs/pending/` holds (a seam for tests, which hold a read to file runs during it). */
export type ReadPending = (dataDir: string) => Promise<PendingRuns>;

/** A count older than this is read again in the background at the next fire. */
export const WAITING_STALE_MS = 1_000;
/** Longest a fire at the limit is held while runs are in flight (then refused). */
export const WAITING_HOLD_MS = 1_000;
/** How often a held fire reads the folder again. */
export const WAITING_RECHECK_MS = 5;
/**
 * Most fires of one trigger held at once; one more at the limit is refused at once. Each held fire keeps one of the
 * door's hand-off slots (`webhook-listener.ts` `maxInFlight`, 32) while it waits, so a trigger whose runtime lags can
 * hold a quarter of them at most: the deliveries of the other triggers still find a slot (not a 503).
 */
export const WAITING_HOLD_MAX = 8;

const add = (map: Map<string, number>, key: string, n: number) => {
  const value = (map.get(key) ?? 0) + n;
  if (value <= 0) map.delete(key);
  else map.set(key, value);
};

/** The runs waiting of one data folder, as this host counts them. */
export class WaitingRuns {
  private snapshot: PendingRuns = { total: 0, oldest: null, byTrigger: new Map() };
  private readAt = Number.NEGATIVE_INFINITY;
  /** Runs written since the last read of the folder started. */
  private since = new Map<string, number>();
  /** While a read runs: the runs written before it started (in what it will find, not yet in the snapshot). */
  private carried = new Map<string, number>();
  /** Slots reserved, their journal records being written. */
  private writing = new Map<string, number>();
  /** Fires held at the limit, by trigger (at most {@link WAITING_HOLD_MAX} each). */
  private readonly holding = new Map<string, number>();
  /** Runs journaled (durable, answered) whose files are not in `runs/pending/` yet; signed, see {@link filed}. */
  private unfiled = new Map<string, number>();
  private reading: Promise<void> | null = null;
  /** How many runs were filed so far, and whether one was filed during the last read (that read may have seen it). */
  private filings = 0;
  private lastReadContested = false;
  /** When a read last found fewer of a trigger's files than the one before it and the filings since left: taken. */
  private readonly takenAt = new Map<string, number>();
  /** The runs filed while the last read ran (it may have found their files). */
  private filedDuringRead = new Map<string, number>();

  constructor(
    private readonly dataDir: string,
    private readonly read: ReadPending = pendingRuns,
  ) {}

  /** What waits: the last read of the folder plus what was written since. */
  get view(): PendingRuns {
    const byTrigger = new Map(this.snapshot.byTrigger);
    let total = this.snapshot.total;
    for (const map of [this.carried, this.since, this.unfiled]) {
      for (const [id, n] of map) {
        add(byTrigger, id, n);
        total += n;
      }
    }
    return { total, oldest: this.snapshot.oldest, byTrigger };
  }

  /**
   * Reads the folder again (one read at a time; a read already going is joined). A folder that cannot be read keeps the
   * count.
   */
  refresh(): Promise<void> {
    if (this.reading) return this.reading;
    // Counted as `carried` until the read's snapshot replaces the old one, so the count never dips meanwhile.
    this.carried = this.since;
    this.since = new Map();
    const started = performance.now();
    const filingsAtStart = this.filings;
    this.reading = this.read(this.dataDir)
      .then((read) => {
        // Files the last read found, or filed before this one began, that this one did not: the runtime took them.
        // (A file filed during the last read may be in both its count and `carried`: counted once.)
        for (const trigger of new Set([...this.snapshot.byTrigger.keys(), ...this.carried.keys()])) {
          const before =
            (this.snapshot.byTrigger.get(trigger) ?? 0) +
            (this.carried.get(trigger) ?? 0) -
            (this.filedDuringRead.get(trigger) ?? 0);
          if ((read.byTrigger.get(trigger) ?? 0) < before) this.takenAt.set(trigger, started);
        }
        this.snapshot = read;
        this.filedDuringRead = new Map(this.since);
        this.readAt = started;
        this.lastReadContested = this.filings !== filingsAtStart;
      })
      .catch(() => {
        for (const [id, n] of this.carried) add(this.since, id, n);
      })
      .finally(() => {
        this.carried = new Map();
        this.reading = null;
      });
    return this.reading;
  }

  /**
   * A read that starts after this call: a read already going is waited for, then a new one starts (or is joined, if
   * another caller started it meanwhile). A read that began before a run was filed may find its file and count it
   * twice (in the read and in `since`); one begun after sees the folder as it is now.
   */
  private async freshRead(): Promise<void> {
    if (this.reading) await this.reading.catch(() => undefined);
    await this.refresh();
  }

  /** The runs `trigger` has waiting or being written. */
  private count(trigger: string): number {
    return (
      (this.snapshot.byTrigger.get(trigger) ?? 0) +
      (this.carried.get(trigger) ?? 0) +
      (this.since.get(trigger) ?? 0) +
      (this.writing.get(trigger) ?? 0) +
      (this.unfiled.get(trigger) ?? 0)
    );
  }

  /** The runs of `trigger` known to be files in `runs/pending/` (the count without the runs in flight). */
  private filedCount(trigger: string): number {
    return this.count(trigger) - (this.writing.get(trigger) ?? 0) - (this.unfiled.get(trigger) ?? 0);
  }

  /**
   * Reserves a slot for one run of `trigger` when fewer than `limit` wait: `null`, then call
   * {@link done}; else the number waiting (nothing reserved). At the limit with runs in flight, it
   * holds (see the module comment), unless {@link WAITING_HOLD_MAX} fires of the trigger are held already.
   */
  async reserve(trigger: string, limit: number): Promise<number | null> {
    if (performance.now() - this.readAt > WAITING_STALE_MS) void this.refresh();
    const until = performance.now() + WAITING_HOLD_MS;
    let held = false;
    try {
      for (;;) {
        // At the limit the folder is read afresh: a read joined midway, or one a run was filed during, may count high.
        let exact = false;
        // A read can free only the slots of runs counted as files (the runtime may have taken them); when the runs in
        // flight fill the limit alone, only their filings free one, and a read would only keep the folder busy while
        // the writer makes their files.
        const count = this.count(trigger);
        if (count >= limit && count - this.filedCount(trigger) < limit) {
          await this.freshRead();
          // A run journaled and not yet told filed may be in the folder already (its file is renamed in on the
          // writer's thread, and this host told after): the read counted it, and so does `unfiled`. Exact once each
          // is told.
          exact = !this.lastReadContested && !this.unfiled.has(trigger);
        }
        const waiting = this.count(trigger);
        if (waiting < limit) {
          add(this.writing, trigger, 1);
          return null;
        }
        // Refused at once only on an exact count of files in the folder; a count that may be high is read again.
        // A runtime seen taking this trigger's runs within the hold frees a slot soon: the fire is held, not refused.
        const taking = performance.now() - (this.takenAt.get(trigger) ?? Number.NEGATIVE_INFINITY) < WAITING_HOLD_MS;
        if ((exact && !taking && this.filedCount(trigger) >= limit) || performance.now() >= until) return waiting;
        if (!held) {
          // As many of this trigger's fires held as may be: refused at once, its slot at the door left to others.
          if ((this.holding.get(trigger) ?? 0) >= WAITING_HOLD_MAX) return waiting;
          add(this.holding, trigger, 1);
          held = true;
        }
        await new Promise((resolve) => setTimeout(resolve, WAITING_RECHECK_MS));
      }
    } finally {
      if (held) add(this.holding, trigger, -1);
    }
  }

  /** The reserved run of `trigger` was journaled (counted as waiting, unfiled until {@link filed}) or not (freed). */
  done(trigger: string, written: boolean): void {
    add(this.writing, trigger, -1);
    if (written) addSigned(this.unfiled, trigger, 1);
  }

  /** A run the journal holds whose file is still to be made (one remade at start): waiting, unfiled. */
  queued(trigger: string): void {
    addSigned(this.unfiled, trigger, 1);
  }

  /**
   * The file of a journaled run of `trigger` was renamed into `runs/pending/`: from here a read of the folder finds it.
   * Signed: were it told before {@link done}, the two still cancel out.
   */
  filed(trigger: string): void {
    this.filings++;
    addSigned(this.unfiled, trigger, -1);
    add(this.since, trigger, 1);
  }
}

/** Adds `n` to a count that may be below zero for a moment (removed only at zero). */
function addSigned(map: Map<string, number>, key: string, n: number): void {
  const value = (map.get(key) ?? 0) + n;
  if (value === 0) map.delete(key);
  else map.set(key, value);
}
