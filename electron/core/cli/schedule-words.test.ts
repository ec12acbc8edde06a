/**
 * One wording for a schedule across the command line: `inspect`, `install`, `arm` and `list` say a trigger's schedule
 * with the one function of shared/words (`describeCron`, every sentence "At 08:00, …"), and its next fire time with
 * the one `fireTimeWords` (`2026-12-07 08:00 UTC`).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeCron, fireTimeWords } from '../../../shared/words/cron-words';
import { nextCronTimes } from '../../../shared/triggers/cron';
import { INVOICES_DIR } from '../../../test/helpers/pack';
import { tempDir } from '../../../test/helpers/test-api';
import { runCliCaptured } from '../../../test/helpers/cli-run';

const WORDS = 'At 08:00, on the first Monday of each month (UTC)';

describe('a schedule has one wording', () => {
  it('the AND rule and the standard rule both start "At HH:MM,"', () => {
    expect(describeCron('0 8 1-7 * MON', { dayRule: 'and' })).toBe(WORDS);
    expect(describeCron('0 8 * * MON', { dayRule: 'or' })).toBe('At 08:00, only on Monday (UTC)');
    expect(fireTimeWords(new Date('2026-12-07T08:00:00.000Z'))).toBe('2026-12-07 08:00 UTC');
    expect(fireTimeWords('2027-01-04T08:00:00.000Z')).toBe('2027-01-04 08:00 UTC');
  });

  it('inspect, install, arm and list say the same words and the same next time', async () => {
    const dir = tempDir('apollia-schedule-words-');
    const dataDir = join(dir, 'data');
    const apo = join(dir, 'invoices.apo');
    expect((await runCliCaptured(['pack', INVOICES_DIR, '-o', apo])).code).toBe(0);
    const cli = (argv: string[]) => runCliCaptured(['--data-dir', dataDir, ...argv]);
    const inspected = await cli(['inspect', apo]);
    const preview = await cli(['install', apo]);
    expect((await cli(['install', apo, '--yes'])).code).toBe(0);
    const armed = await cli(['arm', 'invoices/first-monday']);
    const listed = await cli(['list']);
    const next = fireTimeWords(nextCronTimes('0 8 1-7 * MON', { dayRule: 'and' }, new Date(), 1)[0] as Date);
    expect(inspected.stdout).toContain(
      `first-monday → monthly-reminders: ${WORDS} [0 8 1-7 * MON]\n    next: ${next}, `,
    );
    expect(preview.stdout).toContain(`first-monday → monthly-reminders: ${WORDS} [0 8 1-7 * MON]\n    next: ${next}, `);
    expect(armed.stdout).toContain(`Armed invoices/first-monday: ${WORDS}, next ${next}\n`);
    expect(listed.stdout).toContain(`  armed    invoices/first-monday: ${WORDS}, next ${next}\n`);
    // Machine-readable output keeps the ISO time.
    const json = JSON.parse((await cli(['list', '--json'])).stdout);
    expect(JSON.stringify(json)).toMatch(/"next":\s*\[\s*"\d{4}-\d\d-\d\dT08:00:00\.000Z"/);
  });
});
