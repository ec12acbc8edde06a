/**
 * Who acts on a refusal (DESIGN.md "Consent, install, apply": "a refusal says who can act on it"):
 * the person opening it (a wrong file, a broken download, an app too old for it), its author (a
 * rule of the format, in the spec's words), the organization's administrator (its policy), or
 * nobody (it may be malicious: don't install it). One table, keyed by the stable refusal code, so
 * the refused screen, the CLI and the Trash check read the same answer. Pure.
 */
import { APP_DOWNLOAD_PAGE_SHOWN } from '../base/app-links';
import { CLI_NAME, commandLine } from '../base/command-line';
import type { Problem } from '../manifests/inspection';
import type { RefusalCode } from './refusal-codes';

/** Who can do something about a refusal. */
export type RefusalActor = 'user' | 'author' | 'administrator' | 'nobody';

/** What the refused screen says about who acts, and what they do. */
export interface RefusalAdvice {
  actor: RefusalActor;
  /**
   * One short heading: "You can fix this", "Its author must fix this", "Your organization does not allow this", "Don't
   * install this".
   */
  title: string;
  /** What to do next, in words. */
  action: string;
  /**
   * Why it was refused, said after "NAME was checked without running any of it, and": `{kind}` is
   * the kind of file (package, template, plugin manifest). Never "breaks the rules" when it does not.
   */
  why: string;
  /**
   * The fix is a newer Apollia Desktop: the screen offers to open the download page
   * (`shared/base/app-links.ts`) and the CLI says where it is.
   */
  updateApp: boolean;
}

/** One row of the table: who acts, what they do, and (when the actor's usual reason is not the right one) why. */
interface RefusalRow {
  actor: RefusalActor;
  action: string;
  why?: string;
}

const TITLES: Record<RefusalActor, string> = {
  user: 'You can fix this',
  author: 'Its author must fix this',
  administrator: 'Your organization does not allow this',
  nobody: "Don't install this",
};

const WHY: Record<RefusalActor, string> = {
  user: 'it could not be checked as it is',
  author: 'it does not follow the rules for a {kind}',
  administrator: "your organization's policy does not allow it",
  nobody: 'it does something no honest {kind} needs to do',
};

const DOWNLOAD_AGAIN = 'Download the package again.';
const UPDATE_APP = `Install the newest Apollia Desktop (from ${APP_DOWNLOAD_PAGE_SHOWN}, or ask whoever manages this computer)`;

/**
 * What only a newer Apollia Desktop fixes: a package made for an SDK this app does not serve, and
 * data written by a newer app (`store.future_version`, an Api error rather than a refusal of a file).
 */
const UPDATE_APP_CODES: ReadonlySet<string> = new Set(['manifest.sdk_unsupported', 'store.future_version']);

/** Whether the error or refusal `code` is fixed by a newer Apollia Desktop (the download page is offered). */
export function needsNewerApp(code: string): boolean {
  return UPDATE_APP_CODES.has(code);
}
const OPEN_ITSELF = 'Open the .apo file itself.';
const NOT_A_PACKAGE = 'it is not an Apollia package (.apo)';
const HOSTILE =
  'The package tries something no honest package needs: it reaches outside itself or hides what it does. Move the file to the Trash.';
const AUTHOR =
  'The package breaks a rule of the package format. Nothing you change on this computer fixes it: send its author the message below (Copy the message for the author) and the command that shows every problem.';
const POLICY =
  "Your organization's policy refuses it on this computer. Nothing you change here lifts it: your administrator can change the policy.";

/**
 * Every refusal code that is not the author's, by who acts, keyed by {@link RefusalCode} (a misspelt
 * code fails the typecheck). Codes not listed here are the author's: a broken rule of the format
 * (the archive layout, the manifest's schema and rules, a template's fields), which only a new build
 * fixes.
 */
