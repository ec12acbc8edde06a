/**
 * Schedules in words with their next fire times, computed with the shared cron helpers so the
 * words and the times always describe the same rule (DESIGN.md "Cron").
 */
import type { TriggerSource } from '../../../shared/manifests/apollia-manifest';
import { formatDateTime, localTimeZone } from './date-format';
import { cronProblem, describeInterval, nextCronTimes, nextIntervalTimes } from '../../../shared/triggers/cron';
import { describeCron } from '../../../shared/words/cron-words';

/** A trigger's "when" in words, and up to three next fire times (none for event triggers). */
export interface ScheduleView {
  words: string;
  next: Date[];
  timezone: string;
  problem?: string;
}

/** An `.apo` trigger source (day rule `and`, UTC). */
export function apoSchedule(source: TriggerSource, now = new Date()): ScheduleView {
  switch (source.type) {
    case 'cron': {
      const problem = cronProblem(source.schedule);
      if (problem) return { words: source.schedule, next: [], timezone: 'UTC', problem };
      return {
        words: describeCron(source.schedule, { dayRule: 'and' }),
        next: nextCronTimes(source.schedule, { dayRule: 'and' }, now, 3),
        timezone: 'UTC',
      };
    }
    case 'interval':
      return {
        words: `${describeInterval(source.every)}, counted from when you arm it`,
        next: nextIntervalTimes(source.every, now, 3),
        timezone: localTimeZone(),
      };
    case 'file_watch':
      return {
        words: source.recursive
          ? 'When anything in a folder you choose (or its subfolders) changes'
          : 'When a file in a folder you choose changes',
        next: [],
        timezone: 'UTC',
      };
    case 'webhook':
      return {
        words:
          'When another program calls its web address, signed with its secret (made here, or given by that program)',
        next: [],
        timezone: 'UTC',
      };
  }
}

/** A template schedule (standard cron, either day field, in its time zone). */
export function templateSchedule(cron: string, timezone: string | undefined, now = new Date()): ScheduleView {
  const zone = timezone && timezone !== '' ? timezone : 'UTC';
  const problem = cronProblem(cron);
  if (problem) return { words: cron, next: [], timezone: zone, problem };
  try {
    return {
      words: describeCron(cron, { dayRule: 'or', timezone: zone }),
      next: nextCronTimes(cron, { dayRule: 'or', timezone: zone }, now, 3),
      timezone: zone,
    };
  } catch (error) {
    return { words: cron, next: [], timezone: zone, problem: error instanceof Error ? error.message : String(error) };
  }
}

/** A fire time as a person reads it, in the schedule's own zone (the one app format: `date-format.ts`). */
export function formatFireTime(date: Date, timezone: string): string {
  return formatDateTime(date, timezone);
}
