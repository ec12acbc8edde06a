/**
 * Nothing risky hides in a closed card: a package of seven agents, the later ones granted `shell` and
 * `file_delete` by default. The Access step opens every agent granted a sensitive tool (a safe fourth agent stays
 * closed), Review opens its access group and lists the sensitive rows, and Review's verdict follows the answers:
 * after `shell` is unticked everywhere, "Its agents may use shell" is gone. Installed, the dashboard of seven agents has
 * its summary line, the riskiest agents first and a filter.
 */
import { axeCheck, expect, nextStep, shot, stepHeading, test } from '../support/app';
import { packFileSet } from '../support/packages';

const AGENTS = [
  ['reader-1', 'notify'],
  ['reader-2', 'notify'],
  ['reader-3', 'notify'],
  ['reader-4', 'notify'],
  ['operator-5', 'shell", "file_delete'],
  ['operator-6', 'shell", "file_delete'],
  ['operator-7', 'shell'],
] as const;

function sevenAgents(): string {
  const agents = AGENTS.map(
    ([id, access]) =>
      `[[agents]]\nid = "${id}"\nname = "${id}"\nmission = "Works as ${id}."\n\n[agents.defaults]\naccess = ["${access}"]\nautonomy = "assisted"\n`,
  );
  return `[package]\nname = "seven-agents"\nversion = "1.0.0"\npublisher = "Fixture Works"\ndescription = "Seven agents."\nsdk = ">=0.3, <0.4"\n\n${agents.join('\n')}`;
}

test('an agent granted a sensitive tool is never collapsed, and Review words what the answers grant', async ({
  page,
  app,
}) => {
  await app.open(packFileSet({ 'apollia.toml': sevenAgents() }, 'seven-agents-1.0.0.apo').path);
  await expect(page.getByRole('heading', { level: 1, name: 'Install seven-agents' })).toBeVisible();
  await nextStep(page, /What it asks to use/);

  const card = (id: string) => page.getByRole('article', { name: new RegExp(`^${id}`) }).locator('details');
  // The first three open as before; a fourth that only notifies stays closed; every one granted shell is open.
  for (const id of ['reader-1', 'reader-2', 'reader-3', 'operator-5', 'operator-6', 'operator-7'])
    await expect(card(id), id).toHaveAttribute('open', '');
  await expect(card('reader-4')).not.toHaveAttribute('open', '');
  await shot(page, 'risky-1-access-open');
  await axeCheck(page, 'access, risky agents open');

  await nextStep(page, /What would start it/);
  await nextStep(page, /Review and install/);
  const access = page.getByRole('region', { name: 'Access you allow' });
  // Seven agents is more than the group opens for by itself: it opens because shell is granted.
  await expect(access.locator('details')).toHaveAttribute('open', '');
  await expect(access.getByText('operator-7', { exact: true })).toBeVisible();
  await expect(page.getByText(/Its agents may use shell/)).toBeVisible();

  // Back to Access: untick shell for the three operators; Review's verdict no longer names it.
  for (const step of [/What would start it/, /What it asks to use/]) {
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(stepHeading(page, step)).toBeVisible();
  }
  for (const id of ['operator-5', 'operator-6', 'operator-7']) {
    const group = page.getByRole('group', { name: new RegExp(`What ${id} may use`) });
    await group.getByRole('checkbox', { name: /shell/i }).first().uncheck();
  }
  await nextStep(page, /What would start it/);
  await nextStep(page, /Review and install/);
  await expect(page.getByText(/Its agents may use shell/)).toHaveCount(0);
  // file_delete is still granted to two of them: the group still opens for it.
  await expect(access.locator('details')).toHaveAttribute('open', '');
  await shot(page, 'risky-2-review-follows-answers');

  // Installed, the dashboard of seven agents says what they may do in one line, the riskiest first, and filters.
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await page.getByRole('button', { name: 'Go to the dashboard' }).click();
  const agents = page.getByRole('region', { name: 'Agents' });
  await expect(agents.locator('.agents-summary')).toHaveText(
    '7 agents: 2 may do something sensitive, 4 tools run without asking, 0 triggers armed. The riskiest are shown first.',
  );
  await expect(agents.getByRole('heading', { level: 3 }).first()).toHaveText(/operator-5/);
  await agents.getByLabel('Filter agents by name').fill('reader-4');
  await expect(agents.getByRole('heading', { level: 3 })).toHaveCount(1);
  await expect(agents.getByText('Showing 1 of 7 agents.')).toBeVisible();
  await shot(page, 'risky-3-dashboard-summary-filter');
  await axeCheck(page, 'dashboard of many agents, filtered');
});
