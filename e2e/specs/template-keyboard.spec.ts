/**
 * A template's built-in tools can be unticked like any other, and
 * `approvals` is offered as a choice with the template's value as its default; the
 * template flow and Settings work with the keyboard alone; the template's steps have no horizontal
 * scroll at 200% zoom (emulated as in apo-trust.spec.ts: a 590×410 viewport drawn at two
 * device pixels per CSS pixel is how Chromium lays out a 1180×820 window at 200%).
 */
import type { Page } from '@playwright/test';
import {
  axeCheck,
  expect,
  expectNoHorizontalScroll,
  shot,
  snapshot,
  snapshotBoth,
  stepHeading,
  tabTo,
  test,
} from '../support/app';

test.use({ now: '2026-01-01T00:00:00Z' });

/** Presses Tab to the Next button and Enter, and waits for the step's heading to have focus. */
async function nextByKeyboard(page: Page, heading: string) {
  await tabTo(page, page.getByRole('button', { name: 'Next' }));
  await page.keyboard.press('Enter');
  await expect(stepHeading(page, heading)).toBeFocused();
}

test('a template applied with the keyboard alone: a built-in tool left out, asked before every tool', async ({
  page,
  app,
}) => {
  test.setTimeout(240_000);
  const main = page.getByRole('main');
  await tabTo(page, page.getByRole('button', { name: 'Use this template: Market monitor' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Apply template market-monitor' })).toBeFocused();
  // The verdict comes first, as for a package.
  await expect(
    page.getByRole('heading', { level: 3, name: 'Can send or post in your name, on its own' }),
  ).toBeVisible();
  await expect(main.locator('.verdict-level')).toHaveText('High risk');
  // The Overview states the template's value as its recommendation, not as a fact.
  await expect(main).toContainText('The template recommends: Run unattended');
  await expect(main).toContainText('You choose on the Access step.');

  await nextByKeyboard(page, 'Step 2 of 5: Fill in its parameters');
  await tabTo(page, page.getByLabel(/^companies/));
  await page.keyboard.type('Acme');
  await tabTo(page, page.getByLabel(/^channel/));
  await page.keyboard.type('C0123ABCD');

  await nextByKeyboard(page, 'Step 3 of 5: What it may use');
  const unattended = page.getByRole('radio', { name: /^Run unattended/ });
  const ask = page.getByRole('radio', { name: /^Ask me before a tool runs/ });
  // Asked before each tool unless the person chooses otherwise; the template's recommendation is marked beside its choice.
  await expect(ask).toBeChecked();
  await expect(
    page.getByRole('group', { name: 'How it asks' }).locator('.choice-row').filter({ has: unattended }),
  ).toContainText('Recommended by the template');
  const write = page.getByRole('checkbox', { name: /\bwrite$/ });
  await expect(write).toBeChecked();
  await tabTo(page, write);
  await page.keyboard.press('Space');
  await expect(write).not.toBeChecked();
  await expect(page.getByRole('listitem').filter({ has: write })).toContainText('Left out');
  // A radio group: Tab reaches the chosen one, an arrow key moves the choice.
  await tabTo(page, ask);
  await page.keyboard.press('ArrowDown');
  await expect(unattended).toBeChecked();
  await page.keyboard.press('ArrowUp');
  await expect(ask).toBeChecked();
  await expect(ask).toBeFocused();
  await expect(main).toContainText(
    'Its triggers start runs while you may be away: each run waits for your yes before a tool runs.',
  );
  await snapshotBoth(page, 'template-3-access-choices');

  await nextByKeyboard(page, 'Step 4 of 5: What would start it');
  await expect(page.getByRole('checkbox', { name: 'Arm weekly when the agent is made' })).not.toBeChecked();
  await axeCheck(page, 'keyboard template triggers');

  await nextByKeyboard(page, 'Step 5 of 5: Review and apply');
  const everything = main.getByRole('region', { name: 'Everything it gets' });
  await expect(everything).toContainText(
    'Approvals: Ask me before a tool runs (your choice: the template recommends “Run unattended”).',
  );
  await expect(everything.locator('summary').filter({ hasText: /^Built-in tools/ })).toHaveText(
    'Built-in tools (3): it asks you before each use',
  );
  await expect(everything.getByRole('listitem').filter({ hasText: 'Left out by you' })).toHaveText(
    /^Write files in the agent's work folder write Left out by you/,
  );
  await snapshot(page, 'template-5-review-choices');

  await tabTo(page, page.getByRole('button', { name: 'Apply', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: /^Market monitor: Acme / })).toBeFocused();
  await tabTo(page, page.getByRole('button', { name: 'Go to the dashboard' }));
  await page.keyboard.press('Enter');
  const agent = page.getByRole('article', { name: /Market monitor: Acme/ });
  await expect(agent).toContainText('It asks you before a tool runs.');
  await expect(agent.getByRole('button', { name: /^Grant write for / })).toBeVisible();
  // Its rows lead with what each tool does, the name after.
  await expect(
    agent.getByRole('listitem').filter({ has: page.getByRole('button', { name: /^Grant write for / }) }),
  ).toHaveText(/^Write files in the agent's work folder write\s+Writes or deletes/);
  await shot(page, 'template-keyboard-dashboard');
  await axeCheck(page, 'keyboard template dashboard');

  const state = (await app.readState()) as {
    agents: Record<string, { approvals: string; toolSettings: Record<string, { setting: string }> }>;
  };
  const [made] = Object.values(state.agents);
  expect([made?.approvals, made?.toolSettings.write?.setting, made?.toolSettings.read?.setting]).toEqual([
    'ask',
    'deny',
    'allow',
  ]);
});

test('Settings with the keyboard alone: save a server, never allow a tool, take it back', async ({ page, app }) => {
  const nav = page.getByRole('navigation', { name: 'Main' });
  await tabTo(page, nav.getByRole('button', { name: 'Settings' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();

  await tabTo(page, page.getByLabel('Server name'));
  await page.keyboard.type('slack');
  await tabTo(page, page.getByLabel('Command'));
  await page.keyboard.type('npx');
  await tabTo(page, page.getByLabel('Arguments (one per line)'));
  await page.keyboard.type('slack-mcp');
  await tabTo(page, page.getByRole('button', { name: 'Save server' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Remove server slack' })).toBeVisible();

  // The tool is picked, not typed: a closed select takes type-ahead from the keyboard.
  const section = page.getByRole('region', { name: 'Tools you never allow' });
  const toolField = section.getByLabel('Tool', { exact: true });
  await tabTo(page, toolField);
  await page.keyboard.type('Run shell');
  await expect(toolField).toHaveValue('shell');
  await tabTo(page, section.getByRole('button', { name: 'Never allow it' }));
  await page.keyboard.press('Enter');
  const listed = section.getByRole('list', { name: 'Tools you never allow' });
  await expect(listed.getByRole('listitem')).toHaveText(['shell Never allowed Remove']);
  await shot(page, 'settings-keyboard');
  await axeCheck(page, 'keyboard settings');

  await tabTo(page, section.getByRole('button', { name: 'Remove shell from the tools you never allow' }));
  await page.keyboard.press('Enter');
  await expect(section).toContainText('You have not listed any tool.');
  const state = (await app.readState()) as { settings: { deniedTools: string[]; mcpServers: Record<string, unknown> } };
  expect([state.settings.deniedTools, Object.keys(state.settings.mcpServers)]).toEqual([[], ['slack']]);
});

test.describe('a template at 200% zoom (a 1180×820 window)', () => {
  test.use({ viewport: { width: 590, height: 410 }, deviceScaleFactor: 2 });

  test('every step: no horizontal scroll', async ({ page }) => {
    await page.getByRole('button', { name: 'Use this template: Market monitor' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Apply template market-monitor' })).toBeVisible();
    await expectNoHorizontalScroll(page, 'template overview at 200%');
    // The verdict is the first thing in the step, in view without scrolling.
    const headline = page.getByRole('heading', { level: 3, name: 'Can send or post in your name, on its own' });
    await expect(headline).toBeInViewport();
    await snapshot(page, 'template-zoom200-1-overview');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel(/^companies/).fill('Acme');
    await page.getByLabel(/^channel/).fill('C0123ABCD');
    await expectNoHorizontalScroll(page, 'template parameters at 200%');
    for (const heading of [
      'Step 3 of 5: What it may use',
      'Step 4 of 5: What would start it',
      'Step 5 of 5: Review and apply',
    ]) {
      await page.getByRole('button', { name: 'Next' }).click();
      await expect(stepHeading(page, heading)).toBeFocused();
      await expect(page.getByText('Updating…')).toHaveCount(0);
      await expectNoHorizontalScroll(page, `${heading} at 200%`);
      if (heading.startsWith('Step 3')) await shot(page, 'template-zoom200-3-access');
    }
  });
});
