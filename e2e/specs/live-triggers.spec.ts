/**
 * Live triggers: a webhook and a folder armed in the app are made live by the trigger
 * host the app holds (here the harness's, one per data folder). A request signed in the spec with
 * the `standardwebhooks` library, using the secret the app showed once, is delivered to it; a file
 * dropped into the watched folder fires the other. Both are then seen on the dashboard (last
 * delivery, last fire, runs waiting) and in the Activity view.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { expect, shot, snapshot, test } from '../support/app';
import { makeFolder, packFixture } from '../support/packages';

test('arm a webhook and a folder, deliver a signed request and drop a file: both shown live and in the Activity view', async ({
  page,
  app,
}) => {
  const inbox = makeFolder('scan-inbox');
  await app.open(packFixture('mailroom').path);
  await expect(page.getByRole('heading', { level: 1, name: 'Install mailroom' })).toBeVisible();
  for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'mailroom 0.2.0 is installed' })).toBeVisible();
  await page.getByRole('button', { name: 'Go to the dashboard' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Triggers' })).toContainText('Armed triggers are live');

  // Arm both from the dashboard: the folder through the (answered) folder dialog, the webhook with a secret shown once.
  await app.answerDialog('folder', inbox);
  await page.getByRole('button', { name: 'Arm inbox-changed' }).click();
  await page.getByRole('button', { name: 'Arm scanner-call' }).click();
  const secret = ((await page.getByLabel('Webhook secret for scanner-call').textContent()) ?? '').trim();
  expect(secret).toMatch(/^whsec_/);

  const hook = page.getByRole('group', { name: 'Live status of scanner-call' });
  const watch = page.getByRole('group', { name: 'Live status of inbox-changed' });
  await expect(hook).toContainText('Listening');
  await expect(watch).toContainText('Watching');
  await expect(hook).toContainText('No delivery yet.');
  const url = ((await hook.getByLabel('Webhook address of scanner-call').textContent()) ?? '').trim();
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks\/mailroom\/scanner-call$/);
  await expect(hook.getByRole('button', { name: 'Copy the address of scanner-call' })).toBeVisible();
  await hook.getByText('How to sign a call to scanner-call').click();
  await expect(hook).toContainText('webhook-signature');

  // A signed delivery from outside the app, then a tampered one.
  const body = JSON.stringify({ type: 'scan.ready', pages: 3 });
  const at = new Date();
  const signature = new Webhook(secret).sign('msg_e2e_1', at, body);
  const headers = {
    'content-type': 'application/json',
    'webhook-id': 'msg_e2e_1',
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
  const accepted = await fetch(url, { method: 'POST', headers, body });
  expect([accepted.status, await accepted.text()]).toEqual([202, 'queued\n']);
  const tampered = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'webhook-id': 'msg_e2e_2' },
    body: body.replace('3', '4'),
  });
  expect(tampered.status).toBe(401);

  // A file dropped into the watched folder.
  writeFileSync(join(inbox, 'scan-001.pdf'), 'not really a pdf');

  const deliveries = hook.getByRole('list', { name: 'Last deliveries to scanner-call' });
  await expect(deliveries.getByRole('listitem')).toHaveCount(2, { timeout: 10_000 });
  await expect(deliveries.getByRole('listitem').first()).toContainText('Refused: not signed right');
  await expect(deliveries.getByRole('listitem').nth(1)).toContainText('Accepted');
  await expect(hook).toContainText('(a webhook delivery): a run was queued');
  await expect(watch).toContainText('(files changed): a run was queued', { timeout: 10_000 });
  await expect(page.getByRole('region', { name: 'Triggers' })).toContainText(
    '2 runs are waiting, queued in the last minute: an agent runtime may still take them.',
  );
  await expect(page.getByRole('main')).not.toContainText(body);
  await snapshot(page, 'live-triggers-1-dashboard');

  // Settings says where the listener really is, beside the port it keeps (the harness's host was
  // given a free port of its own, not the one set there).
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  const webhooks = page.getByRole('region', { name: 'Webhooks' });
  await expect(webhooks.getByRole('status').filter({ hasText: 'Listening now on' })).toContainText(
    `Listening now on ${new URL(url).origin}`,
  );
  await webhooks.scrollIntoViewIfNeeded();
  await shot(page, 'live-triggers-4-settings-listening');

  // The Activity view: newest first, in plain words, never the secret or the body.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Activity' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  const list = page.getByRole('list', { name: 'Activity, newest first' });
  // One entry per delivery, naming the run it queued; the run waits (nothing has taken it).
  const acceptedEntry = list.getByRole('listitem').filter({ hasText: 'Webhook delivery accepted' });
  await expect(acceptedEntry).toHaveCount(1);
  await expect(acceptedEntry).toContainText(/webhook-id msg_e2e_1: run [0-9a-f-]{36} queued/);
  await expect(acceptedEntry).toContainText('Waiting');
  // The tampered call is counted, not recorded one by one: its entry comes once its minute is over.
  await expect(list).not.toContainText('msg_e2e_2');
  await expect(list).toContainText('Trigger fired');
  await expect(list).toContainText('Run queued');
  // Nothing has taken the run (no agent runtime here): it waits, it is not "Done".
  await expect(list.getByRole('listitem').filter({ hasText: 'Run queued' }).first()).toContainText('Waiting');
  await expect(list).toContainText('Armed a trigger');
  await expect(list).toContainText('Installed');
  await expect(list.getByRole('listitem').last()).toContainText('Triggers went live');
  await expect(list).not.toContainText(secret.slice('whsec_'.length));
  await expect(list).not.toContainText('scan.ready');
  await snapshot(page, 'live-triggers-2-activity');

  // Filtered by agent: the Sorter's events (and its package's), not the host's own.
  await page.getByLabel('Show').selectOption({ label: 'Sorter' });
  await expect(list).not.toContainText('Triggers went live');
  await expect(list).toContainText('Armed a trigger');
  await expect(list).toContainText('Installed');
  await snapshot(page, 'live-triggers-3-activity-sorter');
});
