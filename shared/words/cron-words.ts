/**
 * A cron schedule in plain words (DESIGN.md "Cron": the words and the next fire times describe the
 * same rule). Apart from `cron.ts` so that the readers, which only check schedules, do not load
 * cronstrue (the bounded worker loads what its job uses).
 */
import cronstrue from 'cronstrue';
import type { CronOptions } from '../triggers/cron';

const ORDINALS = ['first', 'second', 'third', 'fourth'];
const DAY_NAMES: Record<string, string> = {
  '0': 'Sunday',
  '1': 'Monday',
  '2': 'Tuesday',
  '3': 'Wednesday',
  '4': 'Thursday',
  '5': 'Friday',
  '6': 'Saturday',
  '7': 'Sunday',
  SUN: 'Sunday',
  MON: 'Monday',
  TUE: 'Tuesday',
  WED: 'Wednesday',
  THU: 'Thursday',
  FRI: 'Friday',
  SAT: 'Saturday',
};

/** Day-of-week fields that mean every weekday (Monday to Friday) or every weekend day, however written. */
const WEEKDAYS = new Set(['1-5', 'MON-FRI']);
const WEEKENDS = new Set(['0,6', '6,0', '6-7', 'SAT,SUN', 'SUN,SAT', 'SAT-SUN', '6,7', '7,6']);

/**
 * "Weekdays at 09:00" for a schedule at one time of day on Monday to Friday (`0 9 * * 1-5`), "Weekends at …" for
 * Saturday and Sunday: the words a person uses, where cronstrue says "Monday through Friday" after the time, so a
 * trigger named weekly that runs every weekday reads as what it does. Null for any other schedule.
 */
function weekPartWords(minute: string, hour: string, dom: string, month: string, dow: string): string | null {
  if (dom !== '*' || month !== '*' || !/^\d{1,2}$/.test(minute) || !/^\d{1,2}$/.test(hour)) return null;
  const days = dow.toUpperCase();
  const part = WEEKDAYS.has(days) ? 'Weekdays' : WEEKENDS.has(days) ? 'Weekends' : null;
  return part ? `${part} at ${hour.padStart(2, '0')}:${minute.padStart(2, '0')}` : null;
}

/**
 * The schedule in plain words, 24-hour clock, with the time zone when one is given.
 * Under the `and` rule with both day fields restricted, the words say "and also": cronstrue alone
 * would describe the standard (either-field) rule, which is not what an `.apo` trigger does.
 */
export function describeCron(expression: string, options: CronOptions): string {
  const [minute = '*', hour = '*', dom = '*', month = '*', dow = '*'] = expression.trim().split(/\s+/);
  const zone = options.timezone && options.timezone !== 'UTC' ? ` (${options.timezone})` : ' (UTC)';
  const words = (expr: string) => cronstrue.toString(expr, { use24HourTimeFormat: true, verbose: false });
  if (options.dayRule === 'and' && dom !== '*' && dow !== '*') {
    // One wording for every schedule (cronstrue's): "At 08:00, …", whichever rule and whichever days.
    const time = words(`${minute} ${hour} * ${month} *`);
    const week = /^(\d+)-(\d+)$/.exec(dom);
    const day = DAY_NAMES[dow.toUpperCase()];
    if (week && day) {
      const start = Number(week[1]);
      const end = Number(week[2]);
      if (end - start === 6 && (start - 1) % 7 === 0 && start <= 22) {
        const months =
          month === '*'
            ? 'each month'
            : `${words(`0 0 1 ${month} *`)
                .replace(/^At 00:00, on day 1 of the month, /, '')
                .replace(/^only in /, '')}`;
        return `${time}, on the ${ORDINALS[(start - 1) / 7]} ${day} of ${months}${zone}`;
      }
    }
    const dayWords = words(`0 0 ${dom} * *`).replace(/^At 00:00, /, '');
    const dowWords = words(`0 0 * * ${dow}`)
      .replace(/^At 00:00, /, '')
      .replace(/^only on /, '');
    const monthWords = month === '*' ? '' : `, ${words(`0 0 * ${month} *`).replace(/^At 00:00, /, '')}`;
    return `${time}, ${dayWords} when it is also ${dowWords}${monthWords}${zone}`;
  }
  if (options.dayRule === 'or' && dom !== '*' && dow !== '*') {
    // Standard cron fires when either day field matches; cronstrue's "and on" would read as both.
    const time = words(`${minute} ${hour} * ${month} *`);
    const dayWords = words(`0 0 ${dom} * *`).replace(/^At 00:00, /, '');
    const dowWords = words(`0 0 * * ${dow}`)
      .replace(/^At 00:00, /, '')
      .replace(/^only on /, '');
    return `${time}, ${dayWords}, and also every ${dowWords}${zone}`;
  }
  return `${weekPartWords(minute, hour, dom, month, dow) ?? words(expression)}${zone}`;
}

/**
 * A fire time as the command line says it, wherever it lists one (`inspect`, `list`, `arm`): `2026-12-07 08:00 UTC`.
 * Machine-readable output keeps the ISO time.
 */
export function fireTimeWords(at: Date | string): string {
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
