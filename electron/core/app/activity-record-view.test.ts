/**
 * The Activity view says what the record's check proved, records a break it finds (once), and shows
 * the export to the organization's collector with the trigger host's counts (activity-record-view.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { ActivityViewSchema } from '../../../shared/contract/replies-installed';
import { deadOtlpUrl } from '../../../test/helpers/otlp-receiver';
import { tempDir, testApi } from '../../../test/helpers/test-api';
import { ActivityLog } from '../activity/activity-log';
import { ActivityShipper } from '../activity/activity-shipper';
import { VIEW_BREAK_PREFIX } from './activity-record-view';

function policyAt(policy: unknown): string {
  const path = join(tempDir('apollia-view-policy-'), 'policy.json');
  writeFileSync(path, JSON.stringify(policy));
  return path;
}

async function viewOf(api: ReturnType<typeof testApi>['api']) {
  const view = await api.activity();
  if (!view.ok) throw new Error(view.error.message);
  expect(Value.Check(ActivityViewSchema, view.value)).toBe(true);
  return view.value;
}

describe('the record’s check on the Activity view', () => {
  it('a line changed in the middle is a break in words, recorded once as record_broken, and it stays a break', async () => {
    const { api, dataDir } = testApi();
    const grants = ['file_read', 'shell', 'web_fetch'].map((detail) => ({
      kind: 'grant' as const,
      package: 'invoices',
      agent: 'invoices/clerk',
      outcome: 'ok' as const,
      detail,
    }));
    await new ActivityLog(dataDir).recordMany(grants);
    expect((await viewOf(api)).verdict).toMatchObject({ intact: true, recordedBreaks: 0 });
    // Someone without the key turns "shell" into "nothing".
    const decisions = join(dataDir, 'activity', 'decisions.jsonl');
    writeFileSync(decisions, readFileSync(decisions, 'utf8').replace('"shell"', '"nothing"'));
    const broken = await viewOf(api);
    expect(broken.verdict).toMatchObject({ intact: false, breakKind: 'changed' });
    expect(broken.verdict.summary).toMatch(
      /^decisions: BROKEN \(a line was changed, removed or inserted\) at activity\/decisions\.jsonl line 3: it does not follow line 2/,
    );
    // The break is in the record now (shown among the entries), and is not recorded again at the next look.
    const found = broken.events.filter((e) => e.kind === 'record_broken');
    expect(found).toHaveLength(1);
    expect(found[0]?.detail).toBe(`${VIEW_BREAK_PREFIX}: ${broken.verdict.summary}`.slice(0, found[0]?.detail.length));
    const again = await viewOf(api);
    expect(again.verdict).toMatchObject({ intact: false, breakKind: 'changed', recordedBreaks: 1 });
    expect(again.events.filter((e) => e.kind === 'record_broken')).toHaveLength(1);
  });

  it('an intact record records nothing; no collector named, no export shown', async () => {
    const { api, dataDir } = testApi();
    await new ActivityLog(dataDir).record({
      kind: 'grant',
      package: 'p',
      agent: 'p/a',
      outcome: 'ok',
      detail: 'shell',
    });
    const before = readFileSync(join(dataDir, 'activity', 'decisions.jsonl'), 'utf8');
    const view = await viewOf(api);
    expect(view.verdict.intact).toBe(true);
    expect(view.export).toBeNull();
    expect(readFileSync(join(dataDir, 'activity', 'decisions.jsonl'), 'utf8')).toBe(before);
  });

  it('the collector the policy names, with the failures the trigger host counted', async () => {
    const url = await deadOtlpUrl();
    const dataDir = join(tempDir('apollia-view-export-'), 'data');
    const { api } = testApi({
      dataDir,
      policy: { machine: null, env: policyAt({ version: 2, activityExport: { otlp: url } }) },
    });
    await new ActivityLog(dataDir).record({
      kind: 'grant',
      package: 'p',
      agent: 'p/a',
      outcome: 'ok',
      detail: 'shell',
    });
    expect((await viewOf(api)).export).toEqual({
      url,
      origin: 'organization',
      sent: 0,
      failed: 0,
      failedBatches: 0,
      lastError: null,
      lastFailureAt: null,
      lastSentAt: null,
      problem: null,
    });
    // The host's shipper tries and fails: the view shows its counts.
    const shipper = new ActivityShipper({ dataDir, endpoint: () => url, exportOptions: { timeoutMillis: 1500 } });
    await shipper.stop();
    const shown = (await viewOf(api)).export;
    expect(shown).toMatchObject({ url, sent: 0, failedBatches: 1, problem: null });
    expect(shown?.failed).toBeGreaterThan(0);
    expect(shown?.lastError).toMatch(/ECONNREFUSED/);
    expect(shown?.lastFailureAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('an address the export cannot use is shown with what is wrong with it', async () => {
    const policy = policyAt({ version: 2, activityExport: { otlp: 'https://me:secret@otel.example.com/v1/logs' } });
    const { api } = testApi({ policy: { machine: null, env: policy } });
    expect((await viewOf(api)).export?.problem).toBe('the OTLP address must not carry a user or password');
  });
});
