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
import { Worker } from 'node:worker_threads';
import { tempDir } from './helpers/test-api';
import { describe, expect, it } from 'vitest';
import { skipWithoutBuild } from './helpers/built-output';

const ROOT = new URL('..', import.meta.url).pathname;
const BUNDLES = ['out/main/index.js', 'out/cli/cli.js'];

function bareImports(code: string): string[] {
  const specifiers = new Set<string>();
  for (const match of code.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)) {
    const specifier = match[1] ?? match[2];
    if (specifier && !specifier.startsWith('.') && !specifier.startsWith('node:')) specifiers.add(specifier);
  }
  return [...specifiers].sort();
}

describe('built ES modules import only what Node can resolve', () => {
  for (const bundle of BUNDLES) {
    const path = join(ROOT, bundle);
    it.skipIf(skipWithoutBuild(path))(`${bundle} (run \`npm run build\` first)`, () => {
      expect(existsSync(path), `${bundle} is missing: run \`npm run build\` first`).toBe(true);
      // The entry, its chunks and the bounded checker's worker entry: every .js file of the bundle's folder.
      const folder = dirname(path);
      const code = readdirSync(folder)
        .filter((name) => name.endsWith('.js'))
        .map((name) => readFileSync(join(folder, name), 'utf8'));
      const imports = bareImports(code.join('\n'));
      expect(imports.length).toBeGreaterThan(0);
      // Loaded by a plain Node child from the repository root, as the bundle would load them (the test
      // runner's own resolver is laxer). Only the project's dependencies are loaded, never package code.
      const wanted = imports.filter((specifier) => specifier !== 'electron'); // provided by Electron at run time
      const script = `const failed = []; for (const s of ${JSON.stringify(wanted)}) { try { await import(s); } catch (e) { failed.push(s + ': ' + e.code); } } console.log(JSON.stringify(failed));`;
      const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
      expect(JSON.parse(output)).toEqual([]);
    });
  }
});

describe('the bounded checker runs from the built bundles', () => {
  const cli = join(ROOT, 'out/cli');
  const template = join(ROOT, 'resources/templates/code-review');

  it.skipIf(skipWithoutBuild(join(cli, 'cli.js')))('the built CLI inspects through out/cli/check-worker.js, and cannot without it', () => {
    const copy = tempDir('apollia-cli-bundle-');
    cpSync(cli, copy, { recursive: true });
    // Beside the repository's packages, as an installed CLI is.
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    writeFileSync(join(copy, 'package.json'), '{ "type": "module" }');
    const run = () => spawnSync(process.execPath, [join(copy, 'cli.js'), 'inspect', template, '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    const accepted = run();
    expect(accepted.status).toBe(0);
    expect(JSON.parse(accepted.stdout)).toMatchObject({ kind: 'template', ok: true, summary: { name: 'code-review' } });

    rmSync(join(copy, 'check-worker.js'));
    const without = run();
    expect(without.status).not.toBe(0);
    expect(without.stdout).toBe(''); // no inspection was made in-thread instead
    expect(without.stderr).toContain('check-worker.js');
  });

  it.skipIf(skipWithoutBuild(join(ROOT, 'out/main/check-worker.js')))('out/main/check-worker.js answers a job under plain Node, as Electron main starts it', async () => {
    const worker = new Worker(join(ROOT, 'out/main/check-worker.js'));
    try {
      const replies: Array<{ type: string; value?: { ok: boolean; kind: string } }> = [];
      await new Promise<void>((resolve, reject) => {
        worker.on('error', reject);
        worker.on('message', (reply: { type: string; value?: { ok: boolean; kind: string } }) => {
          replies.push(reply);
          if (reply.type === 'ready') worker.postMessage({ id: 1, kind: 'path', path: template });
          else resolve();
        });
      });
      expect(replies.map((r) => r.type)).toEqual(['ready', 'result']);
      expect(replies[1]?.value).toMatchObject({ kind: 'template', ok: true });
    } finally {
      await worker.terminate();
    }
  });
});

describe('the built CLI loads what a job uses (issue 17)', () => {
  const cli = join(ROOT, 'out/cli');
  /** The chunk files `entry` loads, statically and through `import()`, transitively, with their text. */
  function chunkGraph(entry: string, follow: (from: string, specifier: string, dynamic: boolean) => boolean): Map<string, string> {
    const seen = new Map<string, string>();
    const visit = (name: string) => {
      if (seen.has(name)) return;
      const code = readFileSync(join(cli, name), 'utf8');
      seen.set(name, code);
      for (const match of code.matchAll(/(?:from\s*|import\(\s*)["']\.\/([^"']+)["']/g)) {
        const dynamic = match[0].startsWith('import(');
        if (match[1] && follow(name, match[1], dynamic)) visit(match[1]);
      }
    };
    visit(entry);
    return seen;
  }
  /** The packages bundled into `graph`: ESM ones by the bundler's `// node_modules/<name>/…` markers, cronstrue (CommonJS, inlined without one) by its UMD wrapper. */
  const modulesIn = (graph: Map<string, string>) => [...graph.values()].flatMap((code) => [...[...code.matchAll(/^\/\/ (node_modules\/[^/\s]+)/gm)].map((m) => m[1] as string), ...(code.includes('exports["cronstrue"]') ? ['node_modules/cronstrue'] : [])]);

  it.skipIf(skipWithoutBuild(join(cli, 'check-worker.js')))('an .apo job in the worker loads neither the template reader (yaml, re2js) nor cronstrue', () => {
    // The worker's static imports, then the one dynamic import an .apo job makes.
    const worker = readFileSync(join(cli, 'check-worker.js'), 'utf8');
    const apoChunk = /apoReader = \(\) => import\(["']\.\/([^"']+)["']\)/.exec(worker)?.[1];
    expect(apoChunk, 'check-worker.js names the .apo reader chunk').toBeDefined();
    const staticOnly = (_from: string, _specifier: string, dynamic: boolean) => !dynamic;
    const loaded = new Map([...chunkGraph('check-worker.js', staticOnly), ...chunkGraph(apoChunk as string, staticOnly)]);
    const modules = new Set(modulesIn(loaded));
    expect(modules.has('node_modules/smol-toml'), 'the .apo reader itself is found').toBe(true);
    expect([...modules].filter((m) => ['node_modules/cronstrue', 'node_modules/yaml', 'node_modules/re2js'].includes(m))).toEqual([]);
    // The same graph walk finds them where they are: the template reader, and the words of a schedule.
    const everything = modulesIn(
      new Map(
        readdirSync(cli)
          .filter((name) => name.endsWith('.js'))
          .map((name) => [name, readFileSync(join(cli, name), 'utf8')]),
      ),
    );
    expect(['node_modules/cronstrue', 'node_modules/yaml', 'node_modules/re2js'].every((m) => everything.includes(m))).toBe(true);
  });
});
