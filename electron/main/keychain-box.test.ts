import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/test-api';
import {
  createFileKeySecretBox,
  isSecretBoxLocked,
  type SecretBox,
  unavailableSecretBox,
} from '../core/secrets/secret-box';
import { isSafeStorageSeal, probeKeychain, type RetryPlan, type SafeStorageLike, secretBoxFor } from './keychain-box';

/**
 * A faked `safeStorage`: seals as `<prefix><text reversed>` (the prefix OSCrypt writes: `v11` with a
 * keyring's key, `v10` with the fixed password), answers availability and backend as told, and can
 * be made temporarily unavailable for some decrypts or ask for re-encryption.
 */
function fakeSafeStorage(
  options: {
    available?: boolean;
    prefix?: 'v10' | 'v11';
    backend?: string;
    unavailableFor?: number;
    reEncrypt?: boolean;
  } = {},
) {
  const calls: string[] = [];
  let unavailable = options.unavailableFor ?? 0;
  const storage: SafeStorageLike = {
    isAsyncEncryptionAvailable: async () => options.available ?? true,
    encryptStringAsync: async (text) => {
      calls.push('encrypt');
      return Buffer.from(`${options.prefix ?? 'v11'}${[...text].reverse().join('')}`, 'latin1');
    },
    decryptStringAsync: async (bytes) => {
      calls.push('decrypt');
      if (unavailable > 0) {
        unavailable--;
        throw new Error('safeStorage.decryptStringAsync is temporarily unavailable. Please try again.');
      }
      const text = bytes.toString('latin1');
      if (!/^v1[01]/.test(text))
        throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptStringAsync.');
      return { result: [...text.slice(3)].reverse().join(''), shouldReEncrypt: options.reEncrypt ?? false };
    },
    ...(options.backend !== undefined ? { getSelectedStorageBackend: () => options.backend as string } : {}),
  };
  return { storage, calls };
}

const noWait: RetryPlan = { attempts: 3, delayMs: () => 0, sleep: async () => undefined };
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

function fileBox(): SecretBox {
  return createFileKeySecretBox(tempDir('apollia-keybox-'));
}

describe('probeKeychain', () => {
  it('on Linux, a v11 probe is a real keychain', async () => {
    expect(await probeKeychain(fakeSafeStorage({ prefix: 'v11', backend: 'gnome_libsecret' }).storage, 'linux')).toBe(
      'keychain',
    );
  });

  it('on Linux, a v10 probe is Chromium’s fixed key, whatever the backend name guesses', async () => {
    expect(await probeKeychain(fakeSafeStorage({ prefix: 'v10', backend: 'gnome_libsecret' }).storage, 'linux')).toBe(
      'no_keychain',
    );
    expect(await probeKeychain(fakeSafeStorage({ prefix: 'v10', backend: 'unknown' }).storage, 'linux')).toBe(
      'no_keychain',
    );
  });

  it('on Linux, the basic_text backend is no keychain without a probe', async () => {
    const fake = fakeSafeStorage({ prefix: 'v11', backend: 'basic_text' });
    expect(await probeKeychain(fake.storage, 'linux')).toBe('no_keychain');
    expect(fake.calls).toEqual([]);
  });

  it('on macOS and Windows a real keychain writes v10 too: no probe there', async () => {
    for (const platform of ['darwin', 'win32'] as const) {
      const fake = fakeSafeStorage({ prefix: 'v10' });
      expect(await probeKeychain(fake.storage, platform)).toBe('keychain');
      expect(fake.calls).toEqual([]);
    }
  });

  it('is unavailable when safeStorage says so', async () => {
    expect(await probeKeychain(fakeSafeStorage({ available: false }).storage, 'linux')).toBe('unavailable');
  });
});

