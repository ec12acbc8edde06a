/**
 * The blocked-tools pattern (DESIGN.md "Managed policy"), alone so that both the version-1 rules (`policy.ts`) and
 * version 2's tool rules (`policy-rules.ts`) read it without importing each other.
 */

/**
 * Whether `tool` matches a blocked-tools entry: exact, or a pattern where `*` stands for any run
 * of characters except `/` (`mcp:server/*`, `mcp:*\/delete_*`, `pkg:*\/*`). Linear: no regex is
 * built from policy text.
 */
export function toolPatternMatches(pattern: string, tool: string): boolean {
  if (!pattern.includes('*')) return pattern === tool;
  const parts = pattern.split('*');
  let at = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    if (i === 0) {
      if (!tool.startsWith(part)) return false;
      at = part.length;
      continue;
    }
    // The star before this part covers tool[at, found): it must hold no `/`.
    const last = i === parts.length - 1;
    const found = last
      ? tool.endsWith(part) && tool.length - part.length >= at
        ? tool.length - part.length
        : -1
      : tool.indexOf(part, at);
    if (found === -1) return false;
    if (tool.slice(at, found).includes('/')) return false;
    at = found + part.length;
  }
  return true;
}
