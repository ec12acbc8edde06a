/**
 * The one strict-fields rule the hand-written checkers share (the plugin manifest's `Reader`,
 * agent.md's `AgentMdCheck`, a template's `PackageParts`): which of an object's own keys are not
 * among the fields its spec allows. Each checker reports them in its own words and code (a plugin
 * warns and does not show them; a template refuses them), but they are found the same way.
 */

/** The own keys of `object` that are not in `allowed`, in the object's order. */
export function unknownKeys(object: object, allowed: Iterable<string>): string[] {
  const known = allowed instanceof Set ? (allowed as Set<string>) : new Set(allowed);
  return Object.keys(object).filter((key) => !known.has(key));
}
