/**
 * Runs the package readers in one long-lived `worker_threads` worker under a time budget and a
 * memory cap (DESIGN.md "Reading without running": untrusted input is checked in a bounded place,
 * the same way in the app, the CLI and the e2e harness). The main thread stays free: while a
 * hostile package is being read, every other Api call keeps answering.
 *
 * Decisions (README "Decisions"): one worker per process, started lazily on the first job and
 * reused (starting one costs tens of milliseconds bundled, more from TS source); jobs run one at a
 * time in arrival order (the readers are I/O-light and a second worker would double the memory
 * cap); a job over its budget ends the worker (`terminate()`, the only way to stop a busy loop)
 * and is refused `inspect.too_slow`; a worker that runs out of heap is refused `inspect.too_large`;
 * the next job starts a fresh worker. Between jobs the worker is `unref()`ed, so an idle checker
 * never keeps the CLI alive.
 */
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type ResourceLimits, Worker } from 'node:worker_threads';
import type { ApoInspection, Inspection, InspectionKind, Problem } from '../../../shared/manifests/inspection';
import type { TemplateRead } from '../template/index';
import type { TrustedKey } from '../trust/index';
import type { CheckJobKind, CheckJobOptions, CheckJobs } from './jobs';
import { ownData } from './own-data';
import type { WorkerReply, WorkerRequest, WorkerTestMode } from './protocol';
import { startBuiltWorker, WORKER_FILE } from './worker-boot';

/**
 * The time one job may take once the worker is running it (the worker's own start-up is not
 * counted). Wall time, so it must leave room for a slow or busy machine reading a legal package:
 * a 140 MiB package took 4.2 s on a 2-core machine at load 26 (bench/summary.ts), and 5 s refused
 * packages in e2e runs on such a machine. Ten seconds still ends any hostile job long before a
 * person would give up on the window, and the app keeps answering meanwhile.
 */
export const DEFAULT_BUDGET_MS = 10_000;

/**
 * The worker's heap caps. The readers stream archives and keep at most `apollia.toml` (1 MiB), the
 * Python modules being scanned (64 MiB each at most) and the file list (10,000 entries); a template
 * is at most 1 MiB. 256 MiB of old generation holds the largest legal package with room to spare,
 * while a parse that blows up is stopped long before it hurts the machine.
 */
export const DEFAULT_RESOURCE_LIMITS: ResourceLimits = {
  maxOldGenerationSizeMb: 256,
  maxYoungGenerationSizeMb: 32,
  stackSizeMb: 4,
};

/**
 * Where the worker runs, as the checker drives it: a `worker_threads` Worker (the CLI, the tests,
 * the harness), or an Electron `utilityProcess` holding that worker (the app: `check-process.ts`),
 * so that a crash or an out-of-memory abort in checking ends that process only.
 */
export interface CheckerProcess {
  postMessage(message: WorkerRequest): void;
  on(event: 'message', listener: (reply: WorkerReply) => void): unknown;
  on(event: 'error', listener: (error: Error & { code?: string }) => void): unknown;
  on(event: 'exit', listener: (code: number | null) => void): unknown;
  terminate(): unknown;
  ref(): void;
  unref(): void;
}

/** Starts a {@link CheckerProcess} with the worker's data and heap caps. */
export type CheckerSpawn = (init: { workerData: object; resourceLimits: ResourceLimits }) => CheckerProcess;

/** How a {@link BoundedChecker} is set up; every field has a production default. */
export interface CheckerOptions {
  /** Milliseconds one job may run (tests use a short one). */
  budgetMs?: number;
  resourceLimits?: ResourceLimits;
  /** Test only: makes the worker busy-loop, hoard memory or abort its process (check-worker.ts). */
  testMode?: WorkerTestMode;
  /** Where the worker runs; by default a worker thread of this process. */
  spawn?: CheckerSpawn;
}

