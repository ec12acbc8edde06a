/**
 * Waiting runs seen and cleared (DESIGN.md "Triggers at run time": a fire becomes a run file in
 * `runs/pending/`; "waiting runs discarded" is a decision of the activity record): what the Runs
 * view and `apollia-desktop runs` list, and the discard of one run or of all of one trigger's.
 *
 * `runs/pending/` is read as hostile input: anything on this computer that can write the data folder
 * can put files there, and a webhook sender chose every byte of a payload. The listing is bounded
 * (the oldest {@link MAX_RUNS_LISTED} runs, each file read only up to {@link MAX_RUN_FILE_BYTES},
 * {@link MAX_LISTING_BYTES} in all), a link is never followed, a FIFO or a folder is never opened
 * for reading, and a file that cannot be read is listed as unreadable (it can still be discarded):
 * nothing in the folder can make the listing fail or hang. A payload's body is never answered, only
 * its `type`, bounded. A discard removes only names the listing parses as run files, by `unlink`
 * (a link is removed, never what it points to); a run an agent runtime took meanwhile is counted,
 * not an error.
 */
import { constants, type Dirent } from 'node:fs';
import { open, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiRequest } from '../../../shared/contract/api';
import { own } from '../../../shared/base/own';
import {
  queueFull,
  RUN_CAUSES,
  type RunCause,
  type RunsDiscarded,
  type WaitingRunsView,
  type WaitingRunView,
  type WaitingTriggerView,
} from '../../../shared/triggers/run-queue';
import { CoreError } from '../errors/index';
import type { StoreState } from '../store/state';
import { PENDING_DIR, parseRunFileName, type RunFileName } from '../triggers/run-requests';
import { waitingLimit } from '../triggers/host-config';
import { type ApiContext, recordActivity } from './context';

/** Most runs a listing reads and answers (the oldest); the rest are counted. */
export const MAX_RUNS_LISTED = 200;
/** Largest run file read; a larger one is listed as unreadable. A run this app writes is far smaller. */
export const MAX_RUN_FILE_BYTES = 1024 * 1024;
/** Most bytes one listing reads in all; the runs past it are listed from their names alone. */
export const MAX_LISTING_BYTES = 16 * 1024 * 1024;
/** Longest text answered from inside a run file (its target, its payload's type). */
export const MAX_RUN_TEXT = 200;

/** A run file of `runs/pending/`, as its name and its directory entry tell. */
interface RunEntry extends RunFileName {
  name: string;
  /** The entry is a symbolic link: never opened. */
  link: boolean;
  /** The entry is not a regular file (a folder, a FIFO, a socket): never opened. */
  special: boolean;
}

