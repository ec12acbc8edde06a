/**
 * One vocabulary (shared/words/words.ts): what a person reads is words, and raw forms (`pkg:…` ids,
 * transports, status numbers, the signing algorithm, process ids, raw backticks) are only ever
 * secondary text (small, muted) beside them. A web search that the verdict counts as sending
 * outside says so on its own row. A refusal a newer app fixes offers the download page.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, nextStep, snapshotBoth, stepHeading, test } from '../support/app';
import { packFileSet, packInvoices, packInvoicesWith } from '../support/packages';

test.use({ now: '2026-01-01T00:00:00Z' });

/** Raw forms that must never be the words a person reads. */
const RAW_FORMS: [string, RegExp][] = [
  ['a tool id', /\bpkg:[\w-]+\//],
  ['an MCP tool id', /\bmcp:[\w-]+\//],
  ['a raw transport', /streamable-http/],
  ['the signing algorithm', /HMAC/],
  ['a process id', /\bpid\b/],
  ['a harness list', /harness:/],
  ['an activity code', /\b(key_change_accepted|host_started|delivery_refused)\b/],
  ['a raw backtick', /`/],
  ['a status number', /\b(401|403|404|409|413|429)\b/],
];

/**
 * The text of the main region a person reads first: every text node except those in secondary text
 * (`.muted`, which is small and grey), in a closed disclosure, or in a block of text to copy.
 */
async function primaryText(page: Page): Promise<string> {
  return page.getByRole('main').evaluate((main) => {
    const out: string[] = [];
    // 4: NodeFilter.SHOW_TEXT (the spec is typed without the DOM globals).
    const walker = main.ownerDocument.createTreeWalker(main, 4);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent) continue;
      if (parent.closest('.muted, pre, [data-volatile]')) continue;
      const closed = parent.closest('details:not([open])');
      if (closed && !parent.closest('summary')) continue;
      out.push(node.textContent ?? '');
    }
    return out.join(' ');
  });
}

async function expectPlainWords(page: Page, screen: string) {
  const text = await primaryText(page);
  for (const [what, pattern] of RAW_FORMS) expect(text, `${screen} shows ${what} as its words`).not.toMatch(pattern);
}

// A package with no code and no trigger whose agent only searches the web.
const NOTRIG = {
  'apollia.toml': [
    '[package]',
    'name = "notrig"',
    'version = "1.0.0"',
    'publisher = "Fixture Works"',
    'description = "Looks things up on the web."',
    'sdk = ">=0.3, <0.4"',
    '',
    '[[agents]]',
    'id = "finder"',
    'name = "Finder"',
    'mission = "Look things up."',
    '',
    '[agents.defaults]',
    'access = ["web_search"]',
    '',
  ].join('\n'),
};

test('a web search the verdict counts as sending outside is marked so on its row; the consent form reads as words', async ({
  page,
  app,
}) => {
  await app.open(packFileSet(NOTRIG, 'notrig.apo').path);
  await expect(stepHeading(page, /Step 1 of \d: What this package is/)).toBeVisible();
  await expect(page.getByRole('main')).toContainText('Can send things outside this computer');
  await expectPlainWords(page, 'the Overview step');
  await nextStep(page, /Step 2 of \d: What it asks to use/);
  const row = page.getByRole('listitem').filter({ hasText: 'Search the web' });
  await expect(row).toContainText('Reads');
  await expect(row).toContainText('Sends what it looks up outside');
  await expectPlainWords(page, 'the Access step');
  await snapshotBoth(page, 'plain-words-web-search-access');
});

test('the invoices consent form, the dashboard and the activity read as words, ids only beside them', async ({
  page,
  app,
}) => {
  await app.open(packInvoices().path);
  await expect(stepHeading(page, /Step 1 of \d/)).toBeVisible();
  await nextStep(page, /Step 2 of \d: What it asks to use/);
  await expectPlainWords(page, 'the Access step of invoices');
  const extract = page.getByRole('listitem').filter({ hasText: 'Extract the total, the due date' }).first();
  await expect(extract.locator('.muted')).toContainText('pkg:invoices/extract_totals');
  await nextStep(page, /Step 3 of \d/);
  await nextStep(page, /Step 4 of \d/);
  await expectPlainWords(page, 'the Review step of invoices');
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: /installed/i })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('Read files the user opens to the agent');
  await expectPlainWords(page, 'the dashboard');
  await snapshotBoth(page, 'plain-words-dashboard');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Activity' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('Installed');
  await expectPlainWords(page, 'the activity');
});

test('Settings says how a server is reached in words, the raw transport only beside them', async ({ page }) => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  const kind = page.getByLabel('What kind of server');
  await expect(kind.locator('option')).toHaveText([
    'A program on this computer',
    'A server over the network (HTTP)',
    'A server over the network (an event stream)',
  ]);
  await page.getByLabel('Server name').fill('hubspot');
  await kind.selectOption('streamable-http');
  await page.getByLabel(/URL/).fill('https://mcp.hubspot.example/mcp');
  await page.getByRole('button', { name: 'Save server' }).click();
  const row = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Remove server hubspot' }) });
  await expect(row).toContainText('over the network (HTTP)');
  await expect(row.locator('.muted')).toContainText('streamable-http');
  await expectPlainWords(page, 'Settings');
  await snapshotBoth(page, 'plain-words-settings');
});

test('a template says which agent program it runs on in words, and shell runs on this computer', async ({ page }) => {
  await page.getByRole('button', { name: 'Use this template: Market monitor' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Apply template market-monitor' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText(
    'Runs on the agent program pi, or claude-agent where pi is not available',
  );
  await expectPlainWords(page, 'the template Overview');
});

test('a package made for a newer SDK offers the download page, opened by the app', async ({ page, app }) => {
  const future = packInvoicesWith((toml) => toml.replace('sdk = ">=0.3, <0.4"', 'sdk = ">=9"'), 'invoices-future.apo');
  await app.open(future.path);
  const alert = page.getByRole('alert');
  await expect(alert.getByRole('heading', { level: 2 })).toHaveText('You can fix this');
  await expect(alert).toContainText('This package needs a newer Apollia Desktop.');
  const main = page.getByRole('main');
  const button = main.getByRole('button', { name: 'Get the newest Apollia Desktop' });
  await expect(button).toBeVisible();
  await expect(main).toContainText('Opens apollia.app/download in your browser.');
  await snapshotBoth(page, 'refused-update-app');
  await button.click();
  await expect(main.getByRole('status')).toHaveText('Opened in your browser. Install it, then open this again.');
  if (process.env['E2E_MODE'] !== 'electron') {
    // The harness stands in for the browser: the one address the app opened.
    const opened = readFileSync(join(await app.dataDir(), 'opened-links.txt'), 'utf8');
    expect(opened).toBe('https://apollia.app/download\n');
  }
});
