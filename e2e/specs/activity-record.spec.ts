/**
 * The Activity screen says what the record's check proved (DESIGN.md "Triggers at run time", the
 * record): one line when intact; a banner when someone changed the record's files, the break itself
 * recorded; and the export to the organization's collector (the policy's `activityExport.otlp`, sent
 * by the trigger host over OTLP/HTTP to a receiver this spec runs on loopback), its failures counted.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { deadOtlpUrl, type OtlpReceiver, startOtlpReceiver } from '../../test/helpers/otlp-receiver';
import { axeCheck, expect, nextStep, stepHeading, test } from '../support/app';
import { packInvoices } from '../support/packages';

async function installInvoices(page: Page, app: { open(path: string): Promise<void> }): Promise<void> {
  await app.open(packInvoices().path);
  await expect(stepHeading(page, /Step 1 of \d/)).toBeVisible();
  await nextStep(page, /Step 2 of \d/);
  await nextStep(page, /Step 3 of \d/);
  await nextStep(page, /Step 4 of \d/);
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: /installed/i })).toBeVisible();
}

async function openActivity(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Activity' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
}

test.describe('the record’s verdict', () => {
  test('intact: one line saying what was proved; a line changed on disk: a banner, and the break recorded', async ({
    page,
    app,
  }) => {
    await installInvoices(page, app);
    await openActivity(page);
    const verdict = page.getByTestId('activity-verdict');
    await expect(verdict).toHaveText(
      /^The record checks out — intact: \d+ decisions from the first \(\d{4}-\d\d-\d\d \d\d:\d\d\) to the last \(\d{4}-\d\d-\d\d \d\d:\d\d\), head as committed\.$/,
    );
    await expect(page.getByRole('alert')).toHaveCount(0);
    // Someone without the record key edits the first decision on disk.
    const decisions = join(await app.dataDir(), 'activity', 'decisions.jsonl');
    const lines = readFileSync(decisions, 'utf8').split('\n');
    const first = JSON.parse(lines[0] as string) as { detail: string };
    lines[0] = JSON.stringify({ ...first, detail: `${first.detail} (edited)` });
    writeFileSync(decisions, lines.join('\n'));
    await page.reload();
    await openActivity(page);
    const banner = page.getByRole('alert').filter({ hasText: 'The activity record does not check out.' });
    await expect(banner).toBeVisible();
    await expect(banner).toContainText(
      'decisions: BROKEN (a line was changed, removed or inserted) at activity/decisions.jsonl line 2',
    );
    await expect(banner).toContainText('This break is itself recorded.');
    // The break is an entry of the record, recorded once however often the screen looks.
    const recorded = page.locator('.activity-list li').filter({ hasText: 'The activity record was found broken' });
    await expect(recorded).toHaveCount(1);
    await expect(recorded).toContainText('found by the Activity view’s check: decisions: BROKEN');
    await axeCheck(page, 'the Activity screen with a broken record');
  });
});

/** A policy file of its own for each group, written before the group's first test starts its app. */
function policyFileFor(name: string): string {
  return join(mkdtempSync(join(tmpdir(), `apollia-e2e-otlp-${name}-`)), 'policy.json');
}

const livePolicy = policyFileFor('live');
const deadPolicy = policyFileFor('dead');

test.describe('the export to the organization’s collector', () => {
  let receiver: OtlpReceiver;
  test.use({ policyFile: livePolicy });
  test.beforeAll(async () => {
    receiver = await startOtlpReceiver();
    writeFileSync(livePolicy, JSON.stringify({ version: 2, activityExport: { otlp: receiver.url } }));
  });
  test.afterAll(async () => {
    await receiver.close();
  });

  test('the trigger host sends the record; the screen says how much was sent', async ({ page, app }) => {
    await installInvoices(page, app);
    await openActivity(page);
    const exported = page.getByTestId('activity-export');
    await expect(exported).toContainText(`Sent to your organization's collector at ${receiver.url}`);
    // The host ships at its next look at the record (every few seconds); the screen refreshes itself.
    await expect(exported).toContainText(/\d+ entries sent, the last at/, { timeout: 30_000 });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Dashboard' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(page.getByTestId('dashboard-export-failing')).toHaveCount(0);
    // The first batch may hold only the host's own start; the install follows at the next look.
    const kinds = () => receiver.requests.flatMap((q) => q.records.map((r) => r.attributes['apollia.activity.kind']));
    await expect.poll(kinds, { timeout: 30_000 }).toContain('install');
    expect(receiver.requests.every((q) => q.contentType === 'application/json')).toBe(true);
  });
});

test.describe('a dead collector', () => {
  test.use({ policyFile: deadPolicy });
  test.beforeAll(async () => {
    writeFileSync(deadPolicy, JSON.stringify({ version: 2, activityExport: { otlp: await deadOtlpUrl() } }));
  });

  test('a warning with the failures counted, and the decision made all the same', async ({ page, app }) => {
    await installInvoices(page, app);
    await openActivity(page);
    await expect(page.locator('.activity-list li').filter({ hasText: 'Installed' }).first()).toBeVisible();
    const exported = page.getByTestId('activity-export');
    // The exporter retries a refused connection for up to its timeout (10 s) before the batch counts as failed.
    await expect(exported).toContainText(/could not be sent; the last failure, at .*ECONNREFUSED/, { timeout: 45_000 });
    await expect(exported).toHaveAttribute('role', 'status');
    await expect(exported).toContainText(/\d+ entr(y|ies) in \d+ batch(es)? could not be sent/);
    await axeCheck(page, 'the Activity screen with a failing export');
    // The first screen says it too, and leads to the details.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Dashboard' }).click();
    const banner = page.getByTestId('dashboard-export-failing');
    await expect(banner).toContainText("The activity record is not reaching your organization's collector");
    await expect(banner).toContainText(/The last try, at .*, failed: .*ECONNREFUSED/);
    await expect(banner).toContainText(/\d+ entr(y|ies) could not be sent yet/);
    await page.screenshot({ path: test.info().outputPath('dashboard-export-failing.png') });
    await axeCheck(page, 'the dashboard with a failing export');
    await banner.getByRole('button', { name: 'See the activity record' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  });
});
