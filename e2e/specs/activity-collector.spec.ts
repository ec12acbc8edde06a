/**
 * Settings → Activity record: the person names the OpenTelemetry collector the record is sent to, sees it in effect
 * (Settings, the Activity screen), removes it; under a trial policy naming its own (`activityExport.otlp`), the
 * organization's is in effect and the field is read-only, "Set by your organization".
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { axeCheck, expect, test } from '../support/app';

const MINE = 'https://otel.example.com/v1/logs';
const ORG = 'https://collector.corp.example/v1/logs';

async function openSettings(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
}

test.describe('your own collector', () => {
  test('typed and saved, shown in effect and on the Activity screen, then removed', async ({ page }) => {
    await openSettings(page);
    const section = page.getByTestId('collector-section');
    await expect(section.getByTestId('collector-in-effect')).toHaveText(
      'The record is kept on this computer only: no collector is named.',
    );
    const field = section.getByLabel('Your collector’s address');
    await field.fill('http://otel.example.com/v1/logs');
    await section.getByRole('button', { name: 'Save' }).click();
    await expect(section).toContainText('must use https://');
    await field.fill(MINE);
    await section.getByRole('button', { name: 'Save' }).click();
    await expect(section.getByRole('status').filter({ hasText: 'Saved:' })).toBeVisible();
    await expect(section.getByTestId('collector-in-effect')).toHaveText(
      `The record is sent to ${MINE}, the collector you named.`,
    );
    await expect(section.getByTestId('activity-export')).toContainText(`Sent to your collector at ${MINE}`);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('settings-collector-yours.png'), fullPage: false });
    await axeCheck(page, 'Settings with a collector of your own');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Activity' }).click();
    await expect(page.getByTestId('activity-export')).toContainText(`Sent to your collector at ${MINE}`);
    await expect(
      page.locator('.activity-list li').filter({ hasText: 'Named a collector for the activity record' }),
    ).toContainText(MINE);
    await openSettings(page);
    await page.getByTestId('collector-section').getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByTestId('collector-in-effect')).toHaveText(
      'The record is kept on this computer only: no collector is named.',
    );
    await expect(page.getByTestId('collector-section').getByRole('button', { name: 'Remove' })).toHaveCount(0);
  });
});

const policyFile = join(mkdtempSync(join(tmpdir(), 'apollia-e2e-collector-')), 'policy.json');
writeFileSync(policyFile, JSON.stringify({ version: 2, organization: 'Example Corp', activityExport: { otlp: ORG } }));

test.describe('the organization’s collector', () => {
  test.use({ policyFile });
  test('is in effect, and the field is read-only: set by your organization', async ({ page }) => {
    await openSettings(page);
    const section = page.getByTestId('collector-section');
    await expect(section.getByTestId('collector-in-effect')).toContainText(`The record is sent to ${ORG}`);
    await expect(section.getByTestId('collector-in-effect')).toContainText('Set by your organization');
    const field = section.getByLabel('Collector address');
    await expect(field).toHaveValue(ORG);
    await expect(field).toHaveAttribute('readonly', '');
    await expect(section).toContainText(
      'Set by your organization: its policy names this collector, and it cannot be changed here.',
    );
    await expect(section.getByRole('button', { name: 'Save' })).toHaveCount(0);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('settings-collector-organization.png') });
    await axeCheck(page, 'Settings with the organization’s collector');
  });
});
