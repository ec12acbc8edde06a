/**
 * The hand-off to the agent runtime: one JSON file per fired trigger in `runs/pending/` of the data
 * folder (DESIGN.md "Triggers at run time"). This app never runs an agent; the runtime takes a file
 * by renaming or deleting it. The format is documented in this module's README.
 *
 * File name: `<base64url(trigger id)>.<fired_at ms, 13 digits>.<run id>.json`, so the runs a trigger
 * has waiting are counted from names alone (`max_concurrent`), and a listing sorts by trigger then age.
 * Written atomically (temp file, fsync, rename, the folder's fsync): a reader never sees half a file.
 */
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunCause } from '../../../shared/triggers/run-queue';
import { writeFileAtomic } from '../store/atomic-file';
import { DurableFolder, type DurableFolderFaults } from '../store/durable-folder';

export type { RunCause } from '../../../shared/triggers/run-queue';

/** Folder of waiting run requests, relative to the data folder. */
export const PENDING_DIR = join('runs', 'pending');

/** What the run is given. */
export interface RunInput {
  /** The trigger's own input text (the template's `input`, the package's `input`), or null. */
  text: string | null;
  /** file_watch: the paths that changed in this burst (absolute), at most {@link MAX_CHANGED_PATHS}. */
  changed_paths?: string[];
  /** file_watch: how many more changed paths there were beyond those listed. */
  changed_paths_more?: number;
}

/** A webhook delivery as handed on: untrusted, always marked so. */
export interface RunPayload {
  untrusted: true;
  webhook_id: string;
  /** The body's `type` when it is a JSON object with a string `type`. */
  type: string | null;
  /** The body: parsed JSON when it parses, else the raw text. */
  body: unknown;
}

/** One run request (`runs/pending/*.json`). */
export interface RunRequest {
  /** Unique id of this run request. */
  id: string;
  /** The store trigger id. */
  trigger: string;
  /**
   * What the trigger starts, by its store id: `package/agent`, `package/workflow`, or a template agent's id ({@link
   * runTarget}).
   */
  target: string;
  input: RunInput;
  payload?: RunPayload;
  /** ISO 8601 time it fired. */
  fired_at: string;
  cause: RunCause;
}

/** Most changed paths a run lists (the rest are counted). */
export const MAX_CHANGED_PATHS = 1000;

const encodeId = (trigger: string) => Buffer.from(trigger, 'utf8').toString('base64url');

/** The file name of a run request (see the module comment). */
export function runFileName(request: RunRequest): string {
  return `${encodeId(request.trigger)}.${String(Date.parse(request.fired_at)).padStart(13, '0')}.${request.id}.json`;
}

/**
 * Writes run requests into `runs/pending/` of one data folder (the host holds one): each file
 * atomically (temp file, fsync, rename), the folder's fsync shared by the files written at the same
 * time (a group commit, on a worker thread: `store/durable-folder.ts`). The folder is made when missing.
 */
export class RunRequestWriter {
  private readonly folder: DurableFolder;

  constructor(dataDir: string, faults?: DurableFolderFaults) {
    this.folder = new DurableFolder(join(dataDir, PENDING_DIR), faults);
  }

  /** Writes one run request; resolves with its path once the file and its name are durable. */
  write(request: RunRequest): Promise<string> {
    return this.folder.write(runFileName(request), runRequestText(request));
  }

  /** Waits for writes under way to be synced, then releases the folder's handle. */
  close(): Promise<void> {
    return this.folder.close();
  }
}

/** Writes one run request on its own, atomically, as the host's writer does (tests, tools). */
export async function writeRunRequest(dataDir: string, request: RunRequest): Promise<string> {
  const dir = join(dataDir, PENDING_DIR);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, runFileName(request));
  await writeFileAtomic(path, runRequestText(request));
  return path;
}

/** A run request as its file holds it. */
function runRequestText(request: RunRequest): string {
  return `${JSON.stringify(request, null, 2)}\n`;
}

/** What is waiting in `runs/pending/`: per trigger, the count and the oldest fire time. */
export interface PendingRuns {
  total: number;
  /** ISO time of the oldest waiting run, or null. */
  oldest: string | null;
  byTrigger: Map<string, number>;
}

/** What a run file's name tells: its trigger, when it fired, its run id. */
export interface RunFileName {
  trigger: string;
  firedAtMs: number;
  runId: string;
}

/** Parses a name of `runs/pending/` (see the module comment); null for any other name (a temp file, a stray). */
export function parseRunFileName(name: string): RunFileName | null {
  const match = /^([A-Za-z0-9_-]+)\.(\d{13})\.([A-Za-z0-9-]+)\.json$/.exec(name);
  if (!match) return null;
  return {
    trigger: Buffer.from(match[1] as string, 'base64url').toString('utf8'),
    firedAtMs: Number(match[2]),
    runId: match[3] as string,
  };
}

/** Reads what waits in `runs/pending/` from the file names (no file is opened). Missing folder: nothing waits. */
export async function pendingRuns(dataDir: string): Promise<PendingRuns> {
  let names: string[];
  try {
    names = await readdir(join(dataDir, PENDING_DIR));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { total: 0, oldest: null, byTrigger: new Map() };
    throw error;
  }
  const byTrigger = new Map<string, number>();
  let oldest = Number.POSITIVE_INFINITY;
  let total = 0;
  for (const name of names) {
    const run = parseRunFileName(name);
    if (!run) continue;
    byTrigger.set(run.trigger, (byTrigger.get(run.trigger) ?? 0) + 1);
    oldest = Math.min(oldest, run.firedAtMs);
    total++;
  }
  return { total, oldest: Number.isFinite(oldest) ? new Date(oldest).toISOString() : null, byTrigger };
}

/**
 * A run request's `target`: the id the rest of the app uses for what the trigger starts, the same
 * form as `activity --agent` takes: an agent's store id (`invoices/invoice-clerk`, a template
 * agent's id), or a package workflow as `package/workflow` (the spec's address of a workflow).
 * A package trigger records its manifest's bare target (`invoice-clerk`), which alone names
 * nothing outside its package.
 */
export function runTarget(trigger: { agentId: string | null; packageName: string | null; target: string }): string {
  if (trigger.agentId !== null) return trigger.agentId;
  return trigger.packageName !== null ? `${trigger.packageName}/${trigger.target}` : trigger.target;
}
