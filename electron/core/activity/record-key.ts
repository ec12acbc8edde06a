/**
 * The record key (DESIGN.md "Triggers at run time", the activity record): one 32-byte key,
 * `record.key` beside the store (the data folder), 0600, shared by every writer (the app, the
 * trigger host, the CLI). Each line of the record carries an HMAC made with it, so whoever lacks
 * the key (a copy, a backup, a synced folder, another account, an edit by hand) cannot rewrite the
 * record, cut its tail or replace it unnoticed.
 *
 * Made once, atomically: 32 random bytes written to a temp file, fsynced, then hard-linked to
 * `record.key` (a link fails when the name exists, so two writers racing both end with the one key
 * that won), the temp removed and the folder fsynced.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { link, mkdir, open, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { syncDir } from '../store/atomic-file';

/** The key file's name in the data folder. */
export const RECORD_KEY_FILE = 'record.key';
/** The key's length in bytes. */
export const RECORD_KEY_BYTES = 32;

/** The record key file of a data folder. */
export function recordKeyPath(dataDir: string): string {
  return join(dataDir, RECORD_KEY_FILE);
}

/**
 * The record key of `dataDir`, or null when none was made yet. A file of the wrong length is an
 * error naming the file (never silently replaced: the record it keyed would read as rewritten).
 */
export async function readRecordKey(dataDir: string): Promise<Buffer | null> {
  let key: Buffer;
  try {
    key = await readFile(recordKeyPath(dataDir));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (key.length !== RECORD_KEY_BYTES)
    throw new Error(
      `${recordKeyPath(dataDir)} is not a record key (${key.length} bytes, not ${RECORD_KEY_BYTES}): the activity record cannot be checked or written`,
    );
  return key;
}

/**
 * The record key of `dataDir`, made now when there is none (`created` says so). Two processes
 * making it at once both get the same key: the first link wins.
 */
export async function openRecordKey(dataDir: string): Promise<{ key: Buffer; created: boolean }> {
  const existing = await readRecordKey(dataDir);
  if (existing) return { key: existing, created: false };
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const temp = join(dataDir, `.${RECORD_KEY_FILE}.tmp-${process.pid}-${randomUUID()}`);
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(randomBytes(RECORD_KEY_BYTES));
    await handle.sync();
  } finally {
    await handle.close();
  }
  let created = true;
  try {
    await link(temp, recordKeyPath(dataDir));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    created = false;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  await syncDir(dataDir);
  const key = await readRecordKey(dataDir);
  if (!key) throw new Error(`${recordKeyPath(dataDir)} vanished as it was made`);
  return { key, created };
}
