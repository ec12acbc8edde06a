/**
 * Reading the record's files (DESIGN.md "Triggers at run time", the activity record): whole files
 * as lines, the last line of a file without reading it all, and an entry parsed back from a line
 * (a line that is not an entry — a torn last line after a crash — is null).
 */
import { open, readFile } from 'node:fs/promises';
import {
  ACTIVITY_KINDS,
  type ActivityEvent,
  type ActivityKind,
  type ActivityOutcome,
} from '../../../shared/activity/activity-kinds';

export type { ActivityEvent };

/** The outcomes an entry may carry. */
export const OUTCOMES: readonly ActivityOutcome[] = ['ok', 'refused', 'skipped', 'failed'];

/** An entry read back from a line, or null when the line is not one. */
export function parseEntry(line: string): ActivityEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.at !== 'string' || typeof v.kind !== 'string' || !ACTIVITY_KINDS.includes(v.kind as ActivityKind))
    return null;
  if (typeof v.outcome !== 'string' || !OUTCOMES.includes(v.outcome as ActivityOutcome) || typeof v.detail !== 'string')
    return null;
  const event: ActivityEvent = {
    at: v.at,
    kind: v.kind as ActivityKind,
    outcome: v.outcome as ActivityOutcome,
    detail: v.detail,
  };
  for (const key of ['package', 'agent', 'trigger'] as const)
    if (typeof v[key] === 'string') event[key] = v[key] as string;
  return event;
}

/** The last line of a file (without its newline) and whether the file ends with one; null when empty or missing. */
export async function lastLine(path: string): Promise<{ text: string; terminated: boolean } | null> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return null;
    // Lines are bounded (cleaned fields), so the tail holds the whole last line.
    const length = Math.min(size, 64 * 1024);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    const text = buffer.toString('utf8');
    const terminated = text.endsWith('\n');
    const body = terminated ? text.slice(0, -1) : text;
    return { text: body.slice(body.lastIndexOf('\n') + 1), terminated };
  } finally {
    await handle.close();
  }
}

/** The lines of a file (none when it is missing). */
export async function readLines(path: string): Promise<string[]> {
  try {
    const text = await readFile(path, 'utf8');
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    return lines;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
