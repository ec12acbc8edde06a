/**
 * The record's sealed head beside the store (`activity-head.json` in the data folder, outside
 * `activity/`, so deleting the record's folder leaves it): each stream's head (count and the HMAC
 * the next line carries), sealed with an HMAC under the record key so whoever lacks the key can
 * neither forge nor roll it back to match a cut record; written atomically by the appends made
 * outside a store commit (the trigger host's batches). The decisions' head is committed in the
 * state with each change (DESIGN.md "Commit points"; `record-commit.ts`): this file then serves
 * traffic's head, and the decisions' head of a store not yet of format 7 (read once, at its first
 * commit).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../store/atomic-file';
import { mac, type RecordHead } from './record-chain';

/** The sealed head file's name in the data folder. */
export const HEAD_FILE = 'activity-head.json';

/** What the sealed head holds. */
export interface SealedHeads {
  decisions: RecordHead;
  traffic: RecordHead;
}

/** The sealed head file of a data folder. */
export function headPath(dataDir: string): string {
  return join(dataDir, HEAD_FILE);
}

const sealOf = (key: Uint8Array, heads: SealedHeads): string =>
  mac(key, `apollia activity head\n${JSON.stringify([heads.decisions, heads.traffic])}`);

const isHead = (value: unknown): value is RecordHead =>
  typeof value === 'object' &&
  value !== null &&
  Number.isSafeInteger((value as RecordHead).count) &&
  (value as RecordHead).count >= 0 &&
  typeof (value as RecordHead).last === 'string';

/**
 * The sealed heads: `missing` (no file), `forged` (not JSON of heads, or the seal fails under the
 * key), or the heads.
 */
export async function readHeads(
  dataDir: string,
  key: Uint8Array,
): Promise<{ state: 'missing' } | { state: 'forged' } | { state: 'ok'; heads: SealedHeads }> {
  let text: string;
  try {
    text = await readFile(headPath(dataDir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'missing' };
    throw error;
  }
  try {
    const value = JSON.parse(text) as { decisions?: unknown; traffic?: unknown; seal?: unknown };
    if (!isHead(value.decisions) || !isHead(value.traffic)) return { state: 'forged' };
    const heads = {
      decisions: { count: value.decisions.count, last: value.decisions.last },
      traffic: { count: value.traffic.count, last: value.traffic.last },
    };
    return value.seal === sealOf(key, heads) ? { state: 'ok', heads } : { state: 'forged' };
  } catch {
    return { state: 'forged' };
  }
}

/** Writes the sealed heads atomically (temp, fsync, rename, folder fsync); the caller holds the record's lock. */
export async function writeHeads(dataDir: string, key: Uint8Array, heads: SealedHeads): Promise<void> {
  await writeFileAtomic(headPath(dataDir), `${JSON.stringify({ ...heads, seal: sealOf(key, heads) })}\n`);
}
