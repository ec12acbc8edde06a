/**
 * A parameter that is a pin's destination, checked by an unanchored pattern (the spec's
 * `pattern` is JSON Schema's, searched anywhere in the value). The form says, beside the field and
 * on Review, that any value containing a match passes and that the pin holds the whole value given.
 */
import { join } from 'node:path';
import { REPO_ROOT } from '../support/electron-binary';
import { expect, stepHeading, test } from '../support/app';

test.use({ now: '2026-01-01T00:00:00Z' });

const LOOSE_PIN = join(REPO_ROOT, 'e2e', 'fixtures', 'templates', 'loose-pin');
const NOTE =
  '`channel` is checked by the pattern `C[A-Z0-9]{8}`, which is not anchored (no ^ … $): any value that contains a match passes, and `slack_send_message` will be pinned to the whole value you give. Check it is exactly the destination you mean';

test('a pinned parameter with an unanchored pattern says so beside its field and on Review', async ({ page, app }) => {
  await app.answerDialog('folder', LOOSE_PIN);
  await page.getByRole('button', { name: 'Open a template folder…' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Apply template loose-pin' })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, 'Step 2 of 5: Fill in its parameters')).toBeVisible();
  const channel = page.getByLabel(/^channel/);
  await expect(channel).toHaveAccessibleDescription(new RegExp(`any value that contains a match passes`));
  await expect(page.getByRole('main')).toContainText(NOTE.replaceAll('`', ''));
  // A value that merely contains a match passes the field's check: the note is why it is said.
  await channel.fill('xC0123ABCDy');
  await channel.blur();
  await expect(channel).not.toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, 'Step 5 of 5: Review and apply')).toBeVisible();
  const warnings = page.getByRole('region', { name: 'Warnings' });
  await expect(
    warnings.getByRole('listitem').filter({ hasText: 'A pinned destination takes any value containing a match' }),
  ).toContainText('any value that contains a match passes');
});
