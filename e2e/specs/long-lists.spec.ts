/**
 * A package offering many tools ("a manifest with thousands of tools still renders
 * promptly", here 120 so the spec stays quick): the Access step shows each long list's counts and
 * its first 50 rows, the rest one press away ("Show all"), keyboard and axe clean; one untick
 * updates the counts; the Review step shows what is not allowed first; the store records every entry.
 * Likewise a package proposing many triggers: the Triggers step's counts and first 50.
 */
import { join } from 'node:path';
import { manyToolName, manyToolsManifest, manyToolsModule } from '../../test/helpers/many-tools';
import { axeCheck, expect, nextStep, SCREENSHOTS, test } from '../support/app';
import { packFileSet, packManyTools } from '../support/packages';

test.use({ now: '2026-01-01T00:00:00Z' });

const TOOLS = 120;
test('many tools: counts, the first 50 rows, Show all by keyboard, one untick, review, install', async ({
  page,
  app,
}) => {
  // Three axe scans of pages holding hundreds of rows take most of a minute on a loaded two-core
  // machine (20–33 s each in a traced run): the default 90 s is too tight, so this test gets three times it.
  test.slow();
  await app.open(packManyTools(TOOLS));
  await expect(page.getByRole('heading', { level: 1, name: 'Install many-tools' })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Step 2 of 4: What it asks to use' })).toBeFocused();

  const access = page.getByRole('group', { name: /What Operator may use/ });
  await expect(access.locator('.access-counts')).toHaveText(
    '120 of 120 entries allowed (120 ask you first); 0 not allowed.',
  );
  // One box per entry (a package's own read tool has a second: "Let it run without asking").
  const entryBoxes = access.locator('.access-row > input[type="checkbox"]');
  await expect(entryBoxes).toHaveCount(50);
  await expect(access).toContainText('Showing 50 of 120.');
  const tools = page.getByRole('region', { name: /Tools and workflows/ });
  await expect(tools.locator('.access-counts')).toHaveText(
    '120 tools and 0 workflows; 90 sensitive: 30 sends outside, 30 writes or deletes, 30 reads personal data, 30 reads.',
  );
  await expect(tools.getByRole('listitem')).toHaveCount(50);
  await page.screenshot({ path: join(SCREENSHOTS, 'long-list-1-access.png') });
  await axeCheck(page, 'long list, first rows');

  // Show all, with the keyboard.
  const showAll = access.getByRole('button', { name: 'Show all 120 access entries' });
  await expect(showAll).toHaveAttribute('aria-expanded', 'false');
  // From the last row shown, Tab reaches it.
  await access.getByRole('checkbox').last().focus();
  await page.keyboard.press('Tab');
  await expect(showAll).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(entryBoxes).toHaveCount(TOOLS);
  await expect(access.getByRole('button', { name: 'Show only the first 50' })).toHaveAttribute('aria-expanded', 'true');
  // Rows below the fold are laid out as they come into view (content-visibility), so the page can
  // still be moving under a pointer here: activate the button by keyboard, as the access list was.
  const showAllTools = tools.getByRole('button', { name: 'Show all 120 tools' });
  await showAllTools.focus();
  await page.keyboard.press('Enter');
  await expect(tools.getByRole('button', { name: 'Show only the first 50' })).toHaveAttribute('aria-expanded', 'true');
  await expect(tools.getByRole('listitem')).toHaveCount(TOOLS);

  // One untick: its row says so, and the counts follow.
  const last = access.getByRole('checkbox', { name: /pkg:many-tools\/tool_0101$/ });
  await last.uncheck();
  await expect(access.getByRole('listitem').filter({ hasText: 'pkg:many-tools/tool_0101' })).toContainText(
    'Not allowed',
  );
  await expect(access.locator('.access-counts')).toHaveText(
    '119 of 120 entries allowed (119 ask you first); 1 not allowed.',
  );
  await axeCheck(page, 'long list, all rows');

  await nextStep(page, 'Step 3 of 4: What would start it');
  await nextStep(page, 'Step 4 of 4: Review and install');
  const review = page.getByRole('region', { name: 'Access you allow' });
  await expect(review.locator('.access-counts')).toHaveText(
    '119 of 120 entries allowed (119 ask you first); 1 not allowed. Those not allowed are shown first, then the sensitive ones.',
  );
  // The unticked entry is past the first 50, yet shown: what is not allowed comes first.
  await expect(review.getByRole('listitem').filter({ hasText: 'pkg:many-tools/tool_0101' })).toContainText(
    'Not allowed',
  );
  await expect(review.getByRole('listitem')).toHaveCount(50);
  await axeCheck(page, 'long list review');

  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'many-tools 1.0.0 is installed' })).toBeVisible();
  const state = (await app.readState()) as unknown as {
    agents: Record<string, { access: { entry: string; granted: boolean }[] }>;
  };
  const recorded = state.agents['many-tools/operator']?.access ?? [];
  expect(recorded).toHaveLength(TOOLS);
  expect(recorded.filter((a) => !a.granted).map((a) => a.entry)).toEqual(['pkg:many-tools/tool_0101']);
});

const TRIGGERS = 120;
/** `many-triggers` 1.0.0: one tool, and TRIGGERS hourly triggers proposed for its agent. */
function packManyTriggers(): string {
  const triggers = Array.from(
    { length: TRIGGERS },
    (_, i) =>
      `[[triggers]]\nid = "every-hour-${String(i).padStart(3, '0')}"\ntarget = "operator"\n\n[triggers.source]\ntype = "interval"\nevery = "1h"\n`,
  );
  const files: Record<string, string> = {
    'apollia.toml': `${manyToolsManifest('many-triggers', 1)}\n${triggers.join('\n')}`,
    [`tools/${manyToolName(0)}.py`]: manyToolsModule(manyToolName(0)),
  };
  return packFileSet(files, 'many-triggers-1.0.0.apo').path;
}

test('many triggers: counts, the first 50, one armed, Show all, install arms exactly that one', async ({
  page,
  app,
}) => {
  test.slow();
  await app.open(packManyTriggers());
  await nextStep(page, 'Step 2 of 4: What it asks to use');
  await nextStep(page, 'Step 3 of 4: What would start it');
  const counts = page.locator('.step-body > .access-counts');
  await expect(counts).toHaveText('120 triggers proposed; 0 armed.');
  await expect(page.getByRole('checkbox', { name: /^Arm / })).toHaveCount(50);
  await expect(page.getByText('Showing 50 of 120.')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Arm every-hour-007' }).check();
  await expect(counts).toHaveText('120 triggers proposed; 1 armed.');
  await counts.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SCREENSHOTS, 'long-list-2-triggers.png') });
  await axeCheck(page, 'long list of triggers');
  await page.getByRole('button', { name: 'Show all 120 triggers' }).click();
  await expect(page.getByRole('checkbox', { name: /^Arm / })).toHaveCount(TRIGGERS);
  await expect(page.getByRole('checkbox', { name: 'Arm every-hour-119' })).not.toBeChecked();
  await nextStep(page, 'Step 4 of 4: Review and install');
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'many-triggers 1.0.0 is installed' })).toBeVisible();
  const state = (await app.readState()) as unknown as { triggers: Record<string, { armed: boolean }> };
  expect(Object.keys(state.triggers)).toHaveLength(TRIGGERS);
  expect(
    Object.entries(state.triggers)
      .filter(([, trigger]) => trigger.armed)
      .map(([id]) => id),
  ).toEqual(['many-triggers/every-hour-007']);
});
