/**
 * A package opened from a publisher's feed (DESIGN.md "Feeds, updates and install links"): the feed
 * read and verified under the right key, the archive downloaded into staging against its signed
 * SHA-256 and size, then registered as a source like a file, so `inspect` and `install` treat it as
 * any other `.apo` (the same diff, the same `decide`, the same key pin). The feed's key signs the
 * archive's SHA-256, so the archive is as signed as the feed: `feedSignedSummary` says so in the
 * inspection's signature (`feed-origin.ts`), which the pin is then checked against as for a signed file.
 */
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { own } from '../../../shared/base/own';
import type { SourceHandle } from '../../../shared/contract/api';
import { CoreError } from '../errors/index';
import { downloadToStaging, type FeedFetch, feedVersionOf, readFeed, type VerifiedFeed } from '../feeds';
import { verificationKeys } from '../policy/index';
import type { KeptArchive, StoreState } from '../store/state';
import { parsePublicKey, type MinisignPublicKey, type TrustedKey } from '../trust/index';
import { trustedKeysOf } from '../trust/stored-keys';
import { removeAndPrune } from '../store/staging';
import { type ApiContext, policyOf } from './context';
import { sweepStaleDownloads } from './feed-archives';
import { keepFeedCopy, keptCopyOf } from './feed-cache';
import { feedAllowedByPolicy } from './feed-policy';
import type { FeedOrigin } from './feed-origin';

export type { FeedOrigin } from './feed-origin';

/** What opening a package from a feed answers: the source to inspect and install, and what the feed said. */
export interface OpenedFromFeed {
  handle: SourceHandle;
  feed: VerifiedFeed;
  origin: FeedOrigin;
}

function minisignKeyOf(publicKey: string): MinisignPublicKey | null {
  const parsed = parsePublicKey(publicKey);
  return parsed.ok ? parsed.value : null;
}

/**
 * The keys a feed for `name` may be signed by: the key `name` is pinned to when it is installed
 * signed (only that key updates it: DESIGN.md "Trust after install"), else the keys the person (and
 * the policy) trust. A package installed unsigned takes a first feed-signed update from a trusted key;
 * the inspection says it is newly signed, as for files.
 */
export function feedKeysFor(state: StoreState, trusted: readonly TrustedKey[], name: string): MinisignPublicKey[] {
  const pin = own(state.packageTrust, name)?.pin;
  if (pin?.kind === 'key') {
    const key = minisignKeyOf(pin.publicKey);
    return key ? [key] : [];
  }
  return trusted.flatMap((key) => {
    const parsed = minisignKeyOf(key.publicKey);
    return parsed ? [parsed] : [];
  });
}

/** Reads and verifies the feed at `feedUrl` for `name`, under the policy and the store's highest serial. */
export async function readFeedFor(
  ctx: ApiContext,
  fetch: FeedFetch,
  feedUrl: string,
  name: string | null,
  /** Whether its copy is kept in a store write of its own (false: the caller keeps it in its own write). */
  keep = true,
) {
  feedAllowedByPolicy(policyOf(ctx).effective, feedUrl);
  const state = await ctx.store.read();
  const trusted = verificationKeys(policyOf(ctx).effective, trustedKeysOf(state));
  const keys = feedKeysFor(state, trusted, name ?? '');
  const followed = own(state.feeds, feedUrl);
  const feed = await readFeed({
    url: feedUrl,
    fetch,
    keys,
    highestSerial: followed?.highestSerial ?? null,
    now: ctx.deps.now(),
    // The copy kept by an earlier run, offered with `If-None-Match` (a 304 verifies it again): feed-cache.ts.
    cached: await keptCopyOf(ctx.deps.dataDir, followed),
  });
  if (followed && keep) await keepFeedCopy(ctx, feedUrl, feed);
  const signer = trusted.find((key) => key.keyId === feed.key.keyId)?.name ?? null;
  return { feed, signer, state };
}

/**
 * Opens `name` (at `version`, else the newest not yanked) from the feed at `feedUrl`: the feed
 * verified, the archive downloaded into staging against the signed SHA-256 and size (and a link's
 * `sha256`), and registered as a source whose inspection carries the feed's signature. Nothing is
 * installed, trusted, granted or armed.
 */
