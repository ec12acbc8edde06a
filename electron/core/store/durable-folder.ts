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
 * The main thread sends a turn's writes as one message, at the end of the turn (`setImmediate`): a
 * message is a structured clone and a wake-up of the worker, so one per file was the main thread's
 * largest cost of a burst (bench/webhook-intake.ts). The worker, once free, takes every write
 * waiting on its port as its next batch (never waiting for the main thread to hand it one), so a
 * burst shares few folder fsyncs. The worker's code: `durable-folder-worker.ts`.
 *
 * The worker starts at the first write, is let go after {@link IDLE_MS} without one (a schedule
 * that fires once a day holds no thread), and never keeps the process alive when idle. If it dies,
 * the writes it held fail (the caller answers 503 and the sender retries) and the next write starts
 * another.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { FOLDER_SYNC_UNSUPPORTED } from './atomic-file';
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
  resolve: (path: string) => void;
  reject: (error: Error) => void;
}

type Result = null | { code: string; message: string };

/** How the worker handles one file: `write` (durable), `put` (renamed in, no fsync), `sync` (fsync a put file). */
type FileOp = 'write' | 'put' | 'sync';

/** A folder whose files are written durably by a worker thread, in batches (see the module comment). */
export class DurableFolder {
  private worker: Worker | null = null;
  /** Writes given to the worker and not answered yet, by id. */
  private readonly waiting = new Map<number, Waiting>();
  /** Writes of this turn, sent together at its end. */
  private outgoing: { id: number; name: string; data: string; op?: FileOp }[] = [];
  /** The end of the turn that sends {@link outgoing}, once a write waits in it. */
  private sending: NodeJS.Immediate | null = null;
  private nextId = 0;
  private idle: NodeJS.Timeout | null = null;
  private drained: (() => void)[] = [];

  constructor(
    readonly dir: string,
    private readonly faults: DurableFolderFaults = {},
  ) {}

  /** Writes `data` as `name` in the folder (made when missing); resolves with its path once it is durable. */
  write(name: string, data: string): Promise<string> {
    return this.give(name, data, 'write');
  }

  /**
   * Writes `data` as `name` (temp name, renamed in) without any fsync: for a file whose content is
   * durable elsewhere (the intake journal). Resolves with its path once it is renamed in.
   */
  put(name: string, data: string): Promise<string> {
    return this.give(name, data, 'put');
  }

  /** fsyncs a file put earlier, then the folder (shared by the batch); rejects with ENOENT when it is gone. */
  sync(name: string): Promise<string> {
    return this.give(name, '', 'sync');
  }

  private give(name: string, data: string, op: FileOp): Promise<string> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.waiting.set(id, { name, resolve, reject });
      this.sending ??= setImmediate(() => this.send());
      this.outgoing.push(op === 'write' ? { id, name, data } : { id, name, data, op });
    });
  }

  /** Waits for the writes given so far, then lets the worker go. */
  async close(): Promise<void> {
    if (this.waiting.size > 0) await new Promise<void>((resolve) => this.drained.push(resolve));
    await this.stopWorker();
  }

  /** Sends this turn's writes: the worker takes them with whatever else waits when it is next free. */
  private send(): void {
    this.sending = null;
    const files = this.outgoing;
    this.outgoing = [];
    if (files.length === 0) return;
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const worker = this.worker ?? this.startWorker();
    worker.ref();
    worker.postMessage({ files });
  }

  /** Nothing waits: the worker no longer holds the process, and is let go after a while. */
  private settle(): void {
    if (this.waiting.size > 0) return;
    for (const resolve of this.drained.splice(0)) resolve();
    this.worker?.unref();
    this.idle ??= setTimeout(() => void this.stopWorker(), IDLE_MS).unref();
  }

  private startWorker(): Worker {
    const { onTrace: _onTrace, ...hooks } = this.faults;
    const worker = new Worker(DURABLE_FOLDER_WORKER, {
      eval: true,
      workerData: {
        dir: this.dir,
        folderSyncUnsupported: FOLDER_SYNC_UNSUPPORTED,
        faults: { ...hooks, trace: this.faults.onTrace !== undefined },
      },
    });
    worker.on('message', (message: { ids: number[]; results: Result[]; trace?: string[] } | 'closed') => {
      if (message === 'closed') return;
      if (message.trace) this.faults.onTrace?.(message.trace);
      message.ids.forEach((id, i) => {
        const waiting = this.waiting.get(id);
        if (!waiting) return;
        this.waiting.delete(id);
        const result: Result =
          i < message.results.length
            ? (message.results[i] as Result)
            : { code: 'EIO', message: 'no answer from the writer' };
        if (result === null) waiting.resolve(join(this.dir, waiting.name));
        else waiting.reject(Object.assign(new Error(result.message), { code: result.code }));
      });
      this.settle();
    });
    // A worker that dies fails what it held; the next write starts another.
    const lost = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      const held = [...this.waiting.values()];
      this.waiting.clear();
      for (const waiting of held) waiting.reject(Object.assign(new Error(error.message), { code: 'EIO' }));
      this.settle();
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
    if (!worker || this.waiting.size > 0) return;
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
