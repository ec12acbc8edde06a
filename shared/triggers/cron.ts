/**
 * Cron and interval schedules: checking and next fire times (a cron schedule in words is
 * `cron-words.ts`, kept apart so that checking a package never loads cronstrue).
 *
 * DESIGN.md "Cron": the words and the next fire times must describe the same rule. For `.apo`
 * triggers, when both day-of-month and day-of-week are restricted both must hold (`0 8 1-7 * MON`
 * is "the first Monday of each month"); template schedules use standard cron, where either field
 * may match, in the trigger's time zone.
 */
import { Cron } from 'croner';

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
const FIELD =
  /^(?:\*|[0-9A-Za-z]+(?:-[0-9A-Za-z]+)?)(?:\/[0-9]+)?(?:,(?:\*|[0-9A-Za-z]+(?:-[0-9A-Za-z]+)?)(?:\/[0-9]+)?)*$/;
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
