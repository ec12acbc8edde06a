/**
 * Files made durable in one folder, written by a worker thread (the trigger host's run files): each
 * file atomically (temp name, fsync, rename), and one fsync of the folder shared by the files
 * written at the same time (a group commit). A write resolves only once its file and its name are
 * durable: the batch it was in was written and renamed, then the folder was fsynced.
 *
 * Why a thread: a burst of webhook deliveries costs five file-system calls and a folder fsync per
 * run file. Made from the main thread, each call is a round trip through libuv's pool and back
 * (bench/webhook-intake.ts showed them as much of the host's main-thread time); the worker makes
 * them as blocking calls, one batch after the other, while the main thread answers the requests.
 * The main thread sends a batch only when the previous one is done: what arrives meanwhile is the
 * next batch, so a burst shares few folder fsyncs. The worker's code: `durable-folder-worker.ts`.
 *
 * The worker starts at the first write, is let go after {@link IDLE_MS} without one (a schedule
 * that fires once a day holds no thread), and never keeps the process alive when idle. If it dies,
 * the writes it held fail (the caller answers 503 and the sender retries) and the next write starts
 * another.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DURABLE_FOLDER_WORKER } from './durable-folder-worker';

/** How long an idle worker is kept before it is let go (a new one starts at the next write). */
export const IDLE_MS = 30_000;

/** Test hooks of the worker (see `durable-folder-worker.ts`); never set by the app. */
export interface DurableFolderFaults {
  /** The first file whose content holds this text fails as an EIO write. */
  failData?: string;
  /** Shared memory: the folder fsync numbered n waits while the first cell is n. */
  gate?: Int32Array;
  /** Each step of the worker, reported to {@link DurableFolderFaults.onTrace}. */
  onTrace?: (steps: string[]) => void;
}

interface Waiting {
  name: string;
  data: string;
  resolve: (path: string) => void;
  reject: (error: Error) => void;
}

type Result = null | { code: string; message: string };

/** A folder whose files are written durably by a worker thread, in batches (see the module comment). */
export class DurableFolder {
  private worker: Worker | null = null;
  private queue: Waiting[] = [];
  private inFlight: Waiting[] | null = null;
  private idle: NodeJS.Timeout | null = null;
  private drained: (() => void)[] = [];

  constructor(
    readonly dir: string,
    private readonly faults: DurableFolderFaults = {},
  ) {}

  /** Writes `data` as `name` in the folder (made when missing); resolves with its path once it is durable. */
  write(name: string, data: string): Promise<string> {
    return new Promise((resolve, reject) => {
      this.queue.push({ name, data, resolve, reject });
      if (this.inFlight === null) this.send();
    });
  }

  /** Waits for the writes queued so far, then lets the worker go. */
  async close(): Promise<void> {
    if (this.inFlight !== null || this.queue.length > 0)
      await new Promise<void>((resolve) => this.drained.push(resolve));
    await this.stopWorker();
  }

  private send(): void {
    if (this.queue.length === 0) {
      this.inFlight = null;
      for (const resolve of this.drained.splice(0)) resolve();
      this.worker?.unref();
      this.idle ??= setTimeout(() => void this.stopWorker(), IDLE_MS).unref();
      return;
    }
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const worker = this.worker ?? this.startWorker();
    worker.ref();
    this.inFlight = this.queue;
    this.queue = [];
    worker.postMessage({ files: this.inFlight.map(({ name, data }) => ({ name, data })) });
  }

  private startWorker(): Worker {
    const { onTrace: _onTrace, ...hooks } = this.faults;
    const worker = new Worker(DURABLE_FOLDER_WORKER, {
      eval: true,
      workerData: { dir: this.dir, faults: { ...hooks, trace: this.faults.onTrace !== undefined } },
    });
    worker.on('message', (message: { results: Result[]; trace?: string[] } | 'closed') => {
      if (message === 'closed') return;
      if (message.trace) this.faults.onTrace?.(message.trace);
      const batch = this.inFlight ?? [];
      batch.forEach((waiting, i) => {
        const result: Result =
          i < message.results.length
            ? (message.results[i] as Result)
            : { code: 'EIO', message: 'no answer from the writer' };
        if (result === null) waiting.resolve(join(this.dir, waiting.name));
        else waiting.reject(Object.assign(new Error(result.message), { code: result.code }));
      });
      this.send();
    });
    // A worker that dies fails what it held; the next write starts another.
    const lost = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      const batch = this.inFlight ?? [];
      this.inFlight = null;
      for (const waiting of batch) waiting.reject(Object.assign(error, { code: 'EIO' }));
      if (this.queue.length > 0) this.send();
      else for (const resolve of this.drained.splice(0)) resolve();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the run file writer stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private async stopWorker(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const worker = this.worker;
    if (!worker || this.inFlight !== null) return;
    this.worker = null;
    // The folder's handle is closed by the worker, then the thread ends.
    worker.ref();
    await new Promise<void>((resolve) => {
      worker.once('message', () => resolve());
      worker.once('exit', () => resolve());
      worker.postMessage('close');
    });
    await worker.terminate();
  }
}
