/**
 * Bench: webhook intake (DESIGN.md "Triggers at run time"; goal: nothing lost, at least 0.5× a bare
 * `node:http` server's throughput, p99 under 50 ms).
 *
 * 2,000 deliveries signed with the reference `standardwebhooks` library, 16 at a time over
 * keep-alive connections, first to a bare `node:http` server that reads the body and answers 202,
 * then to the real trigger host (Host and signature checked, replay store, the intake journal's group
 * commit, the run file put by the writer thread, activity recorded), in the same process; one round to
 * warm up, then three such rounds alternated (`WEBHOOK_BENCH_ROUNDS`), each printed, and their medians. Lost: a 2xx without its
 * run file on disk, plus any delivery not answered 2xx (the trigger's queue is large enough that none
 * should be refused). Figures only, never assertions.
 *
 * Run alone: `npx tsx bench/webhook-intake.ts`; `npm run bench` runs it with the other rows.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, writeSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { createFileKeySecretBox } from '../electron/core/secrets/secret-box';
import { TriggerHost } from '../electron/core/triggers';
import { PENDING_DIR } from '../electron/core/triggers/run-requests';
import { tempDir } from '../test/helpers/test-api';
import { putTriggers, triggerRecord } from '../test/helpers/trigger-host';

const DELIVERIES = 2_000;
const CONCURRENCY = 16;
const HOOK = 'crm/new-lead';

interface Signed {
  id: string;
  body: string;
  headers: Record<string, string>;
}

function deliveries(secret: string): Signed[] {
  const webhook = new Webhook(secret);
  return Array.from({ length: DELIVERIES }, (_, i) => {
    const id = `msg_bench_${i}_${randomBytes(4).toString('hex')}`;
    const body = JSON.stringify({ type: 'lead.submitted', n: i, email: `lead${i}@example.com`, note: 'x'.repeat(200) });
    const at = new Date();
    return {
      id,
      body,
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': webhook.sign(id, at, body),
      },
    };
  });
}

/** Sends every delivery to `url`, `CONCURRENCY` at a time; the wall time, each latency and each status. */
async function send(url: string, items: Signed[]): Promise<{ ms: number; latencies: number[]; statuses: number[] }> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const latencies: number[] = [];
  const statuses: number[] = new Array(items.length).fill(0);
  let next = 0;
  const one = (item: Signed, index: number) =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const req = request(url, { method: 'POST', agent, headers: item.headers }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - started);
          statuses[index] = res.statusCode ?? 0;
          resolve();
        });
      });
      req.on('error', () => {
        latencies.push(performance.now() - started);
        resolve();
      });
      req.end(item.body);
    });
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await one(items[index] as Signed, index);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const ms = performance.now() - started;
  agent.destroy();
  return { ms, latencies, statuses };
}

const p99 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(values.length * 0.99) - 1)] ?? Number.NaN;

/**
 * What this disk does alone: 500 small files written as a run file is (temp name, fsync, rename), one
 * after the other, with nothing else running. Context for the host's figure: each delivery costs one
 * such file, so the host cannot take deliveries faster than the disk makes files durable.
 */
function fsyncedFilesPerSecond(dir: string): number {
  mkdirSync(dir, { recursive: true });
  const data = Buffer.alloc(700, 0x78);
  const started = performance.now();
  for (let i = 0; i < 500; i++) {
    const temp = join(dir, `.${i}.tmp`);
    const fd = openSync(temp, 'wx', 0o600);
    writeSync(fd, data);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temp, join(dir, `${i}.json`));
  }
  return (500 / (performance.now() - started)) * 1000;
}

/** How many alternated rounds (bare server, then trigger host) the row takes: the figures are their medians. */
const ROUNDS = Number(process.env.WEBHOOK_BENCH_ROUNDS ?? 3);

interface Round {
  bare: number;
  bareP99: number;
  host: number;
  hostP99: number;
  ok: number;
  written: number;
  lost: number;
  other: number[];
  mainBusy: number;
  disk: number;
  /** Intake journal: records per synced batch, and batches (fdatasyncs) per second while sending. */
  batchSize: number;
  syncsPerSecond: number;
}

const perSecond = (run: { ms: number }) => (DELIVERIES / run.ms) * 1000;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** The bare server: reads the body, answers 202. */
async function bareRound(): Promise<{ ms: number; latencies: number[] }> {
  const bare = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(202, { 'content-type': 'text/plain' });
      res.end('queued\n');
    });
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const barePort = (bare.address() as AddressInfo).port;
  const bareSecret = `whsec_${randomBytes(32).toString('base64')}`;
  const run = await send(`http://127.0.0.1:${barePort}/hooks/${HOOK}`, deliveries(bareSecret));
  await new Promise<void>((resolve) => bare.close(() => resolve()));
  return run;
}

