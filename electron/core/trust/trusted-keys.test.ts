import { describe, expect, it } from 'vitest';
import { KEY_ERROR } from './minisign';
import {
  addTrustedKey,
  findTrustedKey,
  MAX_TRUSTED_KEYS,
  parseTrustedKeys,
  removeTrustedKey,
  TRUSTED_KEYS_ERROR,
  type TrustedKey,
} from './trusted-keys';

// Key of rust-minisign-verify's test vectors (jedisct1/rust-minisign-verify, src/lib.rs).
const KEY_FILE =
  'untrusted comment: minisign public key E7620F1842B4E81F\nRWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3\n';
const KEY_LINE = 'RWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3';
const ADDED = new Date('2026-01-02T03:04:05Z');

/** A syntactically valid key with the key number `n` (not a real signer: enough for list rules). */
function keyLine(n: number): string {
  const bytes = Buffer.alloc(42);
  bytes.write('Ed', 0, 'latin1');
  bytes.writeBigUInt64LE(BigInt(n), 2);
  bytes.fill(7, 10);
  return bytes.toString('base64');
}

function added(list: TrustedKey[], text: string, name: string): TrustedKey[] {
  const result = addTrustedKey(list, text, name, ADDED);
  if (!result.ok) throw new Error(result.error.message);
  return result.keys;
}

describe('addTrustedKey', () => {
  it('adds a .pub file or its line under a name, recording the canonical line', () => {
    const result = addTrustedKey([], KEY_FILE, 'Example Accounting', ADDED);
    expect(result).toEqual({
      ok: true,
      keys: [
        {
          keyId: 'E7620F1842B4E81F',
          publicKey: KEY_LINE,
          name: 'Example Accounting',
          addedAt: '2026-01-02T03:04:05.000Z',
        },
      ],
      key: {
        keyId: 'E7620F1842B4E81F',
        publicKey: KEY_LINE,
        name: 'Example Accounting',
        addedAt: '2026-01-02T03:04:05.000Z',
      },
    });
    expect(addTrustedKey([], ` ${KEY_LINE} `, 'Example', ADDED)).toMatchObject({
      ok: true,
      key: { publicKey: KEY_LINE },
    });
  });

  it('leaves the input list untouched', () => {
    const list: TrustedKey[] = [];
    addTrustedKey(list, KEY_FILE, 'Example', ADDED);
    expect(list).toEqual([]);
  });

  it('refuses a key already trusted, naming its name', () => {
    const list = added([], KEY_FILE, 'Example');
    expect(addTrustedKey(list, KEY_LINE, 'Again', ADDED)).toEqual({
      ok: false,
      error: {
        code: TRUSTED_KEYS_ERROR.duplicateKey,
        message: 'key E7620F1842B4E81F is already trusted, as `Example`',
      },
    });
  });

  it('refuses a name already used (case-insensitive)', () => {
    const list = added([], KEY_FILE, 'Example');
    expect(addTrustedKey(list, keyLine(1), 'EXAMPLE', ADDED)).toEqual({
      ok: false,
      error: {
        code: TRUSTED_KEYS_ERROR.duplicateName,
        message: 'the name `Example` is already used by key E7620F1842B4E81F: pick another',
      },
    });
  });

  const badNames: [string, string][] = [
    ['', 'the key needs a name (the publisher it belongs to)'],
    ['   ', 'the key needs a name (the publisher it belongs to)'],
    [' Example', 'the key name may not start or end with spaces'],
    ['x'.repeat(81), 'the key name is 81 characters: at most 80'],
    ['Exa\u0000mple', 'the key name contains the control or invisible character U+0000'],
    ['Example\u202egnp', 'the key name contains the control or invisible character U+202E'],
    ['Two\nlines', 'the key name contains the control or invisible character U+000A'],
  ];
  for (const [name, message] of badNames) {
    it(`refuses the name ${JSON.stringify(name.slice(0, 12))}`, () => {
      expect(addTrustedKey([], KEY_FILE, name, ADDED)).toEqual({
        ok: false,
        error: { code: TRUSTED_KEYS_ERROR.badName, message },
      });
    });
  }

  it('accepts __proto__ and non-Latin names as plain data', () => {
    expect(addTrustedKey([], KEY_FILE, '__proto__', ADDED)).toMatchObject({ ok: true, key: { name: '__proto__' } });
    expect(addTrustedKey([], KEY_FILE, 'Éditions Ünïcode 出版', ADDED)).toMatchObject({ ok: true });
  });

  it('refuses a malformed key with the key.* code', () => {
    expect(addTrustedKey([], 'garbage', 'Example', ADDED)).toMatchObject({
      ok: false,
      error: { code: KEY_ERROR.malformed },
    });
  });

  it(`refuses a ${MAX_TRUSTED_KEYS + 1}th key`, () => {
    let list: TrustedKey[] = [];
    for (let i = 0; i < MAX_TRUSTED_KEYS; i++) list = added(list, keyLine(i + 1), `Publisher ${i}`);
    expect(addTrustedKey(list, KEY_FILE, 'One more', ADDED)).toEqual({
      ok: false,
      error: {
        code: TRUSTED_KEYS_ERROR.tooManyKeys,
        message: `${MAX_TRUSTED_KEYS} keys are trusted already: at most ${MAX_TRUSTED_KEYS}`,
      },
    });
  });
});

