/**
 * The owner's own tool settings (template spec "Apply" step 2: apply grants "never one the owner
 * denies on this server (it stays denied, with a `grants.<tool>` warning)"). In Settings → Tools
 * you never allow, the owner lists `mcp:slack/slack_send_message`; applying market-monitor, the
 * switch on that tool does not change it: the Access step says it is denied in your Settings, the
 * Review step shows the warning in plain words, and the agent is recorded with the tool denied.
 */
import { expect, snapshot, stepHeading, test } from '../support/app';

test.use({ now: '2026-01-01T00:00:00Z' });

const SEND = 'mcp:slack/slack_send_message';

test('a tool denied in Settings stays denied when a template is applied with it switched on', async ({ page, app }) => {
  const main = page.getByRole('main');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();

  // Save the slack server, so apply does not skip its tool.
  await page.getByLabel('Server name').fill('slack');
  await page.getByLabel('Command').fill('npx');
  await page.getByLabel('Arguments (one per line)').fill('slack-mcp');
  await page.getByRole('button', { name: 'Save server' }).click();
  await expect(page.getByRole('button', { name: 'Remove server slack' })).toBeVisible();

  // The tool is picked from the tools the app knows, never typed.
  const section = page.getByRole('region', { name: 'Tools you never allow' });
  await expect(section).toContainText('You have not listed any tool.');
  const toolField = section.getByLabel('Tool', { exact: true });
  await expect(section.getByRole('textbox')).toHaveCount(0);
  await expect(section.getByRole('button', { name: 'Never allow it' })).toBeDisabled();
  await expect(toolField.locator('optgroup[label="Built-in tools"] option', { hasText: '(mail_send)' })).toHaveCount(1);
  await toolField.selectOption(SEND);
  await section.getByRole('button', { name: 'Never allow it' }).click();
  const listed = section.getByRole('list', { name: 'Tools you never allow' });
  await expect(listed.getByRole('listitem')).toHaveText([`${SEND} Never allowed Remove`]);
  await expect(toolField).toHaveValue('');
  // Denied, it is no longer offered.
  await expect(toolField.locator(`option[value="${SEND}"]`)).toHaveCount(0);
  await expect(section.getByRole('status')).toHaveText('Added to the tools you never allow.');
  await snapshot(page, 'settings-tools-never-allowed');
  expect(((await app.readState()) as { settings: { deniedTools: string[] } }).settings.deniedTools).toEqual([SEND]);

  // Apply market-monitor with that tool switched on.
  await nav.getByRole('button', { name: 'Open' }).click();
  await page.getByRole('button', { name: 'Use this template: Market monitor' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Apply template market-monitor' })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel(/^companies/).fill('Acme');
  await page.getByLabel(/^channel/).fill('C0123ABCD');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, 'Step 3 of 5: What it may use')).toBeVisible();

  const slack = page.getByRole('article', { name: 'slack Saved on this computer' });
  const grant = page.getByRole('switch', { name: 'Allow slack_send_message without asking' });
  const row = slack.getByRole('listitem').filter({ has: grant });
  await expect(row.locator('.badge')).toHaveText('Denied in your Settings');
  await grant.check();
  await expect(grant).toBeChecked();
  await expect(page.getByText('Updating…')).toHaveCount(0);
  // Switched on, it still reads as denied by your settings, never as a pin left empty.
  await expect(row.locator('.badge')).toHaveText('Denied in your Settings');
  await expect(row).toContainText(
    `Denied in your Settings: ${SEND} is on your list of tools you never allow, so it stays denied even if you switch it on.`,
  );
  await expect(row).not.toContainText('which you left empty');
  await expect(row).toContainText('Pinned: slack_send_message can post only to channel_id C0123ABCD');
  await snapshot(page, 'owner-denied-1-access');

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, 'Step 4 of 5: What would start it')).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, 'Step 5 of 5: Review and apply')).toBeVisible();
  const warnings = main.getByRole('region', { name: 'Warnings' });
  await expect(warnings.getByRole('listitem').filter({ hasText: SEND })).toHaveText(
    `Denied in your Settings: You allowed slack_send_message, but ${SEND} is on your list of tools you never allow (Settings → Tools you never allow): it stays denied`,
  );
  await expect(main).toContainText('no MCP tool allowed without asking');
  await snapshot(page, 'owner-denied-2-review');

  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Market monitor: Acme was made, but cannot do everything yet' }),
  ).toBeVisible();
  const stored = (await app.readState()) as {
    agents: Record<string, { toolSettings: Record<string, { setting: string }> }>;
  };
  const agents = Object.values(stored.agents);
  expect(agents).toHaveLength(1);
  expect(agents[0]?.toolSettings[SEND]?.setting).toBe('deny');

  // Taken off the list, the next apply of the form lets the switch decide again.
  await nav.getByRole('button', { name: 'Settings' }).click();
  await section.getByRole('button', { name: `Remove ${SEND} from the tools you never allow` }).click();
  await expect(section).toContainText('You have not listed any tool.');
  expect(((await app.readState()) as { settings: { deniedTools: string[] } }).settings.deniedTools).toEqual([]);
});
