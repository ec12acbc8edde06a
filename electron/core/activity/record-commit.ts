/**
 * The activity record's side of the store's commit (DESIGN.md "Commit points"): the decisions of a
 * change chained after the record's end, handed to the store's write as the state's `record` (the
 * head after them, sealed, and the lines: the outbox), then appended to `decisions.jsonl`. One
 * rename commits the change and its record; an append that does not happen (a kill, a full disk)
 * is made from the outbox by the next writer of the record or the next open (`flushOutbox`).
 *
 * Every writer of the record holds its lock and flushes the committed outbox first, so no line is
 * ever chained after a record that lacks a committed change's lines.
 */
import { open, truncate } from 'node:fs/promises';
import type { RecordCommit } from '../store/outbox';
import { chainFields, mac, type RecordHead } from './record-chain';
import { lastLine } from './record-files';

/** The seal of a committed head: an HMAC under the record key, so whoever lacks the key cannot forge or roll one. */
export function sealOf(key: Uint8Array, head: RecordHead): string {
  return mac(key, `apollia committed head\n${JSON.stringify([head.count, head.last])}`);
}

/** A committed head's breaks against the record's end: each a detail for a `record_broken` decision. */
export function commitBreaks(key: Uint8Array, commit: RecordCommit, tail: RecordHead): string[] {
  if (commit.seal !== sealOf(key, commit.head))
    return ["the record's head committed in state.json failed its seal: it was changed without the record key"];
  const { head } = commit;
  if (tail.count < head.count)
    return [
      `${head.count - tail.count} decisions were missing at the end (the committed head counted ${head.count}, the record ended at ${tail.count})`,
    ];
  if (tail.count === head.count && tail.last !== head.last)
    return ['the last decision was not the one the committed head named: the record was changed or replaced'];
  return [];
}

/**
 * The lines of a committed outbox the record lacks, when they follow its end (`tail`): none when
 * the record holds them, or when it ends elsewhere (cut or replaced: `verify` names that break,
 * and appending would only hide where it is).
 */
export function pendingLines(commit: RecordCommit | null, tail: RecordHead): string[] {
  if (!commit) return [];
  const pending = commit.outbox.filter((line) => (chainFields(line)?.seq ?? 0) > tail.count);
  const first = pending.length > 0 ? chainFields(pending[0] as string) : null;
  if (!first || first.seq !== tail.count + 1 || first.hmac !== tail.last) return [];
  return pending;
}

/**
 * Appends whole lines to a record file. A last line cut short by a crash that is the start of one
 * of `lines` (the same append, interrupted) is cut off first; any other starts a line of its own.
 */
export async function appendLines(path: string, lines: readonly string[]): Promise<void> {
  if (lines.length === 0) return;
  const last = await lastLine(path);
  let prefix = '';
  if (last !== null && !last.terminated) {
    if (lines.some((line) => line.startsWith(last.text) && line !== last.text)) {
      const handle = await open(path, 'r');
      const { size } = await handle.stat().finally(() => handle.close());
      await truncate(path, size - Buffer.byteLength(last.text));
    } else prefix = '\n';
  }
  const handle = await open(path, 'a', 0o600);
  try {
    await handle.writeFile(`${prefix}${lines.join('\n')}\n`);
  } finally {
    await handle.close();
  }
}

/** fsyncs a record file (missing: nothing to flush), before the outbox that covered its last lines is replaced. */
export async function syncRecordFile(path: string): Promise<void> {
  let handle;
  try {
    handle = await open(path, 'r+');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
