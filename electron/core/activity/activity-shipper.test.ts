/**
 * The record shipped as OpenTelemetry logs over OTLP/HTTP (activity-shipper.ts, otlp-export.ts), to a
 * receiver this test runs on loopback, in the protocol's JSON encoding: batched, each record carrying
 * the entry's and the chain's fields and the line itself; retried on 503; a dead or silent collector
 * never holds a decision, and its failures are counted and sent again.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deadOtlpUrl, type OtlpReceiver, startOtlpReceiver } from '../../../test/helpers/otlp-receiver';
import { tempDir } from '../../../test/helpers/test-api';
import { ActivityLog } from './activity-log';
import { ActivityShipper, EXPORT_STATUS_FILE, readExportStatus } from './activity-shipper';
import { LINE_ATTRIBUTE, otlpEndpointProblem } from './otlp-export';
import { verifyStream } from './record-verify';

const receivers: OtlpReceiver[] = [];
const shippers: ActivityShipper[] = [];
afterEach(async () => {
  for (const s of shippers.splice(0)) await s.stop();
  for (const r of receivers.splice(0)) await r.close();
});

async function receiver(): Promise<OtlpReceiver> {
  const r = await startOtlpReceiver();
  receivers.push(r);
  return r;
}

function shipper(dataDir: string, url: () => string | null, timeoutMillis = 3000): ActivityShipper {
  const s = new ActivityShipper({ dataDir, endpoint: url, exportOptions: { timeoutMillis, scheduledDelayMillis: 50 } });
  shippers.push(s);
  return s;
}

async function someRecord(dataDir: string): Promise<ActivityLog> {
  let tick = 0;
  const log = new ActivityLog(dataDir, { now: () => new Date(Date.UTC(2026, 10, 30, 14, 2, tick++)) });
  await log.record({ kind: 'install', package: 'invoices', outcome: 'ok', detail: 'installed invoices 1.2.0' });
  await log.record({ kind: 'grant', package: 'invoices', agent: 'invoices/clerk', outcome: 'ok', detail: 'shell' });
  await log.record({ kind: 'run_queued', trigger: 'invoices/clerk/nightly', outcome: 'ok', detail: 'run 1' });
  await log.record({ kind: 'revoke', package: 'invoices', agent: 'invoices/clerk', outcome: 'ok', detail: 'shell' });
  return log;
}

describe('OTLP export of the activity record (loopback receiver, OTLP/HTTP JSON)', () => {
  it('sends every line batched, with the entry’s and the chain’s fields; a collector holding the key verifies them', async () => {
    const dataDir = tempDir('apollia-otlp-');
    const log = await someRecord(dataDir);
    const r = await receiver();
    const s = shipper(dataDir, () => r.url);
    await s.flush();
    // Batched: four entries in one request, to /v1/logs, in JSON.
    expect(r.requests).toHaveLength(1);
    expect(r.requests[0]).toMatchObject({ path: '/v1/logs', contentType: 'application/json', status: 200 });
    const records = r.requests.flatMap((q) => q.records);
    expect(records.map((x) => [x.attributes['apollia.record.stream'], x.attributes['apollia.record.seq']])).toEqual([
      ['decisions', 1],
      ['decisions', 2],
      ['decisions', 3],
      ['traffic', 1],
    ]);
    const grant = records[1];
    expect(grant).toMatchObject({
      eventName: 'apollia.activity.grant',
      severityText: 'INFO',
      body: 'shell',
      attributes: {
        'apollia.activity.kind': 'grant',
        'apollia.activity.agent': 'invoices/clerk',
        'apollia.activity.package': 'invoices',
        'apollia.activity.outcome': 'ok',
        'apollia.activity.at': '2026-11-30T14:02:01.000Z',
      },
      resource: { 'service.name': 'apollia-desktop' },
    });
    expect(grant?.timeUnixNano).toBe(`${Date.UTC(2026, 10, 30, 14, 2, 1)}000000`);
    // The line itself, byte for byte as stored, and its link.
    const stored = readFileSync(log.decisionsPath, 'utf8').split('\n').filter(Boolean);
    expect(records.slice(0, 3).map((x) => x.attributes[LINE_ATTRIBUTE])).toEqual(stored);
    expect(grant?.attributes['apollia.record.hmac']).toBe(JSON.parse(stored[1] as string).hmac);
    const key = readFileSync(join(dataDir, 'record.key'));
    const received = records
      .filter((x) => x.attributes['apollia.record.stream'] === 'decisions')
      .map((x, i) => ({ file: 'collector', line: i + 1, text: String(x.attributes[LINE_ATTRIBUTE]) }));
    const head = (await log.heads()).decisions;
    expect(
      verifyStream({
        stream: 'decisions',
        key,
        lines: received,
        head,
        headSource: 'committed',
        expectRecord: true,
        dir: 'collector',
      }),
    ).toMatchObject({ intact: true, head });
    // What it sent is kept: the next poll sends only what is new, and after a restart it goes on.
    expect(s.current()).toMatchObject({ sent: 4, failed: 0, shipped: { decisions: 3, traffic: 1 } });
    await log.record({ kind: 'disarm', trigger: 'invoices/clerk/nightly', outcome: 'ok', detail: 'turned off' });
    await s.flush();
    expect(r.requests.map((q) => q.records.length)).toEqual([4, 1]);
    await s.stop();
    expect(await readExportStatus(dataDir)).toMatchObject({ url: r.url, sent: 5, shipped: { decisions: 4 } });
    await log.record({ kind: 'arm', trigger: 'invoices/clerk/nightly', outcome: 'ok', detail: 'armed' });
    await shipper(dataDir, () => r.url).flush();
    expect(r.requests.map((q) => q.records.map((x) => x.attributes['apollia.activity.kind']))).toEqual([
      ['install', 'grant', 'revoke', 'run_queued'],
      ['disarm'],
      ['arm'],
    ]);
  });

  it('a receiver answering 503 then 200: the exporter retries the batch, nothing is counted failed', async () => {
    const dataDir = tempDir('apollia-otlp-retry-');
    await someRecord(dataDir);
    const r = await receiver();
    r.script.push(503);
    const s = shipper(dataDir, () => r.url);
    await s.flush();
    expect(r.requests.map((q) => [q.status, q.records.length])).toEqual([
      [503, 4],
      [200, 4],
    ]);
    expect(s.current()).toMatchObject({ sent: 4, failed: 0, failedBatches: 0 });
  });

  it('a dead collector never holds a decision; its failures are counted (on disk, for the dashboard) and the lines sent again', async () => {
    const dataDir = tempDir('apollia-otlp-dead-');
    const log = await someRecord(dataDir);
    let url = await deadOtlpUrl();
    const s = shipper(dataDir, () => url, 1500);
    await s.flush();
    const failed = s.current();
    expect(failed).toMatchObject({ sent: 0, failed: 4, failedBatches: 1 });
    expect(failed?.lastError).toMatch(/ECONNREFUSED|connect/i);
    expect(JSON.parse(readFileSync(join(dataDir, EXPORT_STATUS_FILE), 'utf8'))).toMatchObject({
      failed: 4,
      failedBatches: 1,
      shipped: { decisions: 0, traffic: 0 },
    });
    // A collector that takes the request and never answers: a decision recorded meanwhile is written at once.
    const silent = await receiver();
    silent.script.push('hold');
    url = silent.url;
    const stuck = shipper(dataDir, () => url, 1500);
    const shipping = stuck.flush();
    await silent.taken(1);
    const stored = await log.record({ kind: 'grant', package: 'invoices', outcome: 'ok', detail: 'web_fetch' });
    expect(stored.kind).toBe('grant');
    expect(readFileSync(log.decisionsPath, 'utf8')).toContain('web_fetch');
    await shipping;
    expect(stuck.current()).toMatchObject({ sent: 0, failedBatches: 1 });
    // The collector back: the failed lines go again, with the one recorded meanwhile.
    await stuck.flush();
    const last = silent.requests.at(-1);
    expect(last?.status).toBe(200);
    expect(
      silent.requests.slice(1).flatMap((q) => q.records.map((x) => x.attributes['apollia.activity.kind'])),
    ).toEqual(['install', 'grant', 'revoke', 'run_queued', 'grant']);
    expect(stuck.current()).toMatchObject({ sent: 5, failedBatches: 1, shipped: { decisions: 4, traffic: 1 } });
  });

  it('stopping does not wait on a collector that never answers: what it did not take is sent at the next start', async () => {
    const dataDir = tempDir('apollia-otlp-stop-');
    await someRecord(dataDir);
    const silent = await receiver();
    silent.script.push('hold');
    const s = new ActivityShipper({
      dataDir,
      endpoint: () => silent.url,
      exportOptions: { timeoutMillis: 60_000, scheduledDelayMillis: 10 },
      stopGraceMs: 100,
    });
    await s.poll();
    await silent.taken(1);
    // The collector holds the batch (for up to a minute): stop returns all the same.
    await s.stop();
    expect(await readExportStatus(dataDir)).toMatchObject({ sent: 0, shipped: { decisions: 0, traffic: 0 } });
    // Started again (the first batch still held), it sends the four again, and they are taken.
    const next = shipper(dataDir, () => silent.url);
    await next.flush();
    expect(silent.requests.map((q) => [q.status, q.records.length])).toEqual([
      [0, 4],
      [200, 4],
    ]);
    expect(next.current()).toMatchObject({ sent: 4, shipped: { decisions: 3, traffic: 1 } });
  });

  it('no address, nothing shipped; a record deleted since is sent again from its first line', async () => {
    const dataDir = tempDir('apollia-otlp-none-');
    const log = await someRecord(dataDir);
    const r = await receiver();
    let url: string | null = null;
    const s = shipper(dataDir, () => url);
    await s.flush();
    expect(r.requests).toHaveLength(0);
    expect(await readExportStatus(dataDir)).toBeNull();
    url = r.url;
    await s.flush();
    expect(r.requests.flatMap((q) => q.records)).toHaveLength(4);
    const { rmSync } = await import('node:fs');
    rmSync(log.dir, { recursive: true });
    await log.record({ kind: 'install', package: 'other', outcome: 'ok', detail: 'installed other 1.0.0' });
    await s.flush();
    const again = r.requests.slice(1).flatMap((q) => q.records.map((x) => x.attributes['apollia.activity.kind']));
    // The writer found the heads not matching (both streams deleted) and said so first: the collector sees it.
    expect(again).toEqual(['record_broken', 'record_broken', 'install']);
    expect(r.requests.at(-1)?.records[0]?.attributes['apollia.record.seq']).toBe(1);
  });

  it('only https, or http to this computer’s loopback; no user or password in the address', () => {
    expect(otlpEndpointProblem('https://otel.example.com/v1/logs')).toBeNull();
    expect(otlpEndpointProblem('http://127.0.0.1:4318/v1/logs')).toBeNull();
    expect(otlpEndpointProblem('http://localhost:4318/v1/logs')).toBeNull();
    expect(otlpEndpointProblem('http://otel.example.com/v1/logs')).toMatch(/must use https:\/\//);
    expect(otlpEndpointProblem('ftp://otel.example.com/')).toMatch(/must be https:\/\//);
    expect(otlpEndpointProblem('https://me:pw@otel.example.com/')).toMatch(/user or password/);
    expect(otlpEndpointProblem('otel.example.com')).toMatch(/is not an address/);
  });
});
