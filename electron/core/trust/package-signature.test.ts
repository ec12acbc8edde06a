import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeWithMinisign, minisignKeyPair, minisignSign, type MinisignKeyPair } from '../../../test/helpers/minisign-tool';
import { KEY_ERROR, MAX_LEGACY_SIGNED_BYTES, MAX_SIGNATURE_FILE_BYTES, SIGNATURE_ERROR } from './minisign';
import { checkKeyPin, checkPackageSignature, keyPinOf, KEY_PIN_ERROR, readDetachedSignature, signaturePathFor, startPackageSignatureCheck } from './package-signature';
import { addTrustedKey, type TrustedKey } from './trusted-keys';

const ADDED = new Date('2026-01-02T03:04:05Z');

function trust(keys: MinisignKeyPair, name: string, list: TrustedKey[] = []): TrustedKey[] {
  const added = addTrustedKey(list, keys.publicKeyText, name, ADDED);
  if (!added.ok) throw new Error(added.error.message);
  return added.keys;
}

/** A listing of `dir` with sizes and times, to show a refusal changed nothing. */
function snapshot(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .map((name) => {
      const info = statSync(join(dir, name));
      return `${name} ${info.size} ${info.mtimeMs}`;
    });
}

describe('readDetachedSignature', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'detached-'));
  });

  it('looks beside the package, with .minisig appended', () => {
    expect(signaturePathFor('/x/invoices-1.2.0.apo')).toBe('/x/invoices-1.2.0.apo.minisig');
  });

  it('no file: absent, and the package is unsigned', async () => {
    const read = await readDetachedSignature(join(dir, 'none.apo'));
    expect(read).toEqual({ state: 'absent' });
    const started = startPackageSignatureCheck(read, []);
    expect(started.ok && started.check.finish()).toEqual({ ok: true, value: { state: 'unsigned' } });
  });

  it('a huge .minisig is too_large from its size, before it is read', async () => {
    const apo = join(dir, 'huge.apo');
    writeFileSync(`${apo}.minisig`, Buffer.alloc(8 * 1024 * 1024, 0x41));
    expect(await readDetachedSignature(apo)).toEqual({
      state: 'refused',
      error: { code: SIGNATURE_ERROR.tooLarge, message: `the signature ${apo}.minisig is ${8 * 1024 * 1024} bytes: a minisign signature is at most ${MAX_SIGNATURE_FILE_BYTES}` },
    });
  });

  it('a folder or a FIFO named .minisig is unreadable, never waited on', async () => {
    const folder = join(dir, 'folder.apo');
    mkdirSync(`${folder}.minisig`);
    expect(await readDetachedSignature(folder)).toEqual({ state: 'refused', error: { code: SIGNATURE_ERROR.unreadable, message: `the signature ${folder}.minisig is not a regular file` } });
    const fifo = join(dir, 'fifo.apo');
    execFileSync('mkfifo', [`${fifo}.minisig`]);
    expect(await readDetachedSignature(fifo)).toMatchObject({ state: 'refused', error: { code: SIGNATURE_ERROR.unreadable } });
  });

  it('a malformed signature is refused before any package byte is read, naming the file', () => {
    const started = startPackageSignatureCheck({ state: 'present', path: '/p/x.apo.minisig', bytes: Buffer.from('garbage') }, []);
    expect(started).toEqual({
      ok: false,
      error: { code: SIGNATURE_ERROR.malformed, message: '/p/x.apo.minisig: a minisign signature has 4 lines (untrusted comment, signature, trusted comment, global signature); this one has 1' },
    });
  });
});

describe('key pins', () => {
  const verified = { state: 'verified', keyId: 'AAAAAAAAAAAAAAAA', keyName: 'Example', algorithm: 'ED', trustedComment: '' } as const;
  const unknown = { state: 'unknown_key', keyId: 'BBBBBBBBBBBBBBBB', algorithm: 'ED', claimedTrustedComment: '' } as const;
  const unsigned = { state: 'unsigned' } as const;

  it('pins the key id, or unsigned', () => {
    expect(keyPinOf(verified)).toEqual({ kind: 'key', keyId: 'AAAAAAAAAAAAAAAA' });
    expect(keyPinOf(unknown)).toEqual({ kind: 'key', keyId: 'BBBBBBBBBBBBBBBB' });
    expect(keyPinOf(unsigned)).toEqual({ kind: 'unsigned' });
  });

  it('the same key or still unsigned keeps the pin', () => {
    expect(checkKeyPin({ kind: 'key', keyId: 'AAAAAAAAAAAAAAAA' }, verified)).toEqual({ ok: true, firstSigned: false });
    expect(checkKeyPin({ kind: 'unsigned' }, unsigned)).toEqual({ ok: true, firstSigned: false });
  });

  it('an unsigned package now signed is allowed, and says so', () => {
    expect(checkKeyPin({ kind: 'unsigned' }, verified)).toEqual({ ok: true, firstSigned: true });
    expect(checkKeyPin({ kind: 'unsigned' }, unknown)).toEqual({ ok: true, firstSigned: true });
  });

  it('any other key, or a signed package now unsigned, is key_changed', () => {
    expect(checkKeyPin({ kind: 'key', keyId: 'AAAAAAAAAAAAAAAA' }, unknown)).toEqual({
      ok: false,
      error: { code: KEY_PIN_ERROR.keyChanged, message: 'this update is signed by key BBBBBBBBBBBBBBBB, but the installed package was signed by key AAAAAAAAAAAAAAAA' },
    });
    expect(checkKeyPin({ kind: 'key', keyId: 'AAAAAAAAAAAAAAAA' }, unsigned)).toEqual({
      ok: false,
      error: { code: KEY_PIN_ERROR.keyChanged, message: 'this update is unsigned, but the installed package was signed by key AAAAAAAAAAAAAAAA' },
    });
  });
});

