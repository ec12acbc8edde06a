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
 * Survives a restart: each committed id is appended to `triggers/webhook-seen.jsonl` before the
 * delivery is answered; on load, lines outside the window are dropped and the file is rewritten.
 * (A crash between the run file and this line can queue a retried delivery twice: at least once,
 * never lost.)
 */
import { createHash } from 'node:crypto';
import { appendFileSync, closeSync, openSync, writeSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../store/atomic-file';

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

/** The replay store of one data folder. */
export class SeenIds {
  private readonly seen = new Map<string, number>();
  private readonly handling = new Set<string>();
  private appended = 0;
  private lines: string[] = [];
  private appending: Promise<void> | null = null;
  /** The appends, one after the other. */
  private writing: Promise<void> = Promise.resolve();
  /** The file's descriptor, open for appending (replaced by a rewrite, so closed then). */
  private fd: number | null = null;
  private closed = false;

  constructor(
    private readonly path: string,
    private readonly now: () => Date,
    private readonly max = SEEN_MAX,
  ) {}

  /** Loads the file, dropping what is outside the window (a missing or torn file is taken as it can be read). */
  async load(): Promise<void> {
    this.closed = false;
    let text = '';
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const floor = this.now().getTime() - SEEN_WINDOW_MS;
    for (const line of text.split('\n')) {
      const match = /^(\d{1,15}) (.+)$/.exec(line);
      if (!match) continue;
      const at = Number(match[1]);
      if (at >= floor) this.seen.set(match[2] as string, at);
    }
    await this.rewrite();
  }

  private async rewrite(): Promise<void> {
    this.closeFile();
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.path, [...this.seen].map(([key, at]) => `${at} ${key}\n`).join(''));
    this.appended = 0;
  }

  private prune(): void {
    const floor = this.now().getTime() - SEEN_WINDOW_MS;
    for (const [key, at] of this.seen) if (at < floor) this.seen.delete(key);
  }

  private static key(secretKey: string, webhookId: string): string {
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

  /**
   * The delivery's run is durable: the id is seen (in memory at once, then appended to the file;
   * the ids committed at the same time share one append).
   */
  async commit(secretKey: string, webhookId: string): Promise<void> {
    const key = SeenIds.key(secretKey, webhookId);
    const now = this.now().getTime();
    this.handling.delete(key);
    this.seen.set(key, now);
    this.lines.push(`${now} ${key}\n`);
    this.appending ??= this.append();
    await this.appending;
  }

  private async append(): Promise<void> {
    // Let the commits of the same turn join this append.
    await new Promise((resolve) => setImmediate(resolve));
    const text = this.lines.join('');
    const count = this.lines.length;
    this.lines = [];
    this.appending = null;
    // One append at a time, through one descriptor kept open. A blocking write: a few hundred bytes
    // into the page cache (no fsync) cost less than a round trip through libuv's pool.
    const write = this.writing.then(async () => {
      this.appendNow(text);
      this.appended += count;
      if (this.appended > this.max) {
        this.prune();
        await this.rewrite();
      }
    });
    this.writing = write.catch(() => undefined);
    await write;
  }

  private appendNow(text: string): void {
    if (this.closed) {
      appendFileSync(this.path, text, { mode: 0o600 });
      return;
    }
    this.fd ??= openSync(this.path, 'a', 0o600);
    const bytes = Buffer.from(text, 'utf8');
    for (let at = 0; at < bytes.length; ) at += writeSync(this.fd, bytes, at, bytes.length - at);
  }

  private closeFile(): void {
    const fd = this.fd;
    this.fd = null;
    if (fd !== null) closeSync(fd);
  }

  /** Closes the file once the appends under way are done (the host is stopping); later ones open it each time. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.appending) await this.appending;
    await this.writing;
    this.closeFile();
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
