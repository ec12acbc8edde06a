/**
 * The organization's say over feeds (DESIGN.md "Feeds, updates and install links": "the feeds allowed, whether local
 * files may be installed at all, and the update mode the organization sets"), from the policy's version 2:
 * `feeds.allowed` (address prefixes, every source's list must allow it) and `updates`. Every feed door (open, check,
 * update, roll back, add) calls these; `installSources` is the install's own check (`packagePolicyProblems`).
 */
import { type EffectivePolicy, feedAllowed } from '../../../shared/policy/policy';
import { CoreError } from '../errors/index';
import type { PackageUpdateRecord } from '../store/state';

type UpdateMode = PackageUpdateRecord['mode'];

/**
 * Refuses `feedUrl` when the policy lists the feeds allowed and this is not among them (`feed.not_allowed`); allows
 * every feed while the policy says nothing of feeds.
 */
export function feedAllowedByPolicy(policy: EffectivePolicy | null, feedUrl: string): void {
  if (feedAllowed(policy, new URL(feedUrl).href)) return;
  throw new CoreError('feed.not_allowed', `your organization's policy does not allow the feed ${feedUrl}`, {
    path: feedUrl,
  });
}

/** The update mode the organization sets for every package, or null when it leaves it to the person. */
export function policyUpdateMode(policy: EffectivePolicy | null): UpdateMode | null {
  const mode = policy?.updates ?? 'person';
  return mode === 'person' ? null : mode;
}
