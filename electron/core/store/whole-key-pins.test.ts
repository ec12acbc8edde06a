/**
 * Format 3 → 4: key pins hold the whole public key. A key-id-only pin whose key is still trusted
 * gets that key; one whose key is gone becomes a question (`key_id_only`: the next signed update is
 * a key-change stop), never a silent default; an unknown key's pin keeps only the id it claimed.
 */
import { describe, expect, it } from 'vitest';
import { migrateState, stateProblem } from './state';
import { compareWithPin } from '../trust/package-signature';

const KEY_A = 'RWQYwijqPNtuwVOXH9H1ngM0aXZPoIvySpUuNGVPpg5oIgrMHc2gIv9a';
const KEY_A_ID = 'C16EDB3CEA28C218';

function v3(pin: unknown, signature: unknown, trustedKeys: unknown[] = []): Record<string, unknown> {
  return {
    version: 3,
    packages: {},
    agents: {},
    triggers: {},
    settings: { mcpServers: {}, secrets: {}, deniedTools: [], webhookPort: null },
    webhookSecrets: {},
    applies: {},
    damage: [],
    trustedKeys,
    packageTrust: {
      invoices: {
        pin,
        signature,
        files: null,
        integrity: { state: 'ok', checkedAt: null, changed: [], missing: [], added: [] },
      },
    },
  };
}

const verified = {
  state: 'verified',
  key_id: KEY_A_ID,
  trusted_comment: 'invoices 1.2.0',
  signer: 'Example Accounting',
};
const trustedA = { keyId: KEY_A_ID, publicKey: KEY_A, name: 'Example Accounting', addedAt: '2026-01-01T00:00:00.000Z' };

function trustOf(migrated: unknown): { pin: unknown; signature: Record<string, unknown> } {
  expect(stateProblem(migrated)).toBeNull();
  return (migrated as { packageTrust: Record<string, { pin: unknown; signature: Record<string, unknown> }> })
    .packageTrust.invoices!;
}

describe('store format 4: whole-key pins', () => {
  it('a pin whose key is still trusted gets the whole key', () => {
    const trust = trustOf(migrateState(v3({ kind: 'key', keyId: KEY_A_ID }, verified, [trustedA])));
    expect(trust.pin).toEqual({ kind: 'key', keyId: KEY_A_ID, publicKey: KEY_A });
    expect(trust.signature).toMatchObject({ state: 'verified', public_key: KEY_A, reason: null, message: null });
  });

  it('a pin whose key is gone becomes key_id_only: the next signed update asks, even one claiming the same id', () => {
    const trust = trustOf(migrateState(v3({ kind: 'key', keyId: KEY_A_ID }, verified)));
    expect(trust.pin).toEqual({ kind: 'key_id_only', keyId: KEY_A_ID });
    expect(compareWithPin(trust.pin as never, { kind: 'key', keyId: KEY_A_ID, publicKey: KEY_A })).toBe(
      'unverifiable_pin',
    );
  });

  it('an unknown key pinned its claimed id only; unsigned stays unsigned', () => {
    expect(
      trustOf(
        migrateState(
          v3(
            { kind: 'key', keyId: KEY_A_ID },
            { state: 'unknown_key', key_id: KEY_A_ID, trusted_comment: null, signer: null },
          ),
        ),
      ).pin,
    ).toEqual({ kind: 'claimed_key', keyId: KEY_A_ID });
    expect(
      trustOf(
        migrateState(
          v3({ kind: 'unsigned' }, { state: 'unsigned', key_id: null, trusted_comment: null, signer: null }),
        ),
      ).pin,
    ).toEqual({ kind: 'unsigned' });
  });
});
