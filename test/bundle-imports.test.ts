/**
 * The built main process and CLI are ES modules that Node (and Electron's Node) load as they are:
 * every package they import must resolve with Node's ESM resolver. A deep import without its
 * extension (`ajv/dist/2020` instead of `ajv/dist/2020.js`) bundles and type-checks fine but fails
 * at start-up with ERR_MODULE_NOT_FOUND — on a user's machine, where Electron runs. `npm test`
 * builds before the unit tests, so the bundles are here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
      const imports = bareImports(readFileSync(path, 'utf8'));
      expect(imports.length).toBeGreaterThan(0);
      // Loaded by a plain Node child from the repository root, as the bundle would load them (the test
      // runner's own resolver is laxer). Only the project's dependencies are loaded, never package code.
      const wanted = imports.filter((specifier) => specifier !== 'electron'); // provided by Electron at run time
      const script = `const failed = []; for (const s of ${JSON.stringify(wanted)}) { try { await import(s); } catch (e) { failed.push(s + ': ' + e.code); } } console.log(JSON.stringify(failed));`;
      const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
      expect(JSON.parse(output)).toEqual([]);
    });
  }
});