describe('secretBoxFor', () => {
  it('seals with the keychain where there is one', async () => {
    const fake = fakeSafeStorage({ prefix: 'v11' });
    const box = await secretBoxFor(fake.storage, 'linux', fileBox, unavailableSecretBox, noWait);
    expect(box.backend()).toBe('keychain');
    const sealed = await box.encrypt('whsec_abc');
    expect(text(sealed).startsWith('v11')).toBe(true);
    expect(await box.decrypt(sealed)).toBe('whsec_abc');
    expect(await box.open?.(sealed)).toEqual({ text: 'whsec_abc', reseal: false });
  });

  it('without a real keychain on Linux, seals in the file-key box (which says so), and moves old fixed-key seals there', async () => {
    const fake = fakeSafeStorage({ prefix: 'v10', backend: 'gnome_libsecret' });
    const files = fileBox();
    const box = await secretBoxFor(fake.storage, 'linux', () => files, unavailableSecretBox, noWait);
    expect(box.backend()).toBe('file_key');
    const sealed = await box.encrypt('whsec_new');
    expect(isSafeStorageSeal(sealed)).toBe(false);
    expect(await files.decrypt(sealed)).toBe('whsec_new');
    expect(await box.open?.(sealed)).toEqual({ text: 'whsec_new', reseal: false });
    // A secret sealed by an earlier version with Chromium's fixed key still opens, flagged to be sealed again.
    const old = await fake.storage.encryptStringAsync('whsec_old');
    expect(await box.open?.(old)).toEqual({ text: 'whsec_old', reseal: true });
  });

  it('honours shouldReEncrypt', async () => {
    const box = await secretBoxFor(
      fakeSafeStorage({ prefix: 'v11', reEncrypt: true }).storage,
      'darwin',
      fileBox,
      unavailableSecretBox,
      noWait,
    );
    const sealed = await box.encrypt('key');
    expect(await box.open?.(sealed)).toEqual({ text: 'key', reseal: true });
  });

  it('opens a file-box seal made while no keychain answered, flagged to move into the keychain', async () => {
    const files = fileBox();
    const earlier = await files.encrypt('whsec_file');
    const box = await secretBoxFor(
      fakeSafeStorage({ prefix: 'v11' }).storage,
      'linux',
      () => files,
      unavailableSecretBox,
      noWait,
    );
    expect(await box.open?.(earlier)).toEqual({ text: 'whsec_file', reseal: true });
  });

  it('asks a temporarily unavailable keychain again instead of failing', async () => {
    const fake = fakeSafeStorage({ prefix: 'v11', unavailableFor: 2 });
    const box = await secretBoxFor(fake.storage, 'linux', fileBox, unavailableSecretBox, noWait);
    const sealed = await box.encrypt('whsec_abc');
    expect(await box.decrypt(sealed)).toBe('whsec_abc');
    expect(fake.calls.filter((c) => c === 'decrypt')).toHaveLength(3);
  });

  it('reports a keychain still locked after the retries as locked, never as a secret to rotate', async () => {
    const fake = fakeSafeStorage({ prefix: 'v11', unavailableFor: 10 });
    const slept: number[] = [];
    const box = await secretBoxFor(fake.storage, 'linux', fileBox, unavailableSecretBox, {
      attempts: 3,
      delayMs: (n) => 100 * 2 ** n,
      sleep: async (ms) => void slept.push(ms),
    });
    const error = await box.decrypt(await box.encrypt('x')).catch((e: unknown) => e);
    expect(isSecretBoxLocked(error)).toBe(true);
    expect(slept).toEqual([100, 200]);
    // A broken seal is not "locked".
    const answering = await secretBoxFor(
      fakeSafeStorage({ prefix: 'v11' }).storage,
      'linux',
      fileBox,
      unavailableSecretBox,
      noWait,
    );
    const broken = await answering.decrypt(Buffer.from('v1x-not-a-seal')).catch((e: unknown) => e);
    expect(broken).toBeInstanceOf(Error);
    expect(isSecretBoxLocked(broken)).toBe(false);
  });

  it('is the unavailable box when safeStorage is unavailable', async () => {
    expect(
      await secretBoxFor(
        fakeSafeStorage({ available: false }).storage,
        'darwin',
        fileBox,
        unavailableSecretBox,
        noWait,
      ),
    ).toBe(unavailableSecretBox);
  });
});