describe('removeTrustedKey and findTrustedKey', () => {
  const list = added(added([], KEY_FILE, 'Example'), keyLine(0xabc), 'Other');

  it('finds and removes by key id in any case', () => {
    expect(findTrustedKey(list, 'e7620f1842b4e81f')?.name).toBe('Example');
    expect(findTrustedKey(list, '0000000000000000')).toBeNull();
    // minisign 0.11 prints ids without leading zeros (`ABC` for 0000000000000ABC).
    expect(findTrustedKey(list, 'abc')?.name).toBe('Other');
    expect(findTrustedKey(list, 'not hex')).toBeNull();
    const removed = removeTrustedKey(list, 'e7620f1842b4e81f');
    expect(removed).toMatchObject({ ok: true, key: { name: 'Example' } });
    expect(removed.ok && removed.keys.map((key) => key.name)).toEqual(['Other']);
    expect(list).toHaveLength(2);
  });

  it('refuses a key id that is not trusted, or not a key id', () => {
    expect(removeTrustedKey(list, '0123456789ABCDEF')).toEqual({
      ok: false,
      error: { code: TRUSTED_KEYS_ERROR.notFound, message: 'no trusted key has the id 0123456789ABCDEF' },
    });
    expect(removeTrustedKey(list, 'Example')).toEqual({
      ok: false,
      error: {
        code: TRUSTED_KEYS_ERROR.badKeyId,
        message: '`Example` is not a key id: a minisign key id is up to 16 hex digits (`C16EDB3CEA28C218`)',
      },
    });
  });
});

describe('parseTrustedKeys (a list read back from the store)', () => {
  const good = { keyId: 'E7620F1842B4E81F', publicKey: KEY_LINE, name: 'Example', addedAt: '2026-01-02T03:04:05.000Z' };

  it('accepts a valid list and answers fresh objects', () => {
    const input = [good];
    const parsed = parseTrustedKeys(input);
    expect(parsed).toEqual({ ok: true, keys: [good] });
    expect(parsed.ok && parsed.keys[0]).not.toBe(good);
  });

  const bad: [string, unknown, string][] = [
    ['not a list', { 0: good }, 'the trusted keys are not a list'],
    ['an item that is not an object', [good, 'x'], 'trusted key 2 is not an object'],
    [
      'an extra field',
      [{ ...good, admin: true }],
      'trusted key 1 must have exactly `keyId`, `publicKey`, `name`, `addedAt`; it has `addedAt`, `admin`, `keyId`, `name`, `publicKey`',
    ],
    [
      'an own __proto__ field',
      [
        JSON.parse(
          `{"keyId":"E7620F1842B4E81F","publicKey":"${KEY_LINE}","name":"x","addedAt":"2026-01-01T00:00:00Z","__proto__":{"trusted":true}}`,
        ),
      ],
      'it has `__proto__`',
    ],
    [
      'a missing field',
      [{ keyId: good.keyId, publicKey: good.publicKey, name: good.name }],
      'it has `keyId`, `name`, `publicKey`',
    ],
    ['a non-string field', [{ ...good, addedAt: 5 }], 'trusted key 1: every field must be a string'],
    [
      'a key id that is not its key’s',
      [{ ...good, keyId: '0000000000000000' }],
      'trusted key 1: its key has the id E7620F1842B4E81F, not the recorded 0000000000000000',
    ],
    [
      'a damaged key',
      [{ ...good, publicKey: 'xx' }],
      'trusted key 1: the public key line is not base64 (2 characters)',
    ],
    ['a bad date', [{ ...good, addedAt: 'yesterday' }], 'trusted key 1: `addedAt` is not a date'],
    ['a duplicate key', [good, { ...good, name: 'Again' }], 'trusted key 2: key E7620F1842B4E81F is listed twice'],
    ['a bad name', [{ ...good, name: '' }], 'trusted key 1: the key needs a name'],
  ];
  for (const [name, value, message] of bad) {
    it(`refuses ${name}`, () => {
      const parsed = parseTrustedKeys(value);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) {
        expect(parsed.error.code).toBe(TRUSTED_KEYS_ERROR.badList);
        expect(parsed.error.message).toContain(message);
      }
    });
  }

  it('ignores inherited properties: only own fields are read', () => {
    const inherited = Object.assign(Object.create({ admin: true }), good);
    expect(parseTrustedKeys([inherited])).toEqual({ ok: true, keys: [good] });
  });
});
