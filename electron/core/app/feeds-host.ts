/**
 * The feed use cases as the hosts reach them (the CLI, Electron main for install links and the
 * background check): each answers an `ApiResult`, a refusal as a value, as every Api method does.
 * They are host-only, beside `registerSource`: the window reaches feeds once the Updates screens
 * add their Api methods, which call these same use cases.
 */
import type { ApiResult, SourceHandle } from '../../../shared/contract/api';
import { CoreError } from '../errors/index';
import type { FeedFetch } from '../feeds';
import type { ApiContext } from './context';
import { applyAutoUpdates, type AutoUpdateOutcome } from './feed-auto';
import { discardStaged, openFromFeed } from './feed-sources';
import {
  addFeed,
  checkOutdated,
  type FeedView,
  listFeeds,
  openRollback,
  openUpdate,
  type OutdatedRow,
  removeFeed,
  setUpdateMode,
  type UpdateMode,
} from './feed-updates';

/** What the hosts may ask of feeds. */
export interface FeedsHostApi {
  list(): Promise<ApiResult<FeedView[]>>;
  add(url: string): Promise<ApiResult<FeedView[]>>;
  remove(url: string): Promise<ApiResult<FeedView[]>>;
  /** Opens a package from a feed as a source (an install link, `install --feed`): nothing installed. */
  open(request: {
    feedUrl: string;
    name: string;
    version?: string | null;
    sha256?: string | null;
    /** Opened by an install link: its form says so. */
    link?: boolean;
  }): Promise<ApiResult<{ handle: SourceHandle; yanked: string | null }>>;
  outdated(): Promise<ApiResult<OutdatedRow[]>>;
  openUpdate(name: string, evenHeld?: boolean): Promise<ApiResult<{ handle: SourceHandle; from: string; to: string }>>;
  openRollback(name: string): Promise<ApiResult<{ handle: SourceHandle; from: string; to: string }>>;
  setMode(name: string, mode: UpdateMode): Promise<ApiResult<UpdateMode>>;
  /** Mode auto: applies each update that asks nothing new; the others wait, with a notice (the trigger host's run). */
  applyAuto(): Promise<ApiResult<AutoUpdateOutcome[]>>;
  /** Removes what opening a source from a feed staged (its download), once the form is done with it. */
  discard(sourceId: string): Promise<void>;
}

async function answer<T>(work: () => Promise<T>): Promise<ApiResult<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (error instanceof CoreError) return { ok: false, error: error.toApiError() };
    throw error;
  }
}

/** The fetch the host injected (Electron's `net.fetch`, the CLI's proxied fetch), else the runtime's own `fetch`. */
export function fetchOf(deps: { fetch?: FeedFetch | undefined }): FeedFetch {
  return deps.fetch ?? ((url, init) => globalThis.fetch(url, init));
}

/** The feed use cases over `ctx`, fetching with `fetch`. */
export function feedsHostApi(ctx: ApiContext, fetch: FeedFetch): FeedsHostApi {
  return {
    list: () => answer(async () => listFeeds(await ctx.store.read())),
    add: (url) => answer(() => addFeed(ctx, url)),
    remove: (url) => answer(() => removeFeed(ctx, url)),
    open: (request) =>
      answer(async () => {
        const opened = await openFromFeed(ctx, fetch, request);
        const version = opened.origin.version;
        return { handle: opened.handle, yanked: version.status === 'yanked' ? version.reason : null };
      }),
    outdated: () => answer(() => checkOutdated(ctx, fetch)),
    openUpdate: (name, evenHeld) =>
      answer(async () => {
        const opened = await openUpdate(ctx, fetch, name, { evenHeld });
        return { handle: opened.handle, from: opened.from, to: opened.origin.version.version };
      }),
    openRollback: (name) => answer(() => openRollback(ctx, name)),
    setMode: (name, mode) => answer(() => setUpdateMode(ctx, name, mode)),
    applyAuto: () => answer(() => applyAutoUpdates(ctx, fetch)),
    discard: (sourceId) => discardStaged(ctx, sourceId),
  };
}
