/**
 * Bench: "a manifest with thousands of tools still renders promptly". Builds an `.apo` whose
 * manifest describes ~3,000 tools (each in its own Python module, all of them described, so the
 * package is accepted) and one agent offered ~3,000 access entries, then measures:
 *
 * - the reader (`inspectByContent`, what the CLI's bounded worker runs) on it in a child process
 *   (median wall time, peak RSS);
 * - when the built renderer (`out/renderer`, `npm run build`) and Debian's Chromium are present:
 *   the real consent form in headless Chromium through the e2e harness (`e2e/harness/server.ts`,
 *   the core Api over HTTP): time from "double-click" (`POST /test/open`) until the Overview's
 *   step heading is visible; from "Next" until the Access step shows (its first rows and counts);
 *   from "Next" until every access row is shown (pressing the step's "Show all … access entries"
 *   when it shows only the first rows); and how long unticking one box takes to paint. The
 *   `inspect` call's own time and answer size, and Chromium's script / layout / style totals, are
 *   printed beside them so a slow figure says where the time went.
 *
 * Figures only, never assertions (DESIGN.md "Testing": speed is measured by `npm run bench`).
 * Run alone: `npx tsx bench/render-scale.ts`; `npm run bench` runs it after the archive rows.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { API_METHODS } from '../shared/contract/api';
import { installBridge } from '../e2e/harness/bridge';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import { startHarness } from '../e2e/support/harness-process';
import { manyToolName, manyToolsManifest, manyToolsModule } from '../test/helpers/many-tools';
import { CACHE_DIR, cachedTarGz } from './generate';
import { measure, median, ROOT, RUNS } from './measure';

/** Tools in the manifest, and access entries offered to its one agent. */
export const SCALE_TOOLS = 3000;
const SCALE_VERSION = 2;
const PACKAGE_NAME = 'scale-bench';
/** The package (gzip'd tar), generated once into `bench/.cache/`. */
export function scalePackage(): Promise<string> {
  return cachedTarGz(join(CACHE_DIR, `render-scale-v${SCALE_VERSION}.apo`), async ({ file, dir }) => {
    await file('apollia.toml', Buffer.from(manyToolsManifest(PACKAGE_NAME, SCALE_TOOLS, 'Bench')));
    await dir('tools/');
    for (let i = 0; i < SCALE_TOOLS; i++)
      await file(`tools/${manyToolName(i)}.py`, Buffer.from(manyToolsModule(manyToolName(i))));
  });
}

/** A row of the printed table. */
interface Row {
  name: string;
  ms: number;
  minMs: number;
  rssMb: number | null;
  outcome: string;
}

async function inspectRow(apo: string): Promise<Row> {
  const entry = join(CACHE_DIR, 'render-scale-inspect.cjs');
  await build({
    entryPoints: [join(ROOT, 'bench', 'inspect-entry.ts')],
    outfile: entry,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'error',
  });
  await measure(process.execPath, [entry, apo]); // warm-up
  const samples = [];
  for (let i = 0; i < RUNS; i++) samples.push(await measure(process.execPath, [entry, apo]));
  let outcome = samples[0]?.stdout.trim().split('\n').pop() ?? '';
  try {
    const result = JSON.parse(outcome) as {
      ok: boolean;
      name: string | null;
      error: { code: string; message: string } | null;
    };
    outcome = result.ok ? `accepted (${result.name})` : `REFUSED: ${result.error?.code} ${result.error?.message ?? ''}`;
  } catch {
    // keep the raw line
  }
  return {
    name: `inspectByContent, ${SCALE_TOOLS} tools + ${SCALE_TOOLS} access`,
    ms: median(samples.map((s) => s.ms)),
    minMs: Math.min(...samples.map((s) => s.ms)),
    rssMb: median(samples.map((s) => s.rssMb)),
    outcome,
  };
}

/** Counts the page's checkboxes. Runs in the browser (self-contained: Playwright serialises it). */
function checkboxes(): number {
  const page = globalThis as unknown as { document: { querySelectorAll(selector: string): { length: number } } };
  return page.document.querySelectorAll('input[type="checkbox"]').length;
}

