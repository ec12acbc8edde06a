/**
 * A template whose MCP server is `required` (spec agentrun-template-packages.md, agent.md `mcp`:
 * "when `required` is true, refuses … and makes nothing"; DESIGN.md "Consent, install, apply":
 * "missing required MCP servers → a clear 'can't apply yet' naming what is missing"). None of the
 * built-in templates marks one required, so `e2e/fixtures/templates/issue-triage` does: opened
 * through the folder dialog, it cannot be applied until `linear` is saved in Settings; then it can,
 * and the dashboard shows the agent.
 */
import { join } from 'node:path';
import { REPO_ROOT } from '../support/electron-binary';
import { expect, snapshot, stepHeading, test } from '../support/app';

test.use({ now: '2026-01-01T00:00:00Z' });

const ISSUE_TRIAGE = join(REPO_ROOT, 'e2e', 'fixtures', 'templates', 'issue-triage');
const BLOCKER = 'issue-triage needs the MCP server linear: save it in Settings → MCP servers first';

test('a required MCP server missing blocks apply, naming it, until it is saved in Settings', async ({ page, app }) => {
  const main = page.getByRole('main');
  await app.answerDialog('folder', ISSUE_TRIAGE);
  await page.getByRole('button', { name: 'Open a template folder…' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Apply template issue-triage' })).toBeVisible();
  // The missing required server is shown on the Overview, not first at Review.
  const needs = main.getByRole('region', { name: 'It needs something this computer does not have yet' });
  await expect(needs).toContainText('The MCP server linear is required');
  // An opened (not built-in) template has no signature: it says so.
  await expect(main.locator('.badge', { hasText: 'Unverified publisher' })).toBeVisible();
  await snapshot(page, 'required-server-0-overview');

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, 'Step 2 of 5: Fill in its parameters')).toBeVisible();
  await page.getByLabel(/^team/).fill('ENG');
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(stepHeading(page, 'Step 3 of 5: What it may use')).toBeVisible();
  const linear = page.getByRole('article', { name: 'linear Missing (required)' });
  await expect(linear).toContainText('This template cannot be applied until a server is saved under this name.');
  await expect(linear.getByRole('switch', { name: 'Allow list_issues without asking' })).toBeDisabled();
  await snapshot(page, 'required-server-1-access');

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, 'Step 4 of 5: What would start it')).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, 'Step 5 of 5: Review and apply')).toBeVisible();
  const blockers = page.getByRole('region', { name: "Can't apply yet" });
  await expect(blockers.getByRole('listitem')).toHaveText([
    new RegExp(`^${BLOCKER.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
  ]);
  await expect(page.getByRole('button', { name: 'Apply', exact: true })).toBeDisabled();
  await snapshot(page, 'required-server-2-blocked');

  // Save the server in Settings, then come back to the same step.
  await blockers.getByRole('button', { name: 'Save linear in Settings → MCP servers' }).click();
  await expect(page.getByLabel('Server name')).toHaveValue('linear');
  await page.getByLabel('Server name').fill('linear');
  await page.getByLabel('Command').fill('npx');
  await page.getByLabel('Arguments (one per line)').fill('linear-mcp');
  await page.getByRole('button', { name: /^Save/ }).first().click();
  await expect(page.getByRole('button', { name: 'Remove server linear' })).toBeVisible();
  await page
    .getByRole('list', { name: 'Opened packages' })
    .getByRole('button', { name: 'issue-triage', exact: true })
    .click();

  await expect(stepHeading(page, 'Step 5 of 5: Review and apply')).toBeVisible();
  await expect(page.getByRole('region', { name: "Can't apply yet" })).toHaveCount(0);
  await expect(main).toContainText('Nothing is missing.');
  const applyButton = page.getByRole('button', { name: 'Apply', exact: true });
  await expect(applyButton).toBeEnabled();
  await snapshot(page, 'required-server-3-unblocked');

  await applyButton.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Issue triage: ENG was made' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Apollia Desktop runs no agent' })).toBeVisible();
  await page.getByRole('button', { name: 'Go to the dashboard' }).click();
  const agent = page.getByRole('article', { name: /Issue triage: ENG/ });
  await expect(agent).toContainText('list_issues');
  await snapshot(page, 'required-server-4-dashboard');
});
