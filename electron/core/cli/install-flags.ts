/**
 * The flags of `install`: the person's answers, each naming what it changes (`--grant`, `--withhold`, `--allow`,
 * `--ask`, `--arm`, `--disarm`), the feed or install link it installs from, and `--yes`/`--json`. Parsed here, read by
 * `install-command.ts`; a usage error is printed and answered with its exit code.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { type AccessAnswer } from '../../../shared/decisions/decisions';
import { CoreError } from '../errors/index';
import { looksLikeInstallLink, parseInstallLink } from '../feeds/install-link';
import { refused } from './cli-data';
import { type CliIo, EXIT } from './cli-io';
import { PROGRAM, usageError } from './usage';
import { WEBHOOK_SECRET_USAGE, webhookSecretOption, type WebhookSecretSource } from './webhook-secret-options';

/** Usage of this command. */
export const INSTALL_USAGE = [
  `Usage: ${PROGRAM} [--data-dir DIR] install PATH|'apollia://install?…'|--feed URL NAME [--version V] [--yes]`,
  '         [--grant|--withhold|--allow|--ask ENTRY ...]',
  '         [--arm TRIGGER[=FOLDER] [--webhook-secret-file FILE | --webhook-secret-stdin] ...] [--disarm TRIGGER ...]',
  '         [--allow-downgrade] [--accept-key-change] [--json]',
  '',
  'Without --yes, prints what the package asks (its verdict first) and what would be decided; changes nothing.',
  'Anything no flag names is kept (an update keeps every earlier answer, armed trigger, folder and',
  'secret) or takes its default (a first install grants the access the package proposes, arms nothing).',
  '  --yes              Install',
  '  --json             Print one JSON document: { ok, applied, preview } (or the receipt, applied)',
  '  --grant ENTRY      Grant an entry (repeat it), e.g. --grant file_read; it asks first unless it only reads',
  '  --withhold ENTRY   Do not grant an entry',
  '  --allow ENTRY      Grant an entry and let it run without asking (not for one that can change or send things)',
  '  --ask ENTRY        Grant an entry, asking you before each call',
  '  --arm TRIGGER      Arm a trigger; a file_watch trigger needs its folder: --arm TRIGGER=FOLDER',
  '  --disarm TRIGGER   Leave a trigger off (an update otherwise keeps an armed one armed)',
  '  --allow-downgrade  Allow installing an older version than the installed one',
  '  --accept-key-change  Install an update signed by another key than the installed one (or now unsigned): refused without it',
  "  --feed URL NAME    Fetch NAME from the publisher's signed feed at URL (its newest version, or --version V)",
  'An install link (apollia://install?feed=…&package=…) does the same: it only opens this form, never installs by itself.',
  '',
  'A webhook trigger armed with --arm gets a secret made here, printed once; or, right after its --arm:',
  ...WEBHOOK_SECRET_USAGE,
  'A secret is never given on the command line (others could see it in the process list).',
  '',
].join('\n');

/** What the flags of `install` say: the person's answers, exactly as the form's clicks are. */
export interface InstallFlags {
  yes: boolean;
  json: boolean;
  allowDowngrade: boolean;
  acceptKeyChange: boolean;
  access: Map<string, AccessAnswer>;
  disarms: string[];
  arms: { id: string; folder?: string; secret?: WebhookSecretSource }[];
  /** The PATH as given, and resolved; for a feed or an install link, the package's name and the link. */
  given: string;
  path: string;
  /** `--feed URL NAME [--version V]`, or an `apollia://install?…` link given as PATH: where to fetch it. */
  feed: { feedUrl: string; name: string; version: string | null; sha256: string | null } | null;
}

/** What the consent needs of the flags: the person's answers (an update or roll back gives none but `yes`). */
export type InstallConsentFlags = Pick<
  InstallFlags,
  'yes' | 'json' | 'allowDowngrade' | 'acceptKeyChange' | 'access' | 'disarms' | 'arms' | 'given' | 'path'
>;

/** The flags of a person who answers nothing but, maybe, `--yes` (`update`, `rollback`). */
export function noAnswers(given: string, yes: boolean, allowDowngrade = false, json = false): InstallConsentFlags {
  return {
    yes,
    json,
    allowDowngrade,
    acceptKeyChange: false,
    access: new Map(),
    disarms: [],
    arms: [],
    given,
    path: given,
  };
}

