/**
 * The commands of publishers' feeds (DESIGN.md "Feeds, updates and install links"): `feeds`,
 * `outdated`, `update`, `rollback` and `update-mode`, over the same store as the app. An update or
 * a roll back is opened from its feed (or its kept archive) and goes through the consent of
 * `install` (`consentAndInstall`): without `--yes` it shows what would change and installs nothing.
 * A network failure is a refusal whose `path` is the feed's address.
 */
import type { ApiError, ApiResult } from '../../../shared/contract/api';
import { alreadyDone, refused } from './cli-data';
import { type CliIo, EXIT } from './cli-io';
import { cliApi, consentAndInstall } from './install-command';
import { noAnswers } from './install-flags';
import { PROGRAM, usageError } from './usage';

/** Usage of the feed commands. */
export const FEED_USAGE = [
  `Usage: ${PROGRAM} [--data-dir DIR] feeds [--json] | feeds add URL | feeds remove URL`,
  `       ${PROGRAM} [--data-dir DIR] outdated [--json]`,
  `       ${PROGRAM} [--data-dir DIR] update NAME|--all [--yes] [--json]`,
  `       ${PROGRAM} [--data-dir DIR] rollback NAME [--yes] [--json]`,
  `       ${PROGRAM} [--data-dir DIR] update-mode NAME notify|auto|hold [--json]`,
  '',
  'With --json, a refusal is one JSON document on standard output: { "ok": false, "errors": [{ code, message, path }] }.',
  '',
].join('\n');

const MODES = ['notify', 'auto', 'hold'] as const;

/** Splits `--json` / `--yes` / `--all` from the words; a usage error (printed) for any other option. */
function split(
  args: string[],
  allowed: readonly string[],
  io: CliIo,
): { words: string[]; flags: Set<string> } | number {
  const flags = new Set<string>();
  const words: string[] = [];
  for (const arg of args) {
    if (arg === '-h' || arg === '--help') {
      io.stdout(FEED_USAGE);
      return EXIT.accepted;
    }
    if (arg.startsWith('-')) {
      const name = arg === '-y' ? '--yes' : arg;
      if (!allowed.includes(name)) return usageError(io, `unknown option \`${arg}\``, FEED_USAGE);
      flags.add(name);
    } else words.push(arg);
  }
  return { words, flags };
}

/**
 * Prints a result: its value as JSON with `--json`, else `text(value)`; a refusal as the refusal it is: with `--json`,
 * the CLI's one refusal document on standard output (`refused`), nothing on standard error.
 */
function print<T>(io: CliIo, result: ApiResult<T>, json: boolean, text: (value: T) => string): number {
  if (!result.ok) return refusedWithPath(json ? { ...io, json: true } : io, result.error);
  io.stdout(json ? `${JSON.stringify(result.value, null, 2)}\n` : text(result.value));
  return EXIT.accepted;
}

/** `io`, marked for the one JSON refusal document when the command was given `--json`. */
function withJson(io: CliIo, parsed: { flags: Set<string> }): CliIo {
  return parsed.flags.has('--json') ? { ...io, json: true } : io;
}

function refusedWithPath(io: CliIo, error: ApiError): number {
  return refused(
    io,
    error.path && !error.message.includes(error.path)
      ? { ...error, message: `${error.message} (${error.path})` }
      : error,
  );
}

/** `feeds [--json]`, `feeds add URL`, `feeds remove URL`. */
export async function runFeeds(args: string[], io: CliIo): Promise<number> {
  const parsed = split(args, ['--json'], io);
  if (typeof parsed === 'number') return parsed;
  const [action, url, ...rest] = parsed.words;
  const json = parsed.flags.has('--json');
  const api = cliApi(io);
  const text = (
    feeds: { url: string; publisher: string | null; lastCheckedAt: string | null; packages: string[] }[],
  ) =>
    feeds.length === 0
      ? 'No feed is followed.\n'
      : feeds
          .map(
            (feed) =>
              `${feed.url}\n  publisher: ${feed.publisher ?? '(not read yet)'}; last checked: ${feed.lastCheckedAt ?? 'never'}; packages: ${feed.packages.join(', ') || 'none'}\n`,
          )
          .join('');
  if (action === undefined) return print(io, await api.feeds.list(), json, text);
  if ((action !== 'add' && action !== 'remove') || url === undefined || rest.length > 0)
    return usageError(io, 'feeds takes nothing, `add URL` or `remove URL`', FEED_USAGE);
  const result = action === 'add' ? await api.feeds.add(url) : await api.feeds.remove(url);
  return print(
    io,
    result,
    json,
    (feeds) => `${action === 'add' ? 'Following' : 'No longer following'} ${url}.\n${text(feeds)}`,
  );
}