const TABLE: { readonly [Code in RefusalCode]?: RefusalRow } = {
  // The person can fix it: a broken download, the wrong file, this computer, an app too old.
  'archive.empty': {
    actor: 'user',
    action: `The file is empty (0 bytes): the download or copy did not finish. ${DOWNLOAD_AGAIN}`,
    why: 'the file is empty',
  },
  'archive.truncated': {
    actor: 'user',
    action: `The file ends too early: the download was cut short. ${DOWNLOAD_AGAIN}`,
    why: 'the file is incomplete',
  },
  'archive.corrupt_gzip': {
    actor: 'user',
    action: `The file is damaged, as an interrupted download would leave it. ${DOWNLOAD_AGAIN}`,
    why: 'the file is damaged',
  },
  'archive.corrupt_header': {
    actor: 'user',
    action: `The file is damaged, as a broken download or copy leaves it. ${DOWNLOAD_AGAIN} If a fresh copy is refused the same way, its author must build it again.`,
    why: 'the file is damaged',
  },
  'archive.trailing_data': {
    actor: 'user',
    action: `The file has extra bytes after its end, as a damaged download can. ${DOWNLOAD_AGAIN}`,
    why: 'the file is damaged',
  },
  'archive.not_archive': {
    actor: 'user',
    action: `This file is not an Apollia package (.apo), or it is damaged beyond reading. ${OPEN_ITSELF} If this is the .apo file, ${DOWNLOAD_AGAIN.toLowerCase()}`,
    why: NOT_A_PACKAGE,
  },
  'archive.unsupported_format': {
    actor: 'user',
    action: `This file is another kind of archive, not an Apollia package (.apo). ${OPEN_ITSELF}`,
    why: NOT_A_PACKAGE,
  },
  'archive.unreadable': {
    actor: 'user',
    action:
      'The file could not be read. Check that it still exists and that your account may open it, then open it again.',
    why: 'the file could not be read',
  },
  'archive.sha256_mismatch': {
    actor: 'user',
    action: 'The file changed after it was checked. Open it again so that what you consent to is what gets installed.',
    why: 'the file changed after it was checked',
  },
  'archive.write_failed': {
    actor: 'user',
    action: 'Apollia could not write the package to disk (it may be full). Free some space and try again.',
    why: 'it could not be written to this computer',
  },
  'archive.destination_exists': {
    actor: 'user',
    action:
      'A folder of the same name is already in the app data folder, left by an earlier attempt. Try again; if it happens again, restart the app.',
    why: 'it could not be written to this computer',
  },
  'manifest.sdk_unsupported': {
    actor: 'user',
    action: `This package needs a newer Apollia Desktop. ${UPDATE_APP}, then open the package again.`,
    why: 'it was made for a newer Apollia Desktop than this one',
  },
  'source.not_found': {
    actor: 'user',
    action: 'The file is no longer where it was opened from. Open it again.',
    why: 'the file is no longer there',
  },
  'source.unreadable': {
    actor: 'user',
    action: 'The file could not be read. Check that your account may open it, then open it again.',
    why: 'the file could not be read',
  },
  'source.not_a_file': {
    actor: 'user',
    action: 'This is not a file. Open the .apo file, or the template folder, itself.',
    why: 'it is not a file',
  },
  'source.unknown': {
    actor: 'user',
    action: 'This file is no longer open here. Open it again.',
    why: 'it is no longer open',
  },
  'input.not_a_package': {
    actor: 'user',
    action:
      'This file is not an Apollia package, template folder or plugin manifest. Open the .apo file, or the template folder, itself.',
    why: 'it is not an Apollia package, template or plugin manifest',
  },
  'input.not_found': {
    actor: 'user',
    action: 'Nothing is at that path. Check the name, then open it again.',
    why: 'nothing is at that path',
  },
  'input.unreadable': {
    actor: 'user',
    action: 'It could not be read. Check that your account may open it, then open it again.',
    why: 'it could not be read',
  },
  'template.unbuilt_apo': {
    actor: 'user',
    action:
      'This folder is an Apollia package that was never packed, not a template. Pack it with the command below (or ask its author for the .apo file), then open the .apo file.',
    why: 'it is a package folder that was never packed, not a template',
  },
  'template.not_a_folder': {
    actor: 'user',
    action: 'A template is a folder. Open the template folder itself (the one holding agent.md).',
    why: 'a template is a folder',
  },
  'template.not_found': {
    actor: 'user',
    action: 'The folder is no longer where it was opened from. Open it again.',
    why: 'the folder is no longer there',
  },
  'template.unreadable': {
    actor: 'user',
    action: 'The folder could not be read. Check that your account may open it, then open it again.',
    why: 'the folder could not be read',
  },
  'template.changed': {
    actor: 'user',
    action: 'The folder changed after it was checked. Open it again so that what you consent to is what gets applied.',
    why: 'the folder changed after it was checked',
  },
  'plugin.unreadable': {
    actor: 'user',
    action: 'The file could not be read. Check that your account may open it, then open it again.',
    why: 'the file could not be read',
  },
  'plugin.not_a_file': {
    actor: 'user',
    action: 'This is not a file. Open the plugin manifest (.json) itself.',
    why: 'it is not a file',
  },
  'signature.unreadable': {
    actor: 'user',
    action:
      'The signature beside the package (its .minisig file) could not be read. Check that it is a file your account may open, then open the package again.',
    why: 'its signature file could not be read',
  },
  'signature.key_changed': {
    actor: 'user',
    action:
      'This update is signed by a different key than the one you installed it with. Install it only if its publisher told you the key changed, and accept the new key when you are asked.',
    why: 'it is signed by a different key than the installed version',
  },
  // Nobody: it may be malicious. Links and devices that reach outside the package, paths that climb
  // out of it, names built to pass for others, code that defines a tool the manifest hides, a
  // signature that does not match the file.
  'archive.symlink': { actor: 'nobody', action: HOSTILE },
  'archive.hardlink': { actor: 'nobody', action: HOSTILE },
  'archive.device': { actor: 'nobody', action: HOSTILE },
  'archive.fifo': { actor: 'nobody', action: HOSTILE },
  'archive.traversal': { actor: 'nobody', action: HOSTILE },
  'archive.absolute_path': { actor: 'nobody', action: HOSTILE },
  'archive.drive_relative': { actor: 'nobody', action: HOSTILE },
  'archive.name_collision': { actor: 'nobody', action: HOSTILE },
  'archive.pax_global': { actor: 'nobody', action: HOSTILE },
  // Another reader (bsdtar, GNU tar, Go, Python) would see another name or other data: what a
  // reviewer lists is not what would be installed, the way to hide a file from a review.
  'archive.ambiguous_name': {
    actor: 'nobody',
    action: HOSTILE,
    why: 'other tools would read its files differently from this app',
  },
  'archive.ambiguous_size': {
    actor: 'nobody',
    action: HOSTILE,
    why: 'other tools would read its files differently from this app',
  },
  'manifest.undescribed_function': {
    actor: 'nobody',
    action: HOSTILE,
    why: 'its code defines a tool its manifest does not describe',
  },
  'signature.invalid': {
    actor: 'nobody',
    action:
      'Its signature does not match: the file was changed after it was signed, or the signature belongs to another file. Get the package again from its publisher, and move this file to the Trash.',
    why: 'its signature does not match its contents',
  },
};

