/**
 * The activity record's commit in the state (DESIGN.md "Commit points"; format 7's `record`,
 * `schema/format-7.ts`): the decisions' head after the last change, sealed under the record key, and
 * that change's outbox, the exact lines appended to `decisions.jsonl` after the state's rename.
 * Read here without the store's lock by every writer of the record (`activity/activity-log.ts`), so
 * no writer appends before a committed change's lines are in; the head's seal is the record's
 * (`activity/record-commit.ts` `sealOf`).
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RecordCommit } from './schema/format-7';

export type { RecordCommit };

/** The record's commit of a data folder's state file, or null (no state, format 6 or older, not readable). */
export async function readCommit(dataDir: string): Promise<RecordCommit | null> {
  const path = join(dataDir, 'state.json');
  let text: string;
  try {
    const { mtimeMs, size, ino } = await stat(path);
    const stamp = `${mtimeMs}:${size}:${ino}`;
    const cached = cache.get(path);
    if (cached?.stamp === stamp) return cached.commit;
    text = await readFile(path, 'utf8');
    const commit = commitOf(text);
    cache.set(path, { stamp, commit });
    return commit;
  } catch {
    return null;
  }
}

/** The last state file read per path (the trigger host asks at every batch; a state file can be large). */
const cache = new Map<string, { stamp: string; commit: RecordCommit | null }>();

function commitOf(text: string): RecordCommit | null {
  try {
    const record = (JSON.parse(text) as { record?: unknown }).record as RecordCommit | null | undefined;
    if (typeof record !== 'object' || record === null) return null;
    const { head, seal, outbox } = record;
    if (
      typeof head !== 'object' ||
      head === null ||
      !Number.isSafeInteger(head.count) ||
      typeof head.last !== 'string' ||
      typeof seal !== 'string' ||
      !Array.isArray(outbox) ||
      !outbox.every((line) => typeof line === 'string')
    )
      return null;
    return { head: { count: head.count, last: head.last }, seal, outbox };
  } catch {
    return null;
  }
}
