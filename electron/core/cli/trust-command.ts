/**
 * `apollia-desktop [--data-dir D] trust add KEY.pub --name NAME | trust list [--json] | trust remove KEYID`:
 * the keys whose signatures make a package `verified`. Exit 0 done, 1 refused
 * (a key file that is not a minisign public key, a duplicate key or name, an unknown id; nothing
 * written), 2 usage error.
 */
import { isAbsolute, resolve } from 'node:path';
import type { TrustedKeyView } from '../../../shared/api';
import { CoreError } from '../errors/index';
import { readKeyFile } from '../app/publisher-trust';
import { type CliIo, EXIT } from './cli-io';
import { cliApi } from './install-command';
import { refused } from './cli-data';
import { terminalJson } from './terminal-text';
import { PROGRAM, usageError } from './usage';

/** Usage of this command. */
export const TRUST_USAGE = [
  `Usage: ${PROGRAM} [--data-dir DIR] trust add KEY.pub --name NAME`,
  `       ${PROGRAM} [--data-dir DIR] trust list [--json]`,
  `       ${PROGRAM} [--data-dir DIR] trust remove KEYID`,
  '',
  'A package signed by a key you trust shows as verified, with the name you give the key here.',
  'KEY.pub is a minisign public key file (minisign -G writes one); KEYID is the key id `trust list` shows.',
  '',
].join('\n');

function keyLine(key: TrustedKeyView): string {
  const pinned = key.pinnedPackages.length > 0 ? `; pinned by ${key.pinnedPackages.join(', ')}` : '';
  return `  ${key.keyId}  ${key.name}  (added ${key.addedAt}${pinned})\n`;
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
  if (sub === 'remove') {
    if (rest.length !== 1 || (rest[0] as string).startsWith('-'))
      return usageError(io, 'trust remove takes one KEYID', TRUST_USAGE);
    const api = cliApi(io);
    const before = await api.trustedKeys();
    const removed = await api.untrustKey({ keyId: rest[0] as string });
    if (!removed.ok) return refused(io, removed.error);
    const gone = before.ok
      ? before.value.find((key) => !removed.value.some((kept) => kept.keyId === key.keyId))
      : undefined;
    io.stdout(
      `Removed key ${gone?.keyId ?? (rest[0] as string).toUpperCase()}${gone ? ` (${gone.name})` : ''} from your trusted publishers. Packages signed by it now show as signed by a key you don't know.\n`,
    );
    const pinned = gone?.pinnedPackages ?? [];
    if (pinned.length > 0)
      io.stdout(
        `Still pinned to this key (their updates must be signed by it, or you accept a key change): ${pinned.join(', ')}.\n`,
      );
    return EXIT.accepted;
  }
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
    const added = await cliApi(io).trustKey({ publicKey: text, name });
    if (!added.ok) return refused(io, added.error);
    const key = added.value.find((k) => k.name === name);
    io.stdout(`Trusted key ${key?.keyId ?? ''} as ${name}. Packages signed by it now show as verified.\n`);
    return EXIT.accepted;
  }
  return usageError(io, `unknown trust command \`${sub}\`: use add, list or remove`, TRUST_USAGE);
}
