/**
 * How the BUILT worker starts: a few lines of boot code, run as an eval'd worker, that
 * compile the worker's CommonJS file (`check-worker.cjs`, built by scripts/build-worker.ts) with
 * V8's code cache beside it (`check-worker.cjs.cache`), then run it; the template reader
 * (`template-reader.cjs`) the same way, when a job first needs it. A cache holds the bytecode of
 * the functions a few training jobs compiled, so a job in a fresh worker does not compile the
 * readers again: it was most of what a small package cost the CLI.
 *
 * Why this is safe:
 * - the cache is made at BUILD time (`scripts/worker-code-cache.ts`) and only read at run time: no
 *   process ever writes a cache that a later one trusts. It sits beside the code it caches, in the
 *   same folder, under the same protection (packaged: inside the integrity-checked asar), so whoever
 *   could alter it could alter the code itself;
 * - V8 checks a cache against its own version, its flags and the source's length before using it
 *   (`script.cachedDataRejected`), and the boot first checks the SHA-256 of the source the cache
 *   was made for, which it stores in front: a cache from another Node or Electron or another build,
 *   a truncated or foreign file, or none at all, only means the code is compiled as usual. The result is the same
 * either
 *   way; the boot says which it was in its first message (`codeCache`), which the tests read.
 *
 * The boot is a string because an eval'd worker is the one way to run code before a CommonJS file
 * without a second file on disk; it is short, has no input but the checker's own `workerData`, and
 * `test/worker-code-cache.test.ts` runs it with a good, a foreign, a truncated and a missing cache.
 * It runs inside a function so that the cache's bytes and the compiled `Script`s are garbage once
 * run (only the build's code-cache request keeps them).
 */

import { type ResourceLimits, Worker } from 'node:worker_threads';

/** Whether the worker's code came from the code cache. */
export type CodeCacheState = 'accepted' | 'rejected' | 'absent';

/** The worker's file name in a bundle folder (`out/cli/`, `out/main/`). */
export const WORKER_FILE = 'check-worker.cjs';

/** The code cache's file name: the worker's, plus `.cache`. */
export const CODE_CACHE_FILE = `${WORKER_FILE}.cache`;

/**
 * The template reader's file beside the worker's (yaml and re2js are most of its size): a job
 * that reads an `.apo` never compiles it, a template job loads it once, with its own code cache.
 */
export const TEMPLATE_READER_FILE = 'template-reader.cjs';

/** The name under which the boot lends the worker its loader of sibling files (see below). */
export const LOAD_WORKER_FILE = 'apollia.loadWorkerFile';

/** What the boot is given in `workerData`, beside what the worker itself reads there. */
export interface BootData {
  /** Absolute path of `check-worker.cjs`. */
  workerFile: string;
  /**
   * Build only (`scripts/worker-code-cache.ts`): when the parent posts `{ type: 'write-code-cache' }`,
   * write each compiled file's code cache beside it. Never set by the checker.
   */
  writeCodeCaches?: boolean;
}

/**
 * The boot, as an eval'd worker runs it (CommonJS: `require` is Node's). It compiles a file with
 * the code cache beside it (the SHA-256 of the source it was made for, then V8's data), posts `{ type: 'boot',
 * codeCache }` for `check-worker.cjs`, then runs
 * it. A sibling file the worker asks for by name through `globalThis[Symbol.for(LOAD_WORKER_FILE)]`
 * (the template reader) is compiled the same way, once. The wrapper is the one Node's CommonJS
 * loader puts around a file, on the file's first line, so stack traces keep their lines.
 */
export const WORKER_BOOT = `'use strict';
(function boot() {
  const { readFileSync, writeFileSync } = require('node:fs');
  const { createRequire } = require('node:module');
  const { dirname, join } = require('node:path');
  const { Script } = require('node:vm');
  const { parentPort, workerData } = require('node:worker_threads');
  const { createHash } = require('node:crypto');
  const compiled = [];
  function compile(file) {
    const source = '(function (exports, require, module, __filename, __dirname) { ' + readFileSync(file, 'utf8') + '\\n})';
    let stored;
    try { stored = readFileSync(file + '.cache'); } catch { stored = undefined; }
    const writing = workerData.writeCodeCaches === true;
    // V8 ties a cache to its source's LENGTH only: the SHA-256 in front ties it to these very bytes.
    // (Hashed only when there is a cache to check or one to write: Electron's worker has none.)
    const digest = stored !== undefined || writing ? createHash('sha256').update(source).digest() : undefined;
    const made = stored !== undefined && stored.length > 32 && stored.subarray(0, 32).equals(digest);
    const script = new Script(source, { filename: file, cachedData: made ? stored.subarray(32) : undefined });
    if (writing) compiled.push({ file, script, digest });
    const state = stored === undefined ? 'absent' : !made || script.cachedDataRejected ? 'rejected' : 'accepted';
    const run = () => {
      const module_ = { exports: {} };
      script.runInThisContext()(module_.exports, createRequire(file), module_, file, dirname(file));
      return module_.exports;
    };
    return { state, run };
  }
  const siblings = new Map();
  Object.defineProperty(globalThis, Symbol.for('${LOAD_WORKER_FILE}'), {
    value: (name) => {
      if (!/^[a-z][a-z-]*\\.cjs$/.test(name)) throw new Error('not a file of the worker: ' + name);
      if (!siblings.has(name)) siblings.set(name, compile(join(dirname(workerData.workerFile), name)).run());
      return siblings.get(name);
    },
  });
  if (workerData.writeCodeCaches === true) {
    parentPort.on('message', (message) => {
      if (message && message.type === 'write-code-cache') {
        for (const { file, script, digest } of compiled) writeFileSync(file + '.cache', Buffer.concat([digest, script.createCachedData()]));
        parentPort.postMessage({ type: 'code-cache-written', files: compiled.map(({ file }) => file) });
      }
    });
  }
  const worker = compile(workerData.workerFile);
  parentPort.postMessage({ type: 'boot', codeCache: worker.state });
  worker.run();
})();
`;

/**
 * Starts the built worker `workerFile` through the boot: what {@link BoundedChecker} does, and the
 * code-cache script, the benches and the tests with it. `workerData` is the worker's own (preload,
 * prepareFor, testMode). Its first message is `boot`, then `ready`.
 */
export function startBuiltWorker(
  workerFile: string,
  options: { workerData?: object; resourceLimits?: ResourceLimits; writeCodeCaches?: boolean } = {},
): Worker {
  const boot: BootData = { workerFile, ...(options.writeCodeCaches ? { writeCodeCaches: true } : {}) };
  return new Worker(WORKER_BOOT, {
    eval: true,
    ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
    workerData: { ...options.workerData, ...boot },
  });
}
