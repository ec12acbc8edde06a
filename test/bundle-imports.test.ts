/**
 * The built main process and CLI are ES modules that Node (and Electron's Node) load as they are:
 * every package they import must resolve with Node's ESM resolver. A deep import without its
 * extension (`ajv/dist/2020` instead of `ajv/dist/2020.js`) bundles and type-checks fine but fails
 * at start-up with ERR_MODULE_NOT_FOUND — on a user's machine, where Electron runs. `npm test`
 * builds before the unit tests, so the bundles are here.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { builtinModules } from 'node:module';
import { tempDir } from './helpers/test-api';
import { describe, expect, it } from 'vitest';
import { skipWithoutBuild } from './helpers/built-output';
import {
  CODE_CACHE_FILE,
  startBuiltWorker,
  TEMPLATE_READER_FILE,
  WORKER_FILE,
} from '../electron/core/bounded/worker-boot';

const ROOT = new URL('..', import.meta.url).pathname;
/** Each bundle's entry, and how its files load packages: Electron main is ESM, the CLI CommonJS. */
const BUNDLES: { entry: string; format: 'esm' | 'cjs' }[] = [
  { entry: 'out/main/index.js', format: 'esm' },
  { entry: 'out/cli/cli.cjs', format: 'cjs' },
];

/**
 * The packages `code` loads: `import`/`export … from` and `import()` (ESM), or `require()` (CommonJS, not one written
 * inside a string).
 */
function bareImports(code: string, format: 'esm' | 'cjs'): string[] {
  const pattern =
    format === 'esm'
      ? /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g
      : /(?<![`"'\\])\brequire\(\s*["']([^"']+)["']\s*\)|import\(\s*["']([^"']+)["']\s*\)/g;
  const specifiers = new Set<string>();
  for (const match of code.matchAll(pattern)) {
    const specifier = match[1] ?? match[2];
    if (
      specifier &&
      !specifier.startsWith('.') &&
      !specifier.startsWith('node:') &&
      !builtinModules.includes(specifier)
    )
      specifiers.add(specifier);
  }
  return [...specifiers].sort();
}

describe('built bundles load only what Node can resolve', () => {
  for (const { entry, format } of BUNDLES) {
    const path = join(ROOT, entry);
    it.skipIf(skipWithoutBuild(path))(`${entry} (run \`npm run build\` first)`, () => {
      expect(existsSync(path), `${entry} is missing: run \`npm run build\` first`).toBe(true);
      // The entry, its chunks and the bounded checker's worker files: every script of the bundle's folder.
      const folder = dirname(path);
      const code = readdirSync(folder)
        .filter((name) => /\.c?js$/.test(name))
        .map((name) => readFileSync(join(folder, name), 'utf8'));
      const imports = bareImports(code.join('\n'), format);
      expect(imports.length).toBeGreaterThan(0);
      // Loaded by a plain Node child from the repository root, as the bundle would load them (the test
      // runner's own resolver is laxer). Only the project's dependencies are loaded, never package code.
      const wanted = imports.filter((specifier) => specifier !== 'electron'); // provided by Electron at run time
      const load = format === 'esm' ? 'await import(s)' : 'require(s)';
      const script = `const failed = []; for (const s of ${JSON.stringify(wanted)}) { try { ${load}; } catch (e) { failed.push(s + ': ' + e.code); } } console.log(JSON.stringify(failed));`;
      const output = execFileSync(
        process.execPath,
        format === 'esm' ? ['--input-type=module', '-e', script] : ['-e', script],
        { cwd: ROOT, encoding: 'utf8', timeout: 30_000 },
      );
      expect(JSON.parse(output)).toEqual([]);
    });
  }
});

