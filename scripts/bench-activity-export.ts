/**
 * The cost of shipping the activity record over OTLP/HTTP (activity/activity-shipper.ts): N traffic
 * entries recorded, then shipped at once to a receiver on loopback (catching up: pieces of 1,024,
 * batches of 512), timed; then one decision recorded and shipped (the record's write, and the
 * shipper's look and send, which is off the decision's path).
 * Run: `npx tsx scripts/bench-activity-export.ts [N]` (a temp data folder, removed after).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ActivityLog } from '../electron/core/activity/activity-log';
import { ActivityShipper } from '../electron/core/activity/activity-shipper';
import { startOtlpReceiver } from '../test/helpers/otlp-receiver';

const n = Number(process.argv[2] ?? 10_000);
const dataDir = mkdtempSync(join(tmpdir(), 'apollia-bench-export-'));
const receiver = await startOtlpReceiver();
const shipper = new ActivityShipper({ dataDir, endpoint: () => receiver.url });
try {
  const log = new ActivityLog(dataDir);
  for (let i = 0; i < n; i += 100)
    await log.recordMany(
      Array.from({ length: Math.min(100, n - i) }, (_, j) => ({
        kind: 'run_queued' as const,
        trigger: 'bench/a/t',
        outcome: 'ok' as const,
        detail: `run ${i + j} queued by the schedule`,
      })),
    );
  let start = performance.now();
  await shipper.flush();
  const caughtUp = performance.now() - start;
  const sent = shipper.current()?.sent ?? 0;
  start = performance.now();
  await log.record({ kind: 'grant', package: 'bench', agent: 'bench/a', outcome: 'ok', detail: 'shell' });
  const recorded = performance.now() - start;
  start = performance.now();
  await shipper.flush();
  const shipped = performance.now() - start;
  console.log(
    `${sent} entries shipped in ${caughtUp.toFixed(0)} ms (${((caughtUp * 1000) / sent).toFixed(1)} µs an entry, ${receiver.requests.length} requests)`,
  );
  console.log(
    `one decision: recorded in ${recorded.toFixed(1)} ms; looked up and sent in ${shipped.toFixed(1)} ms, off its path`,
  );
} finally {
  await shipper.stop();
  await receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
}
