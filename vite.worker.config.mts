import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { LOAD_WORKER_FILE, TEMPLATE_READER_FILE } from './electron/core/bounded/worker-boot.ts';

// The bounded checker's worker (electron/core/bounded/), built by scripts/build-worker.ts: ONE
// minified CommonJS file per entry, every dependency inside, no chunk and no `import()` left.
// One file is what lets worker-boot.ts compile it with a code cache made at build time.
// Three entries: `check-worker` (the worker, the .apo and plugin readers), `template-reader`,
// which the worker loads through the boot only when a job reads a template (`--mode template-reader`),
// and `check-process`, the app's utility process that holds the worker (main only).

const TEMPLATE_READER = resolve(import.meta.dirname, 'electron/core/bounded/template-reader.ts');

/** In the worker's file, the template reader is the boot's load of `template-reader.cjs`. */
function templateReaderApart(): Plugin {
  const id = '\0apollia-template-reader';
  return {
    name: 'apollia-template-reader-apart',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === TEMPLATE_READER ? id : null;
    },
    load(loading) {
      if (loading !== id) return null;
      return `const reader = globalThis[Symbol.for(${JSON.stringify(LOAD_WORKER_FILE)})](${JSON.stringify(TEMPLATE_READER_FILE)});
export const inspectTemplateFolder = reader.inspectTemplateFolder;
export const readTemplateFolder = reader.readTemplateFolder;`;
    },
  };
}

export default defineConfig(({ mode }) => {
  if (mode !== 'check-worker' && mode !== 'template-reader' && mode !== 'check-process')
    throw new Error(`vite.worker.config.mts builds --mode check-worker, template-reader or check-process, not ${mode}`);
  const templateReader = mode === 'template-reader';
  const entry = templateReader ? TEMPLATE_READER : resolve(import.meta.dirname, `electron/core/bounded/${mode}.ts`);
  return {
    ssr: { noExternal: true },
    plugins: mode === 'check-worker' ? [templateReaderApart()] : [],
    build: {
      emptyOutDir: false,
      target: 'node20',
      ssr: true,
      minify: true,
      sourcemap: true,
      rollupOptions: {
        input: { [mode]: entry },
        external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  };
});