export async function openFromFeed(
  ctx: ApiContext,
  fetch: FeedFetch,
  request: { feedUrl: string; name: string; version?: string | null; sha256?: string | null; link?: boolean },
): Promise<OpenedFromFeed> {
  const { feed, signer } = await readFeedFor(ctx, fetch, request.feedUrl, request.name);
  const version = feedVersionOf(request.feedUrl, feed.feed, request.name, request.version);
  // What earlier forms left in staging without installing goes first (a day old, not open here).
  await sweepStaleDownloads(ctx.deps.dataDir, ctx.deps.now(), (path) => ctx.sources.uses(path));
  const staged = await downloadToStaging(fetch, request.feedUrl, version, ctx.deps.dataDir, {
    sha256: request.sha256 ?? null,
  });
  const origin: FeedOrigin = {
    feedUrl: request.feedUrl,
    serial: feed.feed.serial,
    publisher: feed.feed.publisher,
    name: request.name,
    version,
    keyId: feed.key.keyId,
    publicKey: feed.key.publicKey,
    signer,
  };
  return { handle: await registerFeedSource(ctx, staged.path, origin, request.link === true), feed, origin };
}

/**
 * Registers a staged or kept archive as a source that remembers its feed origin; its handle says where it came from
 * (the form shows the feed's exact address and what it would install), and whether an install link asked for it.
 */
export async function registerFeedSource(
  ctx: ApiContext,
  path: string,
  origin: FeedOrigin,
  link = false,
): Promise<SourceHandle> {
  const registered = await ctx.sources.register(path, 'command-line');
  if (!registered.ok) throw new CoreError(registered.error.code, registered.error.message);
  const source = ctx.sources.get(registered.value.id);
  source.feed = origin;
  const version = origin.version;
  source.handle = {
    ...registered.value,
    displayName: `${origin.name}-${version.version}.apo`,
    folders: [],
    feed: {
      url: origin.feedUrl,
      publisher: origin.publisher,
      name: origin.name,
      version: version.version,
      sha256: version.sha256,
      size: version.size,
      yanked: version.status === 'yanked' ? version.reason : null,
      link,
    },
  };
  return source.handle;
}

/** Where a kept archive lives in the data folder (relative): one per package version. */
export function keptArchivePath(name: string, version: string, sha256: string): string {
  return `archives/${name}/${version}-${sha256.slice(0, 12)}.apo`;
}

/**
 * Copies a feed source's archive beside the store before the install's commit (prepared, not
 * committed), so the version installed now can be put back later; its record for the commit.
 */
export async function keepFeedArchive(dataDir: string, path: string, origin: FeedOrigin): Promise<KeptArchive> {
  const archive = keptArchivePath(origin.name, origin.version.version, origin.version.sha256);
  const target = join(dataDir, archive);
  if (target !== path) {
    await mkdir(dirname(target), { recursive: true });
    await copyFile(path, target);
  }
  return {
    version: origin.version.version,
    archive,
    sha256: origin.version.sha256,
    size: origin.version.size,
    keyId: origin.keyId,
    publicKey: origin.publicKey,
  };
}

/**
 * In the install's one store write: the feed followed (its highest serial kept), and the package's
 * update record (its mode kept; the archive installed now is current, the one before it previous).
 * Answers the archive that is no longer kept, for removal after the commit.
 */
export function recordFeedInstall(state: StoreState, origin: FeedOrigin, kept: KeptArchive, at: string): string | null {
  const followed = own(state.feeds, origin.feedUrl);
  state.feeds[origin.feedUrl] = {
    // What else is kept of the feed (the key it was added with, its ETag) stays.
    ...followed,
    url: origin.feedUrl,
    addedAt: followed?.addedAt ?? at,
    highestSerial: Math.max(followed?.highestSerial ?? 0, origin.serial),
    lastCheckedAt: at,
    lastProblem: null,
    publisher: origin.publisher,
  };
  const before = own(state.packageUpdates, origin.name);
  const previous =
    before?.current && before.current.archive !== kept.archive ? before.current : (before?.previous ?? null);
  const dropped = [before?.previous?.archive, before?.current?.archive].find(
    (archive) => archive && archive !== kept.archive && archive !== previous?.archive,
  );
  state.packageUpdates[origin.name] = { feed: origin.feedUrl, mode: before?.mode ?? 'notify', current: kept, previous };
  return dropped ?? null;
}

/** Removes a kept archive no record names any more (after the commit that dropped it). */
export async function dropKeptArchive(dataDir: string, archive: string | null): Promise<void> {
  if (archive) await rm(join(dataDir, archive), { force: true });
}

/** Removes what opening a source from a feed staged (its download); a kept archive (roll back) stays kept. */
export async function discardStaged(ctx: ApiContext, sourceId: string): Promise<void> {
  const path = ctx.sources.get(sourceId).path;
  if (dirname(dirname(path)) === join(ctx.deps.dataDir, 'staging'))
    await removeAndPrune(dirname(path), ctx.deps.dataDir);
}
