/**
 * The speed goals in ONE table: each figure beside its floor measured in the same run, the
 * ratio, the goal, and the machine's load average (`os.loadavg()`, 1 min) when the row was taken.
 *
 * - the built CLI (`out/cli/cli.cjs inspect --json`, worker included) on the spec's example, against
 *   a bare `node -e 0`;
 * - the built CLI on the 128 MiB package, wall time against `bsdtar -tzf` and peak RSS;
 * - the bounded worker's start (`out/cli/check-worker.cjs` through its boot → `ready`) against an empty worker;
 * - time from a file being opened to the consent Overview painted, in headless Chromium through the
 *   e2e harness, for the spec's example and the 3,000-tool package: measured in the page, from the
 *   `opened` event to the frame after the Overview's heading is in the document; its floor is the
 *   `inspect` Api call's own time (what the server spends before the page can draw anything);
 * - the renderer's initial JavaScript (what `index.html` loads before the first paint), gzipped.
 *
 * Medians of `BENCH_RUNS` (default 5) after one warm-up. Figures only, never assertions.
 * Run alone: `npx tsx bench/summary.ts` (after `npm run build`); `npm run bench` prints it last.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { WORKER_FILE } from '../electron/core/bounded/worker-boot';
import { API_METHODS } from '../shared/contract/api';
import { installBridge } from '../e2e/harness/bridge';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import { startHarness } from '../e2e/support/harness-process';
import { workerReadyMs } from './bounded-checker';
import { invoicesPackage, largePackage } from './generate';
import { measure, median, ROOT, RUNS, type Sample } from './measure';
import { scalePackage } from './render-scale';

/** One line of the table. */
interface Row {
  name: string;
  value: number;
  unit: 'ms' | 'MB' | 'KiB';
  floorName: string;
  floor: number | null;
  goal: string;
  /** Whether the goal is met (null: no goal). */
  met: boolean | null;
  load: number;
  note: string;
}

const CLI = join(ROOT, 'out/cli/cli.cjs');
const WORKER = join(ROOT, 'out/cli', WORKER_FILE);

async function samples(command: string, args: string[]): Promise<Sample[]> {
  await measure(command, args, [0, 1]); // warm the page cache and the binary
  const out: Sample[] = [];
  for (let i = 0; i < RUNS; i++) out.push(await measure(command, args, [0, 1]));
  return out;
}

/** Accepted or refused, from the start of the JSON (only the first 4 KiB of output is kept). */
function outcome({ stdout }: Sample): string {
  const ok = /"ok": (true|false)/.exec(stdout)?.[1];
  if (ok === 'true') return `accepted (${/"name": "([^"]*)"/.exec(stdout)?.[1] ?? '?'})`;
  if (ok === 'false') return `refused: ${/"code": "([^"]*)"/.exec(stdout)?.[1] ?? '?'}`;
  return stdout.slice(0, 60);
}

const load = () => loadavg()[0] ?? Number.NaN;

/**
 * The scripts the first screen loads before it can paint: `index.html`'s entry and module
 * preloads, and every chunk they import statically (not the `import()`ed screens), gzipped.
 */
export function initialJs(): { gzKiB: number; rawKiB: number; files: number; allGzKiB: number } | null {
  const dir = join(ROOT, 'out/renderer');
  const indexHtml = join(dir, 'index.html');
  if (!existsSync(indexHtml)) return null;
  const html = readFileSync(indexHtml, 'utf8');
  const pending = [
    ...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\.\/([^"]+\.js)"/g),
  ].map((m) => m[1] as string);
  const seen = new Set<string>();
  let gz = 0;
  let raw = 0;
  while (pending.length > 0) {
    const ref = pending.pop() as string;
    if (seen.has(ref)) continue;
    seen.add(ref);
    const bytes = readFileSync(join(dir, ref));
    raw += bytes.length;
    gz += gzipSync(bytes, { level: 9 }).length;
    const base = ref.slice(0, ref.lastIndexOf('/') + 1);
    for (const m of bytes.toString('utf8').matchAll(/(?:\bfrom|\bimport)\s*"\.\/([^"]+\.js)"/g))
      pending.push(`${base}${m[1]}`);
  }
  let all = 0;
  const assets = join(dir, 'assets');
  for (const name of existsSync(assets) ? readdirSync(assets) : []) {
    if (name.endsWith('.js')) all += gzipSync(readFileSync(join(assets, name)), { level: 9 }).length;
  }
  return { gzKiB: gz / 1024, rawKiB: raw / 1024, files: seen.size, allGzKiB: all / 1024 };
}

/**
 * Marks the page: `opened` when the harness's event arrives, `overview` on the frame after the Overview heading
 * appears. Runs in the browser.
 */
function installOverviewMarks(): void {
  const page = globalThis as unknown as {
    EventSource: { prototype: { addEventListener(type: string, listener: (event: unknown) => void): void } };
    performance: { mark(name: string): void; clearMarks(): void };
    document: {
      querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }>;
      documentElement: unknown;
    };
    MutationObserver: new (
      callback: () => void,
    ) => { observe(target: unknown, options: { childList: boolean; subtree: boolean }): void };
    requestAnimationFrame(callback: () => void): void;
    setTimeout(callback: () => void, ms: number): void;
    __overviewArmed?: boolean;
  };
  const add = page.EventSource.prototype.addEventListener;
  page.EventSource.prototype.addEventListener = function (
    this: unknown,
    type: string,
    listener: (event: unknown) => void,
  ) {
    if (type !== 'opened') return add.call(this, type, listener);
    return add.call(this, type, (event: unknown) => {
      page.performance.clearMarks();
      page.performance.mark('opened');
      page.__overviewArmed = true;
      listener(event);
    });
  };
  const observer = new page.MutationObserver(() => {
    if (!page.__overviewArmed) return;
    const headings = page.document.querySelectorAll('h2');
    if (!Array.from(headings).some((heading) => heading.textContent?.startsWith('Step 1 of 4'))) return;
    page.__overviewArmed = false;
    page.requestAnimationFrame(() => page.setTimeout(() => page.performance.mark('overview'), 0));
  });
  observer.observe(page.document, { childList: true, subtree: true });
}

