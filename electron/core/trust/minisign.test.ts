import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  describeWithMinisign,
  minisignKeyPair,
  minisignSign,
  minisignVerifies,
  type MinisignKeyPair,
} from '../../../test/helpers/minisign-tool';
import {
  canonicalKeyId,
  createSignedMessageCollector,
  formatKeyId,
  isKeyId,
  KEY_ERROR,
  MAX_SIGNATURE_FILE_BYTES,
  parsePublicKey,
  parseSignature,
  SIGNATURE_ERROR,
  signedMessageOf,
  verifyBytes,
  verifySignedMessage,
  type MinisignPublicKey,
  type MinisignSignature,
} from './minisign';

function key(text: string): MinisignPublicKey {
  const parsed = parsePublicKey(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

function signature(text: string): MinisignSignature {
  const parsed = parseSignature(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

/** The signature text with line `index` (0-based) replaced. */
function withLine(text: string, index: number, line: string): string {
  const lines = text.split('\n');
  lines[index] = line;
  return lines.join('\n');
}

/** Line 2 of a signature re-encoded after `edit` changed its 74 decoded bytes. */
function editSignatureBytes(text: string, edit: (bytes: Buffer) => void): string {
  const bytes = Buffer.from(text.split('\n')[1]!, 'base64');
  edit(bytes);
  return withLine(text, 1, bytes.toString('base64'));
}

// Known answers from jedisct1/rust-minisign-verify, src/lib.rs (its `verify` and `verify_prehashed`
// unit tests): the message is the 4 bytes `test`, signed by minisign's author with key E7620F1842B4E81F.
const KAT_PUBLIC_KEY =
  'untrusted comment: minisign public key E7620F1842B4E81F\nRWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3';
const KAT_LEGACY = [
  'untrusted comment: signature from minisign secret key',
  'RWQf6LRCGA9i59SLOFxz6NxvASXDJeRtuZykwQepbDEGt87ig1BNpWaVWuNrm73YiIiJbq71Wi+dP9eKL8OC351vwIasSSbXxwA=',
  'trusted comment: timestamp:1555779966\tfile:test',
  'QtKMXWyYcwdpZAlPF7tE2ENJkRd1ujvKjlj1m9RtHTBnZPa5WKU5uWRs5GoP5M/VqE81QFuMKI5k/SfNQUaOAA==',
].join('\n');
const KAT_PREHASHED = [
  'untrusted comment: signature from minisign secret key',
  'RUQf6LRCGA9i559r3g7V1qNyJDApGip8MfqcadIgT9CuhV3EMhHoN1mGTkUidF/z7SrlQgXdy8ofjb7bNJJylDOocrCo8KLzZwo=',
  'trusted comment: timestamp:1556193335\tfile:test',
  'y/rUw2y8/hOUYjZU71eHp/Wo1KZ40fGy2VJEDl34XMJM+TX48Ss/17u3IvIfbVR1FkZZSNCisQbuQY+bHwhEBg==',
].join('\n');
const TEST = Buffer.from('test');

describe('known answers (rust-minisign-verify test vectors)', () => {
  it('parses the public key and prints its key id as minisign does', () => {
    const parsed = key(KAT_PUBLIC_KEY);
    expect(parsed.keyId).toBe('E7620F1842B4E81F');
    expect(parsed.publicKey).toBe('RWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3');
    expect(parsed.untrustedComment).toBe('minisign public key E7620F1842B4E81F');
    expect(key('RWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3')).toMatchObject({
      keyId: 'E7620F1842B4E81F',
      untrustedComment: null,
    });
  });

  it('verifies the legacy Ed signature of `test`', () => {
    const parsed = signature(KAT_LEGACY);
    expect(parsed).toMatchObject({
      algorithm: 'Ed',
      keyId: 'E7620F1842B4E81F',
      trustedComment: 'timestamp:1555779966\tfile:test',
    });
    expect(verifyBytes(parsed, key(KAT_PUBLIC_KEY), TEST)).toEqual({
      ok: true,
      keyId: 'E7620F1842B4E81F',
      algorithm: 'Ed',
      trustedComment: 'timestamp:1555779966\tfile:test',
    });
  });

  it('verifies the prehashed ED signature of `test`', () => {
    const parsed = signature(KAT_PREHASHED);
    expect(parsed.algorithm).toBe('ED');
    expect(verifyBytes(parsed, key(KAT_PUBLIC_KEY), TEST)).toMatchObject({
      ok: true,
      algorithm: 'ED',
      trustedComment: 'timestamp:1556193335\tfile:test',
    });
  });

  it('refuses both for `Test`', () => {
    for (const text of [KAT_LEGACY, KAT_PREHASHED]) {
      const result = verifyBytes(signature(text), key(KAT_PUBLIC_KEY), Buffer.from('Test'));
      expect(result).toEqual({
        ok: false,
        error: {
          code: SIGNATURE_ERROR.invalid,
          message: expect.stringContaining('the signature does not match the file'),
        },
      });
    }
  });
});

describe('parseSignature refuses what is not a minisign signature', () => {
  const cases: [string, string, string][] = [
    ['empty', '', 'the signature file is empty'],
    [
      'garbage',
      'hello world',
      'a minisign signature has 4 lines (untrusted comment, signature, trusted comment, global signature); this one has 1',
    ],
    ['three lines', KAT_PREHASHED.split('\n').slice(0, 3).join('\n'), 'this one has 3'],
    ['five lines', `${KAT_PREHASHED}\nextra`, 'this one has 5'],
    [
      'no untrusted prefix',
      withLine(KAT_PREHASHED, 0, 'comment: x'),
      'line 1 of the signature must start with `untrusted comment:`',
    ],
    [
      'bad base64 on line 2',
      withLine(KAT_PREHASHED, 1, 'RUQ!not base64'),
      'line 2 of the signature is not base64 (14 characters)',
    ],
    [
      'non-canonical base64 on line 2',
      withLine(
        KAT_PREHASHED,
        1,
        'RUQf6LRCGA9i559r3g7V1qNyJDApGip8MfqcadIgT9CuhV3EMhHoN1mGTkUidF/z7SrlQgXdy8ofjb7bNJJylDOocrCo8KLzZwp=',
      ),
      'line 2 of the signature is not base64',
    ],
    [
      'short line 2',
      withLine(KAT_PREHASHED, 1, Buffer.alloc(40).toString('base64')),
      'line 2 of the signature decodes to 40 bytes: a minisign signature line holds 74',
    ],
    [
      'no trusted prefix',
      withLine(KAT_PREHASHED, 2, 'timestamp:1'),
      'line 3 of the signature must start with `trusted comment:`',
    ],
    [
      'control character in the trusted comment',
      withLine(KAT_PREHASHED, 2, 'trusted comment: a\u001b[31mred'),
      'the trusted comment contains the control or invisible character U+001B',
    ],
    ['bidi override in the trusted comment', withLine(KAT_PREHASHED, 2, 'trusted comment: a\u202egnp.exe'), 'U+202E'],
    ['bad base64 on line 4', withLine(KAT_PREHASHED, 3, '***'), 'line 4 of the signature is not base64 (3 characters)'],
    [
      'short global signature',
      withLine(KAT_PREHASHED, 3, Buffer.alloc(63).toString('base64')),
      'line 4 of the signature decodes to 63 bytes: a global signature has 64',
    ],
    [
      'overlong untrusted comment',
      withLine(KAT_PREHASHED, 0, `untrusted comment: ${'x'.repeat(1100)}`),
      'line 1 of the signature (the untrusted comment) is 1119 bytes: at most 1024',
    ],
    [
      'overlong trusted comment',
      withLine(KAT_PREHASHED, 2, `trusted comment: ${'x'.repeat(9000)}`),
      'line 3 of the signature (the trusted comment) is 9017 bytes: at most 8192',
    ],
  ];
  for (const [name, text, message] of cases) {
    it(name, () => {
      const parsed = parseSignature(text);
      expect(parsed.ok).toBe(false);
      if (parsed.ok) return;
      expect(parsed.error.code).toBe(SIGNATURE_ERROR.malformed);
      expect(parsed.error.message).toContain(message);
    });
  }

  it('every truncation of a valid signature is refused as malformed, never accepted', () => {
    for (let length = 0; length < KAT_PREHASHED.length; length++) {
      const parsed = parseSignature(KAT_PREHASHED.slice(0, length));
      expect(parsed.ok, `truncated to ${length}`).toBe(false);
      if (!parsed.ok) expect(parsed.error.code, `truncated to ${length}`).toBe(SIGNATURE_ERROR.malformed);
    }
  });

  it('bytes that are not UTF-8', () => {
    const bytes = Buffer.concat([
      Buffer.from('untrusted comment: \xff', 'latin1'),
      Buffer.from(KAT_PREHASHED.slice(KAT_PREHASHED.indexOf('\n'))),
    ]);
    expect(parseSignature(bytes)).toEqual({
      ok: false,
      error: { code: SIGNATURE_ERROR.malformed, message: 'the signature file is not UTF-8 text' },
    });
  });

  it('a huge signature is too large, judged by its size alone', () => {
    const huge = `untrusted comment: x\n${'A'.repeat(MAX_SIGNATURE_FILE_BYTES)}`;
    expect(parseSignature(huge)).toEqual({
      ok: false,
      error: {
        code: SIGNATURE_ERROR.tooLarge,
        message: `the signature file is ${MAX_SIGNATURE_FILE_BYTES + 21} bytes: at most ${MAX_SIGNATURE_FILE_BYTES} are read`,
      },
    });
  });

  it('an unknown algorithm is named', () => {
    const text = editSignatureBytes(KAT_PREHASHED, (bytes) => bytes.write('EX', 0, 'latin1'));
    expect(parseSignature(text)).toEqual({
      ok: false,
      error: {
        code: SIGNATURE_ERROR.unknownAlgorithm,
        message:
          "the signature's algorithm is `EX` (0x4558): only `ED` (Ed25519 over BLAKE2b-512) and legacy `Ed` are known",
      },
    });
    const binary = editSignatureBytes(KAT_PREHASHED, (bytes) => bytes.writeUInt16BE(0x0001, 0));
    expect(parseSignature(binary)).toMatchObject({
      ok: false,
      error: { code: SIGNATURE_ERROR.unknownAlgorithm, message: expect.stringContaining('is 0x0001:') },
    });
  });

  it('accepts a final newline and CRLF line ends (a signature checked out on Windows)', () => {
    expect(parseSignature(`${KAT_PREHASHED}\n`).ok).toBe(true);
    const crlf = signature(`${KAT_PREHASHED.replaceAll('\n', '\r\n')}\r\n`);
    expect(verifyBytes(crlf, key(KAT_PUBLIC_KEY), TEST).ok).toBe(true);
  });
});

describe('parsePublicKey refuses what is not a minisign public key', () => {
  const line = 'RWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3';
  const cases: [string, string, string, string][] = [
    ['empty', '', KEY_ERROR.malformed, 'this has 0 lines'],
    ['garbage', 'not a key at all', KEY_ERROR.malformed, 'the public key line is not base64 (16 characters)'],
    [
      'three lines',
      `untrusted comment: x\n${line}\nmore`,
      KEY_ERROR.malformed,
      'a minisign public key is one base64 line, or two lines (`untrusted comment: …` and the base64 key); this has 3 lines',
    ],
    [
      'comment line without its prefix',
      `my key\n${line}`,
      KEY_ERROR.malformed,
      'line 1 of the public key must start with `untrusted comment:`',
    ],
    [
      'garbage after the comment',
      'untrusted comment: minisign public key 1\n%%%%',
      KEY_ERROR.malformed,
      'the public key line is not base64 (4 characters)',
    ],
    [
      'wrong length',
      Buffer.alloc(33).toString('base64'),
      KEY_ERROR.malformed,
      'the public key decodes to 33 bytes: a minisign public key has 42',
    ],
    ['a signature pasted as a key', KAT_PREHASHED, KEY_ERROR.malformed, 'this has 4 lines'],
    ['a secret-key-sized blob', Buffer.alloc(158).toString('base64'), KEY_ERROR.malformed, 'decodes to 158 bytes'],
    [
      'too large',
      `untrusted comment: ${'x'.repeat(5000)}\n${line}`,
      KEY_ERROR.malformed,
      'the public key is 5076 bytes: at most 4096 are read',
    ],
  ];
  for (const [name, text, code, message] of cases) {
    it(name, () => {
      const parsed = parsePublicKey(text);
      expect(parsed.ok).toBe(false);
      if (parsed.ok) return;
      expect(parsed.error.code).toBe(code);
      expect(parsed.error.message).toContain(message);
    });
  }

  it('an algorithm other than Ed is key.unknown_algorithm', () => {
    const bytes = Buffer.from(line, 'base64');
    bytes.write('ED', 0, 'latin1');
    expect(parsePublicKey(bytes.toString('base64'))).toEqual({
      ok: false,
      error: {
        code: KEY_ERROR.unknownAlgorithm,
        message: "the public key's algorithm is `ED` (0x4544): only `Ed` (Ed25519) keys are known",
      },
    });
  });

  it('accepts a pasted line with surrounding spaces and a .pub file with CRLF', () => {
    expect(parsePublicKey(`  ${line}\n`)).toMatchObject({ ok: true, value: { publicKey: line } });
    expect(parsePublicKey(`untrusted comment: k\r\n${line}\r\n`)).toMatchObject({
      ok: true,
      value: { keyId: 'E7620F1842B4E81F', untrustedComment: 'k' },
    });
  });
});

describe('key ids', () => {
  it('reads the key number little-endian and keeps leading zeros (minisign 0.11 drops them in the .pub comment)', () => {
    expect(formatKeyId(Uint8Array.from([0x22, 0x1e, 0xa1, 0xe1, 0x67, 0x4a, 0x3c, 0x02]))).toBe('023C4A67E1A11E22');
    expect(canonicalKeyId('23c4a67e1a11e22')).toBe('023C4A67E1A11E22');
    expect(isKeyId('23C4A67E1A11E22')).toBe(true);
    expect(isKeyId('0123456789ABCDEF0')).toBe(false);
    expect(isKeyId('XYZ')).toBe(false);
  });
});

describe('verification details', () => {
  it('a legacy message over the cap is legacy_too_large, and only the size is kept', () => {
    const collector = createSignedMessageCollector('Ed', 3);
    collector.update(Buffer.from('te'));
    collector.update(Buffer.from('st'));
    const message = collector.finish();
    expect(message).toEqual({ algorithm: 'Ed', size: 4, bytes: null });
    expect(verifySignedMessage(signature(KAT_LEGACY), key(KAT_PUBLIC_KEY), message)).toEqual({
      ok: false,
      error: {
        code: SIGNATURE_ERROR.legacyTooLarge,
        message: expect.stringContaining('legacy `Ed` signature over 4 bytes'),
      },
    });
  });

  it('chunks of any size give the same digest as one piece', () => {
    const data = Buffer.from(Array.from({ length: 10_000 }, (_, i) => (i * 7919) % 251));
    const whole = signedMessageOf('ED', data);
    const collector = createSignedMessageCollector('ED');
    for (let at = 0, step = 1; at < data.length; at += step, step = ((step * 3) % 997) + 1)
      collector.update(data.subarray(at, at + step));
    expect(collector.finish()).toEqual(whole);
  });

  it('a key id forged to match, over another key, is invalid (the id selects a key, it proves nothing)', () => {
    const other = Buffer.from(KAT_PUBLIC_KEY.split('\n')[1]!, 'base64');
    other[20] = (other[20]! + 1) % 256;
    const forged = key(other.toString('base64'));
    expect(forged.keyId).toBe('E7620F1842B4E81F');
    expect(verifyBytes(signature(KAT_PREHASHED), forged, TEST)).toMatchObject({
      ok: false,
      error: { code: SIGNATURE_ERROR.invalid },
    });
  });
});

describeWithMinisign('with keys and signatures made by minisign', () => {
  let dir: string;
  let keys: MinisignKeyPair;
  let otherKeys: MinisignKeyPair;
  let file: string;
  let otherFile: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'minisign-'));
    keys = minisignKeyPair(dir, 'publisher');
    otherKeys = minisignKeyPair(dir, 'other');
    file = join(dir, 'package.apo');
    otherFile = join(dir, 'other.apo');
    writeFileSync(file, Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 31) % 256)));
    writeFileSync(otherFile, 'another package');
  });

  it('prints the key id as minisign does (little-endian key number, uppercase hex)', () => {
    expect(key(keys.publicKeyText).keyId).toBe(keys.printedKeyId);
    expect(key(keys.publicKeyText.split('\n')[1]!).keyId).toBe(keys.printedKeyId);
  });

  for (const legacy of [false, true]) {
    const algorithm = legacy ? 'Ed' : 'ED';
    describe(`${algorithm} signatures`, () => {
      let text: string;
      let sigPath: string;
      beforeAll(() => {
        sigPath = join(dir, `package-${algorithm}.minisig`);
        text = minisignSign(keys, file, {
          trustedComment: `invoices 1.2.0\tby Example`,
          legacy,
          signaturePath: sigPath,
        });
      });

      it('verifies, and so does minisign -V', () => {
        const parsed = signature(text);
        expect(parsed.algorithm).toBe(algorithm);
        expect(parsed.keyId).toBe(keys.printedKeyId);
        expect(verifyBytes(parsed, key(keys.publicKeyText), readFileSync(file))).toEqual({
          ok: true,
          keyId: keys.printedKeyId,
          algorithm,
          trustedComment: 'invoices 1.2.0\tby Example',
        });
        expect(minisignVerifies(keys.publicKeyPath, file, sigPath)).toBe(true);
      });

      it('a signature for another file is invalid', () => {
        const result = verifyBytes(signature(text), key(keys.publicKeyText), readFileSync(otherFile));
        expect(result).toEqual({
          ok: false,
          error: {
            code: SIGNATURE_ERROR.invalid,
            message: `the signature does not match the file: it changed after it was signed, or the signature is for another file (key ${keys.printedKeyId})`,
          },
        });
      });

      it('a flipped bit anywhere in the file is invalid, as minisign -V agrees', () => {
        const original = readFileSync(file);
        for (const at of [0, 1, 4095, 100_000, original.length - 1]) {
          const flipped = Buffer.from(original);
          flipped[at] = flipped[at]! ^ 0x10;
          expect(verifyBytes(signature(text), key(keys.publicKeyText), flipped), `bit at ${at}`).toMatchObject({
            ok: false,
            error: { code: SIGNATURE_ERROR.invalid },
          });
        }
        const flippedPath = join(dir, `flipped-${algorithm}.apo`);
        const flipped = Buffer.from(original);
        flipped[100_000] = flipped[100_000]! ^ 1;
        writeFileSync(flippedPath, flipped);
        expect(minisignVerifies(keys.publicKeyPath, flippedPath, sigPath)).toBe(false);
      });

      it('a trusted comment edited after signing is invalid, as minisign -V agrees', () => {
        const edited = withLine(text, 2, 'trusted comment: invoices 9.9.9\tby Example');
        expect(verifyBytes(signature(edited), key(keys.publicKeyText), readFileSync(file))).toEqual({
          ok: false,
          error: {
            code: SIGNATURE_ERROR.invalid,
            message: `the signature's trusted comment does not match its global signature: the comment was changed after signing (key ${keys.printedKeyId})`,
          },
        });
        const editedPath = join(dir, `edited-${algorithm}.minisig`);
        writeFileSync(editedPath, edited);
        expect(minisignVerifies(keys.publicKeyPath, file, editedPath)).toBe(false);
      });

      it('an edited untrusted comment changes nothing (it is covered by no signature)', () => {
        const edited = withLine(text, 0, 'untrusted comment: anything at all');
        expect(verifyBytes(signature(edited), key(keys.publicKeyText), readFileSync(file)).ok).toBe(true);
      });

      it('a flipped bit in the signature itself is invalid', () => {
        const edited = editSignatureBytes(text, (bytes) => {
          bytes[40] = bytes[40]! ^ 1;
        });
        expect(verifyBytes(signature(edited), key(keys.publicKeyText), readFileSync(file))).toMatchObject({
          ok: false,
          error: { code: SIGNATURE_ERROR.invalid },
        });
      });

      it('checked against another key: key_id_mismatch naming both ids', () => {
        expect(verifyBytes(signature(text), key(otherKeys.publicKeyText), readFileSync(file))).toEqual({
          ok: false,
          error: {
            code: SIGNATURE_ERROR.keyIdMismatch,
            message: `the signature was made by key ${keys.printedKeyId}, not by key ${otherKeys.printedKeyId} it is checked against`,
          },
        });
        expect(minisignVerifies(otherKeys.publicKeyPath, file, sigPath)).toBe(false);
      });

      it('the key id rewritten to another key’s is invalid against that key', () => {
        const otherId = Buffer.from(otherKeys.publicKeyText.split('\n')[1]!, 'base64').subarray(2, 10);
        const rewritten = editSignatureBytes(text, (bytes) => otherId.copy(bytes, 2));
        expect(verifyBytes(signature(rewritten), key(otherKeys.publicKeyText), readFileSync(file))).toMatchObject({
          ok: false,
          error: { code: SIGNATURE_ERROR.invalid },
        });
      });

      it('truncated .minisig files are malformed', () => {
        for (const length of [10, 60, text.indexOf('trusted comment'), text.length - 30]) {
          expect(parseSignature(text.slice(0, length)), `cut at ${length}`).toMatchObject({
            ok: false,
            error: { code: SIGNATURE_ERROR.malformed },
          });
        }
      });
    });
  }
});