/** A job's outcome: the reader's value, or the refusal the checker gave it. */
export type CheckOutcome<T> = { ok: true; value: T } | { ok: false; problem: Problem };

interface Pending {
  id: number;
  kind: CheckJobKind;
  path: string;
  options: CheckJobOptions;
  settle: (outcome: CheckOutcome<unknown>) => void;
  fail: (error: Error) => void;
}

/** One worker, one job at a time, each under a time budget and the worker's memory cap. */
export class BoundedChecker {
  readonly #budgetMs: number;
  readonly #resourceLimits: ResourceLimits;
  readonly #testMode: WorkerTestMode | undefined;
  readonly #spawn: CheckerSpawn;
  readonly #queue: Pending[] = [];
  #worker: CheckerProcess | null = null;
  #ready = false;
  #loaded: Promise<void> = Promise.resolve();
  #markLoaded: () => void = () => undefined;
  #current: Pending | null = null;
  #timer: NodeJS.Timeout | null = null;
  #nextId = 1;
  #started = 0;
  #preload = false;
  #prepareFor: string | undefined;

  constructor(options: CheckerOptions = {}) {
    this.#budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
    this.#resourceLimits = options.resourceLimits ?? DEFAULT_RESOURCE_LIMITS;
    this.#testMode = options.testMode;
    this.#spawn = options.spawn ?? workerThread;
  }

  /** How many workers this checker has started (one, unless a job was over budget). */
  get workersStarted(): number {
    return this.#started;
  }

