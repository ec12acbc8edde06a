/**
 * The trigger host under the organization's policy: an armed trigger of a kind the policy does not
 * allow is not made live (it stays armed in the store), an unreadable policy pauses every trigger,
 * and lifting the block makes it live again at the next timer wait, each change recorded.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { activity, FakeClock, putTriggers, runRequests, triggerRecord } from '../../../test/helpers/trigger-host';
import { createFileKeySecretBox } from '../secrets/secret-box';
import { TriggerHost } from './trigger-host';

const hosts: TriggerHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
});

it('a blocked kind does not fire while the policy holds it, an unreadable policy pauses it, and lifting the block lets it fire again', async () => {
  const dataDir = tempDir('apollia-policy-host-');
  const policy = join(tempDir('apollia-policy-host-file-'), 'policy.json');
  writeFileSync(policy, JSON.stringify({ version: 1, triggers: { schedule: false } }));
  await putTriggers(dataDir, [
    triggerRecord({ id: 'invoices/hourly', type: 'interval', every: '1h', armedAt: '2026-12-01T00:00:00.000Z' }),
  ]);
  const clock = new FakeClock(Date.parse('2026-12-01T00:30:00Z'));
  const lines: string[] = [];
  const host = new TriggerHost({
    dataDir,
    secretBox: createFileKeySecretBox(dataDir),
    port: 0,
    watchStore: false,
    clock,
    policy: { machine: null, env: policy },
    onLine: (l) => lines.push(l),
  });
  await host.start();
  hosts.push(host);
  expect(host.status().triggers['invoices/hourly']).toBeUndefined();
  clock.advanceTo('2026-12-01T03:00:00Z');
  await host.settled();
  expect(runRequests(dataDir)).toEqual([]);
  expect(JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8')).triggers['invoices/hourly'].armed).toBe(true);

  writeFileSync(policy, '{ "version": 1, ');
  clock.advanceTo('2026-12-01T03:10:00Z');
  await host.settled();
  expect(host.status().triggers['invoices/hourly']).toBeUndefined();

  writeFileSync(policy, JSON.stringify({ version: 1 }));
  clock.advanceTo('2026-12-01T03:20:00Z');
  await host.settled();
  expect(host.status().triggers['invoices/hourly']).toBeDefined();
  clock.advanceTo('2026-12-01T04:30:00Z');
  await host.settled();
  expect(runRequests(dataDir).length).toBeGreaterThan(0);
  const kinds = (await activity(dataDir)).map((e) => e.kind);
  expect(kinds).toEqual(
    expect.arrayContaining(['policy_applied', 'disarm', 'policy_unreadable', 'policy_changed', 'arm']),
  );
});
