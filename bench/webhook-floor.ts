/**
 * The design's floor for the webhook intake bench (`bench/webhook-intake.ts`): what the hand-off contract costs on
 * this machine with none of the app's code. A `node:http` server that does only what every accepted delivery must:
 * the Standard Webhooks HMAC check, the body parsed, its run serialized, one framed journal record per delivery
 * appended and group-committed (one `pwrite` and one `fdatasync` for what waits, the next batch gathering while a
 * sync runs), the 202 sent once the sync returned, and one run file per delivery made by a worker thread (temp name,
 * write, rename into `runs/pending/`), taken by the same stand-in runtime. No Host, Origin or replay check, no policy,
 * no activity record, no status, no count of runs waiting, no trim.
 *
 * Its rate against the bare server's is how far any code keeping this contract gets on this disk and these cores at
 * that moment (a shared machine's file system is faster or slower by the minute); the host's rate against it is the
 * share of the app's own code. With `files` `'none'` it keeps the journal and makes no run file: the difference is
 * what the files cost. With `'batch'` it makes one file per synced batch (a JSON array of its runs): a hand-off the
 * contract does not have, measured to show what gathering the runs would give (`WEBHOOK_BENCH_FLOOR_BATCHED=1`).
 * Figures only.
 */
import { closeSync, fdatasync, mkdirSync, openSync, writeSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { signatureMatches, webhookKey } from '../electron/core/triggers/standard-webhooks';
import { frameBatch } from '../electron/core/triggers/intake-journal';
import { PENDING_DIR } from '../electron/core/triggers/run-requests';

/** The worker that makes the run files: temp name, write, close, rename in (the host's `put`: no fsync). */
const PUTTER = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const dir = workerData.dir;
parentPort.on('message', (files) => {
  if (files === 'close') { parentPort.postMessage('closed'); return; }
  for (const [name, text] of files) {
    const temp = dir + '/.' + name + '.tmp';
    const fd = fs.openSync(temp, 'wx', 0o600);
    fs.writeSync(fd, text);
    fs.closeSync(fd);
    fs.renameSync(temp, dir + '/' + name);
  }
});
`;

/** The floor server (see the module comment) on a data folder of its own; `close` once the round was sent. */
export async function startFloor(
  dataDir: string,
  secret: string,
  /** One run file per delivery (the contract), one file per synced batch, or none (the journal alone). */
  files: 'each' | 'batch' | 'none' = 'each',
): Promise<{
  url: (path: string) => string;
  /** Batches synced so far, and the time a sync was under way (ms, from the `fdatasync` asked to its callback). */
  stats: () => { batches: number; syncMs: number };
  close: () => Promise<void>;
}> {
  const pending = join(dataDir, PENDING_DIR);
  mkdirSync(pending, { recursive: true });
  mkdirSync(join(dataDir, 'triggers'), { recursive: true });
  const journal = openSync(join(dataDir, 'triggers', 'floor.journal'), 'w', 0o600);
  const putter = new Worker(PUTTER, { eval: true, workerData: { dir: pending } });
  const key = webhookKey(secret);
  let waiting: { json: string; name: string; answer: () => void }[] = [];
  let syncing = false;
  let scheduled = false;
  let position = 0;
  let runs = 0;
  let batches = 0;
  let syncMs = 0;
  const flush = () => {
    scheduled = false;
    if (syncing || waiting.length === 0) return;
    const batch = waiting;
    waiting = [];
    syncing = true;
    const bytes = frameBatch(batch);
    for (let at = 0; at < bytes.length; ) at += writeSync(journal, bytes, at, bytes.length - at, position + at);
    position += bytes.length;
    const asked = performance.now();
    fdatasync(journal, (error) => {
      syncMs += performance.now() - asked;
      batches++;
      syncing = false;
      if (error) throw error;
      for (const w of batch) w.answer();
      if (files === 'each') putter.postMessage(batch.map((w) => [w.name, w.json]));
      else if (files === 'batch')
        putter.postMessage([[`batch-${batch[0]?.name}`, `[${batch.map((w) => w.json).join(',')}]`]]);
      flush();
    });
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const id = String(req.headers['webhook-id']);
      const ok = signatureMatches(
        key,
        { webhookId: id, timestamp: String(req.headers['webhook-timestamp']), body },
        String(req.headers['webhook-signature']),
      );
      if (!ok) {
        res.writeHead(401).end('signature does not match\n');
        return;
      }
      const run = {
        id: `run-${++runs}`,
        trigger: 'floor',
        payload: { webhook_id: id, body: JSON.parse(body.toString()) },
      };
      waiting.push({
        json: JSON.stringify(run),
        name: `${run.id}.json`,
        answer: () => {
          res.writeHead(202, { 'content-type': 'text/plain; charset=utf-8' });
          res.end('queued\n');
        },
      });
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    stats: () => ({ batches, syncMs }),
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const closed = new Promise<void>((resolve) => putter.once('message', () => resolve()));
      putter.postMessage('close');
      await closed;
      await putter.terminate();
      closeSync(journal);
    },
  };
}
