/**
 * Waiting runs can be seen and cleared. A template's webhook with `max_concurrent: 3` is delivered
 * three signed calls (a fourth is turned away, 429): its row on the dashboard says its queue is full
 * and leads to the Runs view, which lists each run (trigger, agent, time, cause, the payload's type,
 * never its body) and a stray run file that cannot be read. One run is discarded, then all of the
 * trigger's, each after a confirmation, each in the activity record as a decision.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { expect, snapshotBoth, stepHeading, test } from '../support/app';

const BODY_WORDS = 'Please call me back about the enterprise plan';

async function deliver(url: string, secret: string, n: number): Promise<number> {
  const body = JSON.stringify({ type: 'lead.submitted', name: `Lead ${n}`, message: BODY_WORDS });
  const at = new Date();
  const id = `msg_runs_${n}`;
  const answer = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(id, at, body),
    },
    body,
  });
  return answer.status;
}

test('a full queue is said on the dashboard; the Runs view lists what waits, discards one and all of a trigger’s, each recorded', async ({
  page,
  app,
}) => {
  test.slow();
  const main = page.getByRole('main');
  // The template's agent, its webhook armed with a secret made here.
  await page.getByRole('button', { name: 'Use this template: Inbound lead' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel(/^icp/).fill('B2B SaaS in Europe');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, 'Step 5 of 5: Review and apply')).toBeVisible();
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  const hook = main.getByRole('region', { name: 'Webhook trigger new-lead' });
  await hook.getByRole('button', { name: 'Make the secret for new-lead' }).click();
  const secret = ((await page.getByLabel('Webhook secret for new-lead').textContent()) ?? '').trim();
  expect(secret).toMatch(/^whsec_/);
  const url = ((await hook.getByLabel('Webhook address of new-lead').textContent()) ?? '').trim();

  // Three deliveries fill its queue (max_concurrent 3); the fourth is turned away. The trigger host takes the new
  // secret from the store when it next reloads (a fraction of a second; longer on a loaded machine): until then the
  // first delivery is refused 401 and, as a sender would, is sent again (a refusal does not use up its id).
  await expect.poll(() => deliver(url, secret, 1), { timeout: 15_000 }).toBe(202);
  for (let n = 2; n <= 3; n++) expect(await deliver(url, secret, n)).toBe(202);
  expect(await deliver(url, secret, 4)).toBe(429);
  // A stray run file left by a trigger no longer here (at a fixed time, so its record's words stay the same from run to
  // run), and not JSON: listed as unreadable, never a failure.
  const pending = join(await app.dataDir(), 'runs', 'pending');
  mkdirSync(pending, { recursive: true });
  const strayName = `${Buffer.from('old-package/gone').toString('base64url')}.${String(Date.UTC(2026, 0, 1, 8)).padStart(13, '0')}.stray-run.json`;
  writeFileSync(join(pending, strayName), '{"cause": "webhook", "payload": ');

  // The dashboard: the trigger's row says its queue is full, and leads to its runs.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeFocused();
  const full = main.getByText('Its queue is full: 3 runs wait, its most (3).');
  await expect(full).toBeVisible({ timeout: 10_000 });
  await expect(main).toContainText('New fires are skipped and webhook senders are told to try again later');
  await full.scrollIntoViewIfNeeded();
  await snapshotBoth(page, 'runs-view-1-dashboard-queue-full');

  await main.getByRole('button', { name: 'See the runs waiting for new-lead' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Runs waiting' })).toBeFocused();
  await expect(main).toContainText('Showing the runs of new-lead only.');
  const runs = main.getByRole('list', { name: 'Runs waiting, oldest first' });
  await expect(runs.getByRole('listitem')).toHaveCount(3);
  await expect(runs.getByRole('listitem').first()).toContainText('new-lead → Inbound lead');
  await expect(runs.getByRole('listitem').first()).toContainText(
    'Why: a webhook delivery · Payload type: lead.submitted',
  );
  await expect(main.getByText('Queue full', { exact: true })).toBeVisible();
  await expect(main).not.toContainText(BODY_WORDS);

  // Every trigger's: the stray file too, unreadable, oldest first.
  await main.getByRole('button', { name: 'Show every trigger’s' }).click();
  await expect(runs.getByRole('listitem')).toHaveCount(4);
  await expect(runs.getByRole('listitem').first()).toContainText(
    'old-package/gone → a trigger no longer on this computer',
  );
  await expect(runs.getByRole('listitem').first()).toContainText(
    'Unreadable This run file could not be read: it is not JSON.',
  );
  await snapshotBoth(page, 'runs-view-2-every-trigger');

  // One run discarded, after its confirmation.
  await runs
    .getByRole('button', { name: /^Discard the run of new-lead queued / })
    .first()
    .click();
  const one = page.getByRole('dialog', { name: 'Discard this run of new-lead?' });
  await expect(one).toBeVisible();
  await expect(one.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await snapshotBoth(page, 'runs-view-3-discard-one');
  await one.getByRole('button', { name: 'Discard' }).click();
  await expect(one).toBeHidden();
  await expect(runs.getByRole('listitem')).toHaveCount(3);
  await expect(main.getByText('Queue full', { exact: true })).toHaveCount(0);

  // All of the trigger's, after its confirmation; the stray one by itself.
  await main.getByRole('button', { name: 'Discard all 2 runs of new-lead' }).click();
  const all = page.getByRole('dialog', { name: 'Discard all 2 waiting runs of new-lead?' });
  await all.getByRole('button', { name: 'Discard' }).click();
  await expect(runs.getByRole('listitem')).toHaveCount(1);
  await runs.getByRole('button', { name: /^Discard the run of old-package\/gone queued / }).click();
  await page
    .getByRole('dialog', { name: 'Discard this run of old-package/gone?' })
    .getByRole('button', { name: 'Discard' })
    .click();
  await expect(main.getByRole('status').filter({ hasText: 'No run is waiting.' })).toBeVisible();
  expect(readdirSync(pending)).toEqual([]);

  // Each discard is a decision in the activity record.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Activity' }).click();
  await page.getByLabel('Only decisions (no deliveries, fires or runs)').check();
  const list = page.getByRole('list', { name: 'Activity, newest first' });
  const discards = list.getByRole('listitem').filter({ hasText: 'Discarded waiting runs' });
  await expect(discards).toHaveCount(3);
  await expect(discards.nth(1)).toContainText('discarded 2 waiting runs');
  await expect(discards.nth(2)).toContainText('discarded 1 waiting run: run ');
  await expect(list).not.toContainText(BODY_WORDS);
  await snapshotBoth(page, 'runs-view-4-activity');
});
