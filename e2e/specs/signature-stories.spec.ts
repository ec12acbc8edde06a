/**
 * Every signature state on screen as a person meets it — the consent form's Overview, the refused screen, the
 * key-change stop — checked against the hand-written words of `test/helpers/signature-stories.ts` and against the
 * built command line (`out/cli/cli.cjs inspect`, text and `--json`) run on the same file over the same data folder:
 * the badge is the CLI's label, the explanation and the update's sentence are the CLI's lines, the states and codes are
 * the JSON's. Keys and signatures are made by the real `minisign`. Each screen is pictured at 1280×800 and 800×600.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import {
  installedFirst,
  SIGNATURE_STORIES,
  type SignatureStory,
  type StoryKit,
  storyKit,
  TRUSTED_AS,
} from '../../test/helpers/signature-stories';
import { axeCheck, expect, test, windowShots } from '../support/app';
import { REPO_ROOT } from '../support/electron-binary';

test.use({ now: '2026-01-01T00:00:00Z' });

const CLI = join(REPO_ROOT, 'out', 'cli', 'cli.cjs');

function inspect(dataDir: string, path: string, json: boolean): string {
  const argv = [CLI, '--data-dir', dataDir, 'inspect', path, ...(json ? ['--json'] : [])];
  const run = spawnSync(process.execPath, argv, { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '' } });
  return run.stdout;
}

/** The screen of `story` says what the table says, and what the built CLI says of the same file. */
async function expectOneStory(page: Page, story: SignatureStory, kit: StoryKit, dataDir: string, path: string) {
  const main = page.getByRole('main');
  const badge = main.locator('[data-publisher-state]').first();
  const note = main.locator('[data-signature-update]');
  // The words of the table.
  await expect(badge).toHaveText(story.label);
  await expect(badge).toHaveAttribute('data-publisher-state', story.json.state);
  for (const sentence of story.says(kit)) await expect(main).toContainText(sentence);
  if (story.updateSays) {
    await expect(note).toHaveText(story.updateSays(kit));
    await expect(note).toHaveAttribute('data-signature-update', story.json.change ?? '');
  } else await expect(note).toHaveCount(0);
  const verdictText = `${await badge.locator('xpath=..').innerText()}\n${story.updateSays ? await note.innerText() : ''}`;
  if (story.never) expect(verdictText).not.toMatch(story.never);

  // The built CLI, on the same file and the same data folder: the same label, sentences, states and codes.
  const text = inspect(dataDir, path, false);
  const label = /^publisher: .* \((.*)\)$/m.exec(text)?.[1];
  expect(label).toBe(story.label);
  await expect(badge).toHaveText(label ?? '');
  const explanation = /^signature: (.*)$/m.exec(text)?.[1] ?? '';
  await expect(main).toContainText(explanation.replace(/ \(the .*\)$/, ''));
  const update = /^update: (.*)$/m.exec(text)?.[1];
  if (update) await expect(note).toHaveText(update);
  const summary = JSON.parse(inspect(dataDir, path, true)).summary;
  await expect(badge).toHaveAttribute('data-publisher-state', summary.signature.state);
  if (summary.signature_update)
    await expect(note).toHaveAttribute('data-signature-update', summary.signature_update.change);
  else await expect(note).toHaveCount(0);
}

/** Leaves the screen of `story` the way a person would: Close, Cancel, or Don't update. */
async function leave(page: Page, story: SignatureStory) {
  const main = page.getByRole('main');
  if (story.refused) await main.getByRole('button', { name: 'Close', exact: true }).click();
  else if (story.json.stop) await main.getByRole('button', { name: "Don't update" }).click();
  else await main.getByRole('button', { name: 'Cancel' }).first().click();
  await expect(main.locator('[data-publisher-state]')).toHaveCount(0);
}

test('every signature state reads the same on screen as on the command line', async ({ page, app }) => {
  test.setTimeout(240_000);
  const kit = storyKit(mkdtempSync(join(tmpdir(), 'apollia-e2e-stories-')));
  const dataDir = await app.dataDir();
  const section = page.getByRole('region', { name: 'Trusted publishers' });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  await section
    .getByLabel('Public key (paste the .pub file or its line starting with RW)')
    .fill(kit.publisher.publicKeyText);
  await section.getByRole('button', { name: 'Check this key' }).click();
  await section.getByLabel('Publisher name (what the key will be shown as)').fill(TRUSTED_AS);
  await section.getByRole('button', { name: 'Trust this key' }).click();
  await expect(section.getByRole('list', { name: 'Trusted publisher keys' })).toContainText(TRUSTED_AS);

  const shotName = (story: SignatureStory) => `signature-story-${story.id.replace(/[^a-z]+/g, '-')}`;
  for (const story of SIGNATURE_STORIES.filter((s) => s.stage === 'first')) {
    const path = story.make(kit);
    await app.open(path);
    await expectOneStory(page, story, kit, dataDir, path);
    await windowShots(page, page.getByRole('main').locator('[data-publisher-state]').first(), shotName(story));
    await axeCheck(page, story.id);
    await leave(page, story);
  }

  // The version the updates are met after: installed through the form.
  await app.open(installedFirst(kit));
  await expect(page.getByRole('heading', { level: 1, name: 'Install invoices' })).toBeVisible();
  for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await page.getByRole('button', { name: 'Go to the dashboard' }).click();

  for (const story of SIGNATURE_STORIES.filter((s) => s.stage === 'update')) {
    const path = story.make(kit);
    await app.open(path);
    await expectOneStory(page, story, kit, dataDir, path);
    await windowShots(page, page.getByRole('main').locator('[data-signature-update]'), shotName(story));
    await axeCheck(page, story.id);
    await leave(page, story);
  }
});
