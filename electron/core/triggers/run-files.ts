/**
 * The run files of `runs/pending/`, made from the intake journal off the answer's path (DESIGN.md "Triggers at run
 * time"; the contract is in this module's README). The journal is the durable truth for a run; its file is the
 * hand-off, made after the delivery was answered, and the journal forgets the run only once its file is durable or
 * the runtime took it:
 *
 * 1. **Made**: the file is put by a worker thread (temp name, renamed in, no fsync of the file or the folder);
 *    one that cannot be made is tried again every second ({@link RETRY_MS}).
 * 2. **Checked** ({@link CHECK_DELAY_MS} later, batched): one read of `runs/pending/`; each run whose file is gone
 *    was taken by the runtime (moved to `runs/taken/` or deleted) and is done, with no fsync at all.
 * 3. **Fsynced** (what the check found still waiting, {@link SYNC_DELAY_MS} later, batched, on a second worker so
 *    the files being made never wait behind fsyncs): each file, then the folder once; each one fsynced, or gone by
 *    then, is done.
 *
 * Done runs are told to the caller ({@link RunFileOptions.onDone}: a `done` journal record), so the journal's next trim
 * forgets them. A runtime that takes runs as they come costs no fsync per run; one that takes none, a batch of fsyncs a
 * second, bounded by the triggers' caps.
 */
import { readdir } from 'node:fs/promises';
import { DurableFolder, type DurableFolderFaults } from '../store/durable-folder';
import { killPoint } from './kill-point';

/** How long a made file waits for the check that finds it taken (ms): a runtime's deletion is safe after it. */
export const CHECK_DELAY_MS = 20;
/** How long a file still waiting at its check waits for its fsync (ms). */
export const SYNC_DELAY_MS = 1_000;
/** How long a run file that could not be made waits before it is tried again (ms). */
const RETRY_MS = 1_000;

/** One run's file: its run id and trigger, its name in `runs/pending/` and its text. */
export interface RunFile {
  id: string;
  trigger: string;
  name: string;
  text: string;
}

/** What the run files tell their owner. */
export interface RunFileOptions {
  faults?: DurableFolderFaults;
  /** A file is in `runs/pending/` (the count of runs waiting moves it from unfiled). */
  onFiled?: (trigger: string) => void;
  /** Runs whose files were fsynced or taken: the journal may forget them. */
  onDone: (runs: string[]) => Promise<void>;
  /** A problem met off the answer's path (a file to be made again), as a host line. */
  onProblem?: (text: string) => void;
}

/** The run files of one data folder's `runs/pending/` (see the module comment). */
export class RunFiles {
  private readonly putter: DurableFolder;
  private readonly syncer: DurableFolder;
  private readonly working = new Set<Promise<unknown>>();
  private toCheck: RunFile[] = [];
  private toSync: RunFile[] = [];
  private checkTimer: NodeJS.Timeout | null = null;
  private syncTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    readonly dir: string,
    private readonly options: RunFileOptions,
  ) {
    this.putter = new DurableFolder(dir, options.faults);
    this.syncer = new DurableFolder(dir, options.faults);
  }

  /** Makes a run's file (step 1); resolves once it is in `runs/pending/` or failed (then tried again later). */
  make(file: RunFile): Promise<void> {
    const work = this.putter.put(file.name, file.text).then(
      () => {
        this.options.onFiled?.(file.trigger);
        killPoint('after-run-file');
        this.check(file);
      },
      (error: NodeJS.ErrnoException) => {
        this.options.onProblem?.(
          `problem run ${file.id} is queued but its file could not be made yet (${error.code ?? error.message}); trying again`,
        );
        if (!this.closed) setTimeout(() => void this.make(file), RETRY_MS).unref();
      },
    );
    this.track(work);
    return work;
  }

  /** A file already in `runs/pending/` with its run's content (found at start): checked, then fsynced. */
  check(file: RunFile): void {
    this.toCheck.push(file);
    this.checkTimer ??= setTimeout(() => this.track(this.checkNow()), CHECK_DELAY_MS);
  }

  /** Step 2: the files gone from `runs/pending/` are done; the others wait for their fsync. */
  private async checkNow(): Promise<void> {
    this.checkTimer = null;
    const batch = this.toCheck.splice(0);
    const names = await readdir(this.dir).then(
      (list) => new Set(list),
      () => null,
    );
    const gone = names === null ? [] : batch.filter((file) => !names.has(file.name));
    const waiting = names === null ? batch : batch.filter((file) => names.has(file.name));
    if (waiting.length > 0) {
      this.toSync.push(...waiting);
      this.syncTimer ??= setTimeout(() => this.track(this.syncNow()), SYNC_DELAY_MS);
    }
    if (gone.length > 0) await this.options.onDone(gone.map((file) => file.id));
  }

  /** Step 3: fsyncs the files still waiting (one folder fsync for them); the fsynced and the gone ones are done. */
  private async syncNow(): Promise<void> {
    this.syncTimer = null;
    const batch = this.toSync.splice(0);
    const results = await Promise.allSettled(batch.map((file) => this.syncer.sync(file.name)));
    const done: string[] = [];
    results.forEach((result, i) => {
      const gone = result.status === 'rejected' && (result.reason as NodeJS.ErrnoException).code === 'ENOENT';
      // A file that could not be fsynced stays in the journal: the next start checks it again.
      if (result.status === 'fulfilled' || gone) done.push((batch[i] as RunFile).id);
    });
    if (done.length > 0) await this.options.onDone(done);
  }

  private track(work: Promise<unknown>): void {
    const tracked = work.catch(() => undefined);
    this.working.add(tracked);
    void tracked.then(() => this.working.delete(tracked));
  }

  /** Waits until every file under way is made, and runs every pass still waiting for its time now. */
  async settled(): Promise<void> {
    while (this.working.size > 0 || this.checkTimer !== null || this.syncTimer !== null) {
      if (this.checkTimer !== null) {
        clearTimeout(this.checkTimer);
        this.track(this.checkNow());
      } else if (this.syncTimer !== null && this.working.size === 0) {
        clearTimeout(this.syncTimer);
        this.track(this.syncNow());
      }
      await Promise.all([...this.working]);
    }
  }

  /** After a {@link close}: files may be made again (a host started again). */
  reopen(): void {
    this.closed = false;
  }

  /** Settles, stops the retries, then lets both worker threads go. */
  async close(): Promise<void> {
    await this.settled();
    this.closed = true;
    await Promise.all([this.putter.close(), this.syncer.close()]);
  }
}
