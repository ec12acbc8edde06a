/**
 * Bench: the bounded checker (electron/core/bounded/). Prints
 *
 * - the worker's start-up cost: an empty worker (the floor), the built worker (`out/cli/check-worker.cjs` through its
 * boot, `npm run build`) from
 *   `new Worker` to its `ready` message, and the checker's `warm()` from TypeScript source (what
 *   tsx and vitest pay: tsx's loader registered in the worker, the readers transpiled);
 * - how long `appInfo` takes on the main thread while the worker busy-loops on a deliberately slow
 *   inspection (the checker's test-only `slow` mode) until its budget ends it (goal < 100 ms;
 *   DESIGN.md "Reading without running").
 *
 * Figures only, never assertions. Run alone: `npx tsx bench/bounded-checker.ts`; `npm run bench`
 * runs it after the other cases.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { BoundedChecker } from '../electron/core/bounded/index';
import { startBuiltWorker, WORKER_FILE } from '../electron/core/bounded/worker-boot';
import { tempDir, testApi } from '../test/helpers/test-api';
import { median, ROOT, RUNS } from './measure';

const TEMPLATE = join(ROOT, 'resources/templates/code-review');
const BUDGET_MS = 3_000;

/**
 * Milliseconds from `new Worker` to the worker's `ready`: the built worker `path` through its boot
 * (with `preload`, every reader loaded first: what `warm()` costs), or, for null, an empty worker
 * (the floor). The goals table (summary.ts) measures with it too.
 */
export async function workerReadyMs(path: string | null, preload = false): Promise<number> {
  const started = performance.now();
  const worker =
    path === null
      ? new Worker('require("node:worker_threads").parentPort.postMessage({ type: "ready" })', { eval: true })
      : startBuiltWorker(path, { workerData: { preload } });
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (message: { type: string }) => {
      if (message.type === 'ready') resolve();
    });
    worker.once('error', reject);
  });
  const ms = performance.now() - started;
  await worker.terminate();
  return ms;
}

/** Starts checkers from source, one after another; each `warm()` pays the whole start-up. */
async function sourceWorkerStartMs(): Promise<number> {
  const checker = new BoundedChecker();
  const started = performance.now();
  await checker.warm();
  const ms = performance.now() - started;
  await checker.close();
  return ms;
}

/** `appInfo` round trips, back to back, for as long as a slow inspection is running. */
async function appInfoDuringSlowInspection(): Promise<{ latencies: number[]; outcome: string }> {
  const checker = new BoundedChecker({ budgetMs: BUDGET_MS, testMode: 'slow' });
  await checker.warm();
  const { api } = testApi({ dataDir: tempDir('apollia-bench-') });
  let done = false;
  const inspecting = checker.run('path', TEMPLATE).then((outcome) => {
    done = true;
    return outcome.ok ? 'accepted (the slow mode did not run)' : `refused: ${outcome.problem.code}`;
  });
  const latencies: number[] = [];
  while (!done) {
    const started = performance.now();
    await api.appInfo({});
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const outcome = await inspecting;
  await checker.close();
  return { latencies, outcome };
}

/** Prints the bounded checker's figures. */
export async function boundedCheckerBench(): Promise<void> {
  console.log('\nBounded checker (worker thread with a time budget and a heap cap)');
  const floor: number[] = [];
  for (let i = 0; i < RUNS; i++) floor.push(await workerReadyMs(null));
  console.log(`worker start-up floor (an empty worker → first message): ${median(floor).toFixed(1)} ms median`);
  const built = join(ROOT, 'out/cli', WORKER_FILE);
  if (existsSync(built)) {
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i++) samples.push(await workerReadyMs(built));
    console.log(
      `worker start-up, built (out/cli/check-worker.cjs through its boot → ready): ${median(samples).toFixed(1)} ms median, ${Math.min(...samples).toFixed(1)} ms min (${RUNS} runs)`,
    );
  } else console.log('worker start-up, built: skipped (run `npm run build` first)');
  const fromSource: number[] = [];
  for (let i = 0; i < RUNS; i++) fromSource.push(await sourceWorkerStartMs());
  console.log(
    `worker start-up, from TS source (tsx/vitest): ${median(fromSource).toFixed(1)} ms median (${RUNS} runs)`,
  );

  const { latencies, outcome } = await appInfoDuringSlowInspection();
  const sorted = [...latencies].sort((a, b) => a - b);
  const max = sorted[sorted.length - 1] ?? Number.NaN;
  console.log(
    `appInfo during a ${BUDGET_MS / 1000} s busy inspection: ${latencies.length} calls, median ${median(latencies).toFixed(2)} ms, max ${max.toFixed(2)} ms (goal < 100 ms) ${max < 100 ? 'OK' : 'MISSED'}; the inspection: ${outcome}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await boundedCheckerBench();
