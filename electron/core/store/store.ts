/**
 * What is installed on this machine: one versioned state file in the data folder, read and
 * written one writer at a time (DESIGN.md "Consent, install, apply").
 *
 * - Reads take no lock and create nothing: a missing data folder or state file reads as empty.
 * - `update` runs read-modify-write in this process's queue AND under the cross-process lock file
 *   (`lock.ts`), re-reading the file each time, so the app and the CLI never lose each other's writes.
 * - A damaged state file (bad JSON, a torn write, a failed validation) is renamed aside to
 *   `state.json.damaged-<timestamp>`, and the fresh state records it in `damage`, which the
 *   dashboard shows: it is never silently reset. A file from a newer app version is refused, untouched.
 * - A file of an older format is migrated in memory as it is read (`migrateState`); the next write
 *   stores it in the current format.
 */
import { APP_DOWNLOAD_PAGE } from '../../../shared/base/app-links';
import { mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoreDamage } from '../../../shared/contract/api';
import { CoreError } from '../errors/index';
import { ioFaultSentence } from '../errors/io-fault';
import type { ActivityInput } from '../../../shared/activity/activity-kinds';
import { writeFileAtomic, type AtomicWriteFaults } from './atomic-file';
import { withLockFile } from './lock';
import type { RecordCommit } from './outbox';
import { recoverFolders } from './recovery';
import { emptyState, migrateState, ownRecords, STATE_VERSION, stateProblem, type StoreState } from './state';

/** The state file's name in the data folder. */
export const STATE_FILE = 'state.json';
/** The cross-process lock's name in the data folder. */
export const LOCK_FILE = 'state.lock';

/** Options of a store. */
export interface StoreOptions {
  now?: () => Date;
  faults?: AtomicWriteFaults;
  lockTimeoutMs?: number;
  /**
   * The data folder's activity record, whose decisions this store commits with each change
   * (`activity/activity-log.ts` `ActivityLog`, given by the store's maker: the record sits a floor
   * above the store). Without it a change that records is refused as a programming error.
   */
  record?: StoreRecord;
  /** Called with a change's entries as stored, once they are committed (the policy's export). */
  onRecorded?: (events: RecordedEntry[]) => Promise<void>;
  /** Told of what went wrong and was left for the next open (an append of the record after its commit). */
  log?: (message: string, error?: unknown) => void;
}

/** What a change answers: its result, whether to write the state (default yes). */
export interface StoreChange<T> {
  result: T;
  write?: boolean;
}

/** One activity entry a change records (the activity record's `ActivityInput`: `at` defaults to the clock's). */
export type StoreEntry = ActivityInput;

/** An entry as the record stored it (cleaned, `at` set). */
export type RecordedEntry = StoreEntry & { at: string };

/** The activity entries a change records (DESIGN.md "Commit points"), from its result and the new state. */
export type ChangeRecord<T> = (result: T, state: StoreState) => readonly StoreEntry[];

/** What the store needs of the activity record (`ActivityLog` is the one). */
export interface StoreRecord {
  /** Chains `entries` after the record's end, hands `write` the new commit (the commit point), then appends them. */
  commit(
    previous: RecordCommit | null,
    entries: readonly StoreEntry[],
    write: (commit: RecordCommit) => Promise<void>,
    onAppendProblem: (error: unknown) => void,
  ): Promise<RecordedEntry[]>;
  /** Appends entries with no commit (no state to carry them). */
  recordMany(entries: readonly StoreEntry[]): Promise<RecordedEntry[]>;
  /** Appends the committed outbox's lines the record lacks. */
  recover(commit: RecordCommit | null): Promise<void>;
}

type Loaded = { kind: 'ok'; state: StoreState } | { kind: 'missing' } | { kind: 'damaged'; reason: string };

/** The store over one data folder. */
export class Store {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly now: () => Date;

  /** The open-time recovery ran (`recovery.ts`): once per store, under the lock, before its first change. */
  private recovered = false;

  constructor(
    readonly dataDir: string,
    private readonly options: StoreOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
  }

  /** Path of the state file. */
  get statePath(): string {
    return join(this.dataDir, STATE_FILE);
  }