/** `outdated [--json]`: each feed-installed package against its feed, checked now. */
export async function runOutdated(args: string[], io: CliIo): Promise<number> {
  const parsed = split(args, ['--json'], io);
  if (typeof parsed === 'number') return parsed;
  if (parsed.words.length > 0) return usageError(io, 'outdated takes no NAME', FEED_USAGE);
  const result = await cliApi(io).feeds.outdated();
  return print(io, result, parsed.flags.has('--json'), (rows) =>
    rows.length === 0
      ? 'No package was installed from a feed.\n'
      : rows
          .map((row) => {
            const state = row.problem
              ? `not checked: ${row.problem.message}`
              : row.updateAvailable
                ? `${row.latest} available`
                : 'up to date';
            const yanked = row.yanked ? `\n  WITHDRAWN by its publisher: ${row.yanked.reason}` : '';
            return `${row.name} ${row.installed}: ${state} (mode ${row.mode}; feed ${row.feed}; last checked ${row.lastChecked ?? 'never'})${yanked}\n`;
          })
          .join(''),
  );
}

/** `update NAME [--yes]` and `update --all [--yes]`: each through the consent of install. */
export async function runUpdate(args: string[], io: CliIo): Promise<number> {
  const parsed = split(args, ['--yes', '--all', '--json'], io);
  if (typeof parsed === 'number') return parsed;
  const all = parsed.flags.has('--all');
  if (all === (parsed.words.length === 1) || parsed.words.length > 1)
    return usageError(io, 'update takes one NAME, or --all', FEED_USAGE);
  const api = cliApi(io);
  let names = parsed.words;
  if (all) {
    const outdated = await api.feeds.outdated();
    if (!outdated.ok) return refusedWithPath(withJson(io, parsed), outdated.error);
    names = outdated.value.filter((row) => row.updateAvailable && row.mode !== 'hold').map((row) => row.name);
    if (names.length === 0) {
      io.stdout('Every package installed from a feed is up to date (or held).\n');
      return EXIT.accepted;
    }
  }
  let exit: number = EXIT.accepted;
  for (const name of names) {
    const opened = await api.feeds.openUpdate(name);
    if (!opened.ok && alreadyDone(withJson(io, parsed), opened.error, 'update.none')) continue;
    if (!opened.ok) {
      exit = refusedWithPath(withJson(io, parsed), opened.error);
      continue;
    }
    io.stdout(`${name}: ${opened.value.from} → ${opened.value.to}\n`);
    const code = await consentAndInstall(
      api,
      opened.value.handle.id,
      noAnswers(name, parsed.flags.has('--yes'), false, io.json === true),
      io,
    );
    await api.feeds.discard(opened.value.handle.id);
    if (code !== EXIT.accepted) exit = code;
  }
  return exit;
}

/** `rollback NAME [--yes]`: the kept previous version, through the consent of install (a confirmed downgrade). */
export async function runRollback(args: string[], io: CliIo): Promise<number> {
  const parsed = split(args, ['--yes', '--json'], io);
  if (typeof parsed === 'number') return parsed;
  const [name, ...rest] = parsed.words;
  if (name === undefined || rest.length > 0) return usageError(io, 'rollback takes one NAME', FEED_USAGE);
  const api = cliApi(io);
  const opened = await api.feeds.openRollback(name);
  if (!opened.ok && alreadyDone(withJson(io, parsed), opened.error, 'rollback.done')) return EXIT.accepted;
  if (!opened.ok) return refusedWithPath(withJson(io, parsed), opened.error);
  io.stdout(`${name}: back from ${opened.value.from} to ${opened.value.to}\n`);
  return consentAndInstall(
    api,
    opened.value.handle.id,
    noAnswers(name, parsed.flags.has('--yes'), true, io.json === true),
    io,
  );
}

/** `update-mode NAME notify|auto|hold`. */
export async function runUpdateMode(args: string[], io: CliIo): Promise<number> {
  const parsed = split(args, ['--json'], io);
  if (typeof parsed === 'number') return parsed;
  const [name, mode, ...rest] = parsed.words;
  if (name === undefined || mode === undefined || rest.length > 0 || !(MODES as readonly string[]).includes(mode))
    return usageError(io, 'update-mode takes NAME and one of notify, auto, hold', FEED_USAGE);
  const result = await cliApi(io).feeds.setMode(name, mode as (typeof MODES)[number]);
  return print(io, result, parsed.flags.has('--json'), (set) => `${name} updates: ${set}.\n`);
}
