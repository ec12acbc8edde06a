import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { PENDING_DIR, pendingRuns, runFileName } from './run-requests';
import { WAITING_HOLD_MAX, WAITING_HOLD_MS, WaitingRuns } from './waiting-runs';

function writeRun(dataDir: string, n: number): void {
  const dir = join(dataDir, PENDING_DIR);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(
      dir,
      runFileName({
        id: `r${n}`,
        trigger: 'a/b',
        target: 'a/x',
        input: { text: null },
        fired_at: new Date(Date.UTC(2026, 11, 1, 10, 0, n)).toISOString(),
        cause: 'webhook',
      }),
    ),
    '{}',
  );
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

/** A reader of `runs/pending/` that counts its reads. */
function countedReads() {
  let count = 0;
  return {
    read: (dir: string) => {
      count++;
      return pendingRuns(dir);
    },
    get count() {
      return count;
    },
  };
}

/**
 * A reader of `runs/pending/` whose reads each wait to be let go, so a test says when a read happens (runs can be
 * filed while one is open, as on a slow disk) and counts the reads done.
 */
function heldReads() {
  const gates: Array<() => void> = [];
  let started = 0;
  let done = 0;
  const opened = async () => {
    while (gates.length === 0) await tick();
  };
  return {
    read: (dir: string) => {
      started++;
      return new Promise<void>((resolve) => gates.push(resolve)).then(() => pendingRuns(dir)).finally(() => done++);
    },
    opened,
    /** Lets the next read go, once one is open. */
    letGo: async () => {
      await opened();
      (gates.shift() as () => void)();
    },
    /** Lets a read go if one is open. */
    letAnyGo: () => gates.shift()?.(),
    get started() {
      return started;
    },
    get done() {
      return done;
    },
  };
}

/** A fire's answer once it comes (undefined while the fire is held), watched without waiting for it. */
function watched(answer: Promise<number | null>): { readonly value: number | null | undefined } {
  const seen: { value: number | null | undefined } = { value: undefined };
  void answer.then((n) => {
    seen.value = n;
  });
  return seen;
}

/** A count over {@link heldReads}, its first read (the one a host makes at start) let go and done. */
async function countedOverHeldReads(dataDir: string) {
  const reads = heldReads();
  const waiting = new WaitingRuns(dataDir, reads.read);
  const first = waiting.refresh();
  await reads.letGo();
  await first;
  return { reads, waiting };
}