/** Whether the page shows at least `count` checkboxes (self-contained, like {@link checkboxes}). */
function atLeastCheckboxes(count: number): boolean {
  const page = globalThis as unknown as { document: { querySelectorAll(selector: string): { length: number } } };
  return page.document.querySelectorAll('input[type="checkbox"]').length >= count;
}

/** Unticks one access box and resolves after the next painted frame, in ms (self-contained). */
async function untickOne(entryId: string): Promise<number> {
  const page = globalThis as unknown as {
    document: { getElementById(id: string): { click(): void; checked: boolean } | null };
    performance: { now(): number };
    requestAnimationFrame(callback: () => void): void;
    setTimeout(callback: () => void, ms: number): void;
  };
  const box = page.document.getElementById(entryId);
  if (!box) return NaN;
  const started = page.performance.now();
  box.click();
  await new Promise<void>((resolve) => page.requestAnimationFrame(() => page.setTimeout(resolve, 0)));
  return box.checked ? NaN : page.performance.now() - started;
}

interface UiSample {
  overviewMs: number;
  accessShownMs: number;
  accessMs: number;
  tickMs: number;
  inspectCallMs: number;
  inspectBytes: number;
  rows: number;
  scriptMs: number;
  layoutMs: number;
  styleMs: number;
  heapMb: number;
}

