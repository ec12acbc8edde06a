/**
 * The one date format of the app ("one date format everywhere, the locale's,
 * with zone"): the person's locale decides the order and words, and the zone is always named, so
 * "08:00" never leaves a reader guessing whose 08:00 it is.
 */

const OPTIONS: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
};

/** The zone this computer is in (IANA name). */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * `date` in the locale's format with its zone named, in `timezone` (default: this computer's). An
 * unknown zone falls back to this computer's; an invalid date to its ISO text, or the text given.
 * `seconds` for a record of what happened (the activity record: seven events in one minute must
 * not all read alike).
 */
export function formatDateTime(
  date: Date | string,
  timezone: string = localTimeZone(),
  options: { seconds?: boolean } = {},
): string {
  const value = typeof date === 'string' ? new Date(date) : date;
  if (Number.isNaN(value.getTime())) return typeof date === 'string' ? date : 'an unknown date';
  const format = options.seconds ? { ...OPTIONS, second: '2-digit' as const } : OPTIONS;
  try {
    return new Intl.DateTimeFormat(undefined, { ...format, timeZone: timezone }).format(value);
  } catch {
    return new Intl.DateTimeFormat(undefined, format).format(value);
  }
}
