/**
 * Every signature state a person can meet, made with the real `minisign`, with what they must read about it, written
 * here by hand (DESIGN.md "Trust after install": one signature verdict, rendered by every surface). The built CLI's
 * test (text and `--json`) and the e2e spec (the screens) both take each story through their surface, check these
 * words and codes, and the e2e spec also checks the screen against the built CLI run on the same file: a surface that
 * tells another story fails here, not the shared formatter checked against itself.
 *
 * The person trusts the publisher's key as "Example Accounting" and knows no other. First-install stories are met
 * with nothing of the name installed; update stories after `invoices` 1.2.0, signed by the publisher, is installed.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type MinisignKeyPair, minisignKeyPair, minisignSign } from './minisign-tool';
import { folderEntries, INVOICES_DIR, packFiles } from './pack';

/** The keys and folder the stories are made in. */
export interface StoryKit {
  dir: string;
  /** The key the person trusts as "Example Accounting". */
  publisher: MinisignKeyPair;
  /** A key the person does not know. */
  stranger: MinisignKeyPair;
}

/** One state, as a person meets it. */
export interface SignatureStory {
  id: string;
  /** Met before (`first`) or after (`update`) `invoices` 1.2.0 signed by the publisher is installed. */
  stage: 'first' | 'update';
  /** Writes the `.apo` (and the `.minisig` beside it, if any) into the kit's folder; answers its path. */
  make: (kit: StoryKit) => string;
  /** Refused (exit 1, the refused screen) rather than shown in the consent form. */
  refused: boolean;
  /** What `inspect --json` says: `summary.signature.state` / `.reason`, `summary.signature_update.change` / `.stop`. */
  json: { state: string; reason: string | null; change: string | null; stop: boolean | null; names: string | null };
  /** The badge's words. */
  label: string;
  /** Sentences the person reads on every surface (the explanation; for an update, the sentence about its key). */
  says: (kit: StoryKit) => string[];
  /** The sentence about the update's key, on every surface; null for a first install. */
  updateSays: ((kit: StoryKit) => string) | null;
  /** Words that would tell another story. */
  never: RegExp | null;
}

const NAME = 'Example Accounting';

/** The invoices example at `version`, with `edit` applied to its manifest, packed as `fileName` in `dir`. */
export function invoicesFile(
  dir: string,
  fileName: string,
  version: string,
  edit: (toml: string) => string = (toml) => toml,
): string {
  const files: Record<string, string> = {};
  for (const entry of folderEntries(INVOICES_DIR)) {
    if (entry.type === 'dir' || entry.name.endsWith('/')) continue;
    files[entry.name] = Buffer.from(entry.body ?? []).toString('utf8');
  }
  files['apollia.toml'] = edit(
    (files['apollia.toml'] as string).replace('version = "1.2.0"', `version = "${version}"`),
  );
  const path = join(dir, fileName);
  writeFileSync(path, packFiles(files));
  return path;
}

/** Makes the two keys in `dir`. */
export function storyKit(dir: string): StoryKit {
  return { dir, publisher: minisignKeyPair(dir, 'publisher'), stranger: minisignKeyPair(dir, 'stranger') };
}

/** The installed version every update story is met after: `invoices` 1.2.0 signed by the publisher. */
export function installedFirst(kit: StoryKit): string {
  const path = invoicesFile(kit.dir, 'invoices-1.2.0.apo', '1.2.0');
  minisignSign(kit.publisher, path, { trustedComment: 'invoices 1.2.0' });
  return path;
}

const first = { change: null, stop: null } as const;

