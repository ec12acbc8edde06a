/**
 * The parts of the webhook intake bench (`bench/webhook-intake.ts`) that are not the host: the signed deliveries,
 * the sender, the stand-in runtime taking the runs, counting the runs made, and this disk's own fdatasync rate.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fdatasyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Webhook } from 'standardwebhooks';
import { PENDING_DIR, TAKEN_DIR } from '../electron/core/triggers/run-requests';

export const DELIVERIES = 2_000;
/** Deliveries in flight at once: the 16, or `WEBHOOK_BENCH_CONCURRENCY` (how the door scales as senders press). */
export const CONCURRENCY = Number(process.env.WEBHOOK_BENCH_CONCURRENCY ?? 16);
export const HOOK = 'crm/new-lead';

export interface Signed {
  id: string;
  body: string;
  headers: Record<string, string>;
}

export function deliveries(secret: string): Signed[] {
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

export interface Sent {
  ms: number;
  latencies: number[];
  statuses: number[];
}

/** Sends every delivery to `url`, `CONCURRENCY` at a time; the wall time, each latency and each status. */
export async function send(url: string, items: Signed[]): Promise<Sent> {
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

/**
 * The sender as its own process (`webhook-sender.ts`): webhooks come from another machine, and a sender sharing the
 * server's main thread charges the server for the sender's work. One process serves every round, its code warm as
 * the in-process sender's is: {@link load} a round, then {@link go}; {@link close} when the bench is done.
 */
export interface SenderProcess {
  pid: number;
  load: (url: string, items: Signed[]) => Promise<void>;
  go: () => Promise<Sent>;
  close: () => void;
}

export function startSender(): SenderProcess {
  // The sender's own file, run by this process's loader (tsx): the same `send`, in another process.
  const child = spawn(process.execPath, [...process.execArgv, join(import.meta.dirname, 'webhook-sender.ts')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  // Its answers, one line each, taken in order (readline buffers what comes before it is asked for).
  const answers = createInterface({ input: child.stdout as NodeJS.ReadableStream })[Symbol.asyncIterator]();
  const line = async () => (await answers.next()).value as string;
  return {
    pid: child.pid as number,
    load: async (url, items) => {
      child.stdin?.write(`${JSON.stringify({ url, items })}\n`);
      await line();
    },
    go: async () => {
      child.stdin?.write('go\n');
      return JSON.parse(await line()) as Sent;
    },
    close: () => child.stdin?.end(),
  };
}

/**
 * Where the sender runs: on the main thread, beside the server (as the figures were measured), or with
 * `WEBHOOK_BENCH_SENDER=process` in its own process, as webhooks arrive from another machine.
 */
export const SENDER_APART = process.env.WEBHOOK_BENCH_SENDER === 'process';

export const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(values.length * q) - 1)] ?? Number.NaN;
export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
export const perSecond = (run: { ms: number }) => (DELIVERIES / run.ms) * 1000;

/** What this disk does alone: 500 appends of 8 KiB to one file, each followed by an fdatasync (the journal's step). */
export function fdatasyncsPerSecond(dir: string): number {
  mkdirSync(dir, { recursive: true });
  const data = Buffer.alloc(8192, 0x78);
  const fd = openSync(join(dir, 'journal-alone'), 'a', 0o600);
  const started = performance.now();
  for (let i = 0; i < 500; i++) {
    writeSync(fd, data);
    fdatasyncSync(fd);
  }
  closeSync(fd);
  return (500 / (performance.now() - started)) * 1000;
}

/**
 * What this disk does alone for a run file: 500 puts (a temp file written, closed and renamed in, as the run-file
 * worker does), one after the other. It moves by the minute on a shared machine: here, for a minute or two at a time
 * (cause not found), a put cost 250–1,000 µs of kernel time against 35–40 µs otherwise.
 */
export function filePutsPerSecond(dir: string): number {
  mkdirSync(dir, { recursive: true });
  const text = 'x'.repeat(400);
  const started = performance.now();
  for (let i = 0; i < 500; i++) {
    const fd = openSync(join(dir, `.put-${i}.tmp`), 'wx', 0o600);
    writeSync(fd, text);
    closeSync(fd);
    renameSync(join(dir, `.put-${i}.tmp`), join(dir, `put-${i}.json`));
  }
  return (500 / (performance.now() - started)) * 1000;
}

/**
 * The stand-in runtime, another process: every 5 ms it moves each run file of `runs/pending/` into `runs/taken/`
 * (same name), then fsyncs `runs/taken/`; it says `ready` after its first pass; told to stop (a line on its input),
 * it takes what is left and exits.
 */
const RUNTIME = `
const fs = require('node:fs');
const path = require('node:path');
const [pending, taken] = process.argv.slice(1);
fs.mkdirSync(taken, { recursive: true });
let stopping = false;
process.stdin.on('data', () => { stopping = true; });
function pass() {
  let names = [];
  try { names = fs.readdirSync(pending); } catch {}
  let moved = 0;
  for (const name of names) {
    if (name.startsWith('.') || !name.endsWith('.json')) continue;
    try { fs.renameSync(path.join(pending, name), path.join(taken, name)); moved++; } catch {}
  }
  if (moved > 0) { const fd = fs.openSync(taken, 'r'); fs.fsyncSync(fd); fs.closeSync(fd); }
  if (stopping && moved === 0) process.exit(0);
  setTimeout(pass, 5);
}
pass();
process.stdout.write('ready\\n');
`;

/**
 * Starts the stand-in runtime; resolves once it made its first pass (a round sent before the process is up would
 * find the queue's cap, not the intake: runs waiting for a runtime that is still starting).
 */
export async function startRuntime(dataDir: string): Promise<{ child: ChildProcess; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['-e', RUNTIME, join(dataDir, PENDING_DIR), join(dataDir, TAKEN_DIR)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the stand-in runtime exited before it was ready (code ${code})`)));
  });
  child.stdout?.resume();
  return {
    child,
    stop: async () => {
      child.stdin?.end('stop\n');
      await exited;
    },
  };
}

/** Runs of a data folder (pending and taken) by webhook-id, read from their contents. */
export function runsByWebhookId(dataDir: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const dir of [PENDING_DIR, TAKEN_DIR]) {
    let names: string[] = [];
    try {
      names = readdirSync(join(dataDir, dir)).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
    } catch {
      continue;
    }
    for (const name of names) {
      const run = JSON.parse(readFileSync(join(dataDir, dir, name), 'utf8')) as { payload?: { webhook_id?: string } };
      const id = run.payload?.webhook_id ?? '';
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
  }
  return counts;
}