describe('the bounded checker runs from the built bundles', () => {
  const cli = join(ROOT, 'out/cli');
  const template = join(ROOT, 'resources/templates/code-review');

  it.skipIf(skipWithoutBuild(join(cli, 'cli.cjs')))(
    `the built CLI inspects through out/cli/${WORKER_FILE}, with or without its code cache, and cannot without the worker`,
    () => {
      const copy = tempDir('apollia-cli-bundle-');
      cpSync(cli, copy, { recursive: true });
      // Beside the repository's packages, as an installed CLI is.
      symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
      writeFileSync(join(copy, 'package.json'), '{ "type": "module" }');
      const run = () =>
        spawnSync(process.execPath, [join(copy, 'cli.cjs'), 'inspect', template, '--json'], {
          cwd: ROOT,
          encoding: 'utf8',
          timeout: 30_000,
        });
      const accepted = run();
      expect(accepted.status).toBe(0);
      expect(JSON.parse(accepted.stdout)).toMatchObject({
        kind: 'template',
        ok: true,
        summary: { name: 'code-review' },
      });

      rmSync(join(copy, CODE_CACHE_FILE));
      rmSync(join(copy, `${TEMPLATE_READER_FILE}.cache`));
      const uncached = run();
      expect(uncached.status).toBe(0);
      expect(uncached.stdout).toBe(accepted.stdout);

      rmSync(join(copy, WORKER_FILE));
      const without = run();
      expect(without.status).not.toBe(0);
      expect(without.stdout).toBe(''); // no inspection was made in-thread instead
      expect(without.stderr).toContain(WORKER_FILE);
    },
  );

  it.skipIf(skipWithoutBuild(join(ROOT, 'out/main', WORKER_FILE)))(
    `out/main/${WORKER_FILE} answers a job under plain Node through its boot, as Electron main starts it`,
    async () => {
      const worker = startBuiltWorker(join(ROOT, 'out/main', WORKER_FILE));
      try {
        const replies: Array<{ type: string; codeCache?: string; value?: { ok: boolean; kind: string } }> = [];
        await new Promise<void>((resolve, reject) => {
          worker.on('error', reject);
          worker.on('message', (reply: { type: string; value?: { ok: boolean; kind: string } }) => {
            replies.push(reply);
            if (reply.type === 'ready')
              worker.postMessage({ id: 1, kind: 'path', path: template, options: { trustedKeys: [] } });
            else if (reply.type === 'result') resolve();
          });
        });
        // Electron's V8 is not the build's Node: out/main gets no code cache (worker-code-cache.ts).
        expect(replies.map((r) => r.type)).toEqual(['boot', 'ready', 'result']);
        expect(replies[0]?.codeCache).toBe('absent');
        expect(replies[2]?.value).toMatchObject({ kind: 'template', ok: true });
      } finally {
        await worker.terminate();
      }
    },
  );
});

describe('the built worker is two CommonJS files', () => {
  for (const folder of ['out/cli', 'out/main']) {
    for (const [file, markers] of [
      [WORKER_FILE, ['apollia.toml', 'Invalid TOML', 'plugin manifest']], // the .apo reader (smol-toml) and the plugin reader
      [TEMPLATE_READER_FILE, ['agent.md', 'RE2JS']], // the template reader, yaml and re2js
    ] as const) {
      const path = join(ROOT, folder, file);
      it.skipIf(skipWithoutBuild(path))(
        `${folder}/${file} needs nothing but Node's own modules: no chunk, no import()`,
        () => {
          const code = readFileSync(path, 'utf8');
          // (Not a require() that is itself a string: ajv keeps the code of its runtime helpers as text.)
          const required = new Set(
            [...code.matchAll(/(?<![`"'\\])\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1] as string),
          );
          expect(required.size).toBeGreaterThan(0);
          expect([...required].filter((name) => !builtinModules.includes(name.replace(/^node:/, '')))).toEqual([]);
          for (const marker of markers) expect(code, marker).toContain(marker);
          expect(code).not.toMatch(/\bimport\(\s*["']\.\.?\//);
        },
      );
    }
    it.skipIf(skipWithoutBuild(join(ROOT, folder, WORKER_FILE)))(
      `${folder}/${WORKER_FILE} leaves yaml and re2js to the template reader`,
      () => {
        const code = readFileSync(join(ROOT, folder, WORKER_FILE), 'utf8');
        expect(code).not.toContain('RE2JS');
        expect(code).toContain(TEMPLATE_READER_FILE);
      },
    );
  }
});
