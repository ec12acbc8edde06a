/**
 * The built worker's code cache (electron/core/bounded/worker-boot.ts): made at build
 * time for the Node that builds, used when V8 accepts it, and only a speed-up: a missing, foreign
 * or truncated cache gives the very same inspection, and the boot never writes one unless the build
 * script asks it to.
 */
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { packFolder } from '../electron/core/archive/pack';
import {
  CODE_CACHE_FILE,
  type CodeCacheState,
  startBuiltWorker,
  TEMPLATE_READER_FILE,
  WORKER_FILE,
} from '../electron/core/bounded/worker-boot';
import { skipWithoutBuild } from './helpers/built-output';
import { INVOICES_DIR } from './helpers/pack';
import { tempDir } from './helpers/test-api';

const BUILT = join(new URL('..', import.meta.url).pathname, 'out/cli');

interface Run {
  codeCache: CodeCacheState | undefined;
  inspection: unknown;
}

/** Waits for `worker` to boot, inspects `path` once (after `before`) as `kind`, and ends the worker. */
async function inspectThrough(
  worker: Worker,
  path: string,
  before?: (worker: Worker) => void,
  kind: 'path' | 'apo' = 'path',
): Promise<Run> {
  let codeCache: CodeCacheState | undefined;
  try {
    const inspection = await new Promise<unknown>((resolve, reject) => {
      worker.on('error', reject);
      worker.on('message', (reply: { type: string; codeCache?: CodeCacheState; value?: unknown; message?: string }) => {
        if (reply.type === 'boot') codeCache = reply.codeCache;
        else if (reply.type === 'ready') {
          before?.(worker);
          worker.postMessage({ id: 1, kind, path, options: { trustedKeys: [] } });
        } else if (reply.type === 'result') resolve(reply.value);
        else reject(new Error(reply.message));
      });
    });
    return { codeCache, inspection };
  } finally {
    await worker.terminate();
  }
}

/**
 * A folder holding a copy of the built worker (its two files), and `cache` as the worker's code cache (none when null).
 */
function workerCopy(cache: Buffer | null): string {
  const dir = tempDir('apollia-code-cache-');
  for (const file of [WORKER_FILE, TEMPLATE_READER_FILE]) copyFileSync(join(BUILT, file), join(dir, file));
  if (cache) writeFileSync(join(dir, CODE_CACHE_FILE), cache);
  return join(dir, WORKER_FILE);
}

describe('the built worker and its code cache', () => {
  const skip = skipWithoutBuild(join(BUILT, CODE_CACHE_FILE));

  it.skipIf(skip)(
    'is accepted by the Node that built it, and any other cache only costs the compile: the inspection is the same',
    async () => {
      const apo = join(tempDir('apollia-code-cache-pkg-'), 'invoices.apo');
      writeFileSync(apo, packFolder(INVOICES_DIR));
      const cache = readFileSync(join(BUILT, CODE_CACHE_FILE));

      const built = await inspectThrough(startBuiltWorker(join(BUILT, WORKER_FILE)), apo);
      expect(built.codeCache).toBe('accepted');
      expect(built.inspection).toMatchObject({ kind: 'apo', ok: true, summary: { name: 'invoices' } });

      const cases: [string, Buffer | null, CodeCacheState][] = [
        ['none', null, 'absent'],
        ['truncated', cache.subarray(0, cache.length >> 1), 'rejected'],
        ['not a cache at all', Buffer.from('not a V8 code cache, just bytes in its place '.repeat(64)), 'rejected'],
      ];
      for (const [name, bytes, state] of cases) {
        const run = await inspectThrough(startBuiltWorker(workerCopy(bytes)), apo);
        expect(run.codeCache, name).toBe(state);
        expect(run.inspection, name).toEqual(built.inspection);
      }

      // Another build of the same length (V8 itself would take the cache: it checks the length only).
      // Here one refusal message changes one letter, so a stale cache must not give the old words.
      const workerFile = workerCopy(cache);
      const code = readFileSync(workerFile, 'utf8');
      const at = code.indexOf('the file is empty');
      expect(at).toBeGreaterThan(0);
      writeFileSync(workerFile, `${code.slice(0, at)}the file is EMPTY${code.slice(at + 'the file is empty'.length)}`);
      const empty = join(tempDir('apollia-code-cache-empty-'), 'empty.apo');
      writeFileSync(empty, '');
      const stale = await inspectThrough(startBuiltWorker(workerFile), empty, undefined, 'apo');
      expect(stale.codeCache).toBe('rejected');
      expect(JSON.stringify(stale.inspection)).toContain('the file is EMPTY');
    },
  );

  it.skipIf(skip)(
    "the template reader's own cache is used the same way: a template reads the same with it, without it, or with a foreign one",
    async () => {
      const template = join(BUILT, '../../resources/templates/code-review');
      const built = await inspectThrough(startBuiltWorker(join(BUILT, WORKER_FILE)), template);
      expect(built.inspection).toMatchObject({ kind: 'template', ok: true, summary: { name: 'code-review' } });
      for (const cache of [null, readFileSync(join(BUILT, CODE_CACHE_FILE))]) {
        const workerFile = workerCopy(null);
        if (cache) writeFileSync(join(workerFile, '..', `${TEMPLATE_READER_FILE}.cache`), cache); // the worker's cache, not the reader's
        expect((await inspectThrough(startBuiltWorker(workerFile), template)).inspection).toEqual(built.inspection);
      }
    },
  );

  it.skipIf(skip)('is never written by a worker the checker starts, even when asked', async () => {
    const workerFile = workerCopy(null);
    // The build script's request, sent to a worker started without `writeCodeCaches`.
    const run = await inspectThrough(startBuiltWorker(workerFile), INVOICES_DIR, (worker) =>
      worker.postMessage({ type: 'write-code-cache' }),
    );
    expect(run.codeCache).toBe('absent');
    expect(run.inspection).toMatchObject({ kind: 'template' });
    expect(readdirSync(join(workerFile, '..')).sort()).toEqual([WORKER_FILE, TEMPLATE_READER_FILE].sort());
  });
});