/** The flags of `install`, or the exit code of `--help` or of a usage error (already printed). */
export function parseInstallFlags(args: string[], io: CliIo): InstallFlags | number {
  const flags = {
    yes: false,
    json: false,
    allowDowngrade: false,
    acceptKeyChange: false,
    access: new Map<string, AccessAnswer>(),
    disarms: [] as string[],
    arms: [] as InstallFlags['arms'],
  };
  const paths: string[] = [];
  let feedUrl: string | null = null;
  let version: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-h' || arg === '--help') {
      io.stdout(INSTALL_USAGE);
      return EXIT.accepted;
    } else if (arg === '--yes' || arg === '-y') flags.yes = true;
    else if (arg === '--json') flags.json = true;
    else if (arg === '--allow-downgrade') flags.allowDowngrade = true;
    else if (arg.startsWith('--webhook-secret')) {
      const next = webhookSecretFlag(args, i, io, flags.arms);
      if (typeof next === 'object') return next.exit;
      i = next;
    } else if (arg === '--accept-key-change') flags.acceptKeyChange = true;
    else if (arg === '--feed' || arg === '--version') {
      const value = args[++i];
      if (value === undefined || value === '') return usageError(io, `${arg} needs a value`, INSTALL_USAGE);
      if (arg === '--feed') feedUrl = value;
      else version = value;
    } else if (ANSWER_FLAGS.has(arg)) {
      const value = args[++i];
      if (value === undefined || value === '') return usageError(io, `${arg} needs a value`, INSTALL_USAGE);
      const problem = answerFlag(arg, value, io, flags);
      if (problem !== null) return problem;
    } else if (arg.startsWith('-')) return usageError(io, `unknown option \`${arg}\` for install`, INSTALL_USAGE);
    else paths.push(arg);
  }
  if (paths.length !== 1)
    return usageError(
      io,
      paths.length === 0 ? 'install needs a PATH' : `install takes one PATH, got ${paths.length}`,
      INSTALL_USAGE,
    );
  const given = paths[0] as string;
  const feed = feedOfFlags(given, feedUrl, version, io);
  if (typeof feed === 'number') return feed;
  if (feed) return { ...flags, given, path: '', feed };
  const path = isAbsolute(given) ? given : resolve(io.cwd, given);
  if (!existsSync(path)) return usageError(io, `no such file: ${given}`, INSTALL_USAGE);
  return { ...flags, given, path, feed: null };
}

/** `--feed URL NAME [--version V]`, or PATH an install link (read strictly); null for a file. */
function feedOfFlags(
  given: string,
  feedUrl: string | null,
  version: string | null,
  io: CliIo,
): InstallFlags['feed'] | number {
  if (looksLikeInstallLink(given)) {
    if (feedUrl !== null || version !== null)
      return usageError(
        io,
        'an install link names its feed and version itself: give no --feed or --version',
        INSTALL_USAGE,
      );
    try {
      const link = parseInstallLink(given);
      return { feedUrl: link.feed, name: link.package, version: link.version, sha256: link.sha256 };
    } catch (error) {
      if (error instanceof CoreError) return refused(io, error.toApiError());
      throw error;
    }
  }
  if (feedUrl !== null) return { feedUrl, name: given, version, sha256: null };
  if (version !== null) return usageError(io, '--version goes with --feed URL NAME', INSTALL_USAGE);
  return null;
}

/** The flags that take an entry or a trigger as their value. */
const ANSWER_FLAGS = new Set(['--grant', '--withhold', '--allow', '--ask', '--arm', '--disarm']);

/** Notes one answer flag and its value in `flags`; answers the exit code of a usage error (printed), else null. */
function answerFlag(
  arg: string,
  value: string,
  io: CliIo,
  flags: Pick<InstallFlags, 'access' | 'disarms' | 'arms'>,
): number | null {
  if (arg === '--disarm') flags.disarms.push(value);
  else if (arg !== '--arm') {
    const answer: AccessAnswer =
      arg === '--grant' ? true : arg === '--withhold' ? false : arg === '--allow' ? 'allow' : 'ask';
    if (flags.access.has(value) && flags.access.get(value) !== answer)
      return usageError(io, `${value} was given two answers`, INSTALL_USAGE);
    flags.access.set(value, answer);
  } else {
    const eq = value.indexOf('=');
    if (eq === -1) flags.arms.push({ id: value });
    else {
      const folder = value.slice(eq + 1);
      const absolute = isAbsolute(folder) ? folder : resolve(io.cwd, folder);
      if (!existsSync(absolute) || !statSync(absolute).isDirectory())
        return usageError(io, `no such folder: ${folder}`, INSTALL_USAGE);
      flags.arms.push({ id: value.slice(0, eq), folder: absolute });
    }
  }
  return null;
}

/**
 * A `--webhook-secret-…` flag, given to the `--arm` right before it: answers the index of its last argument, or the
 * exit code of a usage error (printed).
 */
function webhookSecretFlag(
  args: string[],
  i: number,
  io: CliIo,
  arms: InstallFlags['arms'],
): number | { exit: number } {
  const arg = args[i] as string;
  const option = webhookSecretOption(args, i, io);
  if (option === null)
    return { exit: usageError(io, `unknown option \`${arg.split('=')[0]}\` for install`, INSTALL_USAGE) };
  if ('problem' in option) return { exit: usageError(io, option.problem, INSTALL_USAGE) };
  const arm = arms.at(-1);
  if (!arm)
    return {
      exit: usageError(
        io,
        `${arg.split('=')[0]} goes right after the --arm TRIGGER it is the secret of`,
        INSTALL_USAGE,
      ),
    };
  if (arm.secret) return { exit: usageError(io, `trigger ${arm.id} was given two secrets`, INSTALL_USAGE) };
  if (option.source.from === 'stdin' && arms.some((a) => a.secret?.from === 'stdin'))
    return { exit: usageError(io, 'only one trigger can read its secret from standard input', INSTALL_USAGE) };
  arm.secret = option.source;
  return option.next;
}
