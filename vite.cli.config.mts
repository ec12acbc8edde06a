import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import pkg from './package.json' with { type: 'json' };

// The headless CLI (`apollia-desktop inspect|install|apply|list|uninstall`): plain Node, no electron.
// The readers' dependencies are bundled into the chunks that use them (issue 17): resolved at build
// time, CommonJS turned into ESM once, so a start does not walk semver's fifty files nor run Node's
// CommonJS export scan on each. The others stay in node_modules.
const BUNDLED = new Set(['ajv', 'croner', 'cronstrue', 're2js', 'semver', 'smol-toml', 'yaml']);
const external = [...builtinModules, ...builtinModules.map((m) => `node:${m}`), ...Object.keys(pkg.dependencies).filter((name) => !BUNDLED.has(name))].flatMap((name) => [name, new RegExp(`^${name}/`)]);

export default defineConfig({
  ssr: { noExternal: [...BUNDLED] },
  build: {
    outDir: 'out/cli',
    emptyOutDir: true,
    target: 'node20',
    ssr: true,
    minify: false,
    sourcemap: true,
    rollupOptions: {
      // The bounded checker's worker is built on its own, as one CommonJS file (vite.worker.config.mts).
      input: { cli: resolve(import.meta.dirname, 'electron/cli.ts') },
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
