#!/usr/bin/env node
/**
 * Moves source modules and rewrites every relative import that names them, across the repository.
 * Usage: node scripts/move-modules.mjs MAP.json   (MAP: { "shared/cron.ts": "shared/triggers/cron.ts", … })
 * A module's test (`x.test.ts` beside `x.ts`) moves with it. Idempotent: a file already moved is skipped,
 * and imports are recomputed from where each file and each target now live, so it can be run again after a merge.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(new URL('..', import.meta.url).pathname);
const map = JSON.parse(readFileSync(process.argv[2], 'utf8'));
for (const [from, to] of Object.entries({ ...map })) {
  const test = from.replace(/\.tsx?$/, (ext) => `.test${ext}`);
  if (existsSync(join(ROOT, test)) && !map[test]) map[test] = to.replace(/\.tsx?$/, (ext) => `.test${ext}`);
}
// Old absolute path (no extension) → new absolute path (no extension).
const moved = new Map(
  Object.entries(map).map(([a, b]) => [join(ROOT, a).replace(/\.tsx?$/, ''), join(ROOT, b).replace(/\.tsx?$/, '')]),
);
const back = new Map([...moved].map(([a, b]) => [b, a]));

const movedNow = new Set();
for (const [from, to] of Object.entries(map)) {
  if (!existsSync(join(ROOT, from))) continue;
  movedNow.add(join(ROOT, to).replace(/\.tsx?$/, ''));
  mkdirSync(dirname(join(ROOT, to)), { recursive: true });
  execFileSync('git', ['mv', from, to], { cwd: ROOT });
}

const SKIP = new Set(['node_modules', 'out', '.git', 'dist', 'generated-screens']);
function* files(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(e.name)) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else if (/\.(ts|tsx|mts|mjs|cjs|js)$/.test(e.name) && !p.includes('/generated/')) yield p;
  }
}
const exts = ['.ts', '.tsx', '.d.ts', '/index.ts'];
const known = (abs) => exts.some((x) => existsSync(abs + x));
let changed = 0;
for (const file of files(ROOT)) {
  const noExt = file.replace(/\.(ts|tsx|mts|mjs)$/, '');
  const oldFile = movedNow.has(noExt) ? back.get(noExt) : noExt; // where its imports were written from
  const text = readFileSync(file, 'utf8');
  const next = text.replace(
    /((?:from|import|mock|require)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]*)\2/g,
    (all, pre, q, spec) => {
      const extMatch = spec.match(/\.(ts|tsx|js|mjs)$/);
      const bare = extMatch ? spec.slice(0, -extMatch[0].length) : spec;
      let target = resolve(dirname(oldFile), bare);
      if (!moved.has(target) && !known(target) && !back.has(target)) {
        // Resolved from the old place it names nothing: perhaps already rewritten for the new place.
        const fromNew = resolve(dirname(file), bare);
        if (known(fromNew) || back.has(fromNew)) target = back.get(fromNew) ?? fromNew;
        else return all;
      }
      const dest = moved.get(target) ?? target;
      let rel = relative(dirname(file), dest).split('\\').join('/');
      if (!rel.startsWith('.')) rel = `./${rel}`;
      rel += extMatch ? extMatch[0] : '';
      return rel === spec ? all : `${pre}${q}${rel}${q}`;
    },
  );
  if (next !== text) {
    writeFileSync(file, next);
    changed++;
  }
}
console.log(`moved ${Object.keys(map).length} files, rewrote imports in ${changed}`);
