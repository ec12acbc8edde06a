/**
 * Who acts on a refused package (issue 13, point 7: "refusals say who acts"): the person opening it
 * can fix it (a truncated download, a file that is not a package, an app too old for it), its
 * author must (a rule of the package format is broken), or it may be malicious (a link out of the
 * package, a path that climbs out of it, a tool hidden from the manifest) and should not be
 * installed at all. Pure: the refused screen and the CLI read the same answer from a stable code.
 */
import { CLI_NAME, commandLine } from './command-line';

/** Who can do something about a refusal. */
export type RefusalActor = 'user' | 'author' | 'malicious' | 'administrator';

/** What the refused screen says about who acts, and what they do. */
export interface RefusalAdvice {
  actor: RefusalActor;
  /** One short heading: "You can fix this", "Its author must fix this", "Don't install this". */
  title: string;
  /** What to do next, in words. */
  action: string;
}

/** Refusals the person can fix, each with its own next step (a Map: a code is hostile text, `__proto__` included). */
const USER_ACTIONS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    'archive.truncated': 'The file ends too early: the download was cut short. Download the package again.',
    'archive.corrupt_gzip': 'The file is damaged, as an interrupted download would leave it. Download the package again.',
    'archive.trailing_data': 'The file has extra bytes after its end, as a damaged download can. Download the package again.',
    'archive.not_archive': 'This file is not an Apollia package (.apo). Open the .apo file itself.',
    'archive.unsupported_format': 'This file is another kind of archive, not an Apollia package (.apo). Open the .apo file itself.',
    'archive.unreadable': 'The file could not be read. Check that it still exists and that your account may open it, then open it again.',
    'archive.sha256_mismatch': 'The file changed after it was checked. Open it again so that what you consent to is what gets installed.',
    'archive.write_failed': 'Apollia could not write the package to disk (it may be full). Free some space and try again.',
    'manifest.sdk_unsupported': 'This package needs a newer Apollia Desktop. Update the app, then open the package again.',
    'source.not_found': 'The file is no longer where it was opened from. Open it again.',
    'input.not_a_package': 'This file is not an Apollia package, template folder or plugin manifest. Open the .apo file, or the template folder, itself.',
    'template.unbuilt_apo': 'This folder is an Apollia package that was never packed, not a template. Pack it with the command below (or ask its author for the .apo file), then open the .apo file.',
    'signature.unreadable': 'The signature beside the package (its .minisig file) could not be read. Check that it is a file your account may open, then open the package again.',
  }),
);

/**
 * Refusals no honest package causes: links and devices that reach outside the package, paths that
 * climb out of it, names built to pass for others, and code that defines a tool the manifest hides.
 */
const MALICIOUS: ReadonlySet<string> = new Set(['archive.symlink', 'archive.hardlink', 'archive.device', 'archive.fifo', 'archive.traversal', 'archive.absolute_path', 'archive.drive_relative', 'archive.name_collision', 'archive.pax_global', 'manifest.undescribed_function']);

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
 * Who acts on the refusal `code`, and what they do. Every code not known to be the person's to fix
 * or a sign of malice is the author's: a broken rule of the format (the archive layout, the
 * manifest's schema and rules), which only a new build of the package fixes.
 */
export function refusalAdvice(code: string): RefusalAdvice {
  // The organization's policy (DESIGN.md "Managed policy"): only its administrator can change it.
  if (code.startsWith('policy.')) {
    return { actor: 'administrator', title: 'Your organization does not allow this', action: "Your organization's policy refuses it on this computer. Nothing you change here lifts it: your administrator can change the policy." };
  }
  const user = USER_ACTIONS.get(code);
  if (user !== undefined) return { actor: 'user', title: 'You can fix this', action: user };
  if (code === 'signature.invalid') {
    // Issue 14 point 2: a refusal, never a warning; the file was changed after it was signed.
    return {
      actor: 'malicious',
      title: "Don't install this",
      action: 'Its signature does not match: the file was changed after it was signed, or the signature belongs to another file. Get the package again from its publisher, and move this file to the Trash.',
    };
  }
  if (MALICIOUS.has(code)) {
    return {
      actor: 'malicious',
      title: "Don't install this",
      action: 'The package tries something no honest package needs: it reaches outside itself or hides what it does. Move the file to the Trash.',
    };
  }
  return {
    actor: 'author',
    title: 'Its author must fix this',
    action: 'The package breaks a rule of the package format. Nothing you change on this computer fixes it: send its author the message below and the command that shows every problem.',
  };
}
