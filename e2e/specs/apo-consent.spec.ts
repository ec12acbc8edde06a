/**
 * The `.apo` consent flow (DESIGN.md "Consent, install, apply"), driven as a person would: open the
 * spec's complete example by double-click and by the Open dialog, read every step, change one
 * answer, install, and check that the store holds exactly what was decided. Triggers that need
 * something (a folder, a secret) use `e2e/fixtures/apo/mailroom`. A refused package shows the
 * spec's words. One run uses the keyboard alone. Every screen is screenshotted and scanned by axe.
 */
import type { Locator, Page } from '@playwright/test';
import { axeCheck, expect, nextStep, shot, snapshot, stepHeading, tabTo, test, type AppDriver } from '../support/app';
import { makeFolder, packFixture, packInvoices, packInvoicesWith } from '../support/packages';

test.use({ now: '2026-01-01T00:00:00Z' });

/** Waits for a screen, then screenshots it and scans it. */
async function screen(page: Page, name: string, heading: Locator) {
  await expect(heading).toBeVisible();
  await snapshot(page, name);
}

interface StoredState {
  packages: Record<string, { version: string; publisher: string; sha256: string }>;
  agents: Record<string, { access: { entry: string; granted: boolean }[] }>;
  triggers: Record<string, { armed: boolean; folder: string | null; secretRef: string | null }>;
  webhookSecrets: Record<string, string>;
}

async function stored(app: AppDriver): Promise<StoredState> {
  const state = await app.readState();
  expect(state, 'the store wrote state.json').not.toBeNull();
  return state as unknown as StoredState;
}

