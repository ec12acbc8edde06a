/**
 * The person's collector for the activity record through the Api: set and removed in one commit with its decision
 * (`collector_set`, `collector_removed`), nothing written for the same address again or a removal with none, a refused
 * address a sentence with nothing written, and the organization's `activityExport.otlp` winning: shown in effect, the
 * person's locked (`policy.collector_locked`), an unreadable policy locking it too.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, testApi, treeHash } from '../../../test/helpers/test-api';

const MINE = 'https://otel.example.com/v1/logs';
const LOCAL = 'http://127.0.0.1:4318/v1/logs';
const ORG = 'https://collector.corp.example/v1/logs';

function policyAt(policy: unknown): string {
  const path = join(tempDir('apollia-collector-policy-'), 'policy.json');
  writeFileSync(path, typeof policy === 'string' ? policy : JSON.stringify(policy));
  return path;
}

describe("the person's collector", () => {
  it('is set, shown in effect as theirs, replaced and removed, each change recorded once', async () => {
    const { api } = testApi();
    expect(await api.activityCollector()).toEqual({ ok: true, value: { inEffect: null, yours: null, managed: false } });
    const set = await api.setActivityCollector({ url: MINE });
    expect(set).toMatchObject({
      ok: true,
      value: { inEffect: { url: MINE, origin: 'person', sent: 0, problem: null }, yours: MINE, changed: true },
    });
    const again = await api.setActivityCollector({ url: MINE });
    expect(again).toMatchObject({ ok: true, value: { yours: MINE, changed: false } });
    expect((await api.setActivityCollector({ url: LOCAL })).ok).toBe(true);
    const activity = await api.activity();
    expect(activity.ok && activity.value.export).toMatchObject({ url: LOCAL, origin: 'person' });
    const dashboard = await api.dashboard();
    expect(dashboard.ok && dashboard.value.activityExport).toMatchObject({ url: LOCAL, origin: 'person' });
    expect(await api.setActivityCollector({ url: null })).toMatchObject({
      ok: true,
      value: { inEffect: null, yours: null, changed: true },
    });
    expect(await api.setActivityCollector({ url: null })).toMatchObject({ ok: true, value: { changed: false } });
    const decisions = await api.activity({ decisionsOnly: true });
    const kinds = decisions.ok ? decisions.value.events.map((e) => [e.kind, e.detail]) : [];
    expect(kinds).toEqual([
      ['collector_removed', `the activity record is no longer sent to ${LOCAL}`],
      ['collector_set', `the activity record is sent to ${LOCAL} (was ${MINE})`],
      ['collector_set', `the activity record is sent to ${MINE}`],
    ]);
  });

  it('refuses an address it cannot use in a sentence, and writes nothing', async () => {
    const { api, dataDir } = testApi();
    await api.setActivityCollector({ url: MINE });
    const before = treeHash(dataDir);
    for (const [url, words] of [
      ['http://otel.example.com/v1/logs', /must use https:\/\//],
      ['https://user:pw@otel.example.com/v1/logs', /must not carry a user or password/],
      ['not an address', /is not an address/],
      ['ftp://otel.example.com/', /must be https:\/\//],
    ] as const) {
      const refused = await api.setActivityCollector({ url });
      expect(refused).toMatchObject({
        ok: false,
        error: { code: 'collector.invalid', message: expect.stringMatching(words) },
      });
      if (!refused.ok) expect(refused.error.message).not.toContain('pw@');
    }
    expect(await api.setActivityCollector({ url: '' })).toMatchObject({
      ok: false,
      error: { code: 'request.invalid' },
    });
    expect(treeHash(dataDir)).toBe(before);
  });
});

describe("the organization's collector wins", () => {
  it('is the one in effect, and the person cannot set or remove theirs; nothing written', async () => {
    const dataDir = join(tempDir('apollia-collector-data-'), 'data');
    await testApi({ dataDir }).api.setActivityCollector({ url: MINE });
    const policy = policyAt({ version: 2, organization: 'Example Corp', activityExport: { otlp: ORG } });
    const { api } = testApi({ dataDir, policy: { machine: null, env: policy } });
    expect(await api.activityCollector()).toMatchObject({
      ok: true,
      value: { inEffect: { url: ORG, origin: 'organization' }, yours: MINE, managed: true },
    });
    const before = treeHash(dataDir);
    for (const url of [LOCAL, null]) {
      const refused = await api.setActivityCollector({ url });
      expect(refused).toMatchObject({ ok: false, error: { code: 'policy.collector_locked' } });
      if (!refused.ok) expect(refused.error.message).toContain(ORG);
    }
    expect(treeHash(dataDir)).toBe(before);
  });

  it('an unreadable policy locks the setting too (fail closed)', async () => {
    const { api, dataDir } = testApi({ policy: { machine: null, env: policyAt('{ not json') } });
    const before = treeHash(dataDir);
    expect(await api.setActivityCollector({ url: MINE })).toMatchObject({
      ok: false,
      error: { code: 'policy.unreadable' },
    });
    expect(treeHash(dataDir)).toBe(before);
  });
});
