import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

// The bounded checker's worker (electron/core/bounded/): ONE CommonJS file, every reader and every
// dependency inside it, no chunk to resolve and no `import()` left (issue 17). Built once per bundle
// folder that starts it: `vite build --config vite.worker.config.mts --outDir out/cli` (and out/main).
// One file is what lets worker-boot.ts compile it with a code cache made at build time.
export default defineConfig({
  ssr: { noExternal: true },
  build: {
    emptyOutDir: false,
    target: 'node20',
    ssr: true,
    minify: true,
    sourcemap: true,
    rollupOptions: {
      input: { 'check-worker': resolve(import.meta.dirname, 'electron/core/bounded/check-worker.ts') },
      external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
      output: { format: 'cjs', entryFileNames: '[name].cjs', inlineDynamicImports: true },
    },
  },
});
