/**
 * The messages between {@link BoundedChecker} and its worker thread. Both sides import these
 * types; values cross by structured clone (Maps and Uint8Arrays survive, prototypes do not).
 */
import type { CheckJobKind, CheckJobOptions } from './jobs';
import type { CodeCacheState } from './worker-boot';

/** A job posted to the worker: read `path` as `kind`, with the user's trusted keys. */
export interface WorkerRequest {
  id: number;
  kind: CheckJobKind;
  path: string;
  options: CheckJobOptions;
}

/**
 * What the worker posts back: once `boot` (built only: worker-boot.ts) and once `ready` when
 * loaded, then one `result` or `failed` per job.
 */
export type WorkerReply =
  | { type: 'boot'; codeCache: CodeCacheState }
  | { type: 'ready' }
  | { type: 'result'; id: number; value: unknown }
  /** The reader threw: a bug in the app, not a refusal of the package. */
  | { type: 'failed'; id: number; message: string };

/** Test-only worker behaviours (see check-worker.ts); never set from package content. */
export type WorkerTestMode = 'slow' | 'hungry' | 'abort';