  /** Runs one reader in the worker; a reader that throws (a bug) rejects, as it would in-thread. */
  run<K extends CheckJobKind>(
    kind: K,
    path: string,
    options: CheckJobOptions = { trustedKeys: [] },
  ): Promise<CheckOutcome<CheckJobs[K]>> {
    return new Promise((resolve, reject) => {
      this.#queue.push({
        id: this.#nextId++,
        kind,
        path,
        options: { trustedKeys: [...options.trustedKeys], pinnedKeys: [...(options.pinnedKeys ?? [])] },
        settle: resolve as (outcome: CheckOutcome<unknown>) => void,
        fail: reject,
      });
      this.#pump();
    });
  }

  /**
   * Starts the worker now instead of at the first job (a host may call it once it is idle), and
   * resolves when the worker has loaded its code, every reader included: what the first job would
   * otherwise wait for. A worker started by a job instead (the CLI) loads only that job's reader.
   */
  warm(): Promise<void> {
    this.#preload = true;
    // Held alive until loaded, so that whoever awaits this sees it resolve; idle (unref'd) after.
    this.#ensureWorker().ref();
    return this.#loaded.then(() => {
      if (!this.#current) this.#worker?.unref();
    });
  }

  /**
   * Starts the worker now, without loading any reader, so that its start overlaps what the caller
   * does before its first job (the CLI loads its command meanwhile). Given the path the
   * first job will read, the worker loads that job's reader meanwhile too (a hint: the job decides
   * the kind again). An idle worker does not keep the process alive.
   */
  start(prepareFor?: string): void {
    this.#prepareFor = prepareFor;
    this.#ensureWorker();
  }

  /** Ends the worker; queued and running jobs are rejected. The next job starts a fresh one. */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    this.#clearTimer();
    for (const job of [...(this.#current ? [this.#current] : []), ...this.#queue.splice(0)])
      job.fail(new Error('the package checker was closed'));
    this.#current = null;
    if (worker) await worker.terminate();
  }

  #pump(): void {
    if (this.#current || this.#queue.length === 0) return;
    const job = this.#queue.shift() as Pending;
    this.#current = job;
    const worker = this.#ensureWorker();
    worker.ref();
    worker.postMessage({ id: job.id, kind: job.kind, path: job.path, options: job.options } satisfies WorkerRequest);
    if (this.#ready) this.#startTimer();
  }

  #ensureWorker(): CheckerProcess {
    if (this.#worker) return this.#worker;
    const worker = this.#spawn({ workerData: this.#workerData(), resourceLimits: this.#resourceLimits });
    this.#started++;
    this.#worker = worker;
    this.#ready = false;
    this.#loaded = new Promise((resolve) => {
      this.#markLoaded = resolve;
    });
    worker.on('message', (reply: WorkerReply) => this.#onReply(worker, reply));
    worker.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') this.#endWorker(worker, tooLarge());
      else this.#endWorker(worker, null, error);
    });
    // Ended by no budget of ours while a job ran (a crash, an abort, a process killed for memory):
    // that package is refused, and only the checker's thread or process is gone.
    worker.on('exit', (code) =>
      this.#endWorker(
        worker,
        this.#current ? crashed(code) : null,
        new Error(`the package checker stopped unexpectedly (exit code ${code})`),
      ),
    );
    // After the listeners: a 'message' listener added later refs the worker again, and an idle
    // worker started ahead of any job (`start`) would then keep the CLI from exiting.
    worker.unref();
    return worker;
  }

  #workerData(): { testMode: WorkerTestMode | undefined; preload: boolean; prepareFor?: string } {
    const prepareFor = this.#prepareFor;
    this.#prepareFor = undefined;
    return { testMode: this.#testMode, preload: this.#preload, ...(prepareFor !== undefined ? { prepareFor } : {}) };
  }

  #onReply(worker: CheckerProcess, reply: WorkerReply): void {
    if (worker !== this.#worker) return;
    if (reply.type === 'boot') return; // whether a code cache was used: for the tests (worker-boot.ts)
    if (reply.type === 'ready') {
      this.#ready = true;
      this.#markLoaded();
      if (this.#current) this.#startTimer();
      return;
    }
    const job = this.#current;
    if (!job || job.id !== reply.id) return;
    this.#finish();
    if (reply.type === 'result') job.settle({ ok: true, value: ownData(reply.value) });
    else job.fail(new Error(`checking ${job.path} failed inside the package checker: ${reply.message}`));
    this.#pump();
  }

  /** The worker ended (budget, heap cap, crash): answer its job, forget it, and go on with a fresh one. */
  #endWorker(worker: CheckerProcess, refusal: Problem | null, error?: Error): void {
    if (worker !== this.#worker) return;
    this.#worker = null;
    this.#markLoaded();
    const job = this.#current;
    this.#finish();
    void worker.terminate();
    if (job) {
      if (refusal) job.settle({ ok: false, problem: refusal });
      else job.fail(error ?? new Error('the package checker stopped unexpectedly'));
    }
    this.#pump();
  }

  #startTimer(): void {
    this.#clearTimer();
    const worker = this.#worker as CheckerProcess;
    this.#timer = setTimeout(() => this.#endWorker(worker, tooSlow(this.#budgetMs)), this.#budgetMs);
  }

  #finish(): void {
    this.#clearTimer();
    this.#current = null;
    this.#worker?.unref();
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }
}

function tooSlow(budgetMs: number): Problem {
  return {
    code: 'inspect.too_slow',
    message: `checking this package took longer than ${formatSeconds(budgetMs)}, so it was stopped and refused: a package this app can check is read in well under a second`,
  };
}

function tooLarge(): Problem {
  return {
    code: 'inspect.too_large',
    message:
      'checking this package needed more memory than the app allows, so it was stopped and refused: its contents are too large or too deeply nested to check safely',
  };
}

