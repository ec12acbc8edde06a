/**
 * Text from a package is shown as text, never run or rendered (DESIGN.md "Consent, install, apply";
 * STYLE.md security defaults): a publisher disguised with a right-to-left override (U+202E) and a
 * Cyrillic `а` is shown with both made visible and a warning; a mission holding an HTML `<img>` with
 * an `onerror` handler and a Markdown link shows as literal text and loads nothing.
 */
import type { Request } from '@playwright/test';
import { axeCheck, expect, shot, test } from '../support/app';
import { packInvoicesWith } from '../support/packages';

const RLO = '\u202E';
const CYRILLIC_A = '\u0430';
const PUBLISHER = `Ex${CYRILLIC_A}mple Acc${RLO}gnitnuo`;
/** A list item's whole text, ignoring the space an icon leaves before it. */
const exactLine = (text: string) => new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

const MISSION = `Read the invoices <img src=x onerror="fetch('/pwned')"> and see [the docs](https://evil.example/docs).`;

test('a disguised publisher is shown with the hidden and lookalike characters visible, and a warning', async ({
  page,
  app,
}) => {
  const spoofed = packInvoicesWith(
    (toml) => toml.replace('publisher = "Example Accounting"', `publisher = "${PUBLISHER}"`),
    'spoofed.apo',
  );
  await app.open(spoofed.path);
  await expect(page.getByRole('heading', { level: 2, name: 'Step 1 of 4: What this package is' })).toBeVisible();
  const main = page.getByRole('main');

  // The override is shown as a marker where it stands; the raw control character never reaches the page.
  await expect(main).toContainText('⟨U+202E⟩');
  expect(await main.textContent()).not.toContain(RLO);
  await expect(main).toContainText('Unverified publisher');
  const warnings = page.getByRole('list', { name: 'Text warnings' });
  await expect(main).toContainText(`From Ex${CYRILLIC_A}mple Acc⟨U+202E⟩gnitnuo`);
  await expect(warnings.getByRole('listitem')).toHaveText(
    [
      'The publisher name contains a right-to-left override (U+202E) that can disguise text',
      'The publisher name mixes Cyrillic and Latin letters, which can make it look like a different name',
      `The publisher name uses lookalike characters: Cyrillic "${CYRILLIC_A}" (U+0430) looks like "a"`,
    ].map(exactLine),
  );
  await shot(page, 'spoof-publisher');
  await axeCheck(page, 'spoofed publisher');
});

test('markup and links in a mission are shown as text and load nothing', async ({ page, app }) => {
  const requests: string[] = [];
  const record = (request: Request) => requests.push(request.url());
  page.on('request', record);
  let dialogs = 0;
  page.on('dialog', (dialog) => {
    dialogs += 1;
    void dialog.dismiss();
  });

  const hostile = packInvoicesWith(
    (toml) =>
      toml.replace(
        'mission = "Read the supplier invoices of the month and list the late ones."',
        `mission = ${JSON.stringify(MISSION)}`,
      ),
    'hostile-mission.apo',
  );
  await app.open(hostile.path);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Step 2 of 4: What it asks to use' })).toBeVisible();

  const agent = page.getByRole('article', { name: /Invoice clerk/ });
  await expect(agent).toContainText(`Mission: ${MISSION}`);
  await expect(page.locator('img')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'the docs' })).toHaveCount(0);
  await shot(page, 'spoof-mission');
  await axeCheck(page, 'hostile mission');

  // Nothing was fetched for the image or the link: only the app's own files, Api calls and events.
  page.off('request', record);
  const origin = new URL(page.url()).origin;
  const foreign = requests.filter((url) => new URL(url).origin !== origin);
  expect(foreign).toEqual([]);
  const own = requests.map((url) => new URL(url).pathname);
  expect(own.filter((path) => path === '/x' || path === '/pwned' || path.endsWith('/docs'))).toEqual([]);
  expect(dialogs).toBe(0);
});
