/**
 * Cron and interval schedules: checking, words, and next fire times.
 *
 * DESIGN.md "Cron": the words and the next fire times must describe the same rule. For `.apo`
 * triggers, when both day-of-month and day-of-week are restricted both must hold (`0 8 1-7 * MON`
 * is "the first Monday of each month"); template schedules use standard cron, where either field
 * may match, in the trigger's time zone.
 */
import { Cron } from 'croner';
import cronstrue from 'cronstrue';

/** How day-of-month and day-of-week combine when both are restricted. */
export type DayRule = 'and' | 'or';

/** Options shared by the cron helpers. */
export interface CronOptions {
  /** `and` for `.apo` triggers, `or` (standard cron) for template schedules. */
  dayRule: DayRule;
  /** IANA time zone; UTC when absent. */
  timezone?: string;
}

/** Characters a standard 5-field cron field may hold (no `L`, `W`, `#`, `?` extensions). */
const FIELD = /^(?:\*|[0-9A-Za-z]+(?:-[0-9A-Za-z]+)?)(?:\/[0-9]+)?(?:,(?:\*|[0-9A-Za-z]+(?:-[0-9A-Za-z]+)?)(?:\/[0-9]+)?)*$/;
const NAMES = /^(?:[0-9]+|JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC|SUN|MON|TUE|WED|THU|FRI|SAT)$/i;

/**
 * Checks a 5-field cron expression; returns a sentence saying what is wrong, or null.
 * Nicknames (`@daily`), seconds fields and the Quartz extensions are refused: the spec's
 * schedules are plain 5-field cron.
 */
export function cronProblem(expression: string): string | null {
  const fields = expression.trim().split(/\s+/);
  if (expression.trim() === '' || fields.length !== 5) {
    return `\`${expression}\` is not a 5-field cron expression (minute hour day-of-month month day-of-week)`;
  }
  for (const field of fields) {
    const atoms = field.split(/[,/-]/).filter((a) => a !== '*' && a !== '');
    if (!FIELD.test(field) || atoms.some((a) => !NAMES.test(a))) {
      return `\`${expression}\` has an invalid cron field \`${field}\``;
    }
  }
  try {
    new Cron(expression, { paused: true, mode: '5-part' });
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^CronPattern:\s*/, '') : String(error);
    return `\`${expression}\` is not a valid cron expression: ${reason}`;
  }
  return null;
}

/** Whether `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  if (zone.trim() === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The next `count` fire times after `from`, as Dates. Empty when the expression never fires. */
export function nextCronTimes(expression: string, options: CronOptions, from: Date, count = 3): Date[] {
  const job = new Cron(expression, {
    paused: true,
    mode: '5-part',
    timezone: options.timezone ?? 'UTC',
    domAndDow: options.dayRule === 'and',
  });
  return job.nextRuns(count, from);
}

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
    const time = words(`${minute} ${hour} * ${month} *`).replace(/^At /, '');
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
        return `${time} on the ${ORDINALS[(start - 1) / 7]} ${day} of ${months}${zone}`;
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
  return `${words(expression)}${zone}`;
}

/** An interval like `30m`, `1h`, `1d` (spec: `[triggers.source] every`), in milliseconds; null if malformed. */
export function parseInterval(every: string): number | null {
  const match = /^([1-9][0-9]{0,5})(s|m|h|d)$/.exec(every);
  if (!match) return null;
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}

/** An interval in words: `30m` → "Every 30 minutes". */
export function describeInterval(every: string): string {
  const match = /^([0-9]+)(s|m|h|d)$/.exec(every);
  if (!match) return every;
  const n = Number(match[1]);
  const unit = { s: 'second', m: 'minute', h: 'hour', d: 'day' }[match[2] as 's' | 'm' | 'h' | 'd'];
  return n === 1 ? `Every ${unit}` : `Every ${n} ${unit}s`;
}

/**
 * Next fire times of an interval trigger armed at `armedAt` (or counted from `from` when not
 * armed yet: the first fire is one interval after arming).
 */
export function nextIntervalTimes(every: string, from: Date, count = 3, armedAt?: Date): Date[] {
  const ms = parseInterval(every);
  if (ms === null) return [];
  const start = armedAt ?? from;
  const elapsed = Math.max(0, from.getTime() - start.getTime());
  const first = start.getTime() + (Math.floor(elapsed / ms) + 1) * ms;
  return Array.from({ length: count }, (_, i) => new Date(first + i * ms));
}
