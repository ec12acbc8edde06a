/**
 * Where the app seals secrets, told honestly (DESIGN.md "Consent, install, apply"; TOOLCHAIN.md
 * "safeStorage"): the decisions over Electron's async `safeStorage`, with no `electron` import so
 * they are unit-tested over a faked one. `secret-box.ts` passes the real `safeStorage`.
 *
 * - On Linux, availability says little: once the async encryptor is ready it answers true even
 *   when no Secret Service answered and Chromium fell back to its Posix provider, whose `v10`
 *   ciphertext is keyed by a fixed password; the backend name is a guess from the desktop
 *   environment. So a probe is sealed once at start: a `v10` prefix (or the backend `basic_text`)
 *   means no real keychain, and secrets go to the file-key box, which says what it is (`file_key`).
 *   On macOS and Windows a real keychain also writes `v10`: the probe is Linux-only.
 * - `shouldReEncrypt` is honoured: `open()` reports it, and the app seals such secrets again
 *   (`core/reseal-secrets.ts`). A seal of the other kind (an old safeStorage seal where the file
 *   box now keeps secrets, a file-box seal once a keychain answers) opens, and is flagged too.
 * - A keychain that is only temporarily unavailable (locked, its service starting) is asked again
 *   a few times, then reported as locked ({@link SecretBoxLockedError}): never "rotate the secret".
 */
import { SecretBoxLockedError, type SecretBox } from '../core/secrets/secret-box';

/** The part of Electron's `safeStorage` used (the async API: the sync one is deprecated). */
export interface SafeStorageLike {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plainText: string): Promise<Buffer>;
  decryptStringAsync(encrypted: Buffer): Promise<{ shouldReEncrypt: boolean; result: string }>;
  /** Linux only. */
  getSelectedStorageBackend?(): string;
}

/** What the probe found: a real keychain, Chromium's fixed-key fallback, or nothing. */
export type KeychainProbe = 'keychain' | 'no_keychain' | 'unavailable';

/** The text sealed by the probe (never stored). */
const PROBE_TEXT = 'apollia keychain probe';

/** Chromium's OSCrypt prefix for ciphertext keyed by the fixed password (`v11` is a keyring's key). */
const FIXED_KEY_PREFIX = 'v10';

/** Probes where `safeStorage` would keep secrets here. Call after `app` is ready. */
export async function probeKeychain(safeStorage: SafeStorageLike, platform: NodeJS.Platform): Promise<KeychainProbe> {
  if (!(await safeStorage.isAsyncEncryptionAvailable())) return 'unavailable';
  if (platform !== 'linux') return 'keychain';
  if (safeStorage.getSelectedStorageBackend?.() === 'basic_text') return 'no_keychain';
  const sealed = await safeStorage.encryptStringAsync(PROBE_TEXT);
  return sealed.subarray(0, FIXED_KEY_PREFIX.length).toString('latin1') === FIXED_KEY_PREFIX
    ? 'no_keychain'
    : 'keychain';
}

/** Whether `error` is Electron's "temporarily unavailable" refusal of a decrypt. */
export function isTemporarilyUnavailable(error: unknown): boolean {
  return error instanceof Error && /temporarily unavailable/i.test(error.message);
}

/**
 * Whether sealed bytes are a safeStorage seal (`v10`/`v11`…: OSCrypt's prefix), not a file-key box's (first byte 1).
 */
export function isSafeStorageSeal(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 3 && bytes[0] === 0x76 /* v */ && bytes[1] !== undefined && bytes[1] >= 0x30 && bytes[1] <= 0x39
  );
}

/** How often, and how long apart, a temporarily unavailable keychain is asked again. */
export interface RetryPlan {
  attempts: number;
  delayMs: (attempt: number) => number;
  sleep: (ms: number) => Promise<void>;
}

/**
 * Three more tries over about seven seconds: long enough for a keyring's service to start, short enough not to hang a
 * delivery.
 */
export const DEFAULT_RETRY: RetryPlan = {
  attempts: 4,
  delayMs: (attempt) => 1000 * 2 ** attempt,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Opens a safeStorage seal, asking again while the keychain is temporarily unavailable. */
async function openWithRetry(
  safeStorage: SafeStorageLike,
  bytes: Uint8Array,
  retry: RetryPlan,
): Promise<{ text: string; reseal: boolean }> {
  for (let attempt = 0; ; attempt++) {
    try {
      const { result, shouldReEncrypt } = await safeStorage.decryptStringAsync(Buffer.from(bytes));
      return { text: result, reseal: shouldReEncrypt };
    } catch (error) {
      if (!isTemporarilyUnavailable(error)) throw error;
      if (attempt + 1 >= retry.attempts) throw new SecretBoxLockedError('the keychain is locked or not answering yet');
      await retry.sleep(retry.delayMs(attempt));
    }
  }
}

/**
 * The box over a real keychain: new secrets sealed by `safeStorage`; a file-key seal from before
 * (made while no keychain answered) still opens, and is flagged to be sealed again here.
 */
export function keychainSecretBox(
  safeStorage: SafeStorageLike,
  fileBox: SecretBox,
  retry: RetryPlan = DEFAULT_RETRY,
): SecretBox {
  const open = async (bytes: Uint8Array) =>
    isSafeStorageSeal(bytes)
      ? openWithRetry(safeStorage, bytes, retry)
      : { text: await fileBox.decrypt(bytes), reseal: true };
  return {
    backend: () => 'keychain',
    encrypt: async (text) => new Uint8Array(await safeStorage.encryptStringAsync(text)),
    decrypt: async (bytes) => (await open(bytes)).text,
    open,
  };
}

/**
 * The box where no real keychain answers: new secrets go to the file-key box (`file_key`, whose
 * words say anyone who can read the data folder can read them); a seal made earlier with
 * Chromium's fixed key still opens, and is flagged to move to the file box.
 */
export function fileKeyFallbackBox(
  safeStorage: SafeStorageLike,
  fileBox: SecretBox,
  retry: RetryPlan = DEFAULT_RETRY,
): SecretBox {
  const open = async (bytes: Uint8Array) =>
    isSafeStorageSeal(bytes)
      ? { text: (await openWithRetry(safeStorage, bytes, retry)).text, reseal: true }
      : { text: await fileBox.decrypt(bytes), reseal: false };
  return {
    backend: () => fileBox.backend(),
    encrypt: (text) => fileBox.encrypt(text),
    decrypt: async (bytes) => (await open(bytes)).text,
    open,
  };
}

/** The app's box, from the probe: a keychain, the file-key box with its honest note, or none. */
export async function secretBoxFor(
  safeStorage: SafeStorageLike,
  platform: NodeJS.Platform,
  fileBox: () => SecretBox,
  unavailable: SecretBox,
  retry: RetryPlan = DEFAULT_RETRY,
): Promise<SecretBox> {
  const probe = await probeKeychain(safeStorage, platform);
  if (probe === 'unavailable') return unavailable;
  return probe === 'keychain'
    ? keychainSecretBox(safeStorage, fileBox(), retry)
    : fileKeyFallbackBox(safeStorage, fileBox(), retry);
}
