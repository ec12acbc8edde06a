/**
 * The webhook replay guard: the `webhook-id`s already delivered, per signing secret, for as long as
 * a delivery with that id could still pass the timestamp check (Standard Webhooks: five minutes
 * either way, so ten minutes are kept, plus a margin).
 *
 * Keyed by the secret, not the trigger: the signature does not cover the URL, so a delivery
 * captured for one trigger verifies on any other trigger holding the same secret, and must be a
 * replay there too. The key is a hash of the secret ({@link replayKey}), never the secret.
 *
 * An id counts as seen only once its run is durable: {@link SeenIds.claim} holds it while the
 * delivery is handled (a second delivery with that id meanwhile is told to try again), then
 * {@link SeenIds.commit} records it, or {@link SeenIds.release} forgets it when the run could not be
 * queued, so the sender's retry is accepted.
 *
 * Bounded: at most `max` ids are held. When full, ids older than the window are dropped first;
 * if every held id is still inside the window, the new delivery is refused as busy rather than
 * dropping an id that could then be replayed (a flood cannot buy a replay).
 *
 * Held in memory here; durable in the intake journal (`intake-journal.ts`), in the same record as
 * the run the delivery queued, so seen and queued never disagree; {@link SeenIds.restore} takes
 * them back at start. The file of an earlier version (`triggers/webhook-seen.jsonl`) is read once
 * by {@link readLegacySeen}, carried into the journal, and removed.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

/** How long an id is remembered: twice the five-minute tolerance, plus one minute. */
export const SEEN_WINDOW_MS = 11 * 60_000;
/** Most ids held at once. */
export const SEEN_MAX = 20_000;

/** The outcome of {@link SeenIds.claim}: `busy` when a delivery with this id is being handled now. */
export type Claim = 'new' | 'replay' | 'busy' | 'full';

/** The replay key of a signing secret: a hash, so the file never holds the secret. */
export function replayKey(secret: string): string {
  return createHash('sha256').update(`apollia replay key\0${secret}`).digest('hex').slice(0, 32);
}

/** The ids of an earlier version's replay file (`<ms> <key>` lines) still inside the window; none when missing. */
export async function readLegacySeen(path: string, now: number): Promise<{ key: string; at: number }[]> {
  let text = '';
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const kept: { key: string; at: number }[] = [];
  for (const line of text.split('\n')) {
    const match = /^(\d{1,15}) (.+)$/.exec(line);
    if (match && Number(match[1]) >= now - SEEN_WINDOW_MS) kept.push({ key: match[2] as string, at: Number(match[1]) });
  }
  return kept;
}

/** The replay store of one host, in memory (durable in the intake journal). */
export class SeenIds {
  private readonly seen = new Map<string, number>();
  private readonly handling = new Set<string>();

  constructor(
    private readonly now: () => Date,
    private readonly max = SEEN_MAX,
  ) {}

  /** Takes back ids the journal holds (at start); those outside the window are dropped. */
  restore(marks: Iterable<{ k: string; id: string; at: number }>): void {
    const floor = this.now().getTime() - SEEN_WINDOW_MS;
    for (const mark of marks) if (mark.at >= floor) this.seen.set(SeenIds.key(mark.k, mark.id), mark.at);
  }

  private prune(): void {
    const floor = this.now().getTime() - SEEN_WINDOW_MS;
    for (const [key, at] of this.seen) if (at < floor) this.seen.delete(key);
  }

  /** The store's key of one id under one replay key (also the form of an earlier version's file). */
  static key(secretKey: string, webhookId: string): string {
    return JSON.stringify([secretKey, webhookId]);
  }

  /**
   * Holds `webhookId` under `secretKey` while its delivery is handled: `new` (now held: commit or
   * release it), `replay` (delivered inside the window), `busy` (being handled), `full`.
   */
  claim(secretKey: string, webhookId: string): Claim {
    const key = SeenIds.key(secretKey, webhookId);
    const at = this.seen.get(key);
    if (at !== undefined && at >= this.now().getTime() - SEEN_WINDOW_MS) return 'replay';
    if (this.handling.has(key)) return 'busy';
    if (this.seen.size + this.handling.size >= this.max) this.prune();
    if (this.seen.size + this.handling.size >= this.max) return 'full';
    this.handling.add(key);
    return 'new';
  }

  /** The delivery's journal record is synced: the id is seen (at `at`, default now). */
  commit(secretKey: string, webhookId: string, at = this.now().getTime()): void {
    const key = SeenIds.key(secretKey, webhookId);
    this.handling.delete(key);
    this.seen.set(key, at);
  }

  /** The delivery was not queued: the id is not seen, and a retry is a new delivery. */
  release(secretKey: string, webhookId: string): void {
    this.handling.delete(SeenIds.key(secretKey, webhookId));
  }

  /** How many ids are held (for tests and the status). */
  get size(): number {
    return this.seen.size;
  }
}