describeWithMinisign('package signature states with minisign-made signatures', () => {
  let dir: string;
  let publisher: MinisignKeyPair;
  let stranger: MinisignKeyPair;
  let apo: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'package-signature-'));
    publisher = minisignKeyPair(dir, 'publisher');
    stranger = minisignKeyPair(dir, 'stranger');
    apo = join(dir, 'invoices.apo');
    writeFileSync(apo, Buffer.from(Array.from({ length: 3 * 1024 * 1024 + 17 }, (_, i) => (i * 131) % 256)));
  });

  for (const legacy of [false, true]) {
    const algorithm = legacy ? 'Ed' : 'ED';
    it(`${algorithm}: verified by a trusted key, with its name and trusted comment`, async () => {
      minisignSign(publisher, apo, { trustedComment: 'invoices 1.2.0', legacy });
      expect(await checkPackageSignature(apo, trust(publisher, 'Example Accounting'))).toEqual({
        ok: true,
        value: { state: 'verified', keyId: publisher.printedKeyId, keyName: 'Example Accounting', algorithm, trustedComment: 'invoices 1.2.0' },
      });
    });

    it(`${algorithm}: a key nobody trusts is unknown_key, with the claimed comment and nothing verified`, async () => {
      minisignSign(publisher, apo, { trustedComment: 'invoices 1.2.0', legacy });
      expect(await checkPackageSignature(apo, trust(stranger, 'Someone else'))).toEqual({
        ok: true,
        value: { state: 'unknown_key', keyId: publisher.printedKeyId, algorithm, claimedTrustedComment: 'invoices 1.2.0' },
      });
    });
  }

  it('fed in the archive reader’s chunks, the check gives the same answer as one read', () => {
    minisignSign(publisher, apo, { trustedComment: 'chunked' });
    const bytes = readFileSync(apo);
    const started = startPackageSignatureCheck({ state: 'present', path: `${apo}.minisig`, bytes: readFileSync(`${apo}.minisig`) }, trust(publisher, 'Example'));
    if (!started.ok) throw new Error(started.error.message);
    for (let at = 0; at < bytes.length; at += 1024 * 1024) started.check.onBytes(bytes.subarray(at, at + 1024 * 1024));
    expect(started.check.finish()).toMatchObject({ ok: true, value: { state: 'verified', trustedComment: 'chunked' } });
  });

  it('a package changed after signing is signature.invalid, and nothing on disk changes', async () => {
    minisignSign(publisher, apo, { trustedComment: 'before' });
    const changed = join(dir, 'changed.apo');
    const bytes = readFileSync(apo);
    bytes[2_000_000] = bytes[2_000_000]! ^ 0x80;
    writeFileSync(changed, bytes);
    writeFileSync(`${changed}.minisig`, readFileSync(`${apo}.minisig`));
    const before = snapshot(dir);
    const outcome = await checkPackageSignature(changed, trust(publisher, 'Example'));
    expect(outcome).toEqual({ ok: false, error: { code: SIGNATURE_ERROR.invalid, message: expect.stringContaining('the signature does not match the file') } });
    expect(snapshot(dir)).toEqual(before);
  });

  it('another package’s signature beside this one is signature.invalid', async () => {
    const other = join(dir, 'other.apo');
    writeFileSync(other, 'other bytes');
    minisignSign(publisher, other, { trustedComment: 'other' });
    const target = join(dir, 'target.apo');
    writeFileSync(target, readFileSync(apo));
    writeFileSync(`${target}.minisig`, readFileSync(`${other}.minisig`));
    expect(await checkPackageSignature(target, trust(publisher, 'Example'))).toMatchObject({ ok: false, error: { code: SIGNATURE_ERROR.invalid } });
  });

  it('a legacy Ed signature over more than 16 MiB is legacy_too_large; the same file signed ED verifies', async () => {
    const big = join(dir, 'big.apo');
    writeFileSync(big, Buffer.alloc(MAX_LEGACY_SIGNED_BYTES + 1, 0x5a));
    minisignSign(publisher, big, { trustedComment: 'big', legacy: true });
    expect(await checkPackageSignature(big, trust(publisher, 'Example'))).toEqual({
      ok: false,
      error: {
        code: SIGNATURE_ERROR.legacyTooLarge,
        message: `the signature is a legacy \`Ed\` signature over ${MAX_LEGACY_SIGNED_BYTES + 1} bytes: legacy signatures are checked on files up to ${MAX_LEGACY_SIGNED_BYTES} bytes; the author can re-sign with a current minisign (prehashed \`ED\`)`,
      },
    });
    minisignSign(publisher, big, { trustedComment: 'big' });
    expect(await checkPackageSignature(big, trust(publisher, 'Example'))).toMatchObject({ ok: true, value: { state: 'verified', algorithm: 'ED' } });
  });

  it('a trusted key damaged in the store is refused as key.malformed, not trusted', () => {
    minisignSign(publisher, apo, { trustedComment: 'x' });
    const damaged = trust(publisher, 'Example').map((key) => ({ ...key, publicKey: 'RWQ%%%%' }));
    const started = startPackageSignatureCheck({ state: 'present', path: `${apo}.minisig`, bytes: readFileSync(`${apo}.minisig`) }, damaged);
    expect(started).toEqual({ ok: false, error: { code: KEY_ERROR.malformed, message: 'the trusted key `Example` is damaged: the public key line is not base64 (7 characters)' } });
  });
});
