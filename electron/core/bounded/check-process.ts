/**
 * The checker's process (DESIGN.md "Security of the app itself": the checker runs in an Electron
 * `utilityProcess` in the app). A small relay: it starts the bounded worker (`check-worker.cjs`
 * beside it, through worker-boot.ts, with the heap caps it is given) and passes messages both
 * ways. The worker's budgets are unchanged; what this adds is a process around them, so that
 * whatever ends more than a thread — a native crash, a process-wide out-of-memory abort, which a
 * worker hitting its heap cap has been seen to cause — ends this process only, and the app's
 * checker answers that package with a refusal (`inspect.checker_crashed`) and starts a new one.
 *
 * Built as one CommonJS file (`out/main/check-process.cjs`, vite.worker.config.mts). It talks to
 * its parent through Electron's `process.parentPort` in a utility process, or Node's IPC channel
 * when forked by Node (`serialization: 'advanced'`: structured clone, as the worker's port uses),
 * which is how the tests run it.
 */
import { join } from 'node:path';
import { startBuiltWorker, WORKER_FILE } from './worker-boot';

/** The relay's first message from its parent: the worker's data and caps. */
export interface CheckProcessInit {
  type: 'init';
  workerData: object;
  resourceLimits: { maxOldGenerationSizeMb?: number; maxYoungGenerationSizeMb?: number; stackSizeMb?: number };
}

/** What the relay posts besides the worker's own replies: the worker thread's error, with its code. */
export interface CheckProcessError {
  type: 'worker-error';
  code: string | null;
  message: string;
}

/** Electron's port to the parent of a utility process (absent under Node). */
interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
  postMessage(message: unknown): void;
}

const electronPort = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
const parent = electronPort
  ? {
      listen: (listener: (message: unknown) => void) => electronPort.on('message', (event) => listener(event.data)),
      post: (message: unknown) => electronPort.postMessage(message),
    }
  : {
      listen: (listener: (message: unknown) => void) => process.on('message', listener),
      post: (message: unknown) => {
        process.send?.(message as never);
      },
    };
if (!electronPort && !process.send)
  throw new Error('check-process runs as a utility process (or a forked child), started by the app');

let worker: ReturnType<typeof startBuiltWorker> | null = null;
parent.listen((message) => {
  if (worker) {
    worker.postMessage(message);
    return;
  }
  const init = message as CheckProcessInit;
  if (init?.type !== 'init') return;
  worker = startBuiltWorker(join(__dirname, WORKER_FILE), {
    workerData: init.workerData,
    resourceLimits: init.resourceLimits,
  });
  worker.on('message', (reply: unknown) => parent.post(reply));
  worker.on('error', (error: Error & { code?: string }) =>
    parent.post({ type: 'worker-error', code: error.code ?? null, message: error.message } satisfies CheckProcessError),
  );
  worker.on('exit', (code) => process.exit(code));
});