/** Overview → Access (untick the MCP tool) → Triggers → Review → Install, with a mouse. */
async function walkInvoicesConsent(page: Page, sha256: string, prefix: string) {
  const main = page.getByRole('main');
  await expect(page.getByRole('heading', { level: 1, name: 'Install invoices' })).toBeVisible();
  await screen(page, `${prefix}-1-overview`, stepHeading(page, 'Step 1 of 4: What this package is'));
  // The verdict comes first: one headline, a level, the facts behind it.
  const verdict = page.getByRole('region', { name: 'Can run programs on this computer and send your data out' });
  await expect(verdict).toContainText('High risk');
  await expect(verdict.getByRole('listitem')).toHaveText([
    'Starts 1 program on this computer: uvx ledger-mcp.',
    "Its Python code (extract_totals, monthly-reminders) runs with your permissions; what it says each part does is its author's word.",
    'Not pinned to one version (ledger-mcp): that code can change after you consent.',
  ]);
  await expect(main).toContainText('From Example Accounting');
  await expect(main).toContainText('Unverified publisher');
  await expect(page.getByLabel('Archive SHA-256')).toHaveText(sha256);
  const risks = page.getByRole('region', { name: 'What the package declares' });
  await expect(risks).toContainText(
    "That code runs with your permissions; the kinds of action it declares below are its author's word",
  );
  const riskLines = risks.getByRole('listitem');
  // Worst first, in plain words: the MCP command line, then send_external, then read_personal.
  await expect(riskLines.nth(0)).toHaveText(
    /^\s*Runs a program on this computer: `?uvx ledger-mcp`?\s*Runs code \(sensitive\)$/,
  );
  await expect(riskLines.nth(1)).toHaveText(
    /^\s*Can send things outside this computer — 1 workflow \(monthly-reminders\)\s*Sends outside \(sensitive\)$/,
  );
  await expect(riskLines.nth(2)).toHaveText(
    /^\s*Reads your personal data — 1 tool \(extract_totals\) and 1 built-in tool \(file_read\)\s*Reads personal data \(sensitive\)$/,
  );
  await expect(risks).toContainText('Asks for a connection to gmail');
  // Python code: no "Cannot …" claim anywhere, and what Apollia enforces is its own list.
  await expect(main).not.toContainText(/Cannot /);
  await expect(page.getByRole('region', { name: 'What Apollia enforces' })).toContainText(
    'Once a tool or program runs, Apollia does not limit what its code does.',
  );

  await page.getByRole('button', { name: 'Next' }).click();
  await screen(page, `${prefix}-2-access`, stepHeading(page, 'Step 2 of 4: What it asks to use'));
  const connections = page.getByRole('region', { name: 'Connections it needs' });
  await expect(connections).toContainText('gmail');
  await expect(connections).toContainText("Why: Reminders are sent from the user's mailbox.");
  const tools = page.getByRole('region', { name: /Tools and workflows/ });
  await expect(tools.getByRole('listitem').filter({ hasText: 'extract_totals' })).toContainText(
    'Reads personal data (sensitive)',
  );
  // Plain words lead; the name follows.
  await expect(tools.getByRole('listitem').filter({ hasText: 'extract_totals' }).locator('p').first()).toHaveText(
    'Extract the total, the due date and the supplier of an invoice.',
  );
  await expect(
    page.getByRole('checkbox', {
      name: /^Extract the total, the due date and the supplier of an invoice\.\s*pkg:invoices\/extract_totals$/,
    }),
  ).toBeChecked();
  await expect(main).toContainText('Supervised: it acts, and checks in with you at each step');
  await expect(main).toContainText('Writes a plan before acting on every task');
  await expect(main).not.toContainText('Decided by the tool');
  await expect(tools.getByRole('listitem').filter({ hasText: 'monthly-reminders' })).toContainText(
    'Sends outside (sensitive)',
  );
  await expect(page.getByRole('region', { name: 'Programs and servers it brings (MCP)' })).toContainText(
    'Runs this program on this computer: uvx ledger-mcp',
  );
  const ledger = page.getByRole('checkbox', { name: /mcp:ledger\/lookup/ });
  await expect(ledger).toBeChecked();
  await ledger.uncheck();
  await expect(ledger).not.toBeChecked();
  await expect(page.getByRole('listitem').filter({ has: ledger })).toContainText('Not allowed');
  await shot(page, `${prefix}-2-access-unticked`);

  await page.getByRole('button', { name: 'Next' }).click();
  await screen(page, `${prefix}-3-triggers`, stepHeading(page, 'Step 3 of 4: What would start it'));
  await expect(main).toContainText('Trigger first-monday');
  await expect(main).toContainText(/first Monday/);
  await expect(main.locator('.next-times time')).toHaveText([
    'Mon, Jan 5, 2026, 08:00 AM UTC',
    'Mon, Feb 2, 2026, 08:00 AM UTC',
    'Mon, Mar 2, 2026, 08:00 AM UTC',
  ]);
  await expect(page.getByRole('checkbox', { name: 'Arm first-monday' })).not.toBeChecked();

  await page.getByRole('button', { name: 'Next' }).click();
  await screen(page, `${prefix}-4-review`, stepHeading(page, 'Step 4 of 4: Review and install'));
  await expect(main).toContainText(
    'You are about to install invoices version 1.2.0 from Example Accounting (unverified publisher).',
  );
  await expect(page.getByRole('listitem').filter({ hasText: 'first-monday' })).toContainText('Stays off');
  // Everything that will be granted or run: the program and its command line, the code, the pip package.
  await expect(page.getByRole('region', { name: 'Programs it starts on this computer' })).toContainText(
    'ledger: uvx ledger-mcp',
  );
  await expect(page.getByRole('region', { name: 'Its Python code' })).toContainText('monthly-reminders');
  await expect(page.getByRole('region', { name: 'Python packages it installs' })).toContainText('pypdf==4.3.1');
  await expect(page.getByRole('region', { name: 'Connections it uses' })).toContainText('gmail');

  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await screen(
    page,
    `${prefix}-5-installed`,
    page.getByRole('heading', { level: 1, name: 'invoices 1.2.0 is installed' }),
  );
  await expect(page.getByRole('status').filter({ hasText: 'No trigger is armed.' })).toBeVisible();
}

async function expectInvoicesStored(app: AppDriver, sha256: string) {
  const state = await stored(app);
  expect(Object.keys(state.packages)).toEqual(['invoices']);
  expect(state.packages['invoices']).toMatchObject({ version: '1.2.0', publisher: 'Example Accounting', sha256 });
  expect(Object.keys(state.agents)).toEqual(['invoices/invoice-clerk']);
  expect(state.agents['invoices/invoice-clerk']?.access.map(({ entry, granted }) => [entry, granted])).toEqual([
    ['file_read', true],
    ['mcp:ledger/lookup', false],
    ['pkg:invoices/extract_totals', true],
  ]);
  expect(Object.keys(state.triggers)).toEqual(['invoices/first-monday']);
  expect(state.triggers['invoices/first-monday']).toMatchObject({ armed: false, folder: null, secretRef: null });
}

