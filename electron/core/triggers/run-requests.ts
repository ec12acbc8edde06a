/**
 * The hand-off to the agent runtime: one JSON file per fired trigger in `runs/pending/` of the data
 * folder (DESIGN.md "Triggers at run time"). This app never runs an agent; the runtime takes a file
 * by renaming or deleting it. The format is documented in this module's README.
 *
 * File name: `<base64url(trigger id)>.<fired_at ms, 13 digits>.<run id>.json`, so the runs a trigger
 * has waiting are counted from names alone (`max_concurrent`), and a listing sorts by trigger then age.
 * One line of JSON. Written atomically (temp file, then renamed in): a reader never sees half a file.
 */
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunCause } from '../../../shared/triggers/run-queue';
import { writeFileAtomic } from '../store/atomic-file';
import type { DurableFolderFaults } from '../store/durable-folder';
import { IntakeJournal, type JournalRun, type LastFire, type SeenMark } from './intake-journal';
import { killAsked, killPoint } from './kill-point';
import { type RunFile, RunFiles } from './run-files';

export type { RunCause } from '../../../shared/triggers/run-queue';

/** Folder of waiting run requests, relative to the data folder. */
export const PENDING_DIR = join('runs', 'pending');
/** Where a runtime moves a run file it takes (or it deletes it), relative to the data folder. */
export const TAKEN_DIR = join('runs', 'taken');

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

/** Options of a host's run writer: the replay window's clock, the journal's trim threshold, test hooks. */
export interface RunWriterOptions {
  now: () => number;
  seenWindowMs: number;
  trimBytes?: number;
  faults?: DurableFolderFaults;
  /** A problem the writer met off the answer's path (a run file it will make again), as a host line. */
  onProblem?: (text: string) => void;
  /** A journaled run's file is now in `runs/pending/` (the count of runs waiting moves it from unfiled). */
  onFiled?: (trigger: string) => void;
  /** A run the journal held at start whose file is still to be made: it waits, unfiled. */
  onQueued?: (trigger: string) => void;
}

/**
 * The run writer of one data folder (the host holds one), over the intake journal
 * (`intake-journal.ts`; the contract is in this module's README):
 *
 * 1. {@link write} appends the run to the journal (with the webhook-id it makes seen, see
 *    {@link tagSeen}); once the batch's `fdatasync` returned the run is durable and the caller answers.
 * 2. Off the answer's path (`run-files.ts`), a worker thread puts its file in `runs/pending/` (temp
 *    name, renamed in, no fsync); until then the run counts as waiting, unfiled.
 * 3. In the background, batched: a run whose file the runtime took is done; a file still waiting a
 *    moment later is fsynced (then the folder), and done. The journal forgets done runs at its trim.
 * 4. At {@link open} every run the journal holds that is not done is checked: in `runs/taken/`: done;
 *    in `runs/pending/` with exactly the content the journal holds: fsynced later; else (never made,
 *    or made torn) made again from the journal. Never lost, never twice.
 */
export class RunRequestWriter {
  private readonly files: RunFiles;
  readonly journal: IntakeJournal;
  private readonly seenTags = new WeakMap<object, string>();

  constructor(
    private readonly dataDir: string,
    private readonly options: RunWriterOptions,
  ) {
    this.journal = new IntakeJournal(dataDir, options);
    this.files = new RunFiles(join(dataDir, PENDING_DIR), {
      ...(options.faults ? { faults: options.faults } : {}),
      ...(options.onFiled ? { onFiled: options.onFiled } : {}),
      ...(options.onProblem ? { onProblem: options.onProblem } : {}),
      onDone: (runs) => this.journal.append({ t: 'done', runs }).catch(() => undefined),
    });
  }

  /**
   * Opens the journal and makes every run it holds that is neither pending (with its content) nor taken; resolves
   * with the seen ids and each trigger's last fire it holds, once those files are made.
   */
  async open(): Promise<{ seen: SeenMark[]; fires: LastFire[] }> {
    this.files.reopen();
    const contents = await this.journal.open();
    const done: string[] = [];
    for (const run of contents.runs) {
      const request = run as unknown as RunRequest;
      const name = runFileName(request);
      if (await isFile(join(this.dataDir, TAKEN_DIR, name))) {
        done.push(request.id);
        continue;
      }
      const text = await readFile(join(this.dataDir, PENDING_DIR, name), 'utf8').catch(() => null);
      if (text === runRequestText(request)) this.files.check(runFile(request));
      else {
        this.options.onQueued?.(request.trigger);
        void this.files.make(runFile(request));
      }
    }
    if (done.length > 0) await this.journal.append({ t: 'done', runs: done }).catch(() => undefined);
    await this.settled();
    return { seen: contents.seen, fires: contents.fires };
  }

  /**
   * The webhook-id of the delivery whose run carries `payload` counts as seen under `replay` in the run's own
   * journal record (so seen and queued never disagree). Tagged on the payload so the fire path is unchanged.
   */
  tagSeen(payload: RunPayload, replay: string): void {
    this.seenTags.set(payload, replay);
  }

  /** A webhook-id seen without a run (a delivery the trigger's `events` filter ignores): its own record. */
  seenOnly(mark: SeenMark): Promise<void> {
    return this.journal.append({ t: 'seen', seen: mark });
  }

  /**
   * Writes one run request; resolves with its path once its journal record is synced: the run is durable and may be
   * answered 2xx. Its file is made after, off the answer's path (`run-files.ts`); until it is in `runs/pending/`
   * the run counts as waiting, unfiled (`waiting-runs.ts`).
   */
  async write(request: RunRequest): Promise<string> {
    const replay = request.payload ? this.seenTags.get(request.payload) : undefined;
    const seen =
      replay !== undefined && request.payload
        ? { k: replay, id: request.payload.webhook_id, at: this.options.now() }
        : undefined;
    // Serialized once: the run's JSON is its journal record's `run` and its file's text (the same bytes
    // `JSON.stringify` makes of the whole record, its keys in this order).
    const json = JSON.stringify(request);
    const record = `{"t":"run","run":${json}${seen ? `,"seen":${JSON.stringify(seen)}` : ''}}`;
    await this.journal.append({ t: 'run', run: request as unknown as JournalRun, ...(seen ? { seen } : {}) }, record);
    const file = runFile(request, json);
    if (killAsked('after-answer'))
      // The answers of this batch go out on this turn; the process dies before any run file is made.
      setImmediate(() => killPoint('after-answer'));
    else void this.files.make(file);
    return join(this.files.dir, file.name);
  }

  /** Waits until every run file under way is made and every check and sync pass is done. */
  settled(): Promise<void> {
    return this.files.settled();
  }

  /** Waits for the files and passes under way (their `done` records appended), then closes the journal. */
  async close(): Promise<void> {
    await this.files.close();
    await this.journal.close();
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
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

/** A run request's file: its name and its text. */
function runFile(request: RunRequest, json?: string): RunFile {
  return { id: request.id, trigger: request.trigger, name: runFileName(request), text: runRequestText(request, json) };
}

/** A run request as its file holds it: one line of JSON (the bytes its journal record holds as `run`). */
function runRequestText(request: RunRequest, json = JSON.stringify(request)): string {
  return `${json}\n`;
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
