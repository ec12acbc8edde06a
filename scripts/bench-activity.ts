/**
 * The cost per decision of the keyed activity record (DESIGN.md "Triggers at run time", the
 * activity record): N decisions appended one by one (each: lock, tail read, HMAC chain, append,
 * sealed head written atomically with fsyncs), then N traffic entries in batches of 25, timed.
 * Run: `npx tsx scripts/bench-activity.ts [N]` (a temp data folder, removed after).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ActivityLog } from '../electron/core/activity/activity-log';

const n = Number(process.argv[2] ?? 500);
const dataDir = mkdtempSync(join(tmpdir(), 'apollia-bench-'));
try {
  const log = new ActivityLog(dataDir);
  await log.record({ kind: 'install', package: 'bench', outcome: 'ok', detail: 'warm-up' });
  let start = process.hrtime.bigint();
  for (let i = 0; i < n; i++)
    await log.record({ kind: 'grant', package: 'bench', agent: 'bench/a', outcome: 'ok', detail: `tool ${i}` });
  const perDecision = Number(process.hrtime.bigint() - start) / 1000 / n;
  start = process.hrtime.bigint();
  for (let i = 0; i < n; i += 25)
    await log.recordMany(
      Array.from({ length: 25 }, (_, j) => ({
        kind: 'delivery_accepted' as const,
        trigger: 'bench/a/t',
        outcome: 'ok' as const,
        detail: `delivery ${i + j}`,
      })),
    );
  const perDelivery = Number(process.hrtime.bigint() - start) / 1000 / n;
  start = process.hrtime.bigint();
  const report = await log.verify();
  const verifyMs = Number(process.hrtime.bigint() - start) / 1e6;
  console.log(
    `${n} decisions: ${perDecision.toFixed(0)} µs each; ${n} traffic entries in batches of 25: ${perDelivery.toFixed(0)} µs each; verify of ${report.decisions.entries} + ${report.traffic.entries}: ${verifyMs.toFixed(1)} ms (${report.intact ? 'intact' : 'BROKEN'})`,
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
