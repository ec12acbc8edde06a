/**
 * No dead end for a template whose MCP server is missing: the applied screen links to Settings,
 * and once the server is saved, the agent's card offers to grant its tools (no second apply).
 * Applying the same template again with the same name warns before Apply that a second agent of
 * that name would be made, and offers to open the existing one instead.
 */
import { expect, nextStep, snapshotBoth, test } from '../support/app';

test.use({ now: '2026-01-01T00:00:00Z' });

async function toReview(page: import('@playwright/test').Page) {
  await page.getByRole('button', { name: 'Use this template: Market monitor' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Apply template market-monitor' })).toBeFocused();
  await nextStep(page, 'Step 2 of 5: Fill in its parameters');
  await page.getByLabel(/^companies/).fill('Acme');
  await page.getByLabel(/^channel/).fill('C0123ABCD');
  await nextStep(page, 'Step 3 of 5: What it may use');
  await nextStep(page, 'Step 4 of 5: What would start it');
  await nextStep(page, 'Step 5 of 5: Review and apply');
}

test('a missing server saved after apply is granted from the agent’s card; a second apply of the same name warns first', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const main = page.getByRole('main');
  await toReview(page);
  // Nothing of that name yet: no warning.
  await expect(main.getByRole('region', { name: 'An agent with this name is already here' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Market monitor: Acme was made, but cannot do everything yet' }),
  ).toBeFocused();
  const cannot = main.getByRole('region', { name: 'What it cannot do yet' });
  await expect(cannot).toContainText(
    "this agent's card on the dashboard then offers to give it to it (no need to apply the template again)",
  );
  await expect(cannot).not.toContainText('apply the template again to give');

  // The message sends the person to Settings: it links there.
  await cannot.getByRole('button', { name: 'Go to Settings → MCP servers' }).click();
  await page.getByLabel('Server name').fill('slack');
  await page.getByLabel('Command').fill('npx');
  await page.getByLabel('Arguments (one per line)').fill('slack-mcp');
  await page.getByRole('button', { name: /^Save/ }).first().click();
  await expect(page.getByRole('button', { name: 'Remove server slack' })).toBeVisible();

  // Coming back, the agent's card offers to finish: slack's tool can be granted, gmail still waits.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Dashboard' }).click();
  const agent = page.getByRole('article', { name: /Market monitor: Acme/ });
  const slack = agent.getByRole('region', { name: 'Waiting for the MCP server slack' });
  await expect(slack).toContainText('The MCP server slack is saved now. Give its tool to this agent:');
  const gmail = agent.getByRole('region', { name: 'Waiting for the MCP server gmail' });
  await expect(gmail).toContainText(
    'It cannot use GMAIL_SEND_EMAIL yet: no MCP server named gmail is saved on this computer.',
  );
  await expect(gmail.getByRole('button', { name: 'Go to Settings → MCP servers' })).toBeVisible();
  await snapshotBoth(page, 'template-waiting-1-dashboard');
  await slack.getByRole('button', { name: 'Grant slack_send_message for Market monitor: Acme' }).click();
  await expect(agent.getByRole('region', { name: 'Waiting for the MCP server slack' })).toHaveCount(0);
  await expect(
    agent.getByRole('button', { name: 'Revoke mcp:slack/slack_send_message for Market monitor: Acme' }),
  ).toBeVisible();
  await expect(agent).toContainText('Pinned: channel_id = "C0123ABCD"');
  await snapshotBoth(page, 'template-waiting-2-granted');

  // The same template, the same name: warned before Apply, with the way to the existing agent.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Open' }).click();
  await toReview(page);
  const same = main.getByRole('region', { name: 'An agent with this name is already here' });
  await expect(same).toContainText(
    'Market monitor: Acme is already on this computer. Each apply makes a new agent: Apply makes a second one with the same name',
  );
  await expect(page.getByRole('button', { name: 'Apply', exact: true })).toBeEnabled();
  await snapshotBoth(page, 'template-waiting-3-same-name');
  await same.getByRole('button', { name: 'Open the existing agent' }).click();
  await expect(page.getByRole('heading', { level: 3, name: /Market monitor: Acme/ })).toBeFocused();
  await expect(page.getByRole('article', { name: /Market monitor: Acme/ })).toHaveCount(1);
});