describe('runs waiting, counted without reading the folder at every fire', () => {
  it('never counts low while the folder is being read: the limit holds for writes finished before and during a read', async () => {
    const dataDir = tempDir('apollia-waiting-');
    const waiting = new WaitingRuns(dataDir);
    await waiting.refresh();
    // Two runs written (reserved, then done) since the last read.
    for (const n of [1, 2]) {
      expect(await waiting.reserve('a/b', 3)).toBeNull();
      waiting.done('a/b', true);
      writeRun(dataDir, n);
      waiting.filed('a/b');
    }
    // A read starts; while it runs, the two are still counted: one more fits, the fourth does not.
    const read = waiting.refresh();
    expect(waiting.view.byTrigger.get('a/b')).toBe(2);
    expect(await waiting.reserve('a/b', 3)).toBeNull();
    waiting.done('a/b', true);
    writeRun(dataDir, 3);
    waiting.filed('a/b');
    await read;
    expect(await waiting.reserve('a/b', 3)).toBe(3);
    expect(waiting.view.total).toBeGreaterThanOrEqual(3);
  });

  it('frees a slot whose write failed, and sees runs the runtime took once at the limit', async () => {
    const dataDir = tempDir('apollia-waiting-');
    const waiting = new WaitingRuns(dataDir);
    expect(await waiting.reserve('a/b', 1)).toBeNull();
    expect(await waiting.reserve('a/b', 1)).toBe(1);
    waiting.done('a/b', false);
    expect(await waiting.reserve('a/b', 1)).toBeNull();
    waiting.done('a/b', true);
    writeRun(dataDir, 1);
    waiting.filed('a/b');
    expect(await waiting.reserve('a/b', 1)).toBe(1);
  });

  it('counts a run journaled but not yet filed as waiting through every read of the folder, and once when its file is there', async () => {
    const dataDir = tempDir('apollia-waiting-');
    const waiting = new WaitingRuns(dataDir);
    expect(await waiting.reserve('a/b', 2)).toBeNull();
    // Journaled and answered: its file is not in runs/pending/ yet.
    waiting.done('a/b', true);
    await waiting.refresh();
    expect(waiting.view.byTrigger.get('a/b')).toBe(1);
    // A run the journal held at start, to be made again: waiting too. The limit (2) is reached.
    waiting.queued('a/b');
    expect(await waiting.reserve('a/b', 2)).toBe(2);
    // Both files made: still two, through a read of the folder, and nothing more fits.
    for (const n of [1, 2]) {
      writeRun(dataDir, n);
      waiting.filed('a/b');
    }
    expect(waiting.view.byTrigger.get('a/b')).toBe(2);
    await waiting.refresh();
    expect(waiting.view.byTrigger.get('a/b')).toBe(2);
    expect(await waiting.reserve('a/b', 2)).toBe(2);
    expect(await waiting.reserve('a/b', 3)).toBeNull();
  });

  it('at the limit with a run in flight, holds a fire and queues it once the slot frees; against a real backlog, refuses at once', async () => {
    const dataDir = tempDir('apollia-waiting-');
    const reads = countedReads();
    const waiting = new WaitingRuns(dataDir, reads.read);
    await waiting.refresh();
    // One slot, reserved and not yet journaled: in flight.
    expect(await waiting.reserve('a/b', 1)).toBeNull();
    const held = waiting.reserve('a/b', 1);
    let settled = false;
    void held.then(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(settled).toBe(false);
    // The write failed: the slot frees, and the held fire takes it rather than being refused.
    waiting.done('a/b', false);
    expect(await held).toBeNull();
    waiting.done('a/b', true);
    writeRun(dataDir, 1);
    waiting.filed('a/b');
    // Now the folder holds the limit's runs and nothing is in flight: refused at once, not held. Told by the reads, not
    // the time taken (one slow read on a busy machine is no hold): a held fire reads the folder again every
    // WAITING_RECHECK_MS until WAITING_HOLD_MS; one refused at once reads it afresh once (after a background read of a
    // stale count, if one started).
    const readsBefore = reads.count;
    expect(await waiting.reserve('a/b', 1)).toBe(1);
    expect(reads.count - readsBefore).toBeGreaterThanOrEqual(1);
    expect(reads.count - readsBefore).toBeLessThanOrEqual(2);
  });

  it('holds at most WAITING_HOLD_MAX fires of one trigger at once: one more is refused at once, another trigger is not held up', async () => {
    const dataDir = tempDir('apollia-waiting-');
    const waiting = new WaitingRuns(dataDir, countedReads().read);
    await waiting.refresh();
    // The limit (1) taken by a run in flight: fires of a/b at the limit are held.
    expect(await waiting.reserve('a/b', 1)).toBeNull();
    const answers: (number | null)[] = [];
    for (let i = 0; i < WAITING_HOLD_MAX; i++) void waiting.reserve('a/b', 1).then((n) => answers.push(n));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(answers).toEqual([]);
    // One more is not held (it would keep another of the door's slots): refused at once, with the count.
    const extra = watched(waiting.reserve('a/b', 1));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(extra.value).toBe(1);
    expect(answers).toEqual([]);
    // Another trigger's fire is not held by a/b's.
    expect(await waiting.reserve('c/d', 1)).toBeNull();
    // Each slot freed goes to a held fire, until none is held.
    while (answers.length < WAITING_HOLD_MAX) {
      const before = answers.length;
      waiting.done('a/b', false);
      while (answers.length === before) await tick();
    }
    expect(answers).toEqual(Array(WAITING_HOLD_MAX).fill(null));
    // None held now: the next fire at the limit is held again, not refused.
    const again = watched(waiting.reserve('a/b', 1));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(again.value).toBeUndefined();
    waiting.done('a/b', false);
    while (again.value === undefined) await tick();
    expect(again.value).toBeNull();
  });

  it('refuses at the limit with the exact count when a run’s file is in the folder before the host is told it was filed', async () => {
    const dataDir = tempDir('apollia-waiting-');
    const { reads, waiting } = await countedOverHeldReads(dataDir);
    // Two runs journaled (the limit, 2): the first filed and told; the second's file is renamed in on the writer's
    // thread, and the host is told after.
    for (const n of [1, 2]) {
      expect(await waiting.reserve('a/b', 2)).toBeNull();
      waiting.done('a/b', true);
      writeRun(dataDir, n);
    }
    waiting.filed('a/b');
    const answer = watched(waiting.reserve('a/b', 2));
    // The fire's fresh read finds the file while it is still counted unfiled; the host is told only once that read
    // is done and the fire has looked at what it found.
    await reads.opened();
    const done = reads.done;
    await reads.letGo();
    while (reads.done === done) await tick();
    await new Promise((resolve) => setImmediate(resolve));
    waiting.filed('a/b');
    while (answer.value === undefined) {
      reads.letAnyGo();
      await tick();
    }
    expect(answer.value).toBe(2);
  });

  it('does not read the folder while the runs in flight alone fill the limit: their filings free the slot', async () => {
    const dataDir = tempDir('apollia-waiting-');
    const { reads, waiting } = await countedOverHeldReads(dataDir);
    // One run journaled (the limit, 1), its file not made yet: a read could not free its slot.
    expect(await waiting.reserve('a/b', 1)).toBeNull();
    waiting.done('a/b', true);
    const answer = watched(waiting.reserve('a/b', 1));
    // Held for many rechecks (every 5 ms) with no read of the folder.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(answer.value).toBeUndefined();
    expect(reads.started).toBe(1);
    // Its file made, then taken by the runtime: now a read can free the slot, and the fire reads and is let through.
    writeRun(dataDir, 1);
    waiting.filed('a/b');
    rmSync(join(dataDir, PENDING_DIR), { recursive: true });
    while (answer.value === undefined) {
      reads.letAnyGo();
      await tick();
    }
    expect(answer.value).toBeNull();
    expect(reads.started).toBe(2);
  });

  it('holds a fire at a full folder while the runtime is seen taking runs, and refuses at once only when it is not', async () => {
    const dataDir = tempDir('apollia-waiting-');
    const reads = countedReads();
    const waiting = new WaitingRuns(dataDir, reads.read);
    await waiting.refresh();
    const file = (n: number) => {
      writeRun(dataDir, n);
      waiting.filed('a/b');
    };
    const take = () => rmSync(join(dataDir, PENDING_DIR, readdirSync(join(dataDir, PENDING_DIR))[0] as string));
    // Two runs waiting (the limit, 2); the runtime takes one: the fire at the limit reads, finds a slot, and is let in.
    for (const n of [1, 2]) {
      expect(await waiting.reserve('a/b', 2)).toBeNull();
      waiting.done('a/b', true);
      file(n);
    }
    take();
    expect(await waiting.reserve('a/b', 2)).toBeNull();
    waiting.done('a/b', true);
    file(3);
    // The folder is full again, counted exactly; the runtime took a run a moment ago, so the fire is held, not refused.
    const answer = watched(waiting.reserve('a/b', 2));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(answer.value).toBeUndefined();
    take();
    while (answer.value === undefined) await tick();
    expect(answer.value).toBeNull();
    waiting.done('a/b', true);
    file(4);
    // Nothing taken for longer than a hold: a full folder is a real backlog, refused at the first fresh read (after the
    // background read of a count a second old), not held and read again every few milliseconds.
    await new Promise((resolve) => setTimeout(resolve, WAITING_HOLD_MS + 50));
    const before = reads.count;
    expect(await waiting.reserve('a/b', 2)).toBe(2);
    expect(reads.count - before).toBeLessThanOrEqual(2);
  });

  it('refuses at the limit with the exact count, never one a read held open while runs were filed counted twice', async () => {
    const dataDir = tempDir('apollia-waiting-');
    const reads = heldReads();
    const waiting = new WaitingRuns(dataDir, reads.read);
    const first = waiting.refresh();
    // Two runs queued and filed while that read is open: it will find both files, and both are counted as written since.
    for (const n of [1, 2]) {
      expect(await waiting.reserve('a/b', 5)).toBeNull();
      waiting.done('a/b', true);
      writeRun(dataDir, n);
      waiting.filed('a/b');
    }
    // A fire at the limit (2) joins nothing stale: the open read counts 2 + 2; the fresh read after it counts 2.
    const refused = waiting.reserve('a/b', 2);
    await reads.letGo();
    await first;
    // A third run (one the journal held at start) is filed during the fresh read: that read may count it twice, so
    // the folder is read once more.
    await reads.opened();
    waiting.queued('a/b');
    writeRun(dataDir, 3);
    waiting.filed('a/b');
    await reads.letGo();
    await reads.letGo();
    expect(await refused).toBe(3);
    expect(waiting.view.byTrigger.get('a/b')).toBe(3);
  });
});
