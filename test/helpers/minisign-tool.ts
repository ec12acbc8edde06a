/**
 * Test helper: the real `minisign` tool, so keys and signatures in the trust tests are made by
 * minisign itself, not by the code under test. DESIGN.md "Testing": a test that uses a real outside
 * tool fails in CI when the tool is missing, and may skip only outside CI.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';

/** Whether `minisign` runs on this machine. */
export const minisignAvailable: boolean = spawnSync('minisign', ['-v'], { stdio: 'ignore' }).status === 0;

/**
 * `describe` for tests that need minisign: runs them when it is installed; in CI without it, one
 * failing test says so; elsewhere without it, the block is skipped.
 */
export function describeWithMinisign(name: string, body: () => void): void {
  if (minisignAvailable) describe(name, body);
  else if (process.env['CI']) {
    describe(name, () => {
      it('needs minisign installed (.ci/run installs it)', () => {
        throw new Error('minisign is not installed: tests that use it must not skip in CI');
      });
    });
  } else describe.skip(name, body);
}

/** A key pair made by `minisign -G -W` (no password) in `dir`. */
export interface MinisignKeyPair {
  publicKeyPath: string;
  secretKeyPath: string;
  /** The `.pub` file's text. */
  publicKeyText: string;
  /**
   * The key id minisign wrote in the `.pub` comment (`minisign public key <ID>`), brought to 16
   * digits: minisign 0.11 and older print it without leading zeros, 0.12+ with them.
   */
  printedKeyId: string;
}

/** Makes a key pair named `name` in `dir`. */
export function minisignKeyPair(dir: string, name: string): MinisignKeyPair {
  const publicKeyPath = join(dir, `${name}.pub`);
  const secretKeyPath = join(dir, `${name}.key`);
  execFileSync('minisign', ['-G', '-W', '-p', publicKeyPath, '-s', secretKeyPath], { stdio: 'pipe' });
  const publicKeyText = readFileSync(publicKeyPath, 'utf8');
  const printed = /minisign public key ([0-9A-F]+)/.exec(publicKeyText);
  if (!printed) throw new Error(`unexpected minisign public key file: ${publicKeyText}`);
  return { publicKeyPath, secretKeyPath, publicKeyText, printedKeyId: printed[1]!.padStart(16, '0') };
}

/**
 * Signs `file` with `minisign -S` (`legacy`: `-l`, an `Ed` signature; no `trustedComment`: minisign's own default
 * comment, `timestamp:…<TAB>file:…<TAB>hashed`); answers the signature file's text.
 */
export function minisignSign(
  keys: MinisignKeyPair,
  file: string,
  options: { trustedComment?: string; legacy?: boolean; signaturePath?: string },
): string {
  const signaturePath = options.signaturePath ?? `${file}.minisig`;
  const args = ['-S', '-s', keys.secretKeyPath, '-m', file, '-x', signaturePath];
  if (options.trustedComment !== undefined) args.push('-t', options.trustedComment);
  if (options.legacy) args.push('-l');
  execFileSync('minisign', args, { stdio: 'pipe', input: '' });
  return readFileSync(signaturePath, 'utf8');
}

/** Whether `minisign -V` accepts `signaturePath` for `file` with the public key file. */
export function minisignVerifies(publicKeyPath: string, file: string, signaturePath: string): boolean {
  return (
    spawnSync('minisign', ['-V', '-p', publicKeyPath, '-m', file, '-x', signaturePath], { stdio: 'pipe' }).status === 0
  );
}

/**
 * The fingerprint the app shows for a key: the SHA-256 of its bytes as `base64 -d | sha256sum` prints it, uppercase in
 * groups of four. Computed here by the shell's own tools, never by the code under test.
 */
export function fingerprintBySha256sum(keys: MinisignKeyPair): string {
  const line = keys.publicKeyText.split('\n')[1] as string;
  const sum = execFileSync('sh', ['-c', 'base64 -d | sha256sum'], { input: `${line}\n` })
    .toString()
    .slice(0, 64);
  return sum.toUpperCase().match(/.{4}/g)?.join(' ') ?? '';
}
