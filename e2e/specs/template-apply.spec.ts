/**
 * Applying the built-in `market-monitor` template (DESIGN.md "Consent, install, apply"): a
 * parameter that breaks its pattern is refused inline and blocks Next; a missing MCP server blocks
 * apply with a message naming it until it is saved in Settings; then the pins show the channel,
 * apply makes the agent, and the dashboard shows it with its pinned tool and its schedule.
 */
import { expect, snapshot, snapshotBoth, test } from '../support/app';

test.use({ now: '2026-01-01T00:00:00Z' });

test('market-monitor: pattern error, missing server resolved in Settings, pins, apply, dashboard', async ({ page }) => {
  // Every step is pictured and scanned at two window sizes: more than the default test time on a shared machine.
  test.setTimeout(300_000);
  const main = page.getByRole('main');
  await page.getByRole('button', { name: 'Use this template: Market monitor' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Apply template market-monitor' })).toBeVisible();
  // A template shipped with the app says so, not "unverified".
  await expect(main.locator('.badge', { hasText: 'Ships with Apollia Desktop' })).toBeVisible();
  await expect(main).not.toContainText('Unverified');
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await snapshotBoth(page, 'template-1-overview');

  // What the agent will be told, as the template wrote it: plain text, placeholders visible.
  const told = page.getByRole('region', { name: 'What the agent will be told' });
  await told.getByText('Instructions', { exact: true }).click();
  await expect(told.getByText('You watch a short list of companies for one person')).toBeVisible();
  await expect(told).toContainText('Companies: ${parameters.companies}');
  await expect(
    told
      .locator('summary')
      .filter({ hasText: /^Skill / })
      .first(),
  ).toBeVisible();
  await snapshot(page, 'template-1-overview-instructions');

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Step 2 of 5: Fill in its parameters' })).toBeVisible();
  await page.getByLabel(/^companies/).fill('Acme, globex.com');
  const channel = page.getByLabel(/^channel/);
  await channel.fill('not a channel');
  await channel.blur();
  await expect(channel).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  await expect(main).toContainText('To continue, fill in or fix this field: channel.');
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await snapshotBoth(page, 'template-2-parameter-error');

  await channel.fill('C0123ABCD');
  await expect(channel).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('button', { name: 'Next' })).toBeEnabled();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Step 3 of 5: What it may use' })).toBeVisible();
  await expect(main).toContainText('C0123ABCD');
  const slack = page.getByRole('article', { name: 'slack Missing' });
  await expect(slack).toContainText('Pinned: slack_send_message can post only to channel_id C0123ABCD');
  await expect(slack.getByRole('switch', { name: 'Allow slack_send_message without asking' })).toBeDisabled();
  // Apply skips a server that is not saved: its tool's badge says so, not "Asks you first".
  await expect(slack.getByRole('listitem').filter({ hasText: 'slack_send_message' }).locator('.badge')).toHaveText(
    'Skipped: no server saved',
  );
  await snapshotBoth(page, 'template-3-access-missing-server');

  // Save the slack server in Settings, then come back to the same form.
  await slack.getByRole('button', { name: 'Save slack in Settings → MCP servers' }).click();
  await expect(page.getByLabel('Server name')).toHaveValue('slack');
  await page.getByLabel('Server name').fill('slack');
  await page.getByLabel('Command').fill('npx');
  await page.getByLabel('Arguments (one per line)').fill('slack-mcp');
  await page.getByRole('button', { name: /^Save/ }).first().click();
  await expect(page.getByRole('button', { name: 'Remove server slack' })).toBeVisible();
  await snapshotBoth(page, 'settings-mcp-saved');
  await page.getByRole('list', { name: 'Opened packages' }).getByRole('button').first().click();
  await expect(page.getByRole('heading', { level: 2, name: 'Step 3 of 5: What it may use' })).toBeVisible();
  // Asked before each tool unless chosen: the person chooses the template's recommendation, unattended.
  await expect(page.getByRole('radio', { name: /^Ask me before a tool runs/ })).toBeChecked();
  await page.getByRole('radio', { name: /^Run unattended/ }).check();
  const grant = page.getByRole('switch', { name: 'Allow slack_send_message without asking' });
  await expect(grant).toBeEnabled();
  // The badge says what the tool will do after apply, given the switch beside it.
  const grantBadge = page
    .getByRole('article', { name: 'slack Saved on this computer' })
    .getByRole('listitem')
    .filter({ has: grant })
    .locator('.badge');
  await expect(grantBadge).toHaveText('Asks you first');
  await grant.check();
  await expect(grantBadge).toHaveText('Runs without asking, held by its pin');
  await snapshot(page, 'template-3-access-granted');

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Step 4 of 5: What would start it' })).toBeVisible();
  await expect(main).toContainText('weekly');
  // Nothing is armed without a tick.
  const armWeekly = page.getByRole('checkbox', { name: 'Arm weekly when the agent is made' });
  await expect(armWeekly).not.toBeChecked();
  await armWeekly.check();
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await snapshotBoth(page, 'template-4-triggers');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Step 5 of 5: Review and apply' })).toBeVisible();
  // Review shows everything granted or run, and the trigger as ticked.
  const everything = main.getByRole('region', { name: 'Everything it gets' });
  await expect(everything).toContainText('mcp:slack/slack_send_message');
  await expect(everything.getByRole('listitem').filter({ hasText: 'weekly' })).toContainText('Armed when made');
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await snapshotBoth(page, 'template-5-review');
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  // gmail (optional) was skipped: the agent is made, and says what it cannot do yet rather than "ready".
  await expect(
    page.getByRole('heading', {
      level: 1,
      name: 'Market monitor: Acme, globex.com was made, but cannot do everything yet',
    }),
  ).toBeVisible();
  await expect(main.getByRole('region', { name: 'What it cannot do yet' })).toContainText(
    'Without an MCP server saved as gmail, it cannot use GMAIL_SEND_EMAIL',
  );
  await snapshotBoth(page, 'template-6-applied');
  await page.getByRole('button', { name: 'Go to the dashboard' }).click();
  const agent = page.getByRole('article', { name: /Market monitor: Acme, globex\.com/ });
  await expect(agent).toContainText('slack_send_message');
  await expect(agent).toContainText('Pinned: channel_id = "C0123ABCD"');
  await expect(agent.getByRole('listitem').filter({ hasText: 'weekly (on a schedule)' })).toContainText('Armed');
  await snapshot(page, 'template-7-dashboard');
});
