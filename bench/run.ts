/**
 * `npm run bench`: how fast and how lean inspecting an `.apo` is, against `tar -tzf` on the same
 * file (targets: a 128 MiB package within 1.5× of `tar -tzf`, goal 1.2×, peak RSS < 150 MB; a
 * 1 GiB gzip bomb refused well under 1 s with peak RSS < 150 MB).
 *
 * Each case runs in a child process, several times; the table shows the median wall time and the
 * median peak RSS (from `/usr/bin/time -f '%e %M'` when present, else from `/proc/<pid>/status`
 * VmHWM polling). The inspector is the project's real one (`inspectPath`, bundled once to plain
 * JavaScript with esbuild so that TypeScript transpiling is not what gets measured).
 *
 * Then webhook intake (`webhook-intake.ts`): 2,000 signed deliveries against a bare `node:http`
 * server, the design's floor (`webhook-floor.ts`: the journal and a run file per delivery, none of the app's code)
 * and the trigger host, throughput ratios, p99 and the number lost.
 *
 * Then feeds (`feed-outdated.ts`): `outdated` on the built CLI with 20 packages from one local feed.
 *
 * Last, ONE goals table (`summary.ts`): the built CLI and renderer against their floors,
 * measured in the same run, with the ratios and the load average.
 */
import { readFileSync, statSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { readApoArchive } from '../electron/core/archive/index';
import { CACHE_DIR, gibBomb, invoicesPackage, largePackage } from './generate';
import { HAS_GNU_TIME, measure, median, ROOT, RUNS, type Sample } from './measure';
import { boundedCheckerBench } from './bounded-checker';
import { hostileInputBench } from './hostile-input';
import { renderScaleBench } from './render-scale';
import { summaryBench } from './summary';
import { webhookIntakeBench } from './webhook-intake';
import { feedOutdatedBench } from './feed-outdated';

interface Row {
  name: string;
  ms: number;
  cpuMs: number;
  minMs: number;
  rssMb: number;
  outcome: string;
}

async function bench(name: string, command: string, args: string[], outcome: (sample: Sample) => string): Promise<Row> {
  await measure(command, args); // warm the page cache and the binary
  const samples: Sample[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await measure(command, args));
  return {
    name,
    ms: median(samples.map((s) => s.ms)),
    cpuMs: median(samples.map((s) => s.cpuMs)),
    minMs: Math.min(...samples.map((s) => s.ms)),
    rssMb: median(samples.map((s) => s.rssMb)),
    outcome: outcome(samples[0]!),
  };
}

function verdict({ stdout }: Sample): string {
  const line = stdout.trim().split('\n').pop() ?? '';
  try {
    const result = JSON.parse(line) as { ok: boolean; name: string | null; error: { code: string } | null };
    return result.ok ? `accepted (${result.name})` : `refused: ${result.error?.code}`;
  } catch {
    return line.slice(0, 60);
  }
}

async function main() {
  console.log('Generating inputs into bench/.cache/ (once) …');
  const large = await largePackage();
  const invoices = invoicesPackage();
  const bomb = await gibBomb();
  const entry = join(CACHE_DIR, 'inspect-entry.cjs');
  const readEntry = join(CACHE_DIR, 'read-entry.cjs');
  for (const [source, outfile] of [
    ['inspect-entry.ts', entry],
    ['read-entry.ts', readEntry],
  ] as const) {
    await build({
      entryPoints: [join(ROOT, 'bench', source)],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'error',
    });
  }

  const node = process.execPath;
  const tarEntries = ({ lines }: Sample) => `${lines} entries listed`;
  const rows: Row[] = [];
  rows.push(await bench('node, empty script (start-up floor)', node, ['-e', '0'], () => '-'));
  rows.push(await bench('inspect large package (.apo)', node, [entry, large], verdict));
  rows.push(await bench('tar -tzf large package', 'tar', ['-tzf', large], tarEntries));
  rows.push(await bench('readApoArchive only, large package', node, [readEntry, large], verdict));
  rows.push(await bench('inspect spec example (invoices)', node, [entry, invoices], verdict));
  rows.push(await bench('inspect 1 GiB gzip bomb', node, [entry, bomb], verdict));

  const mib = (path: string) => (statSync(path).size / 1024 / 1024).toFixed(1);
  console.log(
    `\nlarge package: ${mib(large)} MiB gzip'd, ~140 MiB uncompressed; bomb: ${mib(bomb)} MiB gzip'd declaring 1 GiB; ${RUNS} runs each (after one warm-up), median`,
  );
  console.log(`peak RSS via ${HAS_GNU_TIME ? "/usr/bin/time -f '%e %M'" : '/proc/<pid>/status VmHWM polling'}\n`);
  const header = ['case', 'median ms', 'min ms', 'CPU ms', 'peak RSS MB', 'outcome'];
  const table = rows.map((row) => [
    row.name,
    row.ms.toFixed(0),
    row.minMs.toFixed(0),
    row.cpuMs.toFixed(0),
    row.rssMb.toFixed(1),
    row.outcome,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 || i === 5 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of table) console.log(line(row));

  const inspect = rows[1]!;
  const tar = rows[2]!;
  const bombRow = rows[5]!;
  const ratio = inspect.ms / tar.ms;
  console.log(
    `\nratio inspect / tar -tzf (median wall time): ${ratio.toFixed(2)}×  (target ≤ 1.5×, goal 1.2×) ${ratio <= 1.5 ? 'OK' : 'MISSED'}`,
  );
  if (!Number.isNaN(inspect.cpuMs)) {
    console.log(
      `ratio inspect / tar -tzf (median CPU time, user+sys; steadier on a busy machine): ${(inspect.cpuMs / tar.cpuMs).toFixed(2)}×`,
    );
  }
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(
    `machine: ${cpus().length} CPUs, load average ${load} (wall times grow with load; compare on an idle machine)`,
  );
  console.log(
    `inspect peak RSS: ${inspect.rssMb.toFixed(1)} MB (target < 150 MB) ${inspect.rssMb < 150 ? 'OK' : 'MISSED'}`,
  );
  console.log(
    `bomb refused in ${bombRow.ms.toFixed(0)} ms wall, peak ${bombRow.rssMb.toFixed(1)} MB (target well under 1 s, < 150 MB) ${bombRow.ms < 1000 && bombRow.rssMb < 150 && bombRow.outcome.startsWith('refused') ? 'OK' : 'MISSED'}`,
  );
  const inProcess: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const read = await readApoArchive(bomb);
    inProcess.push(performance.now() - started);
    if (read.ok) throw new Error('the 1 GiB bomb was accepted');
  }
  console.log(
    `bomb refusal inside one process (readApoArchive, no Node start-up): ${median(inProcess).toFixed(1)} ms median`,
  );
  if (!inspect.outcome.startsWith('accepted'))
    console.log(
      `WARNING: the large package was not accepted (${inspect.outcome}): the inspect figure does not measure a full read`,
    );
}

await main();
await hostileInputBench();
await renderScaleBench();
await boundedCheckerBench();
await webhookIntakeBench();
{
  const feed = await feedOutdatedBench();
  console.log(
    `\nfeeds: outdated, 20 packages from one local feed (built CLI, median of ${RUNS}): ${feed.ms.toFixed(0)} ms (min ${feed.minMs.toFixed(0)} ms); ${feed.rows} rows, ${feed.updates} with an update`,
  );
}
await summaryBench();
