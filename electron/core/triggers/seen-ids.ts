/**
 * The webhook replay guard: the `webhook-id`s already accepted, per trigger, for as long as a
 * delivery with that id could still pass the timestamp check (Standard Webhooks: five minutes
 * either way, so ten minutes are kept, plus a margin).
 *
 * Bounded: at most `max` ids are held. When full, ids older than the window are dropped first;
 * if every held id is still inside the window, the new delivery is refused as busy rather than
 * dropping an id that could then be replayed (a flood cannot buy a replay).
 *
 * Survives a restart: each accepted id is appended to `triggers/webhook-seen.jsonl` before the
 * delivery is answered; on load, lines outside the window are dropped and the file is rewritten.
 */
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../store/atomic-file';

/** How long an id is remembered: twice the five-minute tolerance, plus one minute. */
export const SEEN_WINDOW_MS = 11 * 60_000;
/** Most ids held at once. */
export const SEEN_MAX = 20_000;

/** The outcome of {@link SeenIds.admit}. */
export type Admission = 'new' | 'replay' | 'full';

/** The replay store of one data folder. */
export class SeenIds {
  private readonly seen = new Map<string, number>();
  private appended = 0;

  constructor(
    private readonly path: string,
    private readonly now: () => Date,
    private readonly max = SEEN_MAX,
  ) {}

  /** Loads the file, dropping what is outside the window (a missing or torn file is taken as it can be read). */
  async load(): Promise<void> {
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
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.path, [...this.seen].map(([key, at]) => `${at} ${key}\n`).join(''));
    this.appended = 0;
  }

  private prune(): void {
    const floor = this.now().getTime() - SEEN_WINDOW_MS;
    for (const [key, at] of this.seen) if (at < floor) this.seen.delete(key);
  }

  /**
   * Records `webhookId` for `triggerId` if it is new (persisted before this resolves); says
   * `replay` when it was seen inside the window, `full` when the store is full of live ids.
   */
  async admit(triggerId: string, webhookId: string): Promise<Admission> {
    const key = JSON.stringify([triggerId, webhookId]);
    const now = this.now().getTime();
    const at = this.seen.get(key);
    if (at !== undefined && at >= now - SEEN_WINDOW_MS) return 'replay';
    if (this.seen.size >= this.max) this.prune();
    if (this.seen.size >= this.max) return 'full';
    this.seen.set(key, now);
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    await appendFile(this.path, `${now} ${key}\n`, { mode: 0o600 });
    if (++this.appended > this.max) {
      this.prune();
      await this.rewrite();
    }
    return 'new';
  }

  /** How many ids are held (for tests and the status). */
  get size(): number {
    return this.seen.size;
  }
}
