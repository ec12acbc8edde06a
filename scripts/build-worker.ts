/**
 * Builds the bounded checker's worker into each bundle folder that starts it:
 * `check-worker.cjs` and `template-reader.cjs` (vite.worker.config.mts) into `out/cli/`, copied to
 * `out/main/`, with `check-process.cjs` (the app's utility process around the worker) in `out/main/`, then the code
 * caches for `out/cli/` (scripts/worker-code-cache.ts; Electron's V8
 * would reject a cache made by this Node, so `out/main/` gets none).
 *
 *   tsx scripts/build-worker.ts        (npm run build:worker; part of npm run build)
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { TEMPLATE_READER_FILE, WORKER_FILE } from '../electron/core/bounded/worker-boot';
import { makeWorkerCodeCaches } from './worker-code-cache';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'out/cli');
const MAIN = join(ROOT, 'out/main');
const configFile = join(ROOT, 'vite.worker.config.mts');

for (const mode of ['check-worker', 'template-reader'])
  await build({ configFile, mode, logLevel: 'warn', build: { outDir: CLI } });
mkdirSync(MAIN, { recursive: true });
for (const file of [WORKER_FILE, TEMPLATE_READER_FILE]) {
  copyFileSync(join(CLI, file), join(MAIN, file));
  copyFileSync(join(CLI, `${file}.map`), join(MAIN, `${file}.map`));
}
// The app's utility process around the worker (main only: the CLI keeps the worker thread).
await build({ configFile, mode: 'check-process', logLevel: 'warn', build: { outDir: MAIN } });
for (const file of await makeWorkerCodeCaches(CLI)) console.log(`code cache: ${file}.cache`);
