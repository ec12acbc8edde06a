/**
 * The organization's say over feeds (DESIGN.md "Feeds, updates and install links": "the feeds
 * allowed, whether local files may be installed at all, and the update mode the organization
 * sets"). Those keys (`feeds.allowed`, `installSources`, `updates`) arrive with the policy file's
 * version 2; until the policy in force carries them, these hooks allow every feed and leave each
 * package's mode to the person. Every feed door (open, check, update, roll back, add) calls them,
 * so honouring version 2 is a change here only.
 */
import type { EffectivePolicy } from '../../../shared/policy/policy';
import { CoreError } from '../errors/index';
import type { PackageUpdateRecord } from '../store/state';

type UpdateMode = PackageUpdateRecord['mode'];

/** The part of a version-2 policy these hooks read, when the policy in force has it. */
interface FeedPolicyKeys {
  feeds?: { allowed?: readonly string[] };
  updates?: { mode?: UpdateMode };
}

function feedKeysOf(policy: EffectivePolicy | null): FeedPolicyKeys {
  return (policy ?? {}) as FeedPolicyKeys;
}

/**
 * Refuses `feedUrl` when the policy lists the feeds allowed and this is not one of them
 * (`feed.not_allowed`); allows every feed while the policy says nothing of feeds.
 */
export function feedAllowedByPolicy(policy: EffectivePolicy | null, feedUrl: string): void {
  const allowed = feedKeysOf(policy).feeds?.allowed;
  if (!allowed) return;
  const href = new URL(feedUrl).href;
  if (allowed.some((entry) => URL.canParse(entry) && new URL(entry).href === href)) return;
  throw new CoreError('feed.not_allowed', `your organization's policy does not allow the feed ${feedUrl}`, {
    path: feedUrl,
  });
}

/** The update mode the organization sets for every package, or null when it leaves it to the person. */
export function policyUpdateMode(policy: EffectivePolicy | null): UpdateMode | null {
  return feedKeysOf(policy).updates?.mode ?? null;
}