/** Every story, first installs then updates. */
export const SIGNATURE_STORIES: SignatureStory[] = [
  {
    id: 'verified',
    stage: 'first',
    make: (kit) => {
      const path = invoicesFile(kit.dir, 'verified.apo', '1.2.0');
      minisignSign(kit.publisher, path, { trustedComment: 'invoices 1.2.0, released 2026-01-01' });
      return path;
    },
    refused: false,
    json: { state: 'verified', reason: null, ...first, names: 'same' },
    label: `Verified publisher: ${NAME}`,
    says: (kit) => [
      `Signed by the key you trust as “${NAME}” (key ID ${kit.publisher.printedKeyId}). Signed comment: invoices 1.2.0, released 2026-01-01`,
    ],
    updateSays: null,
    never: /not signed|don.t know|names differ/,
  },
  {
    id: 'verified, the names differ',
    stage: 'first',
    make: (kit) => {
      const path = invoicesFile(kit.dir, 'partners.apo', '1.2.0', (toml) =>
        toml.replace(`publisher = "${NAME}"`, 'publisher = "Example Acc0unting Partners"'),
      );
      minisignSign(kit.publisher, path, { trustedComment: 'invoices 1.2.0' });
      return path;
    },
    refused: false,
    // The key's name with a digit for a letter and a word added: a lookalike (shared/words/name-comparison.ts).
    json: { state: 'verified', reason: null, ...first, names: 'lookalike' },
    label: `Signed by the key you trust as ${NAME}; the names differ`,
    says: () => [
      `Signed by the key you trust as “${NAME}”; the package calls its publisher “Example Acc0unting Partners”, a name that only looks like it.`,
    ],
    updateSays: null,
    never: /Verified publisher|not signed/,
  },
  {
    id: 'signed by a key you do not know',
    stage: 'first',
    make: (kit) => {
      const path = invoicesFile(kit.dir, 'stranger.apo', '1.2.0');
      minisignSign(kit.stranger, path, { trustedComment: 'invoices 1.2.0' });
      return path;
    },
    refused: false,
    json: { state: 'unknown_key', reason: null, ...first, names: null },
    label: 'Signed by a key you don’t know',
    says: (kit) => [
      `Signed by key ID ${kit.stranger.printedKeyId}, which is not one of your trusted publishers: nothing about who made it is checked.`,
    ],
    updateSays: null,
    never: /Verified|not signed/,
  },
  {
    id: 'unsigned',
    stage: 'first',
    make: (kit) => invoicesFile(kit.dir, 'unsigned.apo', '1.2.0'),
    refused: false,
    json: { state: 'unsigned', reason: null, ...first, names: null },
    label: 'Unverified publisher',
    says: () => ['It is not signed: anyone can write any publisher name.'],
    updateSays: null,
    never: /Verified publisher|signature does not/,
  },
  {
    id: 'invalid: does not match',
    stage: 'first',
    make: (kit) => {
      const path = invoicesFile(kit.dir, 'changed.apo', '1.2.0');
      minisignSign(kit.publisher, path, { trustedComment: 'invoices 1.2.0' });
      // The file changed after it was signed: a valid package still, with another description.
      invoicesFile(kit.dir, 'changed.apo', '1.2.0', (toml) => toml.replace('description = "', 'description = "Now '));
      return path;
    },
    refused: true,
    json: { state: 'invalid', reason: 'does_not_match', ...first, names: null },
    label: 'Signature does not hold',
    says: () => ['The signature does not match this file: it was changed after it was signed.'],
    updateSays: null,
    never: /not signed|don.t know|Verified/,
  },
  {
    id: 'invalid: made for another file',
    stage: 'first',
    make: (kit) => {
      const path = invoicesFile(kit.dir, 'elsewhere.apo', '1.2.0');
      const other = invoicesFile(kit.dir, 'other-1.3.0.apo', '1.3.0');
      // minisign's own default trusted comment names the file it signed.
      execFileSync('minisign', ['-S', '-s', kit.publisher.secretKeyPath, '-m', other], { stdio: 'pipe', input: '' });
      writeFileSync(`${path}.minisig`, readFileSync(`${other}.minisig`));
      return path;
    },
    refused: true,
    json: { state: 'invalid', reason: 'other_file', ...first, names: null },
    label: 'Signature does not hold',
    says: () => ['The signature was made for another file, not this one.'],
    updateSays: null,
    never: /not signed|don.t know|Verified/,
  },
  {
    id: 'invalid: malformed',
    stage: 'first',
    make: (kit) => {
      const path = invoicesFile(kit.dir, 'malformed.apo', '1.2.0');
      writeFileSync(`${path}.minisig`, 'untrusted comment: cut short\n');
      return path;
    },
    refused: true,
    json: { state: 'invalid', reason: 'malformed', ...first, names: null },
    label: 'Signature does not hold',
    says: () => ['The .minisig file beside it is not a minisign signature.'],
    updateSays: null,
    never: /not signed|don.t know|Verified/,
  },
  {
    id: 'update: same key',
    stage: 'update',
    make: (kit) => {
      const path = invoicesFile(kit.dir, 'kept-1.2.1.apo', '1.2.1');
      minisignSign(kit.publisher, path, { trustedComment: 'invoices 1.2.1' });
      return path;
    },
    refused: false,
    json: { state: 'verified', reason: null, change: 'kept', stop: false, names: 'same' },
    label: `Verified publisher: ${NAME}`,
    says: (kit) => [`Signed by the key you trust as “${NAME}” (key ID ${kit.publisher.printedKeyId}).`],
    updateSays: (kit) =>
      `Key kept: this update is signed by the same key as the version you have: the key you trust as “${NAME}” (ID ${kit.publisher.printedKeyId}).`,
    never: /different key|not signed|dropped/,
  },
  {
    id: 'update: changed key',
    stage: 'update',
    make: (kit) => {
      const path = invoicesFile(kit.dir, 'changed-key-1.2.1.apo', '1.2.1');
      minisignSign(kit.stranger, path, { trustedComment: 'invoices 1.2.1' });
      return path;
    },
    refused: false,
    json: { state: 'unknown_key', reason: null, change: 'other_key', stop: true, names: null },
    label: 'Signed by a key you don’t know',
    says: (kit) => [`Signed by key ID ${kit.stranger.printedKeyId}, which is not one of your trusted publishers`],
    updateSays: (kit) =>
      `Signed by a different key: this update is signed by a key you don't know (ID ${kit.stranger.printedKeyId}), not by the key you trust as “${NAME}” (ID ${kit.publisher.printedKeyId}), which signed the version you have.`,
    never: /Key kept|not signed|Verified publisher/,
  },
  {
    id: 'update: signature dropped',
    stage: 'update',
    make: (kit) => invoicesFile(kit.dir, 'dropped-1.2.1.apo', '1.2.1'),
    refused: false,
    json: { state: 'unsigned', reason: null, change: 'dropped', stop: true, names: null },
    label: 'Unverified publisher',
    says: () => ['It is not signed: anyone can write any publisher name.'],
    updateSays: (kit) =>
      `Signature dropped: this update is not signed; the version you have was signed by the key you trust as “${NAME}” (ID ${kit.publisher.printedKeyId}).`,
    never: /different key|Key kept|Verified publisher/,
  },
];

/** The name the publisher's key is trusted as in every story. */
export const TRUSTED_AS = NAME;
