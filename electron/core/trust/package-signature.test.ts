import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  describeWithMinisign,
  minisignKeyPair,
  minisignSign,
  type MinisignKeyPair,
} from '../../../test/helpers/minisign-tool';
import { KEY_ERROR, MAX_LEGACY_SIGNED_BYTES, MAX_SIGNATURE_FILE_BYTES, SIGNATURE_ERROR } from './minisign';
import {
  checkKeyPin,
  checkPackageSignature,
  compareWithPin,
  keyChangeMessage,
  keyPinOf,
  KEY_PIN_ERROR,
  readDetachedSignature,
  signaturePathFor,
  startPackageSignatureCheck,
} from './package-signature';
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
      error: {
        code: SIGNATURE_ERROR.tooLarge,
        message: `the signature ${apo}.minisig is ${8 * 1024 * 1024} bytes: a minisign signature is at most ${MAX_SIGNATURE_FILE_BYTES}`,
      },
    });
  });

  it('a folder or a FIFO named .minisig is unreadable, never waited on', async () => {
    const folder = join(dir, 'folder.apo');
    mkdirSync(`${folder}.minisig`);
    expect(await readDetachedSignature(folder)).toEqual({
      state: 'refused',
      error: { code: SIGNATURE_ERROR.unreadable, message: `the signature ${folder}.minisig is not a regular file` },
    });
    const fifo = join(dir, 'fifo.apo');
    execFileSync('mkfifo', [`${fifo}.minisig`]);
    expect(await readDetachedSignature(fifo)).toMatchObject({
      state: 'refused',
      error: { code: SIGNATURE_ERROR.unreadable },
    });
  });

  it('a malformed signature is refused before any package byte is read, naming the file', () => {
    const started = startPackageSignatureCheck(
      { state: 'present', path: '/p/x.apo.minisig', bytes: Buffer.from('garbage') },
      [],
    );
    expect(started).toEqual({
      ok: false,
      error: {
        code: SIGNATURE_ERROR.malformed,
        message:
          '/p/x.apo.minisig: a minisign signature has 4 lines (untrusted comment, signature, trusted comment, global signature); this one has 1',
      },
    });
  });
});