  private async load(): Promise<Loaded> {
    let text: string;
    try {
      text = await readFile(this.statePath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
      throw error;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return {
        kind: 'damaged',
        reason: `state.json is not valid JSON (${(error as Error).message}); it may have been cut short`,
      };
    }
    const version = (value as { version?: unknown } | null)?.version;
    if (typeof version === 'number' && version > STATE_VERSION) {
      throw new CoreError(
        'store.future_version',
        `state.json was written by a newer Apollia Desktop (format ${version}; this one reads ${STATE_VERSION}): update the app (${APP_DOWNLOAD_PAGE}); the file was left as it is`,
      );
    }
    const current = migrateState(value);
    const problem = stateProblem(current);
    if (problem !== null) return { kind: 'damaged', reason: `state.json does not match the store format: ${problem}` };
    return { kind: 'ok', state: ownRecords(current as StoreState) };
  }

  /** Keeps a damaged file aside and returns the fresh state that reports it (caller holds the lock). */
  private async setAside(reason: string): Promise<StoreState> {
    const at = this.now().toISOString();
    const keptAs = `${STATE_FILE}.damaged-${at.replace(/[:.]/g, '-')}`;
    await rename(this.statePath, join(this.dataDir, keptAs));
    const state = emptyState();
    const damage: StoreDamage = { keptAs, reason, at };
    state.damage.push(damage);
    await writeFileAtomic(this.statePath, `${JSON.stringify(state, null, 2)}\n`, this.options.faults);
    return state;
  }

  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The current state. Creates nothing, unless the file is damaged (then it is set aside, under the lock). */
  read(): Promise<StoreState> {
    return this.enqueue(async () => {
      const loaded = await this.load();
      if (loaded.kind === 'ok') {
        await this.recover(loaded.state);
        return loaded.state;
      }
      if (loaded.kind === 'missing') return emptyState();
      return this.locked(async () => {
        const again = await this.load();
        if (again.kind === 'ok') return again.state;
        if (again.kind === 'missing') return emptyState();
        return this.setAside(again.reason);
      });
    });
  }

  private locked<T>(fn: () => Promise<T>): Promise<T> {
    return mkdir(this.dataDir, { recursive: true }).then(() =>
      withLockFile(join(this.dataDir, LOCK_FILE), fn, this.options.lockTimeoutMs),
    );
  }

  /**
   * The one commit (DESIGN.md "Commit points"): one read-modify-write of the state and the activity
   * entries it records. `change` gets a private copy of the state and returns the result; `record`
   * (when given) says what the change records, from its result and the new state. The copy is
   * written (atomically) when `change` returns normally and `write` is not false, or when entries
   * are recorded: then the new state carries them in its outbox with the record's head after them
   * (`activity/activity-log.ts` `commit`), so the one rename commits change and record together,
   * and they are appended to `decisions.jsonl` after it. A throw leaves the files as they were.
   */
  update<T>(
    change: (state: StoreState) => Promise<StoreChange<T>> | StoreChange<T>,
    record?: ChangeRecord<T>,
  ): Promise<T> {
    return this.enqueue(() =>
      this.locked(async () => {
        const loaded = await this.load();
        const state =
          loaded.kind === 'ok'
            ? loaded.state
            : loaded.kind === 'missing'
              ? emptyState()
              : await this.setAside(loaded.reason);
        if (!this.recovered) {
          this.recovered = true;
          await recoverFolders(this.dataDir, state).then(
            ({ removed }) => {
              if (removed.length > 0) this.tell(`left by an interrupted change, removed: ${removed.join(', ')}`, null);
            },
            (error: unknown) => this.tell('the leftovers of an interrupted change could not be removed', error),
          );
        }
        const draft = ownRecords(structuredClone(state));
        const { result, write } = await change(draft);
        const entries = record?.(result, draft) ?? [];
        if (entries.length === 0) {
          if (write !== false) await this.write(draft);
          return result;
        }
        // No state yet and none to write (a refused first install): there is no head to commit with, only the record.
        const stored =
          write === false && loaded.kind === 'missing'
            ? await this.recordOf().recordMany(entries)
            : await this.commitWith(state, draft, entries);
        await this.options
          .onRecorded?.(stored)
          .catch((error: unknown) => this.tell('the activity export could not be written', error));
        return result;
      }),
    );
  }

  private commitWith(state: StoreState, draft: StoreState, entries: readonly StoreEntry[]): Promise<RecordedEntry[]> {
    return this.recordOf().commit(
      state.record,
      entries,
      async (commit) => {
        draft.record = commit;
        await this.write(draft);
      },
      (error) => this.tell('the activity record could not be appended; it is completed at the next start', error),
    );
  }

  private recordOf(): StoreRecord {
    if (!this.options.record)
      throw new Error('this store was opened without its activity record: a change that records cannot be committed');
    return this.options.record;
  }

  private write(state: StoreState): Promise<void> {
    return writeFileAtomic(this.statePath, `${JSON.stringify(state, null, 2)}\n`, this.options.faults);
  }

  private tell(message: string, error: unknown): void {
    // Without the host's log: one line, the fault as a sentence, never a stack trace (DESIGN.md "Commit points").
    const log =
      this.options.log ??
      ((m: string, e?: unknown) =>
        console.error(
          e === undefined ? m : `${m}: ${ioFaultSentence(e) ?? (e instanceof Error ? e.message : String(e))}`,
        ));
    log(`apollia: ${message}`, error ?? undefined);
  }

  /**
   * At open: the committed outbox's lines the record lacks (a change whose append a kill or a full
   * disk interrupted) are appended; a failure is left for the next open.
   */
  private async recover(state: StoreState): Promise<void> {
    if (!state.record || state.record.outbox.length === 0 || !this.options.record) return;
    await this.options.record
      .recover(state.record)
      .catch((error: unknown) => this.tell('the activity record could not be completed; it is tried again', error));
  }
}
