/**
 * The secret box core stores webhook secrets and saved secrets with (`deps.secretBox`), over the
 * OS keychain through `safeStorage` (TOOLCHAIN.md: the async calls, after `ready`). The decisions
 * — the Linux probe, the file-key box where no real keychain answers, `shouldReEncrypt`, retrying
 * a temporarily unavailable keychain — live in `keychain-box.ts`, unit-tested; this file only
 * hands them Electron's `safeStorage` and the data folder.
 */
import { safeStorage } from 'electron';
import { createFileKeySecretBox, type SecretBox, unavailableSecretBox } from '../core/secrets/secret-box';
import { secretBoxFor } from './keychain-box';

/**
 * The app's box. Call after `app.whenReady()`; may wait on the keychain (an unlock prompt): never before the window.
 */
export function createSafeStorageSecretBox(dataDir: string): Promise<SecretBox> {
  return secretBoxFor(safeStorage, process.platform, () => createFileKeySecretBox(dataDir), unavailableSecretBox);
}
