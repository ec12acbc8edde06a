/**
 * Cargo-style semver requirements (`>=0.3, <0.4`), as `package.sdk` is written (spec "[package]";
 * DESIGN.md "Validation contract"). node-semver does not read them directly, so each
 * comma-separated comparator is converted: a bare version means `^` (Cargo's default), partial
 * versions and `*` wildcards keep their Cargo meaning, which node-semver's X-ranges share.
 */
// Only the functions used, not semver's index: its fifty modules cost the bounded worker's start.
import satisfies from 'semver/functions/satisfies.js';
import validRange from 'semver/ranges/valid.js';

const COMPARATOR =
  /^(=|>=|<=|>|<|~|\^)?\s*(\*|(?:0|[1-9]\d*)(?:\.(?:\*|0|[1-9]\d*)(?:\.(?:\*|0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?)?)?)$/;

/** The node-semver range equivalent to a Cargo-style requirement, or null when it is not one. */
export function cargoRequirementToRange(requirement: string): string | null {
  if (requirement.trim() === '') return null;
  const parts: string[] = [];
  for (const raw of requirement.split(',')) {
    const match = COMPARATOR.exec(raw.trim());
    if (!match) return null;
    const op = match[1];
    const version = match[2] ?? '';
    if (version === '*' && op !== undefined) return null;
    parts.push(version === '*' ? '*' : `${op ?? '^'}${version}`);
  }
  const range = parts.join(' ');
  return validRange(range) === null ? null : range;
}

/** Whether `version` satisfies the Cargo-style `requirement` (false when the requirement is invalid). */
export function satisfiesRequirement(version: string, requirement: string): boolean {
  const range = cargoRequirementToRange(requirement);
  return range !== null && satisfies(version, range);
}

/** Strict semver 2.0.0 (semver.org's own expression): no leading `v`, no `=`, no spaces. */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** Whether `version` is a semver version (spec "[package] version": "for example 1.2.0"). */
export function isSemver(version: string): boolean {
  return SEMVER.test(version);
}