describe('key pins', () => {
  const KEY_A = 'RWQYwijqPNtuwfakeAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
  const KEY_B = 'RWQYwijqPNtuwfakeBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';
  const verified = {
    state: 'verified',
    keyId: 'AAAAAAAAAAAAAAAA',
    keyName: 'Example',
    publicKey: KEY_A,
    algorithm: 'ED',
    trustedComment: '',
  } as const;
  const unknown = {
    state: 'unknown_key',
    keyId: 'BBBBBBBBBBBBBBBB',
    algorithm: 'ED',
    claimedTrustedComment: '',
    pinnedKey: null,
  } as const;
  const unsigned = { state: 'unsigned' } as const;
  const pinA = { kind: 'key', keyId: 'AAAAAAAAAAAAAAAA', publicKey: KEY_A } as const;

  it('pins the whole key that verified it, the id an unknown key claims, or unsigned', () => {
    expect(keyPinOf(verified)).toEqual(pinA);
    expect(keyPinOf(unknown)).toEqual({ kind: 'claimed_key', keyId: 'BBBBBBBBBBBBBBBB' });
    expect(keyPinOf({ ...unknown, pinnedKey: KEY_B })).toEqual({
      kind: 'key',
      keyId: 'BBBBBBBBBBBBBBBB',
      publicKey: KEY_B,
    });
    expect(keyPinOf(unsigned)).toEqual({ kind: 'unsigned' });
  });

  it('the same key or still unsigned keeps the pin', () => {
    expect(checkKeyPin(pinA, verified)).toEqual({ ok: true, firstSigned: false });
    expect(checkKeyPin({ kind: 'unsigned' }, unsigned)).toEqual({ ok: true, firstSigned: false });
    expect(compareWithPin({ kind: 'claimed_key', keyId: 'BBBBBBBBBBBBBBBB' }, keyPinOf(unknown))).toBe('kept');
  });

  it('an unsigned package now signed is allowed, and says so', () => {
    expect(checkKeyPin({ kind: 'unsigned' }, verified)).toEqual({ ok: true, firstSigned: true });
    expect(checkKeyPin({ kind: 'unsigned' }, unknown)).toEqual({ ok: true, firstSigned: true });
  });

  it('another key is other_key, a signed package now unsigned is dropped: both key_changed', () => {
    expect(checkKeyPin(pinA, unknown)).toEqual({
      ok: false,
      error: {
        code: KEY_PIN_ERROR.keyChanged,
        message:
          "this update is signed by a key you don't know (ID BBBBBBBBBBBBBBBB), not by key ID AAAAAAAAAAAAAAAA, which signed the version you have",
      },
    });
    expect(compareWithPin(pinA, keyPinOf(unsigned))).toBe('dropped');
    expect(checkKeyPin(pinA, unsigned)).toEqual({
      ok: false,
      error: {
        code: KEY_PIN_ERROR.keyChanged,
        message: 'this update is not signed; the version you have was signed by key ID AAAAAAAAAAAAAAAA',
      },
    });
  });

  it('the same key id over another whole key is a key change, never "the same key"', () => {
    expect(compareWithPin(pinA, { kind: 'key', keyId: 'AAAAAAAAAAAAAAAA', publicKey: KEY_B })).toBe('other_key');
    expect(compareWithPin(pinA, { kind: 'claimed_key', keyId: 'AAAAAAAAAAAAAAAA' })).toBe('other_key');
  });

  it('a key-id-only pin whose key is gone cannot be matched: every signed update asks', () => {
    const old = { kind: 'key_id_only', keyId: 'AAAAAAAAAAAAAAAA' } as const;
    expect(compareWithPin(old, pinA)).toBe('unverifiable_pin');
    expect(compareWithPin(old, { kind: 'claimed_key', keyId: 'AAAAAAAAAAAAAAAA' })).toBe('unverifiable_pin');
    expect(compareWithPin(old, { kind: 'unsigned' })).toBe('dropped');
    expect(
      keyChangeMessage('unverifiable_pin', old, pinA, 'Example Accounting', 'Example Accounting', false),
    ).toContain(
      'the key you trusted as “Example Accounting” (ID AAAAAAAAAAAAAAAA), recorded before this app kept whole keys',
    );
  });

  it('names keys as the person knows them', () => {
    expect(keyChangeMessage('dropped', pinA, { kind: 'unsigned' }, 'Example Accounting', null)).toBe(
      'this update is not signed; the version you have was signed by the key you trust as “Example Accounting” (ID AAAAAAAAAAAAAAAA)',
    );
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
        value: {
          state: 'verified',
          keyId: publisher.printedKeyId,
          keyName: 'Example Accounting',
          publicKey: expect.stringMatching(/^RW/),
          algorithm,
          trustedComment: 'invoices 1.2.0',
        },
      });
    });

    it(`${algorithm}: a key nobody trusts is unknown_key, with the claimed comment and nothing verified`, async () => {
      minisignSign(publisher, apo, { trustedComment: 'invoices 1.2.0', legacy });
      expect(await checkPackageSignature(apo, trust(stranger, 'Someone else'))).toEqual({
        ok: true,
        value: {
          state: 'unknown_key',
          keyId: publisher.printedKeyId,
          algorithm,
          claimedTrustedComment: 'invoices 1.2.0',
          pinnedKey: null,
        },
      });
    });
  }

  it('fed in the archive reader’s chunks, the check gives the same answer as one read', () => {
    minisignSign(publisher, apo, { trustedComment: 'chunked' });
    const bytes = readFileSync(apo);
    const started = startPackageSignatureCheck(
      { state: 'present', path: `${apo}.minisig`, bytes: readFileSync(`${apo}.minisig`) },
      trust(publisher, 'Example'),
    );
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
    expect(outcome).toEqual({
      ok: false,
      error: {
        code: SIGNATURE_ERROR.invalid,
        message: expect.stringContaining('the signature does not match the file'),
      },
    });
    expect(snapshot(dir)).toEqual(before);
  });

  it('another package’s signature beside this one is signature.invalid', async () => {
    const other = join(dir, 'other.apo');
    writeFileSync(other, 'other bytes');
    minisignSign(publisher, other, { trustedComment: 'other' });
    const target = join(dir, 'target.apo');
    writeFileSync(target, readFileSync(apo));
    writeFileSync(`${target}.minisig`, readFileSync(`${other}.minisig`));
    expect(await checkPackageSignature(target, trust(publisher, 'Example'))).toMatchObject({
      ok: false,
      error: { code: SIGNATURE_ERROR.invalid },
    });
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
    expect(await checkPackageSignature(big, trust(publisher, 'Example'))).toMatchObject({
      ok: true,
      value: { state: 'verified', algorithm: 'ED' },
    });
  });

  it('a trusted key damaged in the store is refused as key.malformed, not trusted', () => {
    minisignSign(publisher, apo, { trustedComment: 'x' });
    const damaged = trust(publisher, 'Example').map((key) => ({ ...key, publicKey: 'RWQ%%%%' }));
    const started = startPackageSignatureCheck(
      { state: 'present', path: `${apo}.minisig`, bytes: readFileSync(`${apo}.minisig`) },
      damaged,
    );
    expect(started).toEqual({
      ok: false,
      error: {
        code: KEY_ERROR.malformed,
        message: 'the trusted key `Example` is damaged: the public key line is not base64 (7 characters)',
      },
    });
  });
});
