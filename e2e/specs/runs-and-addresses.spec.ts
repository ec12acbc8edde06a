/**
 * Honest about what runs the agents, and set up in the order senders work: every screen that arms
 * a trigger says, before the first fire, that a fire queues a run which waits for an agent runtime
 * (and whether one is taking runs now); a webhook trigger has its address, with who can reach it
 * beside it, from the moment it exists, armed or not; a template's webhook armed on the applied
 * screen is said to be armed there. Focus moves to the new screen's heading on every navigation.
 */
import { expect, nextStep, snapshotBoth, stepHeading, test } from '../support/app';
import { packFixture } from '../support/packages';

test.use({ now: '2026-01-01T00:00:00Z' });

const QUEUES =
  'When an armed trigger fires, Apollia Desktop does not run the agent itself: it queues a run (a file in runs/pending/ of its data folder) that waits until an agent runtime takes it.';
const LOCAL_ONLY =
  'Only this computer can reach this address (127.0.0.1). A sender on the internet or another machine needs a tunnel you set up';

test('consent form → install → dashboard: what a fire does, the address before arming, and focus on each new heading', async ({
  page,
  app,
}) => {
  const main = page.getByRole('main');
  await app.open(packFixture('mailroom').path);
  await expect(page.getByRole('heading', { level: 1, name: 'Install mailroom' })).toBeVisible();
  await nextStep(page, 'Step 2 of 4: What it asks to use');
  await nextStep(page, 'Step 3 of 4: What would start it');

  // A fire queues a run: said on the step that arms, before anything fired.
  const note = main.getByRole('note', { name: 'What a fire does' });
  await expect(note).toContainText(QUEUES);
  await expect(note).toContainText(
    'No run is waiting now. Until an agent runtime runs on this computer, the runs your triggers queue wait there.',
  );
  await snapshotBoth(page, 'runs-wait-1-triggers-step');

  // Nothing armed: install, and focus lands on the new screen's heading, not the page body.
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, 'Step 4 of 4: Review and install')).toBeVisible();
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'mailroom 0.2.0 is installed' })).toBeFocused();
  await page.getByRole('button', { name: 'Go to the dashboard' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeFocused();

  // The dashboard says it too, before any fire.
  const host = page.getByRole('region', { name: 'Triggers' });
  await expect(host).toContainText(QUEUES);
  await expect(host).toContainText('No run is waiting now.');

  // The webhook is not armed, yet its address is there, with who can reach it beside it
  // (not folded away), so the sender can be given the address before it gives its secret.
  const row = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Arm scanner-call' }) });
  const address = row.getByLabel('Webhook address of scanner-call');
  await expect(address).toHaveText(/^http:\/\/127\.0\.0\.1:\d+\/hooks\/mailroom\/scanner-call$/);
  await expect(row.getByText(LOCAL_ONLY)).toBeVisible();
  await expect(row).toContainText('You can give this address to your sender now');
  await expect(row.getByRole('button', { name: 'Copy the address of scanner-call' })).toBeVisible();
  await expect(row).toContainText(
    'No secret set yet: set the one your sender gives you below, or make one here, whenever you are ready.',
  );
  await snapshotBoth(page, 'runs-wait-2-dashboard-unarmed-webhook');

  // Armed afterwards with a secret made here: the same address, now live.
  const before = ((await address.textContent()) ?? '').trim();
  await row.getByRole('button', { name: 'Arm scanner-call' }).click();
  await expect(page.getByLabel('Webhook secret for scanner-call')).toBeVisible();
  const live = page.getByRole('group', { name: 'Live status of scanner-call' });
  await expect(live.getByLabel('Webhook address of scanner-call')).toHaveText(before);
  await expect(live.getByText(LOCAL_ONLY)).toBeVisible();

  // Nav to another screen and back, focus is on each heading.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Activity' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeFocused();
});

test('a template’s webhook: its address on the applied screen, and once its secret is made it is said to be armed', async ({
  page,
}) => {
  const main = page.getByRole('main');
  await page.getByRole('button', { name: 'Use this template: Inbound lead' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Apply template inbound-lead' })).toBeFocused();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel(/^icp/).fill('B2B SaaS in Europe');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, 'Step 4 of 5: What would start it')).toBeVisible();
  await expect(main.getByRole('note', { name: 'What a fire does' })).toContainText(QUEUES);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, 'Step 5 of 5: Review and apply')).toBeVisible();
  await page.getByRole('button', { name: 'Apply', exact: true }).click();

  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  const status = main.getByRole('status').filter({ hasText: 'The agent was made' });
  await expect(status).toContainText('none armed');
  const hook = main.getByRole('region', { name: 'Webhook trigger new-lead' });
  await expect(hook).toContainText('is off until it has a secret. Its address is below');
  await expect(hook.getByLabel('Webhook address of new-lead')).toHaveText(
    /^http:\/\/127\.0\.0\.1:\d+\/hooks\/.+\/new-lead$/,
  );
  await expect(hook.getByText(LOCAL_ONLY)).toBeVisible();
  await snapshotBoth(page, 'runs-wait-3-template-applied');

  await hook.getByRole('button', { name: 'Make the secret for new-lead' }).click();
  await expect(page.getByLabel('Webhook secret for new-lead')).toBeVisible();
  await expect(status).toContainText('1 armed');
  await expect(status).not.toContainText('none armed');
  await expect(hook).toContainText('The webhook trigger new-lead is armed');
  await expect(hook).not.toContainText('is off until it has a secret');
  await expect(main.getByRole('note', { name: 'What a fire does' })).toContainText(QUEUES);
  await snapshotBoth(page, 'runs-wait-4-template-armed');
});
