/**
 * The trigger host ships the record to the collector in effect: the one the organization's policy names
 * (`activityExport.otlp`), else the person's (`settings.activityCollector`), over OTLP/HTTP to a receiver this test
 * runs on loopback: started with the host, everything recorded up to its stop handed over when it stops; no address,
 * nothing sent.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { type OtlpReceiver, startOtlpReceiver } from '../../../test/helpers/otlp-receiver';
import { tempDir, testApi } from '../../../test/helpers/test-api';
import { ActivityLog } from '../activity/activity-log';
import { readExportStatus } from '../activity/activity-shipper';
import { createFileKeySecretBox } from '../secrets/secret-box';
import { TriggerHost } from './trigger-host';

const receivers: OtlpReceiver[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});

async function hostUnder(policy: object | null): Promise<{ dataDir: string; host: TriggerHost }> {
  const dataDir = tempDir('apollia-host-export-');
  const file = join(tempDir('apollia-host-export-policy-'), 'policy.json');
  if (policy) writeFileSync(file, JSON.stringify(policy));
  const host = new TriggerHost({
    dataDir,
    secretBox: createFileKeySecretBox(dataDir),
    port: 0,
    watchStore: false,
    policy: { machine: null, env: policy ? file : null },
  });
  return { dataDir, host };
}

it('the policy’s activityExport.otlp: the host sends what anyone recorded while it ran, its own entries too', async () => {
  const r = await startOtlpReceiver();
  receivers.push(r);
  const { dataDir, host } = await hostUnder({ version: 2, activityExport: { otlp: r.url } });
  await host.start();
  // Another writer (the Api, the CLI) records a decision: the host ships it from the record's files.
  await new ActivityLog(dataDir).record({ kind: 'grant', package: 'invoices', outcome: 'ok', detail: 'file_read' });
  await host.stop();
  const kinds = r.requests.flatMap((q) => q.records.map((x) => x.attributes['apollia.activity.kind']));
  expect(kinds).toEqual(expect.arrayContaining(['policy_applied', 'grant', 'host_started', 'host_stopped']));
  expect(r.requests.every((q) => q.status === 200 && q.contentType === 'application/json')).toBe(true);
  expect(await readExportStatus(dataDir)).toMatchObject({ url: r.url, failed: 0, sent: kinds.length });
});

it('no address in the policy: nothing is sent and no export status is kept', async () => {
  const r = await startOtlpReceiver();
  receivers.push(r);
  const { dataDir, host } = await hostUnder({ version: 2, activityExport: { file: join(tempDir('x-'), 'a.jsonl') } });
  await host.start();
  await new ActivityLog(dataDir).record({ kind: 'grant', package: 'invoices', outcome: 'ok', detail: 'file_read' });
  await host.stop();
  expect(r.requests).toHaveLength(0);
  expect(await readExportStatus(dataDir)).toBeNull();
});

it('the person’s collector when the policy names none; the policy’s wins over it', async () => {
  const mine = await startOtlpReceiver();
  const org = await startOtlpReceiver();
  receivers.push(mine, org);
  const alone = await hostUnder(null);
  expect((await testApi({ dataDir: alone.dataDir }).api.setActivityCollector({ url: mine.url })).ok).toBe(true);
  await alone.host.start();
  await alone.host.stop();
  const sent = mine.requests.flatMap((q) => q.records.map((x) => x.attributes['apollia.activity.kind']));
  expect(sent).toEqual(expect.arrayContaining(['collector_set', 'host_started', 'host_stopped']));
  expect(await readExportStatus(alone.dataDir)).toMatchObject({ url: mine.url, failed: 0 });
  const managed = await hostUnder({ version: 2, activityExport: { otlp: org.url } });
  expect((await testApi({ dataDir: managed.dataDir }).api.setActivityCollector({ url: mine.url })).ok).toBe(true);
  const before = mine.requests.length;
  await managed.host.start();
  await managed.host.stop();
  expect(mine.requests).toHaveLength(before);
  expect(org.requests.length).toBeGreaterThan(0);
  expect(await readExportStatus(managed.dataDir)).toMatchObject({ url: org.url });
});
