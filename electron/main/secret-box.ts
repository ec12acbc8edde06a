/**
 * The secret box core stores webhook secrets and saved secrets with (`deps.secretBox`), backed by
 * the OS keychain through `safeStorage` (TOOLCHAIN.md: the async calls, after `ready`). On Linux
 * without a keyring, Chromium falls back to `basic_text`, which is not real protection: the box
 * reports it, and the UI says so rather than pretend (DESIGN.md "Consent, install, apply").
 */
import { safeStorage } from 'electron';
import type { SecretBackend } from '../../shared/api';
import { unavailableSecretBox, type SecretBox } from '../core/secret-box';

/** Reads which protection `safeStorage` gives here. Call after `app` is ready. */
async function detectBackend(): Promise<SecretBackend> {
  if (!(await safeStorage.isAsyncEncryptionAvailable())) return 'unavailable';
  // getSelectedStorageBackend exists on Linux only.
  if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') return 'basic_text';
  return 'keychain';
}

/** The box over `safeStorage`. Call after `app.whenReady()`; the backend is read once. */
export async function createSafeStorageSecretBox(): Promise<SecretBox> {
  const backend = await detectBackend();
  if (backend === 'unavailable') return unavailableSecretBox;
  return {
    backend: () => backend,
    async encrypt(text) {
      return new Uint8Array(await safeStorage.encryptStringAsync(text));
    },
    async decrypt(bytes) {
      const { result } = await safeStorage.decryptStringAsync(Buffer.from(bytes));
      return result;
    },
  };
}
