/**
 * Makes the bounded worker's code cache at build time (issue 17; why it is safe: worker-boot.ts):
 * starts the built worker exactly as the checker does, runs training jobs through it (the spec's
 * example package, a built-in template, the spec's plugin manifest: each reader's usual path), then
 * has the boot write `check-worker.cjs.cache` beside `check-worker.cjs`.
 *
 *   tsx scripts/worker-code-cache.ts out/cli
 *
 * The cache is valid only for the Node that made it (V8 checks its version and flags, and compiles
 * as usual otherwise): it is made for `out/cli/`, which runs under the Node that built it. Electron
 * main's worker (`out/main/`) runs on Electron's V8 and gets none (README "Decisions").
 */
import { on } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { packFolder } from '../electron/core/archive/pack';
import { DEFAULT_RESOURCE_LIMITS } from '../electron/core/bounded/checker';
import type { WorkerReply } from '../electron/core/bounded/protocol';
import { CODE_CACHE_FILE, startBuiltWorker, WORKER_FILE } from '../electron/core/bounded/worker-boot';

const ROOT = resolve(import.meta.dirname, '..');
const folder = process.argv[2];
if (!folder) throw new Error('usage: tsx scripts/worker-code-cache.ts <bundle folder, e.g. out/cli>');
const workerFile = resolve(folder, WORKER_FILE);
const cacheFile = resolve(folder, CODE_CACHE_FILE);
rmSync(cacheFile, { force: true }); // the worker below must compile from source, not from an old cache

const scratch = mkdtempSync(join(tmpdir(), 'apollia-code-cache-'));
try {
  const apo = join(scratch, 'invoices.apo');
  writeFileSync(apo, packFolder(join(ROOT, 'test/fixtures/apo/invoices')));
  const training = [apo, join(ROOT, 'resources/templates/code-review'), join(ROOT, 'test/fixtures/plugin/crm-plugin.json')];

  const worker = startBuiltWorker(workerFile, { resourceLimits: DEFAULT_RESOURCE_LIMITS, writeCodeCacheTo: cacheFile });
  // Every message in order (node:events `on` queues them), and a worker error as a thrown one.
  const messages = on(worker, 'message');
  const until = async (type: string): Promise<WorkerReply | { type: string }> => {
    for (;;) {
      const next = await messages.next();
      if (next.done) throw new Error('the worker stopped');
      const [message] = next.value as [WorkerReply | { type: string }];
      if (message.type === type) return message;
      if (message.type === 'failed') throw new Error(`a training job failed in the worker: ${(message as { message: string }).message}`);
    }
  };
  await until('ready');
  for (const [i, path] of training.entries()) {
    worker.postMessage({ id: i + 1, kind: 'path', path, options: { trustedKeys: [] } });
    const result = (await until('result')) as { value: { ok?: boolean } };
    if (!result.value.ok) throw new Error(`training input ${path} was not accepted`);
  }
  worker.postMessage({ type: 'write-code-cache' });
  await until('code-cache-written');
  await worker.terminate();
  console.log(`code cache: ${cacheFile}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
