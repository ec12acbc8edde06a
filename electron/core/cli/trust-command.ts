/**
 * `apollia-desktop [--data-dir D] trust add KEY.pub --name NAME | trust list [--json] | trust remove KEYID [--yes]`:
 * the keys whose signatures make a package `verified`. `add` prints the key's id and fingerprint and the name it is
 * trusted as; `remove` says which installed packages are pinned to the key and asks first (`--yes` answers for a
 * script; without a terminal and without `--yes` nothing is removed). Exit 0 done, 1 refused (a key file that is not a
 * minisign public key, a duplicate key or name, an unknown id, a removal not confirmed; nothing written), 2 usage
 * error.
 */
import { isAbsolute, resolve } from 'node:path';
import type { TrustedKeyView } from '../../../shared/contract/api';
import { CoreError } from '../errors/index';
import { readKeyFile } from '../app/publisher-trust';
import { askYesNo } from './ask';
import { type CliIo, EXIT } from './cli-io';
import { cliApi } from './install-command';
import { ActivityLog } from '../activity/activity-log';
import { cliDataDir, refused } from './cli-data';
import { terminalJson } from './terminal-text';
import { PROGRAM, usageError } from './usage';

/** Usage of this command. */
export const TRUST_USAGE = [
  `Usage: ${PROGRAM} [--data-dir DIR] trust add KEY.pub --name NAME`,
  `       ${PROGRAM} [--data-dir DIR] trust list [--json]`,
  `       ${PROGRAM} [--data-dir DIR] trust remove KEYID [--yes]`,
  '',
  'A package signed by a key you trust shows as verified, with the name you give the key here.',
  'KEY.pub is a minisign public key file (minisign -G writes one); KEYID is the key id `trust list` shows.',
  '`add` prints the key id and the fingerprint (SHA-256 of the whole key): compare it with the one the publisher',
  'gave you (`tail -n 1 KEY.pub | base64 -d | sha256sum` prints the same digits).',
  '`remove` lists the installed packages pinned to the key and asks first; --yes (-y) answers yes (for scripts).',
  '',
].join('\n');

function keyLine(key: TrustedKeyView): string {
  const pinned = key.pinnedPackages.length > 0 ? `; pinned by ${key.pinnedPackages.join(', ')}` : '';
  return `  ${key.keyId}  ${key.name}  (added ${key.addedAt}${pinned})\n    fingerprint ${key.fingerprint}\n`;
}

/** What removing `key` does, said before it is done. */
function removalWords(key: TrustedKeyView): string {
  const pinned = key.pinnedPackages;
  return [
    `Key ID ${key.keyId}, trusted as “${key.name}”`,
    `Fingerprint: ${key.fingerprint}`,
    pinned.length === 0
      ? 'No installed package is pinned to it.'
      : `Installed packages pinned to it: ${pinned.join(', ')}. They stay pinned: their updates must still be signed by this very key, or you accept a key change.`,
    "Packages signed by it will show as signed by a key you don't know. Nothing installed is removed.",
    '',
  ].join('\n');
}

/** `trust remove KEYID [--yes]`: says what it does, asks (unless --yes), then removes. */
async function remove(rest: string[], io: CliIo): Promise<number> {
  const yes = rest.includes('--yes') || rest.includes('-y');
  const ids = rest.filter((arg) => arg !== '--yes' && arg !== '-y');
  if (ids.length !== 1 || (ids[0] as string).startsWith('-'))
    return usageError(io, 'trust remove takes one KEYID (and --yes to remove it without asking)', TRUST_USAGE);
  const keyId = ids[0] as string;
  const api = cliApi(io);
  const listed = await api.trustedKeys();
  if (!listed.ok) return refused(io, listed.error);
  const wanted = keyId.toUpperCase().padStart(16, '0');
  const key = listed.value.find((k) => k.keyId === wanted && !k.managed);
  // An unknown id, a malformed one or an organization's key: the Api's refusal says which.
  if (!key) {
    const removed = await api.untrustKey({ keyId });
    if (removed.ok) return EXIT.accepted;
    // Removed already (the record's last word on the key): a rerun after a kill, DESIGN.md "Commit points", exit 0.
    const at = removed.error.code === 'trust.not_found' ? await removedAt(io, wanted) : null;
    if (at === null) return refused(io, removed.error);
    io.stdout(`Key ${wanted} is not trusted: it was removed at ${at}; nothing to do.\n`);
    return EXIT.accepted;
  }
  // With --json standard output holds one document: what removing it means is said beside it, on standard error.
  (io.json ? io.stderr : io.stdout)(removalWords(key));
  if (!yes) {
    const answer = await askYesNo(io, `Remove the key you trust as “${key.name}”? [y/N] `);
    if (answer === null) {
      return refused(io, {
        code: 'trust.not_confirmed',
        message:
          'trust remove asks before removing a key, and there is no terminal to ask in: nothing was removed. Run it in a terminal, or add --yes.',
      });
    }
    if (!answer) {
      io.stdout(`Kept the key you trust as “${key.name}”: nothing was removed.\n`);
      return EXIT.refused;
    }
  }
  const removed = await api.untrustKey({ keyId: key.keyId });
  if (!removed.ok) return refused(io, removed.error);
  io.stdout(
    `Removed key ${key.keyId} (${key.name}) from your trusted publishers (recorded in the activity log). Packages signed by it now show as signed by a key you don't know.\n`,
  );
  if (key.pinnedPackages.length > 0)
    io.stdout(
      `Still pinned to this key (their updates must be signed by it, or you accept a key change): ${key.pinnedPackages.join(', ')}.\n`,
    );
  return EXIT.accepted;
}

