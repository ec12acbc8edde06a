/**
 * The rule of one install link's form at a time (DESIGN.md "Feeds, updates and install links"),
 * pure: which opened source waits, and when the waiting one opens. `link-queue.ts` applies it to the
 * window's flow store.
 */
import type { SourceHandle } from '../../../shared/contract/api';

const isLink = (source: SourceHandle) => source.feed?.link === true;

/** Whether `incoming` (from the host) waits: a link's source while another link's form is open. */
export function linkWaits(open: readonly SourceHandle[], incoming: SourceHandle): boolean {
  if (!isLink(incoming) || open.some((s) => s.id === incoming.id)) return false;
  return open.some((s) => isLink(s) && s.id !== incoming.id);
}

/** Whether the waiting link opens now: no other link's form is open any more. */
export function waitingOpens(open: readonly SourceHandle[], waiting: SourceHandle): boolean {
  return !open.some((s) => isLink(s) && s.id !== waiting.id);
}
