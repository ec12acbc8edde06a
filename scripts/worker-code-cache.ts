/**
 * Makes the bounded worker's code caches at build time (why it is safe: worker-boot.ts):
 * starts the built worker exactly as the checker does, runs training jobs through it (the spec's
 * example package, a built-in template, the spec's plugin manifest: each reader's usual path), then
 * has the boot write each compiled file's cache beside it (`check-worker.cjs.cache`,
 * `template-reader.cjs.cache`). Run by scripts/build-worker.ts, or alone:
 *
 *   tsx scripts/worker-code-cache.ts out/cli
 *
 * A cache is valid only for the Node that made it (V8 checks its version and flags, and compiles
 * as usual otherwise): it is made for `out/cli/`, which runs under the Node that built it. Electron
 * main's worker (`out/main/`) runs on Electron's V8 and gets none (bounded/README.md "Decisions").
 */
import { on } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { packFolder } from '../electron/core/archive/pack';
import { DEFAULT_RESOURCE_LIMITS } from '../electron/core/bounded/checker';
import {
  CODE_CACHE_FILE,
  startBuiltWorker,
  TEMPLATE_READER_FILE,
  WORKER_FILE,
} from '../electron/core/bounded/worker-boot';

const ROOT = resolve(import.meta.dirname, '..');

/** Writes the code caches of the worker built in `folder`; returns the files written. */
export async function makeWorkerCodeCaches(folder: string): Promise<string[]> {
  // The worker below must compile from source, not from an old cache.
  for (const file of [CODE_CACHE_FILE, `${TEMPLATE_READER_FILE}.cache`]) rmSync(join(folder, file), { force: true });
  const scratch = mkdtempSync(join(tmpdir(), 'apollia-code-cache-'));
  const worker = startBuiltWorker(join(folder, WORKER_FILE), {
    resourceLimits: DEFAULT_RESOURCE_LIMITS,
    writeCodeCaches: true,
  });
  try {
    const apo = join(scratch, 'invoices.apo');
    writeFileSync(apo, packFolder(join(ROOT, 'test/fixtures/apo/invoices')));
    const training = [
      apo,
      join(ROOT, 'resources/templates/code-review'),
      join(ROOT, 'test/fixtures/plugin/crm-plugin.json'),
    ];
    // Every message in order (node:events `on` queues them); a worker error is thrown.
    const messages = on(worker, 'message');
    const until = async (
      type: string,
    ): Promise<{ type: string; value?: { ok?: boolean }; message?: string; files?: string[] }> => {
      for (;;) {
        const next = await messages.next();
        if (next.done) throw new Error('the worker stopped');
        const [message] = next.value as [{ type: string; message?: string }];
        if (message.type === type) return message;
        if (message.type === 'failed') throw new Error(`a training job failed in the worker: ${message.message}`);
      }
    };
    await until('ready');
    for (const [i, path] of training.entries()) {
      worker.postMessage({ id: i + 1, kind: 'path', path, options: { trustedKeys: [] } });
      if (!(await until('result')).value?.ok) throw new Error(`training input ${path} was not accepted`);
    }
    worker.postMessage({ type: 'write-code-cache' });
    return (await until('code-cache-written')).files ?? [];
  } finally {
    await worker.terminate();
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const folder = process.argv[2];
  if (!folder) throw new Error('usage: tsx scripts/worker-code-cache.ts <bundle folder, e.g. out/cli>');
  for (const file of await makeWorkerCodeCaches(resolve(folder))) console.log(`code cache: ${file}.cache`);
}