/** Runs `trust` with the arguments after the command name. */
export async function run(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined) return usageError(io, 'trust needs add, list or remove', TRUST_USAGE);
  if (sub === '-h' || sub === '--help') {
    io.stdout(TRUST_USAGE);
    return EXIT.accepted;
  }
  if (sub === 'list') {
    let json = false;
    for (const arg of rest) {
      if (arg === '--json') json = true;
      else return usageError(io, `unknown argument \`${arg}\` for trust list`, TRUST_USAGE);
    }
    const keys = await cliApi(io).trustedKeys();
    if (!keys.ok) return refused(io, keys.error);
    if (json) io.stdout(`${terminalJson({ keys: keys.value })}\n`);
    else {
      io.stdout(keys.value.length === 0 ? 'No trusted key.\n' : 'Trusted keys:\n');
      for (const key of keys.value) io.stdout(keyLine(key));
    }
    return EXIT.accepted;
  }
  if (sub === 'remove') return remove(rest, io);
  if (sub === 'add') {
    let name: string | undefined;
    const files: string[] = [];
    for (let i = 0; i < rest.length; i++) {
      const arg = rest[i] as string;
      if (arg === '--name') {
        name = rest[++i];
        if (name === undefined) return usageError(io, '--name needs a value', TRUST_USAGE);
      } else if (arg.startsWith('--name=')) name = arg.slice('--name='.length);
      else if (arg.startsWith('-')) return usageError(io, `unknown option \`${arg}\` for trust add`, TRUST_USAGE);
      else files.push(arg);
    }
    if (files.length !== 1)
      return usageError(
        io,
        files.length === 0 ? 'trust add needs a KEY.pub file' : `trust add takes one KEY.pub, got ${files.length}`,
        TRUST_USAGE,
      );
    if (name === undefined)
      return usageError(io, 'trust add needs --name NAME (the publisher the key belongs to)', TRUST_USAGE);
    const given = files[0] as string;
    let text: string;
    try {
      text = await readKeyFile(isAbsolute(given) ? given : resolve(io.cwd, given));
    } catch (error) {
      if (error instanceof CoreError) return refused(io, error.toApiError());
      throw error;
    }
    const api = cliApi(io);
    const preview = await api.previewKey({ publicKey: text });
    if (!preview.ok) return refused(io, preview.error);
    const { keyId, fingerprint, publicKey } = preview.value;
    io.stdout(
      `Key ID ${keyId}\nFingerprint: ${fingerprint}\n  (compare it with the one the publisher gave you; \`tail -n 1 KEY.pub | base64 -d | sha256sum\` prints the same digits)\nTrusting it as “${name}”.\n`,
    );
    // The same key under the same name: already done (a rerun after a kill, DESIGN.md "Commit points"), exit 0.
    if (preview.value.trustedAs === name) {
      io.stdout(`Key ${keyId} is already trusted as ${name}: nothing to do.\n`);
      return EXIT.accepted;
    }
    const added = await api.trustKey({ publicKey, name });
    if (!added.ok) return refused(io, added.error);
    io.stdout(
      `Trusted key ${keyId} as ${name} (recorded in the activity log). Packages signed by it now show as verified.\n`,
    );
    return EXIT.accepted;
  }
  return usageError(io, `unknown trust command \`${sub}\`: use add, list or remove`, TRUST_USAGE);
}

/** When the record says the key `keyId` was last removed (its newest trust decision is a removal), or null. */
async function removedAt(io: CliIo, keyId: string): Promise<string | null> {
  const entries = await new ActivityLog(cliDataDir(io)).list({ decisionsOnly: true }).catch(() => []);
  const last = entries.find(
    (e) =>
      (e.kind === 'key_removed' && e.detail.startsWith(`removed key ${keyId} `)) ||
      (e.kind === 'key_trusted' && e.detail.startsWith(`trusted key ${keyId} `)),
  );
  return last?.kind === 'key_removed' ? last.at : null;
}
