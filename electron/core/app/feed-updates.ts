/**
 * Updates from feeds (DESIGN.md "Feeds, updates and install links"): the feeds followed, what each
 * installed package's feed offers (`outdated`), the update modes, and opening an update or a roll
 * back as a source. An update from a feed is an update like any other: it is opened here, then
 * inspected and installed through `inspect` and `install` (the same diff, `decide`, key pin); roll
 * back opens the previous version's kept archive the same way.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { own } from '../../../shared/base/own';
import { diffUpdate, type UpdateDiff } from '../../../shared/decisions/update-diff';
import type { SourceHandle } from '../../../shared/contract/api';
import type { ApoDetails } from '../../../shared/manifests/inspection';
import { CoreError } from '../errors/index';
import { compareVersions, fetchableUrl, type FeedFetch, type FeedVersion, feedVersionOf } from '../feeds';
import type { ActivityInput } from '../activity/activity-log';
import type { PackageUpdateRecord, StoreState } from '../store/state';
import type { ApiContext } from './context';
import { policyOf } from './context';
import { type KeptCopy, keptCopyPath, recordFeedCopy, writeFeedCopy } from './feed-cache';
import { feedAllowedByPolicy, policyUpdateMode } from './feed-policy';
import { openFromFeed, readFeedFor, registerFeedSource, type FeedOrigin } from './feed-sources';

/** A package's update mode: notify (the default), auto (only what asks nothing new), hold. */
export type UpdateMode = PackageUpdateRecord['mode'];

/** One feed followed, as `feeds` lists it. */
export interface FeedView {
  url: string;
  publisher: string | null;
  addedAt: string;
  lastCheckedAt: string | null;
  lastProblem: string | null;
  highestSerial: number | null;
  /** The installed packages that update from it. */
  packages: string[];
}

/** One installed package's standing against its feed, as `outdated` lists it. */
export interface OutdatedRow {
  name: string;
  installed: string;
  latest: string | null;
  feed: string;
  lastChecked: string | null;
  mode: UpdateMode;
  /** The installed version's status in the feed: yanked with the publisher's reason, or null. */
  yanked: { reason: string } | null;
  /** Whether the feed offers a newer version than the installed one. */
  updateAvailable: boolean;
  /** Why the feed could not be checked (its refusal), when it could not. */
  problem: { code: string; message: string } | null;
}

/** The feeds followed, each with the packages that update from it. */
export function listFeeds(state: StoreState): FeedView[] {
  return Object.values(state.feeds)
    .map((feed) => ({
      url: feed.url,
      publisher: feed.publisher,
      addedAt: feed.addedAt,
      lastCheckedAt: feed.lastCheckedAt,
      lastProblem: feed.lastProblem,
      highestSerial: feed.highestSerial,
      packages: Object.entries(state.packageUpdates)
        .filter(([, record]) => record.feed === feed.url)
        .map(([name]) => name)
        .sort(),
    }))
    .sort((a, b) => (a.url < b.url ? -1 : 1));
}

/** Follows the feed at `url` (checked as a feed address and against the policy); nothing is fetched. */
export async function addFeed(ctx: ApiContext, url: string): Promise<FeedView[]> {
  const href = fetchableUrl(url).href;
  feedAllowedByPolicy(policyOf(ctx).effective, href);
  const at = ctx.deps.now().toISOString();
  const state = await ctx.store.update((draft) => {
    if (!own(draft.feeds, href))
      draft.feeds[href] = {
        url: href,
        addedAt: at,
        highestSerial: null,
        lastCheckedAt: null,
        lastProblem: null,
        publisher: null,
      };
    return { result: draft };
  });
  return listFeeds(state);
}

/** Stops following the feed at `url`; refused `feed.not_followed`, or while an installed package updates from it. */
export async function removeFeed(ctx: ApiContext, url: string): Promise<FeedView[]> {
  const state = await ctx.store.update((draft) => {
    const href = Object.keys(draft.feeds).find((key) => key === url || key === safeHref(url));
    if (!href) throw new CoreError('feed.not_followed', `the feed ${url} is not followed`, { path: url });
    const users = Object.entries(draft.packageUpdates).filter(([, record]) => record.feed === href);
    if (users.length > 0)
      throw new CoreError(
        'feed.not_followed',
        `${users.map(([name]) => name).join(', ')} update from ${href}: uninstall them first, or they would stop receiving updates`,
        { path: url },
      );
    delete draft.feeds[href];
    return { result: draft };
  });
  // Its kept copy goes with it (after the commit: a crash leaves at most an unnamed file).
  await rm(keptCopyPath(ctx.deps.dataDir, safeHref(url)), { force: true });
  return listFeeds(state);
}

