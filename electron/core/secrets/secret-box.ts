/**
 * Where secrets (webhook signing secrets, saved API keys) are sealed before the store keeps them.
 *
 * DESIGN.md "Consent, install, apply": a webhook secret is "stored encrypted with the OS keychain
 * via safeStorage". Electron main passes a box over `safeStorage.encryptStringAsync` /
 * `decryptStringAsync` (TOOLCHAIN.md: the sync calls are deprecated); this module has no `electron`
 * import, so it declares the interface and a FILE-KEY box for tests and the CLI, which is not a
 * keychain and says so (`backend()` is `file_key`).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { link, mkdir, open, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { SecretBackend } from '../../../shared/contract/api';
import { CoreError } from '../errors/index';
import { syncDir } from '../store/atomic-file';
import { processAlive } from '../store/pid-lock';

/** Seals and opens secrets. `backend()` tells the user honestly where they live. */
export interface SecretBox {
  backend(): SecretBackend;
  encrypt(text: string): Promise<Uint8Array>;
  decrypt(bytes: Uint8Array): Promise<string>;
  /**
   * Resolves once the box knows where secrets go (`backend()` is no longer `pending`): the app's
   * window opens before the keychain answers, and what needs a secret waits here. Absent: ready.
   */
  ready?(): Promise<void>;
  /**
   * Opens a sealed secret and says whether it should be sealed again (Electron's `shouldReEncrypt`:
   * a rotated key, or a seal from a weaker place than the box keeps new ones). Absent: never.
   */
  open?(bytes: Uint8Array): Promise<{ text: string; reseal: boolean }>;
}

/**
 * The keychain holds the key but cannot give it now (locked, its service not answering yet):
 * the secret is intact, and asking again later works. Never a reason to rotate a secret.
 */
export class SecretBoxLockedError extends Error {
  readonly temporary = true;
}

/** Whether `error` says the keychain is only unavailable for now ({@link SecretBoxLockedError}). */
export function isSecretBoxLocked(error: unknown): boolean {
  return (
    error instanceof SecretBoxLockedError ||
    (typeof error === 'object' && error !== null && (error as { temporary?: unknown }).temporary === true)
  );
}

/**
 * A box usable at once over one still being made (the keychain probed at start, which can wait on
 * an unlock prompt or a hung D-Bus call): `backend()` is `pending` until then, and every seal and
 * open waits for it. A box that could not be made is the unavailable box, and `onError` is told.
 */
export function deferredSecretBox(
  making: Promise<SecretBox>,
  onError: (error: unknown) => void = () => undefined,
): SecretBox {
  let made: SecretBox | null = null;
  const settled = making.then(
    (box) => {
      made = box;
      return box;
    },
    (error: unknown) => {
      onError(error);
      made = unavailableSecretBox;
      return unavailableSecretBox;
    },
  );
  return {
    backend: () => (made ? made.backend() : 'pending'),
    ready: async () => {
      await (await settled).ready?.();
    },
    encrypt: async (text) => (await settled).encrypt(text),
    decrypt: async (bytes) => (await settled).decrypt(bytes),
    open: async (bytes) => {
      const box = await settled;
      return box.open ? box.open(bytes) : { text: await box.decrypt(bytes), reseal: false };
    },
  };
}

const KEY_FILE = 'secret-box.key';
const VERSION = 1;

/**
 * Where {@link createFileKeySecretBox} keeps its key for a given folder. The CLI names this file
 * whenever it seals a secret with it (DESIGN.md: say so, and say where the key lives).
 */
export function fileKeyPath(dir: string): string {
  return join(dir, KEY_FILE);
}

/**
 * Makes the key file once, whole: a fresh key written to a temp file of this process and fsynced,
 * then hard-linked to the key's name (DESIGN.md "Commit points": a secret written atomically, made
 * once). `link` fails when the name exists, so two processes making it at once agree on the one that
 * was linked first; a kill at any step leaves no key file or a whole one, never a torn one.
 */
async function makeKeyFile(dir: string, path: string): Promise<Buffer> {
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${KEY_FILE}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
  const fresh = randomBytes(32);
  try {
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(fresh);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await link(temp, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      return await readKeyFile(path);
    }
    await syncDir(dir);
    return fresh;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/** Removes the temp key files that killed processes left in `dir` (none holds a key anyone uses). */
async function sweepKeyTemps(dir: string): Promise<void> {
  const prefix = `.${KEY_FILE}.tmp-`;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (name.startsWith(prefix) && !processAlive(Number.parseInt(name.slice(prefix.length), 10)))
      await unlink(join(dir, name)).catch(() => undefined);
  }
}

/** The key at `path`; a file of another length is refused as `secret.key_damaged`, saying what to do. */
async function readKeyFile(path: string): Promise<Buffer> {
  const bytes = await readFile(path);
  if (bytes.length !== 32)
    throw new CoreError(
      'secret.key_damaged',
      `the secret key file ${path} is damaged (${bytes.length} bytes, not a 32-byte key): the secrets sealed with it cannot be opened. ` +
        'Put back the key from a backup of the data folder, or move the file away and set each secret again ' +
        '(`rotate` for a webhook secret, `mcp add` for a saved key)',
    );
  return bytes;
}

/**
 * A box keyed by a random 32-byte key in `dir/secret-box.key` (mode 0600), AES-256-GCM.
 * NOT A KEYCHAIN: anyone who can read the data folder can read the key. Used by tests and the
 * CLI (which cannot reach Electron's safeStorage); reports `file_key` so nothing pretends otherwise.
 * The key file is made on first encrypt, never on read, so inspecting leaves the folder untouched.
 */
export function createFileKeySecretBox(dir: string): SecretBox {
  let key: Promise<Buffer> | null = null;
  const loadKey = (create: boolean): Promise<Buffer> => {
    key ??= (async () => {
      const path = fileKeyPath(dir);
      if (create) await sweepKeyTemps(dir);
      try {
        return await readKeyFile(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !create) throw error;
        return makeKeyFile(dir, path);
      }
    })();
    const pending = key;
    pending.catch(() => {
      if (key === pending) key = null;
    });
    return pending;
  };
  return {
    backend: () => 'file_key',
    async encrypt(text) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', await loadKey(true), iv);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
    },
    async decrypt(bytes) {
      const data = Buffer.from(bytes);
      if (data.length < 29 || data[0] !== VERSION) throw new Error('sealed secret has an unknown format');
      const decipher = createDecipheriv('aes-256-gcm', await loadKey(false), data.subarray(1, 13));
      decipher.setAuthTag(data.subarray(13, 29));
      return Buffer.concat([decipher.update(data.subarray(29)), decipher.final()]).toString('utf8');
    },
  };
}

/** A box for a machine that cannot keep secrets: every seal is refused, so nothing is stored in clear. */
export const unavailableSecretBox: SecretBox = {
  backend: () => 'unavailable',
  encrypt: () => Promise.reject(new Error('this machine has no way to keep secrets')),
  decrypt: () => Promise.reject(new Error('this machine has no way to keep secrets')),
};
