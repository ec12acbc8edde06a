/**
 * The secret box core stores webhook secrets and saved secrets with (`deps.secretBox`), backed by
 * the OS keychain through `safeStorage` (TOOLCHAIN.md: the async calls, after `ready`). On Linux
 * without a keyring, Chromium falls back to `basic_text`, which is not real protection: the box
 * reports it, and the UI says so rather than pretend (DESIGN.md "Consent, install, apply").
 */
import { safeStorage } from 'electron';

/** How secrets are protected on this machine. */
export type SecretProtection = 'keychain' | 'basic_text' | 'unavailable';

/** Reads which protection `safeStorage` gives here. Call after `app` is ready. */
export async function secretProtection(): Promise<SecretProtection> {
  if (!(await safeStorage.isAsyncEncryptionAvailable())) return 'unavailable';
  // getSelectedStorageBackend exists on Linux only.
  if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') return 'basic_text';
  return 'keychain';
}

/** Encrypts with the OS keychain; the bytes are only readable by this user on this machine. */
export async function sealSecret(plainText: string): Promise<Uint8Array> {
  return new Uint8Array(await safeStorage.encryptStringAsync(plainText));
}

/** Decrypts bytes `sealSecret` produced. */
export async function openSecret(sealed: Uint8Array): Promise<string> {
  const { result } = await safeStorage.decryptStringAsync(Buffer.from(sealed));
  return result;
}