function safeHref(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/** Sets `name`'s update mode; refused `update.no_feed` for a package not installed from a feed. */
export async function setUpdateMode(ctx: ApiContext, name: string, mode: UpdateMode): Promise<UpdateMode> {
  await ctx.store.update(
    (draft) => {
      const record = own(draft.packageUpdates, name);
      if (!record)
        throw new CoreError(
          'update.no_feed',
          own(draft.packages, name)
            ? `${name} was not installed from a feed: it has no updates to follow (install it from its publisher's feed first)`
            : `No package called \`${name}\` is installed.`,
        );
      const was = record.mode;
      record.mode = mode;
      return { result: was };
    },
    // The mode and its entry in one commit (DESIGN.md "Commit points"); the same mode again records nothing.
    (was) =>
      was === mode
        ? []
        : [
            {
              kind: 'update_mode_changed',
              package: name,
              outcome: 'ok',
              detail: `updates of ${name}: ${was} → ${mode}`,
            },
          ],
  );
  return mode;
}

/** `name`'s mode as it stands: the organization's when its policy sets one, else the person's. */
export function modeOf(ctx: ApiContext, state: StoreState, name: string): UpdateMode {
  return policyUpdateMode(policyOf(ctx).effective) ?? own(state.packageUpdates, name)?.mode ?? 'notify';
}

/**
 * Checks every feed an installed package updates from (each once, in turn), keeps each check's
 * time, serial and refusal in one store write, and answers a row per feed-installed package.
 */
export async function checkOutdated(ctx: ApiContext, fetch: FeedFetch): Promise<OutdatedRow[]> {
  const state = await ctx.store.read();
  const byFeed = new Map<string, string[]>();
  for (const [name, record] of Object.entries(state.packageUpdates))
    byFeed.set(record.feed, [...(byFeed.get(record.feed) ?? []), name]);
  const at = ctx.deps.now().toISOString();
  const rows: OutdatedRow[] = [];
  const checked = new Map<string, { serial: number | null; publisher: string | null; problem: string | null }>();
  // Each feed's copy for the next If-None-Match, written before the one store write that names it.
  const copies = new Map<string, KeptCopy | undefined>();
  for (const [feedUrl, names] of byFeed) {
    let read: Awaited<ReturnType<typeof readFeedFor>> | null = null;
    let problem: { code: string; message: string } | null = null;
    try {
      read = await readFeedFor(ctx, fetch, feedUrl, names[0] ?? null, false);
      copies.set(feedUrl, await writeFeedCopy(ctx.deps.dataDir, feedUrl, read.feed));
    } catch (error) {
      if (!(error instanceof CoreError)) throw error;
      problem = { code: error.code, message: error.message };
    }
    checked.set(feedUrl, {
      serial: read?.feed.feed.serial ?? null,
      publisher: read?.feed.feed.publisher ?? null,
      problem: problem ? `${problem.code}: ${problem.message}` : null,
    });
    for (const name of names.sort()) rows.push(rowOf(ctx, state, name, feedUrl, read, problem, at));
  }
  const checks = [...byFeed.keys()].map((feedUrl) => checkEntry(feedUrl, checked.get(feedUrl), rows));
  await ctx.store.update(
    (draft) => {
      for (const [feedUrl, result] of checked) {
        const feed = own(draft.feeds, feedUrl);
        if (!feed) continue;
        feed.lastCheckedAt = at;
        feed.lastProblem = result.problem;
        if (result.serial !== null) feed.highestSerial = Math.max(feed.highestSerial ?? 0, result.serial);
        if (result.publisher !== null) feed.publisher = result.publisher;
        recordFeedCopy(feed, copies.get(feedUrl));
      }
      return { result: null };
    },
    // Each feed's check committed with what it kept (traffic: appended to traffic.jsonl by the same commit).
    () => checks,
  );
  return rows.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** The activity entry of one feed's check: what it offered, or why it was refused. */
function checkEntry(
  feedUrl: string,
  result: { serial: number | null; problem: string | null } | undefined,
  rows: readonly OutdatedRow[],
): ActivityInput {
  if (!result || result.problem !== null)
    return { kind: 'feed_checked', outcome: 'refused', detail: `${feedUrl}: ${result?.problem ?? 'not read'}` };
  const mine = rows.filter((row) => row.feed === feedUrl);
  const updates = mine.filter((row) => row.updateAvailable).map((row) => `${row.name} ${row.latest}`);
  const yanked = mine.filter((row) => row.yanked).map((row) => `${row.name} ${row.installed} withdrawn`);
  const said = [
    updates.length > 0 ? `update available: ${updates.join(', ')}` : 'up to date',
    ...(yanked.length > 0 ? [yanked.join(', ')] : []),
  ];
  return { kind: 'feed_checked', outcome: 'ok', detail: `${feedUrl} (serial ${result.serial}): ${said.join('; ')}` };
}

function rowOf(
  ctx: ApiContext,
  state: StoreState,
  name: string,
  feedUrl: string,
  read: Awaited<ReturnType<typeof readFeedFor>> | null,
  problem: { code: string; message: string } | null,
  at: string,
): OutdatedRow {
  const installed = own(state.packages, name)?.version ?? '';
  const versions = read ? (own(read.feed.feed.packages, name)?.versions ?? []) : [];
  const mine = versions.find((v) => v.version === installed);
  let latest: FeedVersion | null = null;
  try {
    latest = read ? feedVersionOf(feedUrl, read.feed.feed, name) : null;
  } catch {
    latest = null;
  }
  return {
    name,
    installed,
    latest: latest?.version ?? null,
    feed: feedUrl,
    lastChecked: problem ? (own(state.feeds, feedUrl)?.lastCheckedAt ?? null) : at,
    mode: modeOf(ctx, state, name),
    yanked: mine?.status === 'yanked' ? { reason: mine.reason } : null,
    updateAvailable: latest !== null && compareVersions(latest.version, installed) > 0,
    problem,
  };
}

/**
 * Opens `name`'s update from its feed as a source (nothing installed): refused `update.no_feed` for a
 * package not installed from one, `update.held` when its mode is hold (unless `evenHeld`), `update.none`
 * when the feed offers nothing newer.
 */
export async function openUpdate(
  ctx: ApiContext,
  fetch: FeedFetch,
  name: string,
  options: { evenHeld?: boolean } = {},
): Promise<{ handle: SourceHandle; origin: FeedOrigin; from: string }> {
  const state = await ctx.store.read();
  const record = own(state.packageUpdates, name);
  const installed = own(state.packages, name);
  if (!record || !installed)
    throw new CoreError(
      'update.no_feed',
      installed
        ? `${name} was not installed from a feed: it has no publisher updates`
        : `No package called \`${name}\` is installed.`,
    );
  if (modeOf(ctx, state, name) === 'hold' && !options.evenHeld)
    throw new CoreError(
      'update.held',
      `${name} is held at ${installed.version}: set its mode to notify or auto to update it`,
    );
  const { feed } = await readFeedFor(ctx, fetch, record.feed, name);
  const latest = feedVersionOf(record.feed, feed.feed, name);
  if (compareVersions(latest.version, installed.version) <= 0)
    throw new CoreError('update.none', `${name} ${installed.version} is the newest version its feed offers`, {
      path: record.feed,
    });
  const opened = await openFromFeed(ctx, fetch, { feedUrl: record.feed, name, version: latest.version });
  return { handle: opened.handle, origin: opened.origin, from: installed.version };
}

/**
 * Opens `name`'s previous version from its kept archive as a source: installing it is an update to
 * that version through the same path (`decide` with the installed decisions, the pin it had), as a
 * confirmed downgrade. Refused `rollback.none` when no previous version is kept, `rollback.done` when the one kept
 * is newer than the installed one (rolled back already).
 */
export async function openRollback(
  ctx: ApiContext,
  name: string,
): Promise<{ handle: SourceHandle; to: string; from: string }> {
  const state = await ctx.store.read();
  const record = own(state.packageUpdates, name);
  const installed = own(state.packages, name);
  if (!record?.previous || !installed)
    throw new CoreError('rollback.none', `no earlier version of ${name} is kept to roll back to`);
  const previous = record.previous;
  // After a roll back the version kept is the newer one it left: rolling back again would be an update, so it is
  // done already (a rerun after a kill never flips the package forward again); `update` goes forward.
  if (compareVersions(previous.version, installed.version) > 0)
    throw new CoreError(
      'rollback.done',
      `${name} is already back at ${installed.version} (the version kept, ${previous.version}, is newer: \`update ${name}\` goes forward to it)`,
    );
  const origin: FeedOrigin = {
    feedUrl: record.feed,
    serial: own(state.feeds, record.feed)?.highestSerial ?? 0,
    publisher: own(state.feeds, record.feed)?.publisher ?? installed.publisher,
    name,
    version: {
      version: previous.version,
      url: previous.archive,
      sha256: previous.sha256,
      size: previous.size,
      status: 'active',
    },
    keyId: previous.keyId,
    publicKey: previous.publicKey,
    signer: null,
  };
  const handle = await registerFeedSource(ctx, join(ctx.deps.dataDir, previous.archive), origin);
  return { handle, to: previous.version, from: installed.version };
}

/**
 * Whether an update may be applied without asking (mode auto): the diff says it asks nothing new
 * (no new or widened access) and changes no trigger. Otherwise it waits, as notify, with a notice.
 */
export function asksNothingNew(diff: UpdateDiff | null): boolean {
  if (!diff) return false;
  return !diff.asksMore && diff.triggers.added.length === 0 && diff.triggers.changed.length === 0;
}

/** What an opened update changes, worded by the one update diff (for `outdated` and the notice). */
export function updateDiffOf(state: StoreState, name: string, details: ApoDetails | null): UpdateDiff | null {
  const installed = own(state.packages, name);
  return installed && details ? diffUpdate(installed.manifest, details.manifest) : null;
}
