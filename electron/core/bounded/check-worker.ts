/**
 * The bounded worker's entry (DESIGN.md "Reading without running"): a `worker_threads` thread that
 * runs {@link CHECK_JOBS} one message at a time and answers with structured-clone data. It is built
 * as one CommonJS file beside each bundle (`out/cli/check-worker.cjs`, `out/main/check-worker.cjs`,
 * by `vite.worker.config.mts`), started through worker-boot.ts, and run from source under tsx or
 * vitest; {@link BoundedChecker} starts it and enforces the budgets.
 *
 * `workerData.testMode` exists only for the checker's own tests: a checker constructed in code may
 * ask its worker to busy-loop (`slow`), to grow its heap without bound (`hungry`) or to abort its
 * whole process (`abort`) so that the budget, the memory cap and the process boundary can be shown
 * to hold. Nothing in a package can set it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CHECK_JOBS, loadReaderFor, loadReaders } from './jobs';
import type { WorkerReply, WorkerRequest, WorkerTestMode } from './protocol';

const port = parentPort;
if (!port) throw new Error('check-worker.ts runs as a worker thread, started by BoundedChecker');
const data = workerData as { testMode?: WorkerTestMode; preload?: boolean; prepareFor?: string } | null;
const testMode = data?.testMode ?? null;

port.on('message', (request: WorkerRequest) => {
  // Only jobs: the boot's own message at build time (worker-boot.ts) is not one.
  if (typeof request.id !== 'number' || !Object.hasOwn(CHECK_JOBS, request.kind)) return;
  void answer(request).then((reply) => port.postMessage(reply));
});
// A warmed worker (a host that starts it ahead of the first package) loads every reader before it
// says ready; one started by a job (the CLI) loads only the reader that job needs, in the job.
// (A promise chain, not a top-level await: the worker is built as one CommonJS file, see worker-boot.ts.)
void (data?.preload ? loadReaders() : Promise.resolve()).then(() => {
  port.postMessage({ type: 'ready' } satisfies WorkerReply);
  // A worker started ahead of its first job with that job's path loads the reader it will need now.
  if (typeof data?.prepareFor === 'string') void loadReaderFor(data.prepareFor);
});

async function answer({ id, kind, path, options }: WorkerRequest): Promise<WorkerReply> {
  try {
    if (testMode === 'slow') for (;;);
    if (testMode === 'hungry') hoard();
    // What a native crash or a process-wide out-of-memory abort does: the whole process ends at once.
    if (testMode === 'abort') process.kill(process.pid, 'SIGKILL');
    return { type: 'result', id, value: await CHECK_JOBS[kind](path, options) };
  } catch (error) {
    return { type: 'failed', id, message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}

/** Test mode `hungry`: keeps allocating until the heap cap ends the thread. */
function hoard(): never {
  const kept: string[][] = [];
  for (;;) kept.push(Array.from({ length: 1024 }, (_, i) => `${i}:${kept.length}`.repeat(8)));
}
