/**
 * The feed use cases as the window reaches them (the Updates screen, Settings → Feeds): each method
 * of `api.ts` for feeds hands its request here, which calls the same use cases as the CLI and the
 * hosts (`feed-updates.ts`, `feed-sources.ts`), and shapes what the screens show: each feed with the
 * keys it is checked against (id and fingerprint), each package's row with the version kept for
 * roll back, and where the organization's policy locks a control, why.
 */
import { own } from '../../../shared/base/own';
import type {
  FeedKeyView,
  FeedsView,
  ModeSet,
  UpdateOpened,
  UpdatesView,
} from '../../../shared/contract/replies-feeds';
import { POLICY_REFUSAL } from '../../../shared/policy/policy';
import { CoreError } from '../errors/index';
import { compareVersions, type FeedFetch, fetchableUrl } from '../feeds';
import { policyKeys, usablePolicy } from '../policy/index';
import type { StoreState } from '../store/state';
import { parsePublicKey } from '../trust/index';
import { keyFingerprint } from '../trust/trusted-keys';
import { trustedKeysOf } from '../trust/stored-keys';
import { type ApiContext, policyOf } from './context';
import { feedAllowedByPolicy, policyUpdateMode } from './feed-policy';
import { addFeed, checkOutdated, listFeeds, openRollback, openUpdate, removeFeed, setUpdateMode } from './feed-updates';
import { previewKey } from './publisher-trust';
import { trustKeyUnderPolicy } from './settings-under-policy';

/** The keys a feed is checked against: the one it was added with and the ones its packages are pinned to. */
function feedKeys(
  state: StoreState,
  feedUrl: string,
  packages: readonly string[],
  managed: FeedKeyView[],
): FeedKeyView[] {
  const trusted = trustedKeysOf(state);
  const lines = new Set<string>();
  const added = own(state.feeds, feedUrl)?.publicKey;
  if (added) lines.add(added);
  for (const name of packages) {
    const pin = own(state.packageTrust, name)?.pin;
    if (pin?.kind === 'key') lines.add(pin.publicKey);
  }
  return [...lines].flatMap((line) => {
    const parsed = parsePublicKey(line);
    if (!parsed.ok) return [];
    const keyId = parsed.value.keyId;
    const name =
      trusted.find((key) => key.keyId === keyId)?.name ?? managed.find((key) => key.keyId === keyId)?.trustedAs;
    return [{ keyId, fingerprint: keyFingerprint(line), trustedAs: name ?? null }];
  });
}

/** Settings → Feeds: every feed followed, its keys, and what the policy allows. */
export async function feedsView(ctx: ApiContext): Promise<FeedsView> {
  const view = policyOf(ctx);
  const state = await ctx.store.read();
  const managed = policyKeys(view.effective).map((key) => ({
    keyId: key.keyId,
    fingerprint: keyFingerprint(key.publicKey),
    trustedAs: key.name,
  }));
  const prefixes = [...new Set((view.effective?.feedsAllowed ?? []).flat())].sort();
  return {
    feeds: listFeeds(state).map((feed) => ({
      url: feed.url,
      publisher: feed.publisher,
      addedAt: feed.addedAt,
      lastCheckedAt: feed.lastCheckedAt,
      lastProblem: feed.lastProblem,
      packages: feed.packages,
      keys: feedKeys(state, feed.url, feed.packages, managed),
    })),
    allowedPrefixes: prefixes,
    locked:
      view.state === 'unreadable'
        ? `Your organization's policy could not be read, so no feed is added until it is fixed; ${POLICY_REFUSAL}.`
        : null,
  };
}

/**
 * Follows a feed, with the publisher's key when given: the key is trusted under `name` (the feed's
 * host when none is given) as Settings → Trusted publishers would, unless already trusted, and kept
 * with the feed so Settings shows its fingerprint. Refused as a whole before anything is written
 * when the address, the key or the policy refuses.
 */
export async function followFeed(
  ctx: ApiContext,
  request: { url: string; publicKey: string | null; name: string | null },
): Promise<FeedsView> {
  const policy = usablePolicy(policyOf(ctx), `The feed ${request.url} was not added`);
  // Every check before any write: the address, the organization's feeds, the key (a `.pub` file's text or its line).
  const href = fetchableUrl(request.url).href;
  feedAllowedByPolicy(policy, href);
  const key = request.publicKey === null ? null : await previewKey(ctx, { publicKey: request.publicKey });
  // The key trusted first (refused, nothing is written), then the feed followed, naming that key.
  if (key !== null && key.trustedAs === null)
    await trustKeyUnderPolicy(ctx, { publicKey: key.publicKey, name: request.name ?? new URL(href).host });
  await addFeed(ctx, href);
  if (key !== null)
    await ctx.store.update((draft) => {
      const feed = own(draft.feeds, href);
      if (feed) feed.publicKey = key.publicKey;
      return { result: null };
    });
  return feedsView(ctx);
}

/** Stops following a feed (refused while a package updates from it). */
export async function unfollowFeed(ctx: ApiContext, request: { url: string }): Promise<FeedsView> {
  await removeFeed(ctx, request.url);
  return feedsView(ctx);
}

/** The version a roll back would put back: the one kept, when it is older than the one installed (else none). */
function rollbackTo(state: StoreState, name: string, installed: string): string | null {
  const kept = own(state.packageUpdates, name)?.previous?.version ?? null;
  return kept !== null && compareVersions(kept, installed) < 0 ? kept : null;
}

/** The Updates screen: every feed checked now, a row per package installed from one. */
export async function checkUpdates(ctx: ApiContext, fetch: FeedFetch): Promise<UpdatesView> {
  const rows = await checkOutdated(ctx, fetch);
  const state = await ctx.store.read();
  const policyMode = policyUpdateMode(policyOf(ctx).effective);
  return {
    rows: rows.map((row) => ({ ...row, rollbackTo: rollbackTo(state, row.name, row.installed) })),
    checkedAt: ctx.deps.now().toISOString(),
    modeLocked:
      policyMode === null
        ? null
        : `Your organization sets how every package updates (${MODE_NAMES[policyMode]}): only your administrator can change this.`,
  };
}

/** The modes as the screens name them. */
const MODE_NAMES = { notify: 'tell me', auto: 'apply by itself when it asks for nothing new', hold: 'hold' } as const;

/** Sets a package's mode, unless the organization sets the modes. */
export async function setModeUnderPolicy(
  ctx: ApiContext,
  request: { name: string; mode: 'notify' | 'auto' | 'hold' },
): Promise<ModeSet> {
  const policyMode = policyUpdateMode(
    usablePolicy(policyOf(ctx), `The update mode of ${request.name} was not changed`),
  );
  if (policyMode !== null)
    throw new CoreError(
      'policy.update_mode',
      `Your organization sets how every package updates (${MODE_NAMES[policyMode]}): ${request.name}'s mode was not changed; ${POLICY_REFUSAL}.`,
    );
  return { name: request.name, mode: await setUpdateMode(ctx, request.name, request.mode) };
}

/** Opens a package's update as a source: the consent form then shows what it changes (nothing installed yet). */
export async function openUpdateSource(
  ctx: ApiContext,
  fetch: FeedFetch,
  request: { name: string },
): Promise<UpdateOpened> {
  const opened = await openUpdate(ctx, fetch, request.name);
  return { handle: opened.handle, from: opened.from, to: opened.origin.version.version };
}

/** Opens the version kept for roll back as a source, through the same consent form. */
export async function openRollbackSource(ctx: ApiContext, request: { name: string }): Promise<UpdateOpened> {
  return openRollback(ctx, request.name);
}
