import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/test-api';
import { createFileKeySecretBox, type SecretBox } from '../core/secrets/secret-box';
import { startWindowFirst } from './start-order';

/** A promise and its resolvers, to play a keychain that answers when the test says. */
function later<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('startWindowFirst', () => {
  it('opens the window while the keychain has not answered (an unlock prompt, a hung D-Bus call)', () => {
    const order: string[] = [];
    const keychain = later<SecretBox>();
    const box = startWindowFirst({
      makeSecretBox: () => {
        order.push('probe keychain');
        return keychain.promise;
      },
      wire: () => order.push('wire api'),
      openWindow: () => order.push('open window'),
      afterWindow: () => order.push('after window'),
      onBoxError: () => order.push('box error'),
    });
    expect(order).toEqual(['probe keychain', 'wire api', 'open window', 'after window']);
    expect(box.backend()).toBe('pending');
  });

  it('makes what needs a secret wait for the keychain, then works', async () => {
    const keychain = later<SecretBox>();
    const box = startWindowFirst({
      makeSecretBox: () => keychain.promise,
      wire: () => {},
      openWindow: () => {},
      afterWindow: () => {},
      onBoxError: () => {},
    });
    let sealed: Uint8Array | null = null;
    const sealing = box.encrypt('whsec_abc').then((bytes) => {
      sealed = bytes;
    });
    await settle();
    expect(sealed).toBeNull();
    keychain.resolve(createFileKeySecretBox(tempDir('apollia-order-')));
    await sealing;
    expect(box.backend()).toBe('file_key');
    expect(await box.decrypt(sealed as unknown as Uint8Array)).toBe('whsec_abc');
    expect(await box.open?.(sealed as unknown as Uint8Array)).toEqual({ text: 'whsec_abc', reseal: false });
  });

  it('keeps no secret, and says so, when the keychain cannot be used at all', async () => {
    const keychain = later<SecretBox>();
    const errors: unknown[] = [];
    const box = startWindowFirst({
      makeSecretBox: () => keychain.promise,
      wire: () => {},
      openWindow: () => {},
      afterWindow: () => {},
      onBoxError: (error) => errors.push(error),
    });
    keychain.reject(new Error('D-Bus: no reply'));
    await box.ready?.();
    expect(box.backend()).toBe('unavailable');
    expect(errors).toHaveLength(1);
    await expect(box.encrypt('x')).rejects.toThrow('no way to keep secrets');
  });
});
