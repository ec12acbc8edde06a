/**
 * Fuzzing the minisign parsers and verifier (fast-check, seeded): a known-good signature and key
 * (rust-minisign-verify's test vectors) with flipped bytes, cuts and inserted lines, and random
 * bytes. Whatever comes in, the answer is accepted or refused with a known code: never a throw.
 * A mutated signature that still parses must verify only if its signed parts are unchanged.
 * Runs: `FUZZ_RUNS` (default 300; `npm run fuzz` uses 20,000).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KEY_ERROR, parsePublicKey, parseSignature, SIGNATURE_ERROR, verifyBytes } from './minisign';

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 300);
const SEED = Number(process.env['FUZZ_SEED'] ?? 20_261_201);

// jedisct1/rust-minisign-verify, src/lib.rs, `verify_prehashed`: the message is `test`.
const KEY =
  'untrusted comment: minisign public key E7620F1842B4E81F\nRWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3\n';
const SIGNATURE = Buffer.from(
  'untrusted comment: signature from minisign secret key\nRUQf6LRCGA9i559r3g7V1qNyJDApGip8MfqcadIgT9CuhV3EMhHoN1mGTkUidF/z7SrlQgXdy8ofjb7bNJJylDOocrCo8KLzZwo=\ntrusted comment: timestamp:1556193335\tfile:test\ny/rUw2y8/hOUYjZU71eHp/Wo1KZ40fGy2VJEDl34XMJM+TX48Ss/17u3IvIfbVR1FkZZSNCisQbuQY+bHwhEBg==\n',
);
const SIGNATURE_CODES = new Set<string>(Object.values(SIGNATURE_ERROR));
const KEY_CODES = new Set<string>(Object.values(KEY_ERROR));

type Mutation =
  | { kind: 'flip'; at: number; byte: number }
  | { kind: 'cut'; at: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array };

const MUTATION: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), bytes: fc.uint8Array({ maxLength: 40 }) }),
);

function mutate(input: Buffer, mutations: Mutation[]): Buffer {
  let bytes = Buffer.from(input);
  for (const mutation of mutations) {
    const at = bytes.length === 0 ? 0 : mutation.at % bytes.length;
    if (mutation.kind === 'flip') bytes[at] = mutation.byte;
    else if (mutation.kind === 'cut') bytes = bytes.subarray(0, at);
    else bytes = Buffer.concat([bytes.subarray(0, at), mutation.bytes, bytes.subarray(at)]);
  }
  return bytes;
}

/** The three lines the signatures cover (signature, trusted comment, global signature), normalised. */
function signedLines(text: string): string {
  return text.replaceAll('\r', '').split('\n').slice(1, 4).join('\n');
}

describe('minisign parsers under mutation', () => {
  it('a mutated signature is refused with a signature code, or parses; it verifies only if its signed lines are intact', () => {
    const key = parsePublicKey(KEY);
    if (!key.ok) throw new Error('the test key must parse');
    fc.assert(
      fc.property(fc.array(MUTATION, { minLength: 1, maxLength: 4 }), (mutations) => {
        const bytes = mutate(SIGNATURE, mutations);
        const parsed = parseSignature(bytes);
        if (!parsed.ok) {
          expect(SIGNATURE_CODES.has(parsed.error.code)).toBe(true);
          return;
        }
        const result = verifyBytes(parsed.value, key.value, Buffer.from('test'));
        if (result.ok) expect(signedLines(bytes.toString('utf8'))).toBe(signedLines(SIGNATURE.toString('utf8')));
        else expect(SIGNATURE_CODES.has(result.error.code)).toBe(true);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('a mutated public key is refused with a key code, or parses', () => {
    fc.assert(
      fc.property(fc.array(MUTATION, { minLength: 1, maxLength: 4 }), (mutations) => {
        const parsed = parsePublicKey(mutate(Buffer.from(KEY), mutations));
        if (!parsed.ok) expect(KEY_CODES.has(parsed.error.code)).toBe(true);
        else expect(parsed.value.keyId).toMatch(/^[0-9A-F]{16}$/);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('random bytes never throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        const signature = parseSignature(bytes);
        if (!signature.ok) expect(SIGNATURE_CODES.has(signature.error.code)).toBe(true);
        const key = parsePublicKey(bytes);
        if (!key.ok) expect(KEY_CODES.has(key.error.code)).toBe(true);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