/** The table as a Map, for lookups by a code from a problem list: hostile text, `__proto__` included. */
const ROWS: ReadonlyMap<string, RefusalRow> = new Map(
  Object.entries(TABLE).filter((entry): entry is [string, RefusalRow] => entry[1] !== undefined),
);

/** The table's rows, for the test that checks each code and for the README's table. */
export const REFUSAL_ROWS: ReadonlyMap<string, Readonly<RefusalRow>> = ROWS;

/**
 * Who acts on the refusal `code`, and what they do. A `policy.*` code is the administrator's; every
 * code not in the table is the author's.
 */
export function refusalAdvice(code: string): RefusalAdvice {
  const row =
    ROWS.get(code) ??
    (code.startsWith('policy.')
      ? { actor: 'administrator' as const, action: POLICY }
      : { actor: 'author' as const, action: AUTHOR });
  return {
    actor: row.actor,
    title: TITLES[row.actor],
    action: row.action,
    why: row.why ?? WHY[row.actor],
    updateApp: needsNewerApp(code),
  };
}

/**
 * Who acts on a refused input, from all its problems: a sign of malice anywhere outweighs the first
 * problem (one hidden tool or outward link is enough not to install a package), then the
 * organization's policy, then the first problem as the checker ordered them.
 */
export function refusalAdviceFor(problems: readonly Pick<Problem, 'code'>[]): RefusalAdvice {
  const nobody = problems.find((problem) => refusalAdvice(problem.code).actor === 'nobody');
  const policy = problems.find((problem) => refusalAdvice(problem.code).actor === 'administrator');
  return refusalAdvice((nobody ?? policy ?? problems[0])?.code ?? '');
}

/**
 * The command an author runs to see every problem of a package, as DESIGN.md "Validation contract"
 * gives it: this app's own command line (`program`: `AppInfo.cliProgram`), never `npx`.
 */
export function inspectCommand(fileName: string, program: string | null = CLI_NAME): string {
  return commandLine(program, ['inspect', fileName]);
}

/** The command that packs an unbuilt package folder (`template.unbuilt_apo`), with the same program. */
export function packCommand(folder: string, program: string | null = CLI_NAME): string {
  return commandLine(program, ['pack', folder]);
}

/**
 * The message a person sends a package's author: the file, each problem as the checker said it
 * (with its path and code), and the command that shows them all. Plain text, for Copy.
 */
export function authorMessage(fileName: string, problems: readonly Problem[], command: string): string {
  const lines = problems.map(
    (problem) =>
      `- ${problem.message}${problem.path && !problem.message.includes(problem.path) ? ` (at ${problem.path})` : ''} [${problem.code}]`,
  );
  return [
    `Apollia Desktop refused ${fileName} (checked without running any of it):`,
    ...lines,
    '',
    `To see every problem: ${command}`,
  ].join('\n');
}
