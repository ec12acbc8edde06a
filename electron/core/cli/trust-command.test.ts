/**
 * The CLI's trust commands: `trust add/list/remove`, `inspect --json` with
 * `summary.signature`, `install` of a key-changed update exiting 1 with nothing changed (then
 * `--accept-key-change`), and `verify` finding a changed file. Keys and signatures are made by the
 * real `minisign`.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { sharedChecker } from '../bounded/index';
import {
  describeWithMinisign,
  fingerprintBySha256sum,
  type MinisignKeyPair,
  minisignKeyPair,
  minisignSign,
} from '../../../test/helpers/minisign-tool';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { activityText, editedPackage, RECORD_FILES, tempDir, treeHash } from '../../../test/helpers/test-api';
import { runCliCaptured } from '../../../test/helpers/cli-run';

// The bounded worker starts from TS source here (seconds on a loaded machine): started before the first test's clock.
beforeAll(() => sharedChecker().warm(), 120_000);

async function cli(argv: string[]) {
  return runCliCaptured(argv);
}

function invoicesApo(dir: string, version: string): string {
  const folder = editedPackage(INVOICES_DIR, (toml) => toml.replace('version = "1.2.0"', `version = "${version}"`));
  const path = join(dir, `invoices-${version}.apo`);
  writeFileSync(path, packFolder(folder));
  return path;
}

describeWithMinisign('trust, inspect, install and verify on the command line', () => {
  let keys: string;
  let publisher: MinisignKeyPair;
  let stranger: MinisignKeyPair;
  beforeAll(() => {
    keys = tempDir('apollia-cli-keys-');
    publisher = minisignKeyPair(keys, 'publisher');
    stranger = minisignKeyPair(keys, 'stranger');
  });

  it('trust add, list --json, remove; a key file with garbage is refused with nothing written', async () => {
    const dataDir = join(tempDir('apollia-cli-'), 'data');
    const added = await cli([
      '--data-dir',
      dataDir,
      'trust',
      'add',
      publisher.publicKeyPath,
      '--name',
      'Example Accounting',
    ]);
    const fingerprint = fingerprintBySha256sum(publisher);
    expect([added.code, added.stdout, added.stderr]).toEqual([
      0,
      [
        `Key ID ${publisher.printedKeyId}`,
        `Fingerprint: ${fingerprint}`,
        '  (compare it with the one the publisher gave you; `tail -n 1 KEY.pub | base64 -d | sha256sum` prints the same digits)',
        'Trusting it as “Example Accounting”.',
        `Trusted key ${publisher.printedKeyId} as Example Accounting (recorded in the activity log). Packages signed by it now show as verified.`,
        '',
      ].join('\n'),
      '',
    ]);
    const listed = await cli(['--data-dir', dataDir, 'trust', 'list', '--json']);
    expect(JSON.parse(listed.stdout).keys.map((k: { keyId: string; name: string }) => [k.keyId, k.name])).toEqual([
      [publisher.printedKeyId, 'Example Accounting'],
    ]);

    const garbage = join(keys, 'garbage.pub');
    writeFileSync(garbage, 'untrusted comment: not really\nthis is not a key\n');
    const before = treeHash(dataDir);
    const refused = await cli(['--data-dir', dataDir, 'trust', 'add', garbage, '--name', 'Other']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^apollia-desktop: .*/);
    expect(treeHash(dataDir)).toBe(before);
    const duplicate = await cli(['--data-dir', dataDir, 'trust', 'add', publisher.publicKeyPath, '--name', 'Again']);
    expect([duplicate.code, duplicate.stderr]).toEqual([1, expect.stringContaining('already trusted')]);
    expect(treeHash(dataDir)).toBe(before);
    expect((await cli(['--data-dir', dataDir, 'trust', 'add', publisher.publicKeyPath])).code).toBe(2);

    const removed = await cli(['--data-dir', dataDir, 'trust', 'remove', publisher.printedKeyId, '--yes']);
    expect(removed.code).toBe(0);
    expect((await cli(['--data-dir', dataDir, 'trust', 'list'])).stdout).toBe('No trusted key.\n');
    const activity = activityText(dataDir);
    expect(activity).toContain(`trusted key ${publisher.printedKeyId} as “Example Accounting”`);
    expect(activity).toContain(`removed key ${publisher.printedKeyId} (“Example Accounting”)`);
    // Run again (after a kill, say): the record says it is done, exit 0; the same key and name added again too.
    const again = await cli(['--data-dir', dataDir, 'trust', 'remove', publisher.printedKeyId, '--yes']);
    expect([again.code, again.stdout]).toEqual([
      0,
      expect.stringMatching(/^Key [0-9A-F]{16} is not trusted: it was removed at \S+Z; nothing to do\.\n$/),
    ]);
    await cli(['--data-dir', dataDir, 'trust', 'add', publisher.publicKeyPath, '--name', 'Example Accounting']);
    const addedAgain = await cli([
      '--data-dir',
      dataDir,
      'trust',
      'add',
      publisher.publicKeyPath,
      '--name',
      'Example Accounting',
    ]);
    expect([addedAgain.code, addedAgain.stdout]).toEqual([
      0,
      expect.stringContaining('is already trusted as Example Accounting: nothing to do.'),
    ]);
    expect((await cli(['--data-dir', dataDir, 'trust', 'remove', 'ABCDEF0123456789', '--yes'])).code).toBe(1);
  });

  it('trust remove says which installed packages are pinned to the key and asks first: no terminal and no --yes, or "n", removes nothing', async () => {
    const dataDir = join(tempDir('apollia-cli-'), 'data');
    await cli(['--data-dir', dataDir, 'trust', 'add', publisher.publicKeyPath, '--name', 'Example Accounting']);
    const apo = invoicesApo(tempDir(), '1.2.0');
    minisignSign(publisher, apo, { trustedComment: 'invoices 1.2.0' });
    expect((await cli(['--data-dir', dataDir, 'install', apo, '--yes'])).code).toBe(0);
    const before = treeHash(dataDir);
    const said = [
      `Key ID ${publisher.printedKeyId}, trusted as “Example Accounting”`,
      `Fingerprint: ${fingerprintBySha256sum(publisher)}`,
      'Installed packages pinned to it: invoices. They stay pinned: their updates must still be signed by this very key, or you accept a key change.',
      "Packages signed by it will show as signed by a key you don't know. Nothing installed is removed.",
      '',
    ].join('\n');
    const argv = ['--data-dir', dataDir, 'trust', 'remove', publisher.printedKeyId];
    const unasked = await runCliCaptured(argv, { ask: async () => null });
    expect([unasked.code, unasked.stdout, unasked.stderr]).toEqual([
      1,
      said,
      'apollia-desktop: trust remove asks before removing a key, and there is no terminal to ask in: nothing was removed. Run it in a terminal, or add --yes.\n',
    ]);
    const questions: string[] = [];
    const no = await runCliCaptured(argv, { ask: async (q) => (questions.push(q), 'n') });
    expect([no.code, no.stdout]).toEqual([
      1,
      `${said}Kept the key you trust as “Example Accounting”: nothing was removed.\n`,
    ]);
    expect(questions).toEqual(['Remove the key you trust as “Example Accounting”? [y/N] ']);
    expect(treeHash(dataDir)).toBe(before);
    const yes = await runCliCaptured(argv, { ask: async () => 'y' });
    expect(yes.code).toBe(0);
    expect(yes.stdout).toContain(
      `Removed key ${publisher.printedKeyId} (Example Accounting) from your trusted publishers`,
    );
    expect((await cli(['--data-dir', dataDir, 'trust', 'list'])).stdout).toBe('No trusted key.\n');
  });

  it('inspect --json gives summary.signature in each state; an edited trusted comment is signature.invalid first, exit 1', async () => {
    const dataDir = join(tempDir('apollia-cli-'), 'data');
    const apo = invoicesApo(tempDir(), '1.2.0');
    const unsigned = await cli(['--data-dir', dataDir, 'inspect', apo, '--json']);
    expect(JSON.parse(unsigned.stdout).summary.signature).toEqual({
      state: 'unsigned',
      key_id: null,
      trusted_comment: null,
      signer: null,
      public_key: null,
      reason: null,
      message: null,
    });
    minisignSign(publisher, apo, { trustedComment: 'invoices 1.2.0' });
    const unknown = await cli(['--data-dir', dataDir, 'inspect', apo, '--json']);
    expect([unknown.code, JSON.parse(unknown.stdout).summary.signature]).toEqual([
      0,
      {
        state: 'unknown_key',
        key_id: publisher.printedKeyId,
        trusted_comment: null,
        signer: null,
        public_key: null,
        reason: null,
        message: null,
      },
    ]);
    await cli(['--data-dir', dataDir, 'trust', 'add', publisher.publicKeyPath, '--name', 'Example Accounting']);
    const verified = await cli(['--data-dir', dataDir, 'inspect', apo, '--json']);
    expect(JSON.parse(verified.stdout).summary.signature).toEqual({
      state: 'verified',
      key_id: publisher.printedKeyId,
      trusted_comment: 'invoices 1.2.0',
      signer: 'Example Accounting',
      public_key: publisher.publicKeyText.split('\n')[1],
      reason: null,
      message: null,
    });
    const words = await cli(['--data-dir', dataDir, 'inspect', apo]);
    expect(words.stdout).toContain('publisher: Example Accounting (Verified publisher: Example Accounting)\n');
    expect(words.stdout).toContain(
      `signature: Signed by the key you trust as “Example Accounting” (key ID ${publisher.printedKeyId}). Signed comment: invoices 1.2.0\n`,
    );

    // The trusted comment edited after signing: the global signature no longer holds.
    writeFileSync(
      `${apo}.minisig`,
      readFileSync(`${apo}.minisig`, 'utf8').replace(
        'trusted comment: invoices 1.2.0',
        'trusted comment: invoices 9.9.9',
      ),
    );
    const flipped = await cli(['--data-dir', dataDir, 'inspect', apo, '--json']);
    const json = JSON.parse(flipped.stdout);
    expect([flipped.code, json.ok, json.errors[0].code]).toEqual([1, false, 'signature.invalid']);
    // The verdict of a signature that does not hold is `invalid`, with why: never null, never unknown_key.
    expect(json.summary.signature).toEqual({
      state: 'invalid',
      key_id: publisher.printedKeyId,
      trusted_comment: null,
      signer: null,
      public_key: null,
      reason: 'comment_changed',
      message: json.errors[0].message,
    });
    const flippedWords = (await cli(['--data-dir', dataDir, 'inspect', apo])).stdout;
    expect(flippedWords).toContain('publisher: Example Accounting (Signature does not hold)\n');
    expect(flippedWords).toContain('signature: The signed comment was changed after signing.');
    expect(flippedWords).not.toMatch(/not signed/);
  });

  it('inspect says a signature that does not match, a malformed one and one made for another file are invalid, never "not signed"', async () => {
    const dataDir = join(tempDir('apollia-cli-'), 'data');
    await cli(['--data-dir', dataDir, 'trust', 'add', publisher.publicKeyPath, '--name', 'Example Accounting']);
    const work = tempDir();
    const apo = invoicesApo(work, '1.2.0');
    const other = invoicesApo(work, '1.3.0');
    // minisign's default trusted comment names the file it signed.
    execFileSync('minisign', ['-S', '-s', publisher.secretKeyPath, '-m', other], { stdio: 'pipe', input: '' });
    writeFileSync(`${apo}.minisig`, readFileSync(`${other}.minisig`));
    const cases: [string, string, string][] = [];
    const otherFile = await cli(['--data-dir', dataDir, 'inspect', apo, '--json']);
    cases.push([
      JSON.parse(otherFile.stdout).summary.signature.reason,
      'other_file',
      (await cli(['--data-dir', dataDir, 'inspect', apo])).stdout,
    ]);
    minisignSign(publisher, apo, { trustedComment: 'invoices 1.2.0' });
    appendFileSync(apo, Buffer.alloc(1024));
    const changed = await cli(['--data-dir', dataDir, 'inspect', apo, '--json']);
    cases.push([
      JSON.parse(changed.stdout).summary.signature.reason,
      'does_not_match',
      (await cli(['--data-dir', dataDir, 'inspect', apo])).stdout,
    ]);
    writeFileSync(`${apo}.minisig`, 'untrusted comment: cut short\n');
    const malformed = await cli(['--data-dir', dataDir, 'inspect', apo, '--json']);
    expect(JSON.parse(malformed.stdout).summary.signature).toMatchObject({ state: 'invalid', key_id: null });
    cases.push([
      JSON.parse(malformed.stdout).summary.signature.reason,
      'malformed',
      (await cli(['--data-dir', dataDir, 'inspect', apo])).stdout,
    ]);
    for (const [reason, expected, text] of cases) {
      expect(reason).toBe(expected);
      expect(text).toContain('(Signature does not hold)');
      expect(text).not.toMatch(/not signed|unknown key|don.t know/);
    }
  });

  it('a pin is the whole key: after trust remove, an update signed by another key claiming the same key id is signature.key_changed; the real key still passes', async () => {
    const dataDir = join(tempDir('apollia-cli-'), 'data');
    const work = tempDir();
    await cli(['--data-dir', dataDir, 'trust', 'add', publisher.publicKeyPath, '--name', 'Example Accounting']);
    const first = invoicesApo(work, '1.0.0');
    minisignSign(publisher, first, { trustedComment: 'invoices 1.0.0' });
    expect((await cli(['--data-dir', dataDir, 'install', first, '--yes'])).code).toBe(0);
    const removed = await cli(['--data-dir', dataDir, 'trust', 'remove', publisher.printedKeyId, '--yes']);
    expect(removed.stdout).toContain(
      'Still pinned to this key (their updates must be signed by it, or you accept a key change): invoices.',
    );
    // 1.0.1 signed by the stranger's key, its signature line rewritten to name the publisher's key id
    // (the key id is not covered by any signature: the global signature covers the signature and comment only).
    const forged = invoicesApo(work, '1.0.1');
    minisignSign(stranger, forged, { trustedComment: 'invoices 1.0.1' });
    const lines = readFileSync(`${forged}.minisig`, 'utf8').split('\n');
    const sig = Buffer.from(lines[1] as string, 'base64');
    const publisherId = Buffer.from(publisher.publicKeyText.split('\n')[1] as string, 'base64').subarray(2, 10);
    publisherId.copy(sig, 2);
    lines[1] = sig.toString('base64');
    writeFileSync(`${forged}.minisig`, lines.join('\n'));
    const claimed = JSON.parse((await cli(['--data-dir', dataDir, 'inspect', forged, '--json'])).stdout).summary
      .signature;
    expect([claimed.state, claimed.key_id, claimed.public_key]).toEqual(['unknown_key', publisher.printedKeyId, null]);
    const before = treeHash(dataDir, RECORD_FILES);
    const refused = await cli(['--data-dir', dataDir, 'install', forged, '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("signed by a key you don't know");
    expect(refused.stderr).toContain(
      `not by the key you trusted as “Example Accounting” (ID ${publisher.printedKeyId}), which signed the version you have`,
    );
    expect(treeHash(dataDir, RECORD_FILES)).toBe(before);
    // The publisher's own key, no longer trusted, still keeps the pin: checked against the pinned key.
    const genuine = invoicesApo(work, '1.0.2');
    minisignSign(publisher, genuine, { trustedComment: 'invoices 1.0.2' });
    const words = (await cli(['--data-dir', dataDir, 'inspect', genuine])).stdout;
    expect(words).toContain('(Signed by the key it was installed with, which you no longer trust)');
    expect(words).toContain('update: Key kept: this update is signed by the same key as the version you have');
    const kept = JSON.parse((await cli(['--data-dir', dataDir, 'inspect', genuine, '--json'])).stdout).summary;
    expect([kept.signature.state, kept.signature_update.change, kept.signature_update.stop]).toEqual([
      'unknown_key',
      'kept',
      false,
    ]);
    expect([kept.signature_update.before.trusted, kept.signature_update.before.name]).toEqual([
      false,
      'Example Accounting',
    ]);
    expect((await cli(['--data-dir', dataDir, 'install', genuine, '--yes'])).code).toBe(0);
    const activity = activityText(dataDir);
    expect(activity).toContain('"kind":"key_trusted"');
    expect(activity).toContain('"kind":"key_removed"');
    expect(activity).toContain('still pinned to it: invoices');
    // The activity lines say who signed it in the verdict's words, as recorded at install.
    expect(activity).toContain(
      'installed invoices 1.0.0 from Example Accounting — Verified publisher: Example Accounting',
    );
    expect(activity).toContain(
      'updated invoices from 1.0.0 to 1.0.2 — Signed by the key it was installed with, which you no longer trust',
    );
  });

  it('a signed package whose update is unsigned is "signature dropped", not "signed by a different key"', async () => {
    const dataDir = join(tempDir('apollia-cli-'), 'data');
    const work = tempDir();
    await cli(['--data-dir', dataDir, 'trust', 'add', publisher.publicKeyPath, '--name', 'Example Accounting']);
    const first = invoicesApo(work, '1.0.0');
    minisignSign(publisher, first, { trustedComment: 'invoices 1.0.0' });
    expect((await cli(['--data-dir', dataDir, 'install', first, '--yes'])).code).toBe(0);
    const unsigned = invoicesApo(work, '1.1.0');
    const words = (await cli(['--data-dir', dataDir, 'inspect', unsigned])).stdout;
    expect(words).toContain(
      `update: Signature dropped: this update is not signed; the version you have was signed by the key you trust as “Example Accounting” (ID ${publisher.printedKeyId}).`,
    );
    const json = JSON.parse((await cli(['--data-dir', dataDir, 'inspect', unsigned, '--json'])).stdout);
    expect(json.summary.signature.state).toBe('unsigned');
    expect(json.summary.signature_update).toEqual({
      change: 'dropped',
      stop: true,
      installed_version: '1.0.0',
      before: {
        pin: 'key',
        key_id: publisher.printedKeyId,
        public_key: publisher.publicKeyText.split('\n')[1],
        name: 'Example Accounting',
        trusted: true,
      },
      now: { pin: 'unsigned', key_id: null, public_key: null, name: null },
      message: `this update is not signed; the version you have was signed by the key you trust as “Example Accounting” (ID ${publisher.printedKeyId})`,
    });
    const refused = await cli(['--data-dir', dataDir, 'install', unsigned, '--yes']);
    expect([refused.code, refused.stderr]).toEqual([
      1,
      expect.stringContaining(
        'this update is not signed; the version you have was signed by the key you trust as “Example Accounting”',
      ),
    ]);
    expect(refused.stderr).not.toContain('signed by a different key');
  });

  it('install of an update signed by another key exits 1 with nothing changed; --accept-key-change installs it', async () => {
    const dataDir = join(tempDir('apollia-cli-'), 'data');
    const work = tempDir();
    const first = invoicesApo(work, '1.2.0');
    minisignSign(publisher, first, { trustedComment: 'invoices 1.2.0' });
    expect((await cli(['--data-dir', dataDir, 'install', first, '--yes'])).code).toBe(0);
    const update = invoicesApo(work, '1.3.0');
    minisignSign(stranger, update, { trustedComment: 'invoices 1.3.0' });
    const before = treeHash(dataDir, RECORD_FILES);
    const refused = await cli(['--data-dir', dataDir, 'install', update, '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `apollia-desktop: invoices: this update is signed by a key you don't know (ID ${stranger.printedKeyId}), not by a key you don't know (ID ${publisher.printedKeyId}), which signed the version you have. Nothing was changed: installing it needs your explicit confirmation that you accept the new key (acceptKeyChange; the CLI's --accept-key-change).\n`,
    );
    expect(treeHash(dataDir, RECORD_FILES)).toBe(before);
    const dry = await cli(['--data-dir', dataDir, 'install', update]);
    expect(dry.stdout).toContain(
      `STOP: the signing key changed: this update is signed by a key you don't know (ID ${stranger.printedKeyId})`,
    );
    const accepted = await cli(['--data-dir', dataDir, 'install', update, '--yes', '--accept-key-change']);
    expect([accepted.code, accepted.stderr]).toEqual([0, '']);
    expect(accepted.stdout).toContain('Updated invoices 1.3.0 (was 1.2.0)');
    expect(accepted.stdout).toContain('(accepted with --accept-key-change; recorded in the activity log)');
  });

  it('verify finds a changed file: exit 1, the package changed in list --json, its trigger paused (still armed)', async () => {
    const dataDir = join(tempDir('apollia-cli-'), 'data');
    const apo = invoicesApo(tempDir(), '1.2.0');
    expect((await cli(['--data-dir', dataDir, 'install', apo, '--yes', '--arm', 'first-monday'])).code).toBe(0);
    const ok = await cli(['--data-dir', dataDir, 'verify']);
    expect([ok.code, ok.stdout]).toEqual([0, '  ok       invoices 1.2.0\n']);
    const state = JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
    appendFileSync(join(dataDir, state.packages.invoices.dir, 'tools/extract.py'), '# changed\n');
    const found = await cli(['--data-dir', dataDir, 'verify', '--json']);
    expect(found.code).toBe(1);
    expect(JSON.parse(found.stdout).packages).toEqual([
      {
        name: 'invoices',
        version: '1.2.0',
        integrity: 'changed',
        changed: ['tools/extract.py'],
        missing: [],
        added: [],
        paused: ['invoices/first-monday'],
      },
    ]);
    const list = JSON.parse((await cli(['--data-dir', dataDir, 'list', '--json'])).stdout);
    expect(list.packages[0]).toMatchObject({
      name: 'invoices',
      integrity: 'changed',
      signature: { state: 'unsigned' },
    });
    expect(list.triggers[0]).toMatchObject({ id: 'invoices/first-monday', armed: true });
  });
});