test('double-click the complete example, consent step by step, install, see it on the dashboard and in the store', async ({
  page,
  app,
}) => {
  const invoices = packInvoices();
  await screen(page, 'open-screen', page.getByRole('heading', { level: 1, name: 'Open a package' }));
  await app.open(invoices.path);
  await walkInvoicesConsent(page, invoices.sha256, 'apo-dblclick');

  await page.getByRole('button', { name: 'Go to the dashboard' }).click();
  const packages = page.getByRole('region', { name: 'Installed packages' });
  // The list first, then the picture: a screenshot of "Loading…" shows nothing.
  await expect(packages.getByRole('heading', { level: 3 })).toHaveText(['invoices 1.2.0']);
  await screen(page, 'dashboard-after-install', page.getByRole('heading', { level: 1, name: 'Dashboard' }));
  await expectInvoicesStored(app, invoices.sha256);
});

test('open the complete example with the Open dialog', async ({ page, app }) => {
  const invoices = packInvoices();
  await app.answerDialog('file', invoices.path);
  await page.getByRole('button', { name: 'Open a package…' }).click();
  await walkInvoicesConsent(page, invoices.sha256, 'apo-dialog');
  await expectInvoicesStored(app, invoices.sha256);
});

test('cancelling the Open dialog leaves the Open screen as it was', async ({ page, app }) => {
  await app.answerDialog('file', null);
  await page.getByRole('button', { name: 'Open a package…' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Open a package' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('list', { name: 'Opened packages' }),
  ).toHaveCount(0);
  expect(await app.readState()).toBeNull();
});

test('a file_watch trigger is armed with a picked folder; a webhook secret is shown once and stored sealed', async ({
  page,
  app,
}) => {
  const mailroom = packFixture('mailroom');
  const inbox = makeFolder('scan-inbox');
  await app.open(mailroom.path);
  await expect(page.getByRole('heading', { level: 1, name: 'Install mailroom' })).toBeVisible();
  await nextStep(page, 'Step 2 of 4: What it asks to use');
  await nextStep(page, 'Step 3 of 4: What would start it');
  await screen(page, 'mailroom-3-triggers', stepHeading(page, 'Step 3 of 4: What would start it'));

  const watch = page.getByRole('checkbox', { name: 'Arm inbox-changed' });
  await expect(watch).toBeDisabled();
  await expect(page.getByRole('main')).toContainText('To arm it, choose the folder it watches.');
  await app.answerDialog('folder', inbox);
  await page.getByRole('button', { name: 'Choose a folder for inbox-changed…' }).click();
  await expect(page.getByRole('main')).toContainText(`Watched folder: ${inbox}`);
  // Focus is back on the button once the folder is chosen.
  await expect(page.getByRole('button', { name: 'Choose another folder for inbox-changed…' })).toBeFocused();
  await expect(watch).toBeChecked();
  const webhook = page.getByRole('checkbox', { name: 'Arm scanner-call' });
  await expect(webhook).not.toBeChecked();
  await webhook.check();
  await shot(page, 'mailroom-3-triggers-armed');
  await axeCheck(page, 'mailroom triggers armed');

  await page.getByRole('button', { name: 'Next' }).click();
  await screen(page, 'mailroom-4-review', stepHeading(page, 'Step 4 of 4: Review and install'));
  await expect(page.getByRole('listitem').filter({ hasText: 'inbox-changed' })).toContainText(
    `Will be armed, watching ${inbox}`,
  );
  await expect(page.getByRole('listitem').filter({ hasText: 'scanner-call' })).toContainText('Will be armed');

  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await screen(
    page,
    'mailroom-5-installed',
    page.getByRole('heading', { level: 1, name: 'mailroom 0.2.0 is installed' }),
  );
  await expect(page.getByRole('status').filter({ hasText: 'Armed triggers:' })).toHaveText(
    'Armed triggers: inbox-changed, scanner-call.',
  );
  const secretBox = page.getByRole('group', { name: 'Secret for scanner-call' });
  await expect(secretBox).toContainText('copy it now: it will not be shown again.');
  const secret = (await secretBox.getByLabel(/^Webhook secret for/).textContent())?.trim() ?? '';
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

  const state = await stored(app);
  expect(state.triggers['mailroom/inbox-changed']).toMatchObject({ armed: true, folder: inbox, secretRef: null });
  expect(state.triggers['mailroom/scanner-call']).toMatchObject({ armed: true, folder: null });
  expect(state.triggers['mailroom/scanner-call']?.secretRef).not.toBeNull();
  // Sealed, never in clear: neither the secret nor its base64 body appears in the state file.
  const stateText = JSON.stringify(state);
  expect(stateText).not.toContain(secret);
  expect(stateText).not.toContain(secret.slice('whsec_'.length));

  // Shown once: the dashboard lists the armed webhook but never the secret again.
  await page.getByRole('button', { name: 'Go to the dashboard' }).click();
  await screen(page, 'mailroom-dashboard', page.getByRole('heading', { level: 1, name: 'Dashboard' }));
  await expect(page.getByRole('main')).not.toContainText(secret);
  await expect(page.getByRole('button', { name: 'Disarm scanner-call' })).toBeVisible();
});

test('a refused package shows what is wrong in the spec’s words, and installs nothing', async ({ page, app }) => {
  const broken = packInvoicesWith(
    (toml) => toml.replace('version = "1.2.0"', 'version = "1.2"'),
    'invoices-broken.apo',
  );
  await app.open(broken.path);
  await screen(page, 'apo-refused', page.getByRole('heading', { level: 1, name: 'This package was refused' }));
  const alert = page.getByRole('alert');
  await expect(alert).toContainText(
    'invoices-broken.apo was checked without running any of it, and it does not follow the rules for a package. Nothing was installed.',
  );
  // The spec's words, with the backticked value shown as code rather than as backticks.
  await expect(alert.locator('.refusal')).toContainText('package version 1.2 is not semver');
  await expect(alert.locator('.refusal code').first()).toHaveText('1.2');
  await expect(page.getByRole('button', { name: 'Install', exact: true })).toHaveCount(0);
  expect(await app.readState()).toBeNull();
});

test('a refused schema: an unknown key is named by its full path', async ({ page, app }) => {
  const typo = packInvoicesWith(
    (toml) => toml.replace('preset = "balanced"', 'preset = "balanced"\ntemprature = 0.2'),
    'invoices-typo.apo',
  );
  await app.open(typo.path);
  await expect(page.getByRole('heading', { level: 1, name: 'This package was refused' })).toBeVisible();
  await expect(page.getByRole('alert').locator('.refusal')).toContainText(
    'apollia.toml: unknown key agents[0].defaults.model.temprature',
  );
  await expect(page.getByRole('alert').locator('.refusal code').first()).toHaveText(
    'agents[0].defaults.model.temprature',
  );
  await expect(page.getByRole('alert')).toContainText('Error code: ');
  await shot(page, 'apo-refused-unknown-key');
});

test('the whole flow with the keyboard alone (Tab, Enter, Space)', async ({ page, app }) => {
  const invoices = packInvoices();
  await app.answerDialog('file', invoices.path);
  await tabTo(page, page.getByRole('button', { name: 'Open a package…' }));
  await page.keyboard.press('Enter');
  await expect(stepHeading(page, 'Step 1 of 4: What this package is')).toBeVisible();
  await axeCheck(page, 'keyboard overview');

  await tabTo(page, page.getByRole('button', { name: 'Next' }));
  await page.keyboard.press('Enter');
  await expect(stepHeading(page, 'Step 2 of 4: What it asks to use')).toBeFocused();
  const ledger = page.getByRole('checkbox', { name: /mcp:ledger\/lookup/ });
  await tabTo(page, ledger);
  await page.keyboard.press('Space');
  await expect(ledger).not.toBeChecked();
  await axeCheck(page, 'keyboard access');

  await tabTo(page, page.getByRole('button', { name: 'Next' }));
  await page.keyboard.press('Enter');
  await expect(stepHeading(page, 'Step 3 of 4: What would start it')).toBeFocused();
  await axeCheck(page, 'keyboard triggers');
  await tabTo(page, page.getByRole('button', { name: 'Next' }));
  await page.keyboard.press('Enter');
  await expect(stepHeading(page, 'Step 4 of 4: Review and install')).toBeFocused();
  await axeCheck(page, 'keyboard review');

  await tabTo(page, page.getByRole('button', { name: 'Install', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'invoices 1.2.0 is installed' })).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'Go to the dashboard' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Installed packages' }).getByRole('heading', { level: 3 })).toHaveText([
    'invoices 1.2.0',
  ]);
  await shot(page, 'keyboard-dashboard');
  await axeCheck(page, 'keyboard dashboard');
  await expectInvoicesStored(app, invoices.sha256);
});
