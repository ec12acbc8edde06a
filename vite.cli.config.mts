import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import pkg from './package.json' with { type: 'json' };

// The headless CLI (`apollia-desktop inspect|install|apply|list|uninstall`): plain Node, no electron.
const external = [...builtinModules, ...builtinModules.map((m) => `node:${m}`), ...Object.keys(pkg.dependencies)].flatMap((name) => [name, new RegExp(`^${name}/`)]);

export default defineConfig({
  build: {
    outDir: 'out/cli',
    emptyOutDir: true,
    target: 'node20',
    ssr: true,
    minify: false,
    sourcemap: true,
    rollupOptions: {
      // The bounded checker's worker is an entry of its own, found beside the bundle at run time
      // (electron/core/bounded/checker.ts); chunks stay flat in out/cli/ so that holds for every chunk.
      input: {
        cli: resolve(import.meta.dirname, 'electron/cli.ts'),
        'check-worker': resolve(import.meta.dirname, 'electron/core/bounded/check-worker.ts'),
      },
      external,
      output: {
        format: 'es',
        entryFileNames: '[name].js',
        chunkFileNames: '[name]-[hash].js',
        banner: '#!/usr/bin/env node',
      },
    },
  },
});