function crashed(code: number | null): Problem {
  return {
    code: 'inspect.checker_crashed',
    message: `checking this package made the package checker stop (exit code ${code ?? 'none: ended by a signal'}), so it was refused: nothing else was affected, and a package this app can check never does that`,
  };
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} second${seconds === 1 ? '' : 's'}`;
}

/** The default {@link CheckerSpawn}: the built worker through its boot, or from source under tsx. */
function workerThread({
  workerData,
  resourceLimits,
}: {
  workerData: object;
  resourceLimits: ResourceLimits;
}): CheckerProcess {
  const workerFile = builtWorkerFile();
  return workerFile
    ? startBuiltWorker(workerFile, { resourceLimits, workerData })
    : new Worker(devBootstrap(), { eval: true, resourceLimits, workerData });
}

/**
 * Where the built worker is: `check-worker.cjs` beside the chunk holding the checker (`out/cli/`,
 * `out/main/`: chunks are flat in both), started through worker-boot.ts. Null from TypeScript
 * source (vitest, tsx): the worker is then a short bootstrap that registers tsx's loader and
 * imports `check-worker.ts` (Node 20 does not apply `--import` hooks to a worker's entry).
 */
function builtWorkerFile(): string | null {
  const here = import.meta.url;
  return here.endsWith('.ts') ? null : fileURLToPath(new URL(`./${WORKER_FILE}`, here));
}

function devBootstrap(): string {
  const tsxApi = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/package.json')
      .replace(/package\.json$/, 'dist/esm/api/index.mjs'),
  ).href;
  const entry = new URL('./check-worker.ts', import.meta.url).href;
  return `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
}

/** Turns a checker refusal into an inspection of the given kind, so callers keep one result shape. */
export function refusedInspection(kind: InspectionKind, problem: Problem): Inspection {
  return { kind, ok: false, errors: [problem], warnings: [], summary: null, details: null };
}

let shared: BoundedChecker | null = null;

/** The process's one checker, made on first use with the production budgets. */
export function sharedChecker(): BoundedChecker {
  shared ??= new BoundedChecker();
  return shared;
}

/**
 * Sets up the process's one checker before its first use: the app runs the worker in a utility
 * process (`spawn`), with the same budgets. A checker already made is closed and replaced.
 */
export function configureSharedChecker(options: CheckerOptions): BoundedChecker {
  void shared?.close();
  shared = new BoundedChecker(options);
  return shared;
}

/**
 * {@link inspectApo} in the bounded worker; the result keeps the SHA-256 install is tied to, and
 * the signature state checked over that same read against `trustedKeys`.
 */
export async function checkApo(
  path: string,
  trustedKeys: readonly TrustedKey[] = [],
  checker: BoundedChecker = sharedChecker(),
  pinnedKeys: readonly string[] = [],
): Promise<ApoInspection> {
  const outcome = await checker.run('apo', path, { trustedKeys, pinnedKeys });
  return outcome.ok ? outcome.value : (refusedInspection('apo', outcome.problem) as ApoInspection);
}

/** {@link readTemplateFolder} in the bounded worker: the inspection and the bytes it checked. */
export async function checkTemplateFolder(
  path: string,
  checker: BoundedChecker = sharedChecker(),
): Promise<TemplateRead> {
  const outcome = await checker.run('template', path);
  return outcome.ok
    ? outcome.value
    : { inspection: refusedInspection('template', outcome.problem) as TemplateRead['inspection'], files: new Map() };
}

/** {@link inspectPluginManifest} in the bounded worker. */
export async function checkPluginManifest(
  path: string,
  checker: BoundedChecker = sharedChecker(),
): Promise<Inspection> {
  const outcome = await checker.run('plugin', path);
  return outcome.ok ? outcome.value : refusedInspection('plugin', outcome.problem);
}

/**
 * An existing path inspected by content (the CLI's `inspect`) in the bounded worker; an `.apo`'s signature against
 * `trustedKeys`.
 */
export async function checkPath(
  path: string,
  trustedKeys: readonly TrustedKey[] = [],
  checker: BoundedChecker = sharedChecker(),
  pinnedKeys: readonly string[] = [],
): Promise<Inspection> {
  const outcome = await checker.run('path', path, { trustedKeys, pinnedKeys });
  return outcome.ok ? outcome.value : refusedInspection('apo', outcome.problem);
}
