import { describe, expect, it } from 'vitest';
import { nextCronTimes } from '../triggers/cron';
import { describeCron } from './cron-words';

const FROM = new Date('2026-11-27T12:00:00Z'); // a Friday

describe('describeCron: weekday and weekend schedules named as a person says them', () => {
  it('says "Weekdays at 09:00" for Monday to Friday, however written, and its times are those five days', () => {
    for (const cron of ['0 9 * * 1-5', '0 9 * * MON-FRI', '0 9 * * mon-fri'])
      expect(describeCron(cron, { dayRule: 'or', timezone: 'Europe/Paris' })).toBe('Weekdays at 09:00 (Europe/Paris)');
    const days = nextCronTimes('0 9 * * 1-5', { dayRule: 'or', timezone: 'Europe/Paris' }, FROM, 5).map((date) =>
      new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: 'Europe/Paris' }).format(date),
    );
    expect(days).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri']);
  });

  it('says "Weekends at 07:30" for Saturday and Sunday', () => {
    expect(describeCron('30 7 * * 0,6', { dayRule: 'or' })).toBe('Weekends at 07:30 (UTC)');
    expect(describeCron('30 7 * * SAT,SUN', { dayRule: 'and' })).toBe('Weekends at 07:30 (UTC)');
  });

  it('leaves every other schedule to cronstrue: one day, other days, several times, a day of the month', () => {
    expect(describeCron('0 8 * * 1', { dayRule: 'or' })).toBe('At 08:00, only on Monday (UTC)');
    expect(describeCron('0 8 * * 1-4', { dayRule: 'or' })).toBe('At 08:00, Monday through Thursday (UTC)');
    expect(describeCron('0 9,17 * * 1-5', { dayRule: 'or' })).toBe('At 09:00 and 17:00, Monday through Friday (UTC)');
    expect(describeCron('0 9 1 * 1-5', { dayRule: 'or' })).not.toMatch(/^Weekdays/);
  });
});