/** Milliseconds between the page's `opened` and `overview` marks, or NaN while not there yet. */
function overviewMarks(): number {
  const page = globalThis as unknown as { performance: { getEntriesByName(name: string): { startTime: number }[] } };
  const opened = page.performance.getEntriesByName('opened')[0];
  const painted = page.performance.getEntriesByName('overview')[0];
  return opened && painted ? painted.startTime - opened.startTime : Number.NaN;
}

/** Open → Overview painted, in the page, per package; with the `inspect` call's own time. */
async function timeToOverview(
  packages: { label: string; path: string }[],
): Promise<Map<string, { ms: number; inspectMs: number; load: number }> | string> {
  if (!existsSync(join(ROOT, 'out/renderer/index.html'))) return 'no built renderer (run `npm run build` first)';
  if (!existsSync(CHROMIUM_PATH)) return `no Chromium at ${CHROMIUM_PATH}`;
  const { chromium } = await import('@playwright/test');
  const harness = await startHarness();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
  const results = new Map<string, { ms: number; inspectMs: number; load: number }>();
  try {
    const context = await browser.newContext({
      baseURL: harness.url,
      viewport: { width: 1180, height: 820 },
      timezoneId: 'UTC',
      locale: 'en-US',
    });
    for (const { label, path } of packages) {
      const ms: number[] = [];
      const inspectMs: number[] = [];
      const loads: number[] = [];
      for (let run = 0; run <= RUNS; run++) {
        await fetch(`${harness.url}/test/reset`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        const page = await context.newPage();
        await page.addInitScript({ content: 'globalThis.__name = (target) => target;' });
        await page.addInitScript(installOverviewMarks);
        await page.addInitScript(installBridge, { methods: [...API_METHODS] });
        let callMs = Number.NaN;
        page.on('requestfinished', (request) => {
          if (request.url().endsWith('/api/inspect')) callMs = request.timing().responseEnd;
        });
        await page.goto('/');
        await page.getByRole('heading', { level: 1, name: 'Open a package' }).waitFor({ timeout: 60_000 });
        const answer = (await (
          await fetch(`${harness.url}/test/open`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ path }),
          })
        ).json()) as { ok: boolean };
        if (!answer.ok) throw new Error(`the harness could not open ${path}`);
        await page.waitForFunction(
          () => {
            const p = globalThis as unknown as { performance: { getEntriesByName(name: string): unknown[] } };
            return p.performance.getEntriesByName('overview').length > 0;
          },
          null,
          { timeout: 120_000, polling: 50 },
        );
        const took = await page.evaluate(overviewMarks);
        if (run > 0) {
          ms.push(took);
          inspectMs.push(callMs);
          loads.push(load());
        }
        await page.close();
      }
      results.set(label, { ms: median(ms), inspectMs: median(inspectMs), load: median(loads) });
    }
    await context.close();
  } finally {
    await browser.close();
    await harness.stop();
  }
  return results;
}

