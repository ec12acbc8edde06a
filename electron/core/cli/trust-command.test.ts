/**
 * The CLI's trust commands (issue 14 "Must show"): `trust add/list/remove`, `inspect --json` with
 * `summary.signature`, `install` of a key-changed update exiting 1 with nothing changed (then
 * `--accept-key-change`), and `verify` finding a changed file. Keys and signatures are made by the
 * real `minisign`.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { sharedChecker } from '../bounded/index';
import { describeWithMinisign, type MinisignKeyPair, minisignKeyPair, minisignSign } from '../../../test/helpers/minisign-tool';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { editedPackage, tempDir, treeHash } from '../../../test/helpers/test-api';
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
    const added = await cli(['--data-dir', dataDir, 'trust', 'add', publisher.publicKeyPath, '--name', 'Example Accounting']);
    expect([added.code, added.stdout, added.stderr]).toEqual([0, `Trusted key ${publisher.printedKeyId} as Example Accounting. Packages signed by it now show as verified.\n`, '']);
    const listed = await cli(['--data-dir', dataDir, 'trust', 'list', '--json']);
    expect(JSON.parse(listed.stdout).keys.map((k: { keyId: string; name: string }) => [k.keyId, k.name])).toEqual([[publisher.printedKeyId, 'Example Accounting']]);

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

    const removed = await cli(['--data-dir', dataDir, 'trust', 'remove', publisher.printedKeyId]);
    expect(removed.code).toBe(0);
    expect((await cli(['--data-dir', dataDir, 'trust', 'list'])).stdout).toBe('No trusted key.\n');
  });

  it('inspect --json gives summary.signature in each state; an edited trusted comment is signature.invalid first, exit 1', async () => {
    const dataDir = join(tempDir('apollia-cli-'), 'data');
    const apo = invoicesApo(tempDir(), '1.2.0');
    const unsigned = await cli(['--data-dir', dataDir, 'inspect', apo, '--json']);
    expect(JSON.parse(unsigned.stdout).summary.signature).toEqual({ state: 'unsigned', key_id: null, trusted_comment: null, signer: null });
    minisignSign(publisher, apo, { trustedComment: 'invoices 1.2.0' });
    const unknown = await cli(['--data-dir', dataDir, 'inspect', apo, '--json']);
    expect([unknown.code, JSON.parse(unknown.stdout).summary.signature]).toEqual([0, { state: 'unknown_key', key_id: publisher.printedKeyId, trusted_comment: null, signer: null }]);
    await cli(['--data-dir', dataDir, 'trust', 'add', publisher.publicKeyPath, '--name', 'Example Accounting']);
    const verified = await cli(['--data-dir', dataDir, 'inspect', apo, '--json']);
    expect(JSON.parse(verified.stdout).summary.signature).toEqual({ state: 'verified', key_id: publisher.printedKeyId, trusted_comment: 'invoices 1.2.0', signer: 'Example Accounting' });
    const words = await cli(['--data-dir', dataDir, 'inspect', apo]);
    expect(words.stdout).toContain('publisher: Example Accounting (Verified publisher: Example Accounting)\n');
    expect(words.stdout).toContain(`signature: Signed by the key you trust as “Example Accounting” (key ID ${publisher.printedKeyId}). Signed comment: invoices 1.2.0\n`);

    // The trusted comment edited after signing: the global signature no longer holds.
    writeFileSync(`${apo}.minisig`, readFileSync(`${apo}.minisig`, 'utf8').replace('trusted comment: invoices 1.2.0', 'trusted comment: invoices 9.9.9'));
    const flipped = await cli(['--data-dir', dataDir, 'inspect', apo, '--json']);
    const json = JSON.parse(flipped.stdout);
    expect([flipped.code, json.ok, json.errors[0].code]).toEqual([1, false, 'signature.invalid']);
  });

  it('install of an update signed by another key exits 1 with nothing changed; --accept-key-change installs it', async () => {
    const dataDir = join(tempDir('apollia-cli-'), 'data');
    const work = tempDir();
    const first = invoicesApo(work, '1.2.0');
    minisignSign(publisher, first, { trustedComment: 'invoices 1.2.0' });
    expect((await cli(['--data-dir', dataDir, 'install', first, '--yes'])).code).toBe(0);
    const update = invoicesApo(work, '1.3.0');
    minisignSign(stranger, update, { trustedComment: 'invoices 1.3.0' });
    const before = treeHash(dataDir, ['activity.jsonl']);
    const refused = await cli(['--data-dir', dataDir, 'install', update, '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `apollia-desktop: invoices: this update is signed by key ${stranger.printedKeyId}, but the installed package was signed by key ${publisher.printedKeyId}. Nothing was changed: installing it needs your explicit confirmation that you accept the new key (acceptKeyChange; the CLI's --accept-key-change).\n`,
    );
    expect(treeHash(dataDir, ['activity.jsonl'])).toBe(before);
    const dry = await cli(['--data-dir', dataDir, 'install', update]);
    expect(dry.stdout).toContain(`STOP: the signing key changed: this update is signed by key ${stranger.printedKeyId}`);
    const accepted = await cli(['--data-dir', dataDir, 'install', update, '--yes', '--accept-key-change']);
    expect([accepted.code, accepted.stderr]).toEqual([0, '']);
    expect(accepted.stdout).toContain('Updated invoices 1.3.0 (was 1.2.0)');
    expect(accepted.stdout).toContain('(accepted with --accept-key-change; recorded in the activity log)');
  });

  it('verify finds a changed file: exit 1, the package changed in list --json, its trigger disarmed', async () => {
    const dataDir = join(tempDir('apollia-cli-'), 'data');
    const apo = invoicesApo(tempDir(), '1.2.0');
    expect((await cli(['--data-dir', dataDir, 'install', apo, '--yes', '--arm', 'first-monday'])).code).toBe(0);
    const ok = await cli(['--data-dir', dataDir, 'verify']);
    expect([ok.code, ok.stdout]).toEqual([0, '  ok       invoices 1.2.0\n']);
    const state = JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
    appendFileSync(join(dataDir, state.packages.invoices.dir, 'tools/extract.py'), '# changed\n');
    const found = await cli(['--data-dir', dataDir, 'verify', '--json']);
    expect(found.code).toBe(1);
    expect(JSON.parse(found.stdout).packages).toEqual([{ name: 'invoices', version: '1.2.0', integrity: 'changed', changed: ['tools/extract.py'], missing: [], added: [], disarmed: ['invoices/first-monday'] }]);
    const list = JSON.parse((await cli(['--data-dir', dataDir, 'list', '--json'])).stdout);
    expect(list.packages[0]).toMatchObject({ name: 'invoices', integrity: 'changed', signature: { state: 'unsigned' } });
    expect(list.triggers[0]).toMatchObject({ id: 'invoices/first-monday', armed: false });
  });
});
