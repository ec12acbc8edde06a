import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { withInlineScriptHashes } from './electron/main/csp';

/**
 * `npm run dev` only: the React plugin's inline preamble is pinned by its hash in the page's CSP
 * `<meta>` (electron/main/csp.ts); the built renderer's page and policy are untouched.
 */
function devInlineScriptHashes(): Plugin {
  return {
    name: 'apollia-dev-csp-hashes',
    apply: 'serve',
    transformIndexHtml: { order: 'post', handler: (html) => withInlineScriptHashes(html) },
  };
}

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        // The bounded checker's worker is built beside index.js by `npm run build:worker`
        // (vite.worker.config.mts; checker.ts finds it next to its chunk: chunks stay flat in out/main/).
        input: { index: resolve(__dirname, 'electron/main/index.ts') },
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(__dirname, 'electron/preload/index.ts') },
        // A sandboxed preload must be a single CommonJS file.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'renderer',
    build: {
      outDir: 'out/renderer',
      // Minified, and split: screens off the first paint are their own chunks (React.lazy).
      minify: true,
      rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } },
    },
    plugins: [react(), devInlineScriptHashes()],
  },
});
