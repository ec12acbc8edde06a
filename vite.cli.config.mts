import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import pkg from './package.json' with { type: 'json' };

// The headless CLI (`apollia-desktop inspect|install|apply|list|uninstall`): plain Node, no electron.
// CommonJS: Node starts a CommonJS entry without its ES module loader, a few ms and
// about 2 MB less at every start; `import()` of a command becomes a `require()` of its chunk.
// The readers' dependencies are bundled into the chunks that use them: resolved at build time, so a
// start does not walk semver's fifty files nor run Node's CommonJS export scan on each; chokidar
// (and its readdirp) too, being ES modules only, which Node 20 cannot `require()` before 20.19.
// The others stay in node_modules. The bounded checker's worker is built on its own, as one
// CommonJS file (vite.worker.config.mts).
const BUNDLED = new Set(['ajv', 'chokidar', 'croner', 'cronstrue', 're2js', 'readdirp', 'semver', 'smol-toml', 'yaml']);
const external = [
  ...builtinModules,
  ...builtinModules.map((m) => `node:${m}`),
  ...Object.keys(pkg.dependencies).filter((name) => !BUNDLED.has(name)),
].flatMap((name) => [name, new RegExp(`^${name}/`)]);

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
      input: { cli: resolve(import.meta.dirname, 'electron/cli.ts') },
      external,
      output: {
        format: 'cjs',
        entryFileNames: '[name].cjs',
        chunkFileNames: '[name]-[hash].cjs',
        banner: '#!/usr/bin/env node',
      },
    },
  },
});
