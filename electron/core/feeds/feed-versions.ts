/**
 * Comparing a feed's versions (semver, as the manifest's `version` is): which is newest, and
 * whether an installed version is older than what a feed offers.
 */
import semver from 'semver';

/** Negative when `a` is older than `b`, positive when newer, 0 when equal; non-semver sorts last by text. */
export function compareVersions(a: string, b: string): number {
  const va = semver.valid(a);
  const vb = semver.valid(b);
  if (va && vb) return semver.compare(va, vb);
  if (va) return 1;
  if (vb) return -1;
  return a < b ? -1 : a > b ? 1 : 0;
}
