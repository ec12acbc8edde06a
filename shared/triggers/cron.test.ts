import { describe, expect, it } from 'vitest';
import { cronProblem, describeInterval, isTimeZone, nextCronTimes, nextIntervalTimes, parseInterval } from './cron';
import { describeCron } from '../words/cron-words';

const FROM = new Date('2026-11-30T00:00:00Z');
const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe('cronProblem: plain 5-field cron only', () => {
  it('accepts standard expressions, names, ranges, steps and lists', () => {
    for (const ok of [
      '0 8 * * MON',
      '0 8 1-7 * MON',
      '*/15 * * * *',
      '0 8 * * MON-FRI',
      '30 6 1,15 JAN,JUL *',
      '0 0 * * 0',
    ]) {
      expect(cronProblem(ok), ok).toBeNull();
    }
  });

  it('refuses the wrong number of fields, nicknames and seconds', () => {
    expect(cronProblem('0 8 * *')).toBe(
      '`0 8 * *` is not a 5-field cron expression (minute hour day-of-month month day-of-week)',
    );
    expect(cronProblem('0 0 8 * * *')).toMatch(/is not a 5-field cron expression/);
    expect(cronProblem('@daily')).toMatch(/is not a 5-field cron expression/);
    expect(cronProblem('')).toMatch(/is not a 5-field cron expression/);
  });

  it('refuses Quartz extensions and out-of-range values', () => {
    expect(cronProblem('0 8 L * *')).toBe('`0 8 L * *` has an invalid cron field `L`');
    expect(cronProblem('0 8 * * MON#1')).toBe('`0 8 * * MON#1` has an invalid cron field `MON#1`');
    expect(cronProblem('61 * * * *')).toBe('`61 * * * *` is not a valid cron expression: Invalid value for minute: 61');
  });
});

describe('the AND rule of .apo triggers (DESIGN.md "Cron")', () => {
  it('first-monday: words and next times describe the same rule', () => {
    expect(describeCron('0 8 1-7 * MON', { dayRule: 'and' })).toBe('At 08:00, on the first Monday of each month (UTC)');
    expect(iso(nextCronTimes('0 8 1-7 * MON', { dayRule: 'and' }, FROM))).toEqual([
      '2026-12-07T08:00:00.000Z',
      '2027-01-04T08:00:00.000Z',
      '2027-02-01T08:00:00.000Z',
    ]);
  });

  it('a day range that is not one week says both conditions', () => {
    expect(describeCron('0 8 1-10 * MON', { dayRule: 'and' })).toBe(
      'At 08:00, between day 1 and 10 of the month when it is also Monday (UTC)',
    );
  });
});

describe('the standard (either field) rule of template schedules', () => {
  it('fires on days 1-7 and on every Monday, and says so', () => {
    expect(describeCron('0 8 1-7 * MON', { dayRule: 'or' })).toBe(
      'At 08:00, between day 1 and 7 of the month, and also every Monday (UTC)',
    );
    const next = iso(nextCronTimes('0 8 1-7 * MON', { dayRule: 'or' }, FROM, 3));
    expect(next).toEqual(['2026-11-30T08:00:00.000Z', '2026-12-01T08:00:00.000Z', '2026-12-02T08:00:00.000Z']);
  });

  it('runs in the trigger time zone', () => {
    expect(describeCron('0 8 * * MON', { dayRule: 'or', timezone: 'Europe/Paris' })).toBe(
      'At 08:00, only on Monday (Europe/Paris)',
    );
    expect(iso(nextCronTimes('0 8 * * MON', { dayRule: 'or', timezone: 'Europe/Paris' }, FROM, 1))).toEqual([
      '2026-11-30T07:00:00.000Z',
    ]);
  });

  it('knows IANA zones', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});

describe('intervals', () => {
  it('parses 30m, 1h, 1d and refuses the rest', () => {
    expect(parseInterval('30m')).toBe(1_800_000);
    expect(parseInterval('1h')).toBe(3_600_000);
    expect(parseInterval('1d')).toBe(86_400_000);
    for (const bad of ['0m', '1w', '1.5h', 'h', '', '01h', '30 m']) expect(parseInterval(bad), bad).toBeNull();
  });

  it('describes and schedules them from arming', () => {
    expect(describeInterval('30m')).toBe('Every 30 minutes');
    expect(describeInterval('1h')).toBe('Every hour');
    expect(iso(nextIntervalTimes('1h', new Date('2026-11-30T10:20:00Z'), 2, new Date('2026-11-30T09:00:00Z')))).toEqual(
      ['2026-11-30T11:00:00.000Z', '2026-11-30T12:00:00.000Z'],
    );
  });
});
