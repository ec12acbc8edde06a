/**
 * The app's own command line as the screens show it (DESIGN.md "Security of the app itself": every
 * command the app shows a person works where it runs; never `npx` of an unpublished name, which
 * outside the repository fetches whoever owns that name on the registry).
 */

/** The command's name: the deb's `/usr/bin/apollia-desktop`, and the npm package's `bin`. */
export const CLI_NAME = 'apollia-desktop';

/** `text` as one word of a POSIX shell: as is when it is plain, else single-quoted. */
export function shellQuoted(text: string): string {
  return /^[A-Za-z0-9._/-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * One command line: `program` (`AppInfo.cliProgram`, already quoted; null where this app has no
 * console command: the name is shown, and the screen says how to get it) then the arguments, quoted.
 */
export function commandLine(program: string | null, args: readonly string[]): string {
  return [program ?? CLI_NAME, ...args.map(shellQuoted)].join(' ');
}