/** One round: the bare server, then a fresh trigger host on a fresh data folder, then this disk alone. */
async function round(): Promise<Round> {
  const bareRun = await bareRound();
  const dataDir = tempDir('apollia-bench-hooks-');
  const secrets = await putTriggers(dataDir, [
    triggerRecord({ id: HOOK, type: 'webhook', maxConcurrent: DELIVERIES * 2 }),
  ]);
  const host = new TriggerHost({ dataDir, secretBox: createFileKeySecretBox(dataDir), port: 0, watchStore: false });
  await host.start();
  const items = deliveries(secrets.get(HOOK) as string);
  const loop = performance.eventLoopUtilization();
  const before = host.intakeStats();
  const hostRun = await send(host.urlOf(HOOK), items);
  const after = host.intakeStats();
  const mainBusy = performance.eventLoopUtilization(loop).utilization;
  const batches = after.batches - before.batches;
  await host.settled();
  await host.stop();
  const written = readdirSync(join(dataDir, PENDING_DIR)).filter((n) => n.endsWith('.json')).length;
  const ok = hostRun.statuses.filter((s) => s >= 200 && s < 300).length;
  return {
    bare: perSecond(bareRun),
    bareP99: p99(bareRun.latencies),
    host: perSecond(hostRun),
    hostP99: p99(hostRun.latencies),
    ok,
    written,
    lost: Math.max(0, ok - written) + (DELIVERIES - ok),
    other: [...new Set(hostRun.statuses.filter((s) => s < 200 || s >= 300))],
    mainBusy,
    disk: fsyncedFilesPerSecond(join(dataDir, 'disk-alone')),
    batchSize: batches > 0 ? (after.records - before.records) / batches : 0,
    syncsPerSecond: (batches / hostRun.ms) * 1000,
  };
}

/**
 * The bench row: {@link ROUNDS} alternated rounds of the bare server and the trigger host, same deliveries' shape,
 * same run; each round's figures, then their medians (a shared machine's noise moves one round, not the median).
 */
export async function webhookIntakeBench(): Promise<void> {
  // A first round warms the code both sides run (HTTP client, server, the host): measured cold, the bare server,
  // going first, paid for it alone and looked half as fast as it is.
  await round();
  const rounds: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push(await round());
  console.log(
    `\nwebhook intake: ${DELIVERIES} signed deliveries (standardwebhooks), ${CONCURRENCY} at a time, keep-alive; ${ROUNDS} alternated rounds after one to warm up`,
  );
  for (const [i, r] of rounds.entries())
    console.log(
      `round ${i + 1}: bare ${r.bare.toFixed(0).padStart(5)} /s, trigger host ${r.host.toFixed(0).padStart(5)} /s = ${(r.host / r.bare).toFixed(2)}×; host p99 ${r.hostP99.toFixed(1)} ms; ${r.ok} answered 2xx, ${r.written} run files${r.other.length > 0 ? `, other answers: ${r.other.join(', ')}` : ''}; main thread busy ${(r.mainBusy * 100).toFixed(0)}%; journal batch ${r.batchSize.toFixed(1)} records, ${r.syncsPerSecond.toFixed(0)} syncs/s; this disk alone ${r.disk.toFixed(0)} fsynced files /s`,
    );
  const ratio = median(rounds.map((r) => r.host / r.bare));
  const hostP99 = median(rounds.map((r) => r.hostP99));
  const lost = rounds.reduce((sum, r) => sum + r.lost, 0);
  console.log(
    `bare node:http answering 202   ${median(rounds.map((r) => r.bare))
      .toFixed(0)
      .padStart(6)} /s  p99 ${median(rounds.map((r) => r.bareP99))
      .toFixed(1)
      .padStart(6)} ms  (median)`,
  );
  console.log(
    `trigger host (journal + run file) ${median(rounds.map((r) => r.host))
      .toFixed(0)
      .padStart(
        6,
      )} /s  p99 ${hostP99.toFixed(1).padStart(6)} ms  (median; the run files are written by the host's writer thread)`,
  );
  console.log(
    `intake journal: ${median(rounds.map((r) => r.batchSize)).toFixed(1)} records per batch, ${median(
      rounds.map((r) => r.syncsPerSecond),
    ).toFixed(0)} fdatasyncs/s (median)`,
  );
  console.log(
    `throughput ratio ${ratio.toFixed(2)}× (median; goal ≥ 0.5×) ${ratio >= 0.5 ? 'OK' : 'MISSED'}; p99 ${hostP99.toFixed(1)} ms (goal < 50 ms) ${hostP99 < 50 ? 'OK' : 'MISSED'}; lost ${lost} over all rounds (goal 0) ${lost === 0 ? 'OK' : 'MISSED'}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await webhookIntakeBench();
