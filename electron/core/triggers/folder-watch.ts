/**
 * One watched folder of a `file_watch` trigger: chokidar (a well-kept watcher over `fs.watch`),
 * `recursive` as the manifest says, changes debounced into one burst per quiet spell.
 *
 * Decisions:
 * - Links are never followed (`followSymlinks: false`): a link inside the folder is reported as a
 *   changed path, the folder it points to is not watched.
 * - The first scan fires nothing (DESIGN.md "Triggers at run time"): only what changes once the
 *   watcher is ready is a change, on every start of the host.
 * - The folder itself is checked with `lstat` on every burst and every `checkMs`: removed, not a
 *   folder, or replaced by a link → `onProblem` once with the reason and the watcher is closed (a
 *   link swapped in is not followed out of the folder the user picked); when a real folder is back
 *   at the path, watching resumes (`onResume`).
 * - A burst is flushed after `debounceMs` without a change, or `maxWaitMs` after its first change,
 *   whichever is first, so a folder filled with thousands of files at once is a handful of runs,
 *   each listing at most {@link MAX_CHANGED_PATHS} paths and counting the rest.
 */
import { lstat } from 'node:fs/promises';
import { type FSWatcher, watch } from 'chokidar';
import { MAX_CHANGED_PATHS } from './run-requests';
import type { HostClock } from './schedule';
import { storedWatchFolderRefusal } from './watchable-folder';

/** Options of a folder watch. */
export interface FolderWatchOptions {
  folder: string;
  /**
   * The app's data folder: a folder that is it, inside it or around it is never watched, even when
   * a state file edited by hand arms one (`watch-folder.ts` decides).
   */
  dataDir?: string;
  recursive: boolean;
  clock: HostClock;
  debounceMs?: number;
  maxWaitMs?: number;
  checkMs?: number;
  /** A burst of changes: the changed paths (at most {@link MAX_CHANGED_PATHS}) and how many more. */
  onBurst(paths: string[], more: number): void;
  /** The folder cannot be watched (gone, not a folder, a link, a watcher error). Called once per spell. */
  onProblem(reason: string): void;
  /** The folder is back and watched again after a problem. */
  onResume(): void;
}

/** Why the folder at `path` cannot be watched, or null when it is a real folder. */
export async function folderProblem(path: string): Promise<string | null> {
  try {
    const info = await lstat(path);
    if (info.isSymbolicLink()) return `${path} has been replaced by a link; links are not followed`;
    if (!info.isDirectory()) return `${path} is no longer a folder`;
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return `${path} no longer exists`;
    return `${path} cannot be read (${code ?? 'error'})`;
  }
}

/** A watched folder; `start` once, `close` to stop for good. */
export class FolderWatch {
  private watcher: FSWatcher | null = null;
  private readonly paths = new Set<string>();
  private more = 0;
  private quietTimer: unknown = null;
  private maxTimer: unknown = null;
  private checkTimer: unknown = null;
  private problem: string | null = null;
  private closed = false;
  private readonly debounceMs: number;
  private readonly maxWaitMs: number;
  private readonly checkMs: number;

  constructor(private readonly options: FolderWatchOptions) {
    this.debounceMs = options.debounceMs ?? 500;
    this.maxWaitMs = options.maxWaitMs ?? 5_000;
    this.checkMs = options.checkMs ?? 5_000;
  }

  /** The current problem, or null when the folder is being watched. */
  get currentProblem(): string | null {
    return this.problem;
  }

  /** Starts watching (or reports why it cannot); resolves when the watcher is ready. */
  async start(): Promise<void> {
    await this.check();
    this.scheduleCheck();
  }

  private scheduleCheck(): void {
    if (this.closed) return;
    this.checkTimer = this.options.clock.setTimer(() => {
      void this.check().finally(() => this.scheduleCheck());
    }, this.checkMs);
  }

  /** `folderProblem`, then whether the folder is (now, through a link swapped above it) the data folder's. */
  private async folderProblem(): Promise<string | null> {
    const { folder, dataDir } = this.options;
    return (
      (await folderProblem(folder)) ?? (dataDir === undefined ? null : await storedWatchFolderRefusal(folder, dataDir))
    );
  }

  private async check(): Promise<void> {
    if (this.closed) return;
    const problem = await this.folderProblem();
    if (this.closed) return;
    if (problem !== null) {
      this.fail(problem);
      return;
    }
    if (this.watcher === null) await this.open();
  }

  private async open(): Promise<void> {
    const watcher = watch(this.options.folder, {
      ignoreInitial: true,
      followSymlinks: false,
      persistent: true,
      depth: this.options.recursive ? undefined : 0,
    });
    this.watcher = watcher;
    // What the first scan reports is what was there before: never a change. chokidar reports links
    // during that scan even with `ignoreInitial`, so everything before `ready` is passed over.
    let ready = false;
    watcher.on('all', (_event, path) => {
      if (ready) this.change(path);
    });
    watcher.on('error', (error) =>
      this.fail(`watching ${this.options.folder} failed: ${error instanceof Error ? error.message : String(error)}`),
    );
    await new Promise<void>((resolve) =>
      watcher.once('ready', () => {
        ready = true;
        resolve();
      }),
    );
    if (this.closed) {
      await watcher.close();
      return;
    }
    if (this.problem !== null && this.watcher === watcher) {
      this.problem = null;
      this.options.onResume();
    }
  }

  private fail(reason: string): void {
    const watcher = this.watcher;
    this.watcher = null;
    void watcher?.close();
    this.dropBurst();
    if (this.problem === null) {
      this.problem = reason;
      this.options.onProblem(reason);
    }
  }

  private change(path: string): void {
    if (this.closed || path === this.options.folder) {
      if (path === this.options.folder) void this.check();
      return;
    }
    if (this.paths.size < MAX_CHANGED_PATHS) this.paths.add(path);
    else if (!this.paths.has(path)) this.more++;
    const { clock } = this.options;
    if (this.quietTimer !== null) clock.clearTimer(this.quietTimer);
    this.quietTimer = clock.setTimer(() => this.flush(), this.debounceMs);
    this.maxTimer ??= clock.setTimer(() => this.flush(), this.maxWaitMs);
  }

  private dropBurst(): void {
    const { clock } = this.options;
    if (this.quietTimer !== null) clock.clearTimer(this.quietTimer);
    if (this.maxTimer !== null) clock.clearTimer(this.maxTimer);
    this.quietTimer = null;
    this.maxTimer = null;
    this.paths.clear();
    this.more = 0;
  }

  private flush(): void {
    const paths = [...this.paths].sort();
    const more = this.more;
    this.dropBurst();
    if (this.closed || paths.length === 0) return;
    void this.folderProblem().then((problem) => {
      if (this.closed) return;
      if (problem !== null) this.fail(problem);
      else this.options.onBurst(paths, more);
    });
  }

  /** Stops watching for good. */
  async close(): Promise<void> {
    this.closed = true;
    this.dropBurst();
    if (this.checkTimer !== null) this.options.clock.clearTimer(this.checkTimer);
    const watcher = this.watcher;
    this.watcher = null;
    await watcher?.close();
  }
}