/** The consent form in headless Chromium; null (with the reason printed) when it cannot run here. */
async function uiRows(apo: string): Promise<{ rows: Row[]; notes: string[] } | null> {
  if (!existsSync(join(ROOT, 'out', 'renderer', 'index.html'))) {
    console.log('UI figures skipped: no built renderer (run `npm run build` first).');
    return null;
  }
  if (!existsSync(CHROMIUM_PATH)) {
    console.log(`UI figures skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium).`);
    return null;
  }
  const { chromium } = await import('@playwright/test');
  const harness = await startHarness();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
  try {
    const samples: UiSample[] = [];
    for (let run = 0; run <= RUNS; run++) {
      await fetch(`${harness.url}/test/reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      const context = await browser.newContext({
        baseURL: harness.url,
        viewport: { width: 1180, height: 820 },
        timezoneId: 'UTC',
        locale: 'en-US',
      });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable');
      // tsx (esbuild, keepNames) wraps functions in `__name(...)`; the serialised bridge needs it in the page too.
      await page.addInitScript({ content: 'globalThis.__name = (target) => target;' });
      await page.addInitScript(installBridge, { methods: [...API_METHODS] });
      let inspectCallMs = NaN;
      let inspectBytes = NaN;
      page.on('requestfinished', (request) => {
        if (!request.url().endsWith('/api/inspect')) return;
        const timing = request.timing();
        inspectCallMs = timing.responseEnd;
        void request.response().then(async (response) => {
          inspectBytes = (await response?.body())?.length ?? NaN;
        });
      });
      await page.goto('/');
      await page.getByRole('heading', { level: 1, name: 'Open a package' }).waitFor({ timeout: 30_000 });
      const metric = async () => {
        const { metrics } = (await cdp.send('Performance.getMetrics')) as {
          metrics: { name: string; value: number }[];
        };
        return (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
      };
      const before = await metric();

      const opened = performance.now();
      const answer = (await (
        await fetch(`${harness.url}/test/open`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ path: apo }),
        })
      ).json()) as { ok: boolean };
      if (!answer.ok) throw new Error(`the harness could not open ${apo}: ${JSON.stringify(answer)}`);
      await page
        .getByRole('heading', { level: 2, name: 'Step 1 of 4: What this package is' })
        .waitFor({ timeout: 120_000 });
      const overviewMs = performance.now() - opened;

      const next = performance.now();
      await page.getByRole('button', { name: 'Next' }).click();
      await page
        .getByRole('heading', { level: 2, name: 'Step 2 of 4: What it asks to use' })
        .waitFor({ timeout: 120_000 });
      await page.waitForFunction(atLeastCheckboxes, 1, { timeout: 120_000, polling: 16 });
      const accessShownMs = performance.now() - next;
      // Every access row: one checkbox per entry the agent is offered (all of them, once asked for).
      if ((await page.evaluate(checkboxes)) < SCALE_TOOLS)
        await page.getByRole('button', { name: /^Show all [\d,]+ access entries/ }).click();
      await page.waitForFunction(atLeastCheckboxes, SCALE_TOOLS, { timeout: 120_000, polling: 16 });
      const accessMs = performance.now() - next;
      const rows = await page.evaluate(checkboxes);
      const tickMs = await page.evaluate(
        untickOne,
        `access-operator-pkg:${PACKAGE_NAME}/${manyToolName(Math.floor(SCALE_TOOLS / 2))}`,
      );
      const after = await metric();
      if (run > 0) {
        samples.push({
          overviewMs,
          accessShownMs,
          accessMs,
          tickMs,
          inspectCallMs,
          inspectBytes,
          rows,
          scriptMs: (after('ScriptDuration') - before('ScriptDuration')) * 1000,
          layoutMs: (after('LayoutDuration') - before('LayoutDuration')) * 1000,
          styleMs: (after('RecalcStyleDuration') - before('RecalcStyleDuration')) * 1000,
          heapMb: after('JSHeapUsedSize') / 1024 / 1024,
        });
      }
      await context.close();
    }
    const m = (pick: (s: UiSample) => number) => median(samples.map(pick));
    const min = (pick: (s: UiSample) => number) => Math.min(...samples.map(pick));
    const rows: Row[] = [
      {
        name: 'UI: open → Overview heading visible',
        ms: m((s) => s.overviewMs),
        minMs: min((s) => s.overviewMs),
        rssMb: null,
        outcome: `inspect call ${m((s) => s.inspectCallMs).toFixed(0)} ms, answer ${(m((s) => s.inspectBytes) / 1024).toFixed(0)} KiB`,
      },
      {
        name: 'UI: Next → Access step shown',
        ms: m((s) => s.accessShownMs),
        minMs: min((s) => s.accessShownMs),
        rssMb: null,
        outcome: 'heading and the first access row',
      },
      {
        name: 'UI: Next → Access step, every row shown',
        ms: m((s) => s.accessMs),
        minMs: min((s) => s.accessMs),
        rssMb: null,
        outcome: `${samples[0]?.rows ?? 0} checkboxes`,
      },
      {
        name: 'UI: untick one of them → painted',
        ms: m((s) => s.tickMs),
        minMs: min((s) => s.tickMs),
        rssMb: null,
        outcome: 'one access box, all rows shown',
      },
    ];
    const notes = [
      `Chromium, open → Access shown (median): script ${m((s) => s.scriptMs).toFixed(0)} ms, layout ${m((s) => s.layoutMs).toFixed(0)} ms, style recalc ${m((s) => s.styleMs).toFixed(0)} ms; JS heap ${m((s) => s.heapMb).toFixed(0)} MB`,
    ];
    return { rows, notes };
  } finally {
    await browser.close();
    await harness.stop();
  }
}

function printTable(rows: Row[]): void {
  const header = ['case', 'median ms', 'min ms', 'peak RSS MB', 'outcome'];
  const table = rows.map((row) => [
    row.name,
    row.ms.toFixed(0),
    row.minMs.toFixed(0),
    row.rssMb === null ? '-' : row.rssMb.toFixed(1),
    row.outcome,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 || i === 4 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of table) console.log(line(row));
}

/** Generates the package, measures, prints the table. */
export async function renderScaleBench(): Promise<void> {
  const apo = await scalePackage();
  console.log(
    `\nRender scale: ${SCALE_TOOLS} tools (one Python module each) and ${SCALE_TOOLS} access entries; ${(statSync(apo).size / 1024).toFixed(0)} KiB gzip'd; ${RUNS} runs each (after one warm-up), median\n`,
  );
  const rows = [await inspectRow(apo)];
  const ui = await uiRows(apo).catch((error: unknown) => {
    console.log(`UI figures skipped: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  });
  if (ui) rows.push(...ui.rows);
  printTable(rows);
  for (const note of ui?.notes ?? []) console.log(`\n${note}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await renderScaleBench();
