/**
 * Traffic's rotation (a recorded `traffic_rotated` decision naming the file set aside, its last entry and link, and
 * the file dropped) and the record read newest first, for `ActivityLog` (structural: no import back to it).
 */
import { rename, rm, stat } from 'node:fs/promises';
import { chainFields, mac, type RecordHead, type RecordStream } from './record-chain';
import { type ActivityEvent, lastLine, parseEntry, readLines } from './record-files';
import type { ActivityInput } from '../../../shared/activity/activity-kinds';

/** The current traffic file's name (`ActivityLog`'s `TRAFFIC_FILE`). */
const TRAFFIC_FILE = 'traffic.jsonl';
/** Past this many times its size, a traffic file is rotated whatever the floor (`ActivityLog`'s). */
const ROTATE_HARD_FACTOR = 8;

/** What rotation and listing need of the log. */
export interface RotatingLog {
  readonly trafficFileBytes: number;
  readonly trafficFiles: number;
  readonly rotateFloorMs: number;
  trafficPath(n?: number): string;
  files(stream: RecordStream): string[];
  clean(input: ActivityInput): ActivityEvent;
}

/**
 * Rotates traffic when the current file is past its size and the last rotation past the floor
 * (or the file far past its size); returns the `traffic_rotated` decision to record, naming the
 * file, its last entry and link, and the file dropped (caller holds the lock).
 */
export async function rotateIfDue(log: RotatingLog, key: Uint8Array, head: RecordHead): Promise<object | null> {
  const size = (await stat(log.trafficPath())).size;
  if (size <= log.trafficFileBytes) return null;
  const lastRotation = await stat(log.trafficPath(1)).then(
    (s) => s.ctimeMs,
    () => 0,
  );
  if (size <= log.trafficFileBytes * ROTATE_HARD_FACTOR && Date.now() - lastRotation < log.rotateFloorMs) return null;
  const dropped = log.trafficPath(log.trafficFiles);
  const droppedLast = await lastLine(dropped);
  const droppedFields = droppedLast ? chainFields(droppedLast.text) : null;
  const droppedLink =
    droppedLast && droppedFields?.seq !== undefined
      ? { file: `traffic.${log.trafficFiles}.jsonl`, count: droppedFields.seq, next: mac(key, droppedLast.text) }
      : null;
  await rm(dropped, { force: true });
  for (let n = log.trafficFiles - 1; n >= 0; n--) {
    await rename(log.trafficPath(n), log.trafficPath(n + 1)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
  const rotated = { file: TRAFFIC_FILE, count: head.count, next: head.last };
  const detail = `traffic.jsonl set aside as traffic.1.jsonl after traffic entry ${head.count}${
    droppedLink ? `; traffic.${log.trafficFiles}.jsonl dropped (traffic entries up to ${droppedLink.count})` : ''
  }`;
  return {
    ...log.clean({ kind: 'traffic_rotated', outcome: 'ok', detail }),
    rotation: { rotated, dropped: droppedLink },
  };
}

export async function listEntries(
  log: RotatingLog,
  filter: { agent?: string; package?: string; limit?: number; decisionsOnly?: boolean },
): Promise<ActivityEvent[]> {
  const all: ActivityEvent[] = [];
  for (const stream of filter.decisionsOnly ? (['decisions'] as const) : (['decisions', 'traffic'] as const)) {
    for (const path of log.files(stream)) {
      for (const line of await readLines(path)) {
        const event = parseEntry(line);
        if (!event) continue;
        if (
          filter.agent !== undefined &&
          event.agent !== filter.agent &&
          !(filter.package !== undefined && event.agent === undefined && event.package === filter.package)
        )
          continue;
        all.push(event);
      }
    }
  }
  // Newest first; entries of one instant keep the order they were written in.
  const order = all.map((event, i) => ({ event, i }));
  order.sort((a, b) => (a.event.at === b.event.at ? b.i - a.i : a.event.at < b.event.at ? 1 : -1));
  const sorted = order.map((o) => o.event);
  return filter.limit === undefined ? sorted : sorted.slice(0, filter.limit);
}