/** The run files of `runs/pending/`, oldest first (a missing folder: none). Other names are not runs. */
async function runEntries(dataDir: string): Promise<RunEntry[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(join(dataDir, PENDING_DIR), { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const runs: RunEntry[] = [];
  for (const entry of entries) {
    const run = parseRunFileName(entry.name);
    if (!run) continue;
    const link = entry.isSymbolicLink();
    runs.push({ ...run, name: entry.name, link, special: !link && !entry.isFile() });
  }
  return runs.sort((a, b) => a.firedAtMs - b.firedAtMs || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** `text` cut to {@link MAX_RUN_TEXT} characters (whole code points), marked when cut. */
function bounded(text: string): string {
  const chars = [...text];
  return chars.length <= MAX_RUN_TEXT ? text : `${chars.slice(0, MAX_RUN_TEXT).join('')}…`;
}

/** What one run file holds that may be shown, or why it could not be read. */
type RunContent =
  | { ok: true; target: string | null; cause: RunCause | null; payloadType: string | null; hasPayload: boolean }
  | { ok: false; why: string };

/** The shown fields of a parsed run file; a shape this app never writes is unreadable. */
function contentOf(value: unknown): RunContent {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, why: 'it is not a run request (not a JSON object)' };
  const run = value as Record<string, unknown>;
  const cause = RUN_CAUSES.find((c) => c === run['cause']) ?? null;
  const payload = run['payload'];
  const hasPayload = typeof payload === 'object' && payload !== null && !Array.isArray(payload);
  const type = hasPayload ? (payload as Record<string, unknown>)['type'] : null;
  return {
    ok: true,
    target: typeof run['target'] === 'string' ? bounded(run['target']) : null,
    cause,
    payloadType: typeof type === 'string' ? bounded(type) : null,
    hasPayload,
  };
}

/** Bytes left for the listing to read. */
interface ReadBudget {
  left: number;
}

/**
 * Reads one run file under the bounds: never through a link (`O_NOFOLLOW`), never blocking on a
 * FIFO (`O_NONBLOCK`, then only a regular file is read), at most {@link MAX_RUN_FILE_BYTES}.
 * `null` when it is gone (an agent runtime took it meanwhile).
 */
async function readRun(path: string, budget: ReadBudget): Promise<RunContent | null> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') return { ok: false, why: 'it is a link, not a file: not followed' };
    return { ok: false, why: `it could not be opened (${code ?? 'error'})` };
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { ok: false, why: 'it is not a regular file' };
    if (stat.size > MAX_RUN_FILE_BYTES)
      return { ok: false, why: `it is larger than ${MAX_RUN_FILE_BYTES / 1024 / 1024} MiB: not read` };
    if (stat.size > budget.left) return { ok: false, why: 'not read: this listing already read its most bytes' };
    // Read to the bound, not to the size stat gave: the file may grow between the two.
    const buffer = Buffer.alloc(Math.min(MAX_RUN_FILE_BYTES, budget.left) + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    budget.left -= length;
    if (length === buffer.length) return { ok: false, why: 'it grew past what a listing reads: not read' };
    let parsed: unknown;
    try {
      parsed = JSON.parse(buffer.subarray(0, length).toString('utf8'));
    } catch {
      return { ok: false, why: 'it is not JSON' };
    }
    return contentOf(parsed);
  } catch (error) {
    return { ok: false, why: `it could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  } finally {
    await handle.close();
  }
}

/** What the store says of a trigger: its name and agent (null when it is no longer on this computer). */
function triggerFacts(state: StoreState, triggerId: string) {
  const trigger = own(state.triggers, triggerId);
  const agent = trigger?.agentId ? own(state.agents, trigger.agentId) : undefined;
  return {
    triggerName: trigger?.name ?? null,
    agentId: trigger?.agentId ?? null,
    agentName: agent?.displayName ?? null,
    limit: trigger ? waitingLimit(trigger) : null,
  };
}

/** One listed run: what its name says, what its file says (read under the bounds), what the store says. */
async function runView(dataDir: string, state: StoreState, entry: RunEntry, budget: ReadBudget) {
  const content: RunContent | null = entry.link
    ? { ok: false, why: 'it is a link, not a file: not followed' }
    : entry.special
      ? { ok: false, why: 'it is not a regular file' }
      : await readRun(join(dataDir, PENDING_DIR, entry.name), budget);
  if (content === null) return null;
  const { triggerName, agentId, agentName } = triggerFacts(state, entry.trigger);
  const view: WaitingRunView = {
    id: entry.runId,
    trigger: entry.trigger,
    triggerName,
    agentId,
    agentName,
    target: content.ok ? content.target : null,
    firedAt: new Date(entry.firedAtMs).toISOString(),
    cause: content.ok ? content.cause : null,
    payloadType: content.ok ? content.payloadType : null,
    hasPayload: content.ok ? content.hasPayload : false,
    unreadable: content.ok ? null : content.why,
  };
  return view;
}

/** What waits in `runs/pending/` (one trigger's when asked), oldest first, bounded (see the module comment). */
export async function waitingRuns(ctx: ApiContext, request: ApiRequest<'waitingRuns'>): Promise<WaitingRunsView> {
  const { dataDir } = ctx.deps;
  const state = await ctx.store.read();
  const all = await runEntries(dataDir);
  const entries = request?.trigger === undefined ? all : all.filter((e) => e.trigger === request.trigger);
  const counts = new Map<string, number>();
  for (const entry of entries) counts.set(entry.trigger, (counts.get(entry.trigger) ?? 0) + 1);
  const budget: ReadBudget = { left: MAX_LISTING_BYTES };
  const runs: WaitingRunView[] = [];
  for (const entry of entries.slice(0, MAX_RUNS_LISTED)) {
    const view = await runView(dataDir, state, entry, budget);
    if (view) runs.push(view);
  }
  const triggers: WaitingTriggerView[] = [...counts]
    .map(([trigger, waiting]) => {
      const { triggerName, agentId, agentName, limit } = triggerFacts(state, trigger);
      return { trigger, triggerName, agentId, agentName, waiting, limit, full: queueFull(waiting, limit) };
    })
    .sort((a, b) => b.waiting - a.waiting || (a.trigger < b.trigger ? -1 : a.trigger > b.trigger ? 1 : 0));
  const listedGone = Math.min(entries.length, MAX_RUNS_LISTED) - runs.length;
  return {
    total: entries.length - listedGone,
    runs,
    notListed: Math.max(0, entries.length - MAX_RUNS_LISTED),
    triggers,
  };
}

/** Removes the run files `entries` names; those gone meanwhile are counted, any other failure refuses after. */
async function removeRuns(
  ctx: ApiContext,
  trigger: string,
  entries: RunEntry[],
): Promise<RunsDiscarded & { failed: string[] }> {
  const discarded: string[] = [];
  const failed: string[] = [];
  let alreadyTaken = 0;
  for (const entry of entries) {
    try {
      await unlink(join(ctx.deps.dataDir, PENDING_DIR, entry.name));
      discarded.push(entry.runId);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') alreadyTaken++;
      else failed.push(`${entry.runId} (${code ?? 'error'})`);
    }
  }
  return { trigger, discarded, alreadyTaken, failed };
}

/** Records a discard (a decision), then refuses if some run could not be removed. */
async function recordDiscard(ctx: ApiContext, done: RunsDiscarded & { failed: string[] }, detail: string) {
  if (done.discarded.length > 0) {
    const state = await ctx.store.read();
    const trigger = own(state.triggers, done.trigger);
    await recordActivity(ctx, [
      {
        kind: 'runs_discarded',
        ...(trigger?.packageName ? { package: trigger.packageName } : {}),
        ...(trigger?.agentId ? { agent: trigger.agentId } : {}),
        trigger: done.trigger,
        outcome: 'ok',
        detail,
      },
    ]);
  }
  if (done.failed.length > 0)
    throw new CoreError(
      'run.not_discarded',
      `${done.failed.length === 1 ? 'A waiting run' : `${done.failed.length} waiting runs`} could not be discarded: ${done.failed.join(', ')}${done.discarded.length > 0 ? `; ${done.discarded.length} discarded` : ''}.`,
    );
  return { trigger: done.trigger, discarded: done.discarded, alreadyTaken: done.alreadyTaken };
}

/** Discards one waiting run by its id; recorded as `runs_discarded`. */
export async function discardWaitingRun(
  ctx: ApiContext,
  request: ApiRequest<'discardWaitingRun'>,
): Promise<RunsDiscarded> {
  const entries = (await runEntries(ctx.deps.dataDir)).filter((e) => e.runId === request.runId);
  const first = entries[0];
  const gone = () =>
    new CoreError(
      'run.unknown',
      `No run \`${request.runId}\` is waiting: an agent runtime may have taken it, or it was discarded.`,
    );
  if (!first) throw gone();
  const done = await removeRuns(ctx, first.trigger, entries);
  if (done.discarded.length === 0 && done.failed.length === 0) throw gone();
  return recordDiscard(
    ctx,
    done,
    `discarded 1 waiting run: run ${request.runId}, queued ${new Date(first.firedAtMs).toISOString()}`,
  );
}

/** Discards every run one trigger has waiting; recorded as one `runs_discarded`. */
export async function discardTriggerRuns(
  ctx: ApiContext,
  request: ApiRequest<'discardTriggerRuns'>,
): Promise<RunsDiscarded> {
  const entries = (await runEntries(ctx.deps.dataDir)).filter((e) => e.trigger === request.triggerId);
  if (entries.length === 0)
    throw new CoreError('run.none_waiting', `Trigger \`${request.triggerId}\` has no run waiting: nothing to discard.`);
  const done = await removeRuns(ctx, request.triggerId, entries);
  const n = done.discarded.length;
  if (n === 0 && done.failed.length === 0)
    throw new CoreError(
      'run.none_waiting',
      `Trigger \`${request.triggerId}\` has no run waiting any more: an agent runtime took them.`,
    );
  return recordDiscard(
    ctx,
    done,
    `discarded ${n === 1 ? '1 waiting run' : `${n} waiting runs`}${done.alreadyTaken > 0 ? ` (${done.alreadyTaken} had been taken meanwhile)` : ''}`,
  );
}
