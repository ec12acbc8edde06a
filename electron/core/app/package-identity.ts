/**
 * A package's identity against the installed one (DESIGN.md "Trust after install": a package is identified by its
 * archive's SHA-256, not by its name and version). Light on purpose: `inspect` says it without loading install.
 */
import compare from 'semver/functions/compare.js';

/** How a candidate version stands to the installed one. */
export function relationOf(installed: string, candidate: string): 'same' | 'newer' | 'older' {
  const order = compare(candidate, installed);
  return order === 0 ? 'same' : order > 0 ? 'newer' : 'older';
}

/**
 * How a candidate stands to the installed package: its version's relation, and for the same version, whether its
 * archive is the installed one (`same`) or other bytes (`other_bytes`: another package, DESIGN.md "Trust after
 * install": a package is identified by its archive's SHA-256, not by its name and version).
 */
export function identityRelation(
  installed: { version: string; sha256: string },
  candidate: string,
  sha256: string,
): 'same' | 'other_bytes' | 'newer' | 'older' {
  const relation = relationOf(installed.version, candidate);
  return relation === 'same' && installed.sha256.toLowerCase() !== sha256.toLowerCase() ? 'other_bytes' : relation;
}
