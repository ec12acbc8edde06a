/**
 * Trust through the Api: inspect reports each signature state (keys and signatures made
 * by the real `minisign`), a bad signature is a refusal first, the key is pinned at first install,
 * an update by another key is refused `signature.key_changed` with nothing changed until accepted
 * (and recorded), unsigned → signed is allowed and said, and a file changed after install marks the
 * package changed and disarms its triggers on opening the dashboard.
 */
import { appendFileSync, cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { sharedChecker } from '../bounded/index';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import {
  describeWithMinisign,
  fingerprintBySha256sum,
  type MinisignKeyPair,
  minisignKeyPair,
  minisignSign,
} from '../../../test/helpers/minisign-tool';
import { editedPackage, RECORD_FILES, tempDir, testApi, treeHash } from '../../../test/helpers/test-api';
import type { ApoInspection } from '../../../shared/manifests/inspection';
import type { CoreApi } from '../api';
import { ActivityLog } from '../activity/activity-log';

// The bounded worker starts from TS source here (seconds on a loaded machine): started before the first test's clock.
beforeAll(() => sharedChecker().warm(), 120_000);

/** `invoices` at `version`, packed to `<dir>/invoices-<version>.apo`. */
function invoicesApo(dir: string, version: string): string {
  const folder = editedPackage(INVOICES_DIR, (toml) => toml.replace('version = "1.2.0"', `version = "${version}"`));
  const path = join(dir, `invoices-${version}.apo`);
  writeFileSync(path, packFolder(folder));
  return path;
}

async function inspectFile(api: CoreApi, path: string) {
  const handle = await api.registerSource(path, 'open-file');
  if (!handle.ok) throw new Error(handle.error.message);
  const inspected = await api.inspect({ sourceId: handle.value.id });
  if (!inspected.ok) throw new Error(inspected.error.message);
  return { sourceId: handle.value.id, inspection: inspected.value as typeof inspected.value & ApoInspection };
}

const DECISIONS = {
  agents: { 'invoice-clerk': { access: { file_read: true } } },
  triggers: { 'first-monday': { armed: true } },
};

function state(dataDir: string) {
  return JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
}

describeWithMinisign('trust through the Api, with minisign-made keys and signatures', () => {
  let dir: string;
  let publisher: MinisignKeyPair;
  const PUBLISHER_KEY = () => publisher.publicKeyText.split('\n')[1];
  let stranger: MinisignKeyPair;
  beforeAll(() => {
    dir = tempDir('apollia-trust-api-');
    publisher = minisignKeyPair(dir, 'publisher');
    stranger = minisignKeyPair(dir, 'stranger');
  });

  it('inspect: unsigned, unknown key, then verified once the key is trusted; a tampered package is signature.invalid first', async () => {
    const { api } = testApi();
    const unsigned = invoicesApo(tempDir(), '1.2.0');
    expect((await inspectFile(api, unsigned)).inspection.summary?.signature).toEqual({
      state: 'unsigned',
      key_id: null,
      trusted_comment: null,
      signer: null,
      public_key: null,
      reason: null,
      message: null,
    });

    const signed = invoicesApo(tempDir(), '1.2.0');
    minisignSign(publisher, signed, { trustedComment: 'invoices 1.2.0 by Example Accounting' });
    expect((await inspectFile(api, signed)).inspection.summary?.signature).toEqual({
      state: 'unknown_key',
      key_id: publisher.printedKeyId,
      trusted_comment: null,
      signer: null,
      public_key: null,
      reason: null,
      message: null,
    });

    const trusted = await api.trustKey({ publicKey: publisher.publicKeyText, name: 'Example Accounting' });
    expect(trusted.ok && trusted.value.map((k) => [k.keyId, k.name])).toEqual([
      [publisher.printedKeyId, 'Example Accounting'],
    ]);
    expect((await inspectFile(api, signed)).inspection.summary?.signature).toEqual({
      state: 'verified',
      key_id: publisher.printedKeyId,
      trusted_comment: 'invoices 1.2.0 by Example Accounting',
      signer: 'Example Accounting',
      public_key: PUBLISHER_KEY(),
      reason: null,
      message: null,
    });

    appendFileSync(signed, Buffer.alloc(1)); // one byte more after signing
    const tampered = (await inspectFile(api, signed)).inspection;
    expect(tampered.ok).toBe(false);
    expect(tampered.errors[0]?.code).toBe('signature.invalid');
    expect(tampered.summary?.signature).toMatchObject({
      state: 'invalid',
      reason: 'does_not_match',
      message: tampered.errors[0]?.message,
    });
  });

  it('a .minisig that is not a signature is refused naming the fault; install writes nothing', async () => {
    const { api, dataDir } = testApi();
    const path = invoicesApo(tempDir(), '1.2.0');
    writeFileSync(`${path}.minisig`, 'untrusted comment: hi\nnot base64!\n');
    const before = treeHash(dataDir, RECORD_FILES);
    const { sourceId, inspection } = await inspectFile(api, path);
    expect(inspection.errors[0]).toMatchObject({
      code: 'signature.malformed',
      message: expect.stringContaining('.minisig'),
    });
    const installed = await api.install({ sourceId, decisions: DECISIONS });
    expect(installed.ok ? null : installed.error.code).toBe('install.refused');
    expect(treeHash(dataDir, RECORD_FILES)).toBe(before);
  });

  it('pins the key at first install; an update by another key is key_changed with nothing changed, until accepted (recorded)', async () => {
    const { api, dataDir } = testApi();
    await api.trustKey({ publicKey: publisher.publicKeyText, name: 'Example Accounting' });
    const work = tempDir();
    const first = invoicesApo(work, '1.2.0');
    minisignSign(publisher, first, { trustedComment: 'invoices 1.2.0' });
    const installed = await api.install({ sourceId: (await inspectFile(api, first)).sourceId, decisions: DECISIONS });
    expect(installed.ok && [installed.value.outcome, installed.value.keyChange]).toEqual(['installed', null]);
    expect(state(dataDir).packageTrust.invoices.pin).toEqual({
      kind: 'key',
      keyId: publisher.printedKeyId,
      publicKey: PUBLISHER_KEY(),
    });
    expect(Object.keys(state(dataDir).packageTrust.invoices.files).sort()).toEqual([
      'apollia.toml',
      'tools/extract.py',
      'workflows/reminders.py',
    ]);

    const update = invoicesApo(work, '1.3.0');
    minisignSign(stranger, update, { trustedComment: 'invoices 1.3.0' });
    const { sourceId, inspection } = await inspectFile(api, update);
    const message = `this update is signed by a key you don't know (ID ${stranger.printedKeyId}), not by the key you trust as “Example Accounting” (ID ${publisher.printedKeyId}), which signed the version you have`;
    expect(inspection.keyChange).toEqual({
      kind: 'changed',
      change: 'other_key',
      before: { kind: 'key', keyId: publisher.printedKeyId, publicKey: PUBLISHER_KEY() },
      now: { kind: 'claimed_key', keyId: stranger.printedKeyId },
      beforeName: 'Example Accounting',
      beforeTrusted: true,
      nowName: null,
      message,
    });
    expect(inspection.signatureVerdict?.update?.change).toBe('other_key');
    const before = treeHash(dataDir, RECORD_FILES);
    const refused = await api.install({ sourceId, decisions: { agents: {}, triggers: {} } });
    expect(refused.ok ? null : refused.error).toEqual({
      code: 'signature.key_changed',
      message: `invoices: ${message}. Nothing was changed: installing it needs your explicit confirmation that you accept the new key (acceptKeyChange; the CLI's --accept-key-change).`,
    });
    expect(treeHash(dataDir, RECORD_FILES)).toBe(before);
    // "Don't update", and the refused install itself, are the person's decisions: kept with the decisions.
    expect((await api.refuseKeyChange({ sourceId })).ok).toBe(true);
    const declined = (await new ActivityLog(dataDir).list({ decisionsOnly: true })).filter(
      (e) => e.kind === 'key_change_refused',
    );
    expect(declined.map((e) => [e.package, e.outcome])).toEqual([
      ['invoices', 'refused'],
      ['invoices', 'refused'],
    ]);
    expect(declined[1]?.detail).toMatch(/^signature\.key_changed: invoices-1\.3\.0\.apo was not installed: /);

    const accepted = await api.install({ sourceId, decisions: { agents: {}, triggers: {} }, acceptKeyChange: true });
    expect(accepted.ok && [accepted.value.outcome, accepted.value.keyChange?.kind]).toEqual(['updated', 'changed']);
    expect(state(dataDir).packageTrust.invoices.pin).toEqual({ kind: 'claimed_key', keyId: stranger.printedKeyId });
    const events = await new ActivityLog(dataDir).list({});
    expect(events.find((e) => e.kind === 'key_change_accepted')).toMatchObject({
      package: 'invoices',
      outcome: 'ok',
      detail: expect.stringContaining(stranger.printedKeyId),
    });
  });

  it('a signed package updated unsigned is key_changed; an unsigned one updated signed is allowed and said', async () => {
    const { api, dataDir } = testApi();
    const work = tempDir();
    const first = invoicesApo(work, '1.2.0');
    minisignSign(publisher, first, { trustedComment: 'invoices 1.2.0' });
    await api.install({ sourceId: (await inspectFile(api, first)).sourceId, decisions: DECISIONS });
    const unsignedUpdate = invoicesApo(work, '1.3.0');
    const refused = await api.install({
      sourceId: (await inspectFile(api, unsignedUpdate)).sourceId,
      decisions: { agents: {}, triggers: {} },
    });
    expect(refused.ok ? null : [refused.error.code, refused.error.message]).toEqual([
      'signature.key_changed',
      expect.stringContaining(
        `this update is not signed; the version you have was signed by a key you don't know (ID ${publisher.printedKeyId})`,
      ),
    ]);
    expect(state(dataDir).packages.invoices.version).toBe('1.2.0');

    const other = testApi();
    await other.api.install({
      sourceId: (await inspectFile(other.api, invoicesApo(tempDir(), '1.2.0'))).sourceId,
      decisions: DECISIONS,
    });
    const signedUpdate = invoicesApo(tempDir(), '1.3.0');
    minisignSign(publisher, signedUpdate, { trustedComment: 'invoices 1.3.0' });
    const updated = await other.api.install({
      sourceId: (await inspectFile(other.api, signedUpdate)).sourceId,
      decisions: { agents: {}, triggers: {} },
    });
    expect(updated.ok && updated.value.keyChange).toMatchObject({
      kind: 'first_signed',
      change: 'first_signed',
      before: { kind: 'unsigned' },
      now: { kind: 'claimed_key', keyId: publisher.printedKeyId },
      message: `this update is signed by a key you don't know (ID ${publisher.printedKeyId}); the version you have was unsigned`,
    });
    expect(state(other.dataDir).packageTrust.invoices.pin).toEqual({
      kind: 'claimed_key',
      keyId: publisher.printedKeyId,
    });
  });
});

it('integrity: a file changed after install marks the package changed and pauses its triggers (still armed) on opening the dashboard; a reinstall clears it and resumes them', async () => {
  const { api, dataDir } = testApi();
  const path = invoicesApo(tempDir(), '1.2.0');
  const installed = await api.install({ sourceId: (await inspectFile(api, path)).sourceId, decisions: DECISIONS });
  expect(installed.ok && installed.value.armed).toEqual(['invoices/first-monday']);
  const clean = await api.dashboard();
  expect(clean.ok && clean.value.packages[0]?.integrity.state).toBe('ok');

  const dir = join(dataDir, state(dataDir).packages.invoices.dir);
  appendFileSync(join(dir, 'tools/extract.py'), '\nimport os  # added later\n');
  rmSync(join(dir, 'workflows/reminders.py'));
  writeFileSync(join(dir, 'extra.py'), 'print(1)\n');
  const changed = await api.dashboard();
  if (!changed.ok) throw new Error(changed.error.message);
  expect(changed.value.packages[0]?.integrity).toMatchObject({
    state: 'changed',
    changed: ['tools/extract.py'],
    missing: ['workflows/reminders.py'],
    added: ['extra.py'],
  });
  expect(state(dataDir).triggers['invoices/first-monday'].armed).toBe(true);
  const events = await new ActivityLog(dataDir).list({});
  expect(events.find((e) => e.kind === 'integrity_changed')).toMatchObject({
    package: 'invoices',
    detail: expect.stringContaining('triggers paused by integrity, still armed: invoices/first-monday'),
  });

  // A second check finds nothing new: nothing more is written.
  const again = await api.verifyInstalled();
  expect(again.ok && again.value.map((v) => [v.name, v.integrity.state, v.newlyChanged])).toEqual([
    ['invoices', 'changed', false],
  ]);

  // The same version may now be installed again (a reinstall), which records the files afresh.
  const { sourceId, inspection } = await inspectFile(api, path);
  expect(inspection.installedChanged).toBe(true);
  const reinstalled = await api.install({ sourceId, decisions: { agents: {}, triggers: {} } });
  expect(reinstalled.ok && [reinstalled.value.outcome, reinstalled.value.armed]).toEqual([
    'reinstalled',
    ['invoices/first-monday'],
  ]);
  const after = await api.dashboard();
  expect(after.ok && after.value.packages[0]?.integrity.state).toBe('ok');
});

it('trusted keys: a garbage key is key.malformed, a bad name trust.bad_name, an unknown id trust.not_found; nothing written', async () => {
  const { api, dataDir } = testApi();
  const before = treeHash(dataDir);
  const garbage = await api.trustKey({ publicKey: 'hello world', name: 'X' });
  expect(garbage.ok ? null : garbage.error.code).toBe('key.malformed');
  const removed = await api.untrustKey({ keyId: 'ABCDEF' });
  expect(removed.ok ? null : removed.error.code).toBe('trust.not_found');
  expect(treeHash(dataDir)).toBe(before);
});

it('templates report builtin when they ship with the app, unsigned otherwise; plugin manifests unsigned', async () => {
  const { api } = testApi();
  const opened = await api.openBuiltinTemplate({ name: 'market-monitor' });
  if (!opened.ok) throw new Error(opened.error.message);
  const builtin = await api.inspect({ sourceId: opened.value.id });
  expect(builtin.ok && (builtin.value.summary as { signature: unknown }).signature).toEqual({
    state: 'builtin',
    key_id: null,
    trusted_comment: null,
    signer: null,
    public_key: null,
    reason: null,
    message: null,
  });
  // The same template copied out of the app's resources: a folder like any other (the app's own
  // folder, opened again, is the same source as the built-in one).
  const copy = join(tempDir('apollia-template-copy-'), 'market-monitor');
  cpSync(new URL('../../../resources/templates/market-monitor', import.meta.url).pathname, copy, { recursive: true });
  const folder = await api.registerSource(copy, 'dialog');
  if (!folder.ok) throw new Error(folder.error.message);
  const fromDialog = await api.inspect({ sourceId: folder.value.id });
  expect(fromDialog.ok && (fromDialog.value.summary as { signature: { state: string } }).signature.state).toBe(
    'unsigned',
  );
});

describeWithMinisign('previewing a key before it is named: pasted, or a file picked in a main-process dialog', () => {
  it('shows the key id and the fingerprint of the whole key, writes nothing; null when cancelled; refuses a file that is too large', async () => {
    const dir = tempDir('apollia-trust-file-');
    const keys = minisignKeyPair(dir, 'publisher');
    const huge = join(dir, 'huge.pub');
    writeFileSync(huge, 'x'.repeat(100_000));
    const picks: (string | null)[] = [null, huge, keys.publicKeyPath];
    const { api, dataDir } = testApi({
      dialogs: {
        openFile: async () => null,
        openFolder: async () => null,
        openKeyFile: async () => picks.shift() ?? null,
      },
    });
    const cancelled = await api.previewKeyFile();
    expect(cancelled).toEqual({ ok: true, value: null });
    const before = treeHash(dataDir);
    const tooLarge = await api.previewKeyFile();
    expect(tooLarge.ok ? null : tooLarge.error).toEqual({
      code: 'key.malformed',
      message: `The key file ${huge} is over 4096 bytes: a minisign public key is two short lines.`,
    });
    // The fingerprint is what `sha256sum` prints for the key's bytes, grouped: computed here by the shell's tools.
    const line = keys.publicKeyText.split('\n')[1] as string;
    const fingerprint = fingerprintBySha256sum(keys);
    const picked = await api.previewKeyFile();
    expect(picked).toEqual({
      ok: true,
      value: { keyId: keys.printedKeyId, publicKey: line, fingerprint, trustedAs: null },
    });
    expect(treeHash(dataDir)).toBe(before);
    const pasted = await api.previewKey({ publicKey: keys.publicKeyText });
    expect(pasted.ok && pasted.value.fingerprint).toBe(fingerprint);
    const garbage = await api.previewKey({ publicKey: 'untrusted comment: x\nnot a key' });
    expect(garbage.ok ? null : garbage.error.code).toBe('key.malformed');
    expect(treeHash(dataDir)).toBe(before);
    const added = await api.trustKey({ publicKey: line, name: 'Example Accounting' });
    expect(added.ok && added.value.map((k) => [k.keyId, k.name, k.fingerprint])).toEqual([
      [keys.printedKeyId, 'Example Accounting', fingerprint],
    ]);
    const again = await api.previewKey({ publicKey: line });
    expect(again.ok && again.value.trustedAs).toBe('Example Accounting');
  });
});