function printTable(rows: Row[]): void {
  const header = ['figure', 'median', 'floor', 'ratio', 'goal', 'met', 'load 1m', 'floor is / notes'];
  const fmt = (value: number, unit: Row['unit']) => `${value.toFixed(unit === 'ms' ? 0 : 1)} ${unit}`;
  const table = rows.map((row) => [
    row.name,
    fmt(row.value, row.unit),
    row.floor === null ? '-' : fmt(row.floor, row.unit),
    row.floor === null || row.floor === 0 ? '-' : `${(row.value / row.floor).toFixed(2)}×`,
    row.goal,
    row.met === null ? '-' : row.met ? 'OK' : 'MISSED',
    row.load.toFixed(2),
    `${row.floorName}${row.note ? `; ${row.note}` : ''}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => (r[i] ?? '').length)));
  const left = new Set([0, 4, 5, 7]);
  const line = (cells: string[]) =>
    cells.map((cell, i) => (left.has(i) ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of table) console.log(line(row));
}

/** Measures and prints the goals table. */
export async function summaryBench(): Promise<void> {
  const rows: Row[] = [];
  if (!existsSync(CLI)) {
    console.log('\nGoals table skipped: no built CLI (run `npm run build` first).');
    return;
  }
  const invoices = invoicesPackage();
  const large = await largePackage();
  const scale = await scalePackage();

  const bare = await samples(process.execPath, ['-e', '0']);
  const bareLoad = load();
  const small = await samples(process.execPath, [CLI, 'inspect', '--json', invoices]);
  const smallLoad = load();
  const bareMs = median(bare.map((s) => s.ms));
  const smallMs = median(small.map((s) => s.ms));
  rows.push({
    name: 'CLI inspect --json, spec example',
    value: smallMs,
    unit: 'ms',
    floorName: '`node -e 0`',
    floor: bareMs,
    goal: '≤ 2× (1.5×)',
    met: smallMs <= 2 * bareMs,
    load: (bareLoad + smallLoad) / 2,
    note: `${outcome(small[0] as Sample)}, CPU ${median(small.map((s) => s.cpuMs)).toFixed(0)} ms vs ${median(bare.map((s) => s.cpuMs)).toFixed(0)} ms`,
  });

  const tar = await samples('bsdtar', ['-tzf', large]);
  const tarLoad = load();
  const big = await samples(process.execPath, [CLI, 'inspect', '--json', large]);
  const bigLoad = load();
  const tarMs = median(tar.map((s) => s.ms));
  const bigMs = median(big.map((s) => s.ms));
  const bigRss = median(big.map((s) => s.rssMb));
  rows.push({
    name: `CLI inspect --json, ${(statSync(large).size / 1024 / 1024).toFixed(0)} MiB package, wall`,
    value: bigMs,
    unit: 'ms',
    floorName: '`bsdtar -tzf`',
    floor: tarMs,
    goal: '≤ 1.3×',
    met: bigMs <= 1.3 * tarMs,
    load: (tarLoad + bigLoad) / 2,
    note: `${outcome(big[0] as Sample)}, CPU ${median(big.map((s) => s.cpuMs)).toFixed(0)} ms vs ${median(tar.map((s) => s.cpuMs)).toFixed(0)} ms`,
  });
  rows.push({
    name: 'CLI inspect --json, same package, peak RSS',
    value: bigRss,
    unit: 'MB',
    floorName: '`node -e 0` peak RSS',
    floor: median(bare.map((s) => s.rssMb)),
    goal: '≤ 100 MB (80)',
    met: bigRss <= 100,
    load: bigLoad,
    note: `bsdtar ${median(tar.map((s) => s.rssMb)).toFixed(1)} MB`,
  });

  if (existsSync(WORKER)) {
    const empty: number[] = [];
    const noReaders: number[] = [];
    const warmed: number[] = [];
    await workerReadyMs(null);
    await workerReadyMs(WORKER, true);
    for (let i = 0; i < RUNS; i++) {
      empty.push(await workerReadyMs(null));
      noReaders.push(await workerReadyMs(WORKER));
      warmed.push(await workerReadyMs(WORKER, true));
    }
    const e = median(empty);
    rows.push({
      name: 'bounded worker start (built), every reader loaded',
      value: median(warmed),
      unit: 'ms',
      floorName: 'an empty worker → first message',
      floor: e,
      goal: '-',
      met: null,
      load: load(),
      note: `what warm() costs; without the readers (the CLI's start: it loads only the one its job needs) ${median(noReaders).toFixed(0)} ms`,
    });
  }

  const ui = await timeToOverview([
    { label: 'spec example', path: invoices },
    { label: '3,000 tools', path: scale },
  ]).catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
  if (typeof ui === 'string') console.log(`\nUI rows skipped: ${ui}`);
  else {
    for (const [label, { ms, inspectMs, load: l }] of ui) {
      rows.push({
        name: `app: file opened → Overview painted, ${label}`,
        value: ms,
        unit: 'ms',
        floorName: 'the `inspect` Api call alone (harness from TS source)',
        floor: inspectMs,
        goal: '-',
        met: null,
        load: l,
        note: 'Chromium headless, in-page marks',
      });
    }
  }
  const js = initialJs();
  if (js)
    rows.push({
      name: 'renderer initial JS, gzipped',
      value: js.gzKiB,
      unit: 'KiB',
      floorName: '-',
      floor: null,
      goal: '-',
      met: null,
      load: load(),
      note: `${js.files} file(s), ${js.rawKiB.toFixed(0)} KiB raw; all JS ${js.allGzKiB.toFixed(0)} KiB gzipped`,
    });

  console.log(
    `\nGoals: medians of ${RUNS} runs after one warm-up; ${cpus().length} CPUs; load average now ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );
  printTable(rows);
}

if (import.meta.url === `file://${process.argv[1]}`) await summaryBench();
