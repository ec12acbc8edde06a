/**
 * The type of `window.apollia`: exactly the Api of `shared/api.ts`, plus the two things only the
 * preload can do — deliver `opened` events, and turn a dropped `File` into a registered source.
 * The e2e harness's bridge implements the same type.
 */
import type { Api, ApiResult, SourceHandle } from '../../shared/api';

/** A dropped file, as the renderer hands it over (a DOM `File`; only the preload can read its path). */
export type DroppedFile = object;

/** `window.apollia`. */
export type ApolliaBridge = Api & {
  /** Calls `listener` with each source opened from outside the window; returns an unsubscribe. */
  onOpened(listener: (handle: SourceHandle) => void): () => void;
  /** Registers a file dropped on the window (origin `drop`) and answers its handle. */
  openDropped(file: DroppedFile): Promise<ApiResult<SourceHandle>>;
};
