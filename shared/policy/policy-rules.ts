/**
 * The rules of version 2 of the organization's policy (DESIGN.md "Managed policy"), pure, for every side: which MCP
 * servers may run (`mcpServers.allowed` / `.denied`, deny winning), what a tool rule does to a tool (`toolRules`, the
 * strictest matching rule winning), and which feeds are trusted (`feeds.allowed`). `policy.ts` applies the tool rules
 * where it applies `blockedTools`, so a rule holds at every door that asks it.
 */
import type { EffectivePolicy, McpServerMatch, ToolRule } from './policy-in-force-schema';
import { toolPatternMatches } from './tool-pattern';

/**
 * Whether `text` matches `pattern`, where `*` stands for any run of characters (a `/` included: commands and URLs
 * hold them). Linear in practice and never a regex built from policy text.
 */
export function globMatches(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      mark = t;
    } else if (star !== -1) {
      p = star + 1;
      t = ++mark;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

/** An MCP server as the policy sees it: its name, and the program it starts or the address it reaches. */
export interface McpServerIdentity {
  name: string;
  command?: string | undefined;
  args?: readonly string[] | undefined;
  url?: string | undefined;
}

/** Whether a server matches an allowed or denied entry: every field the entry gives matches (`args` one by one). */
export function mcpServerMatches(entry: McpServerMatch, server: McpServerIdentity): boolean {
  if (entry.name !== undefined && !globMatches(entry.name, server.name)) return false;
  if (entry.command !== undefined && (server.command === undefined || !globMatches(entry.command, server.command)))
    return false;
  if (entry.args !== undefined) {
    const args = server.args ?? [];
    if (args.length !== entry.args.length) return false;
    if (entry.args.some((pattern, i) => !globMatches(pattern, args[i] as string))) return false;
  }
  if (entry.url !== undefined && (server.url === undefined || !globMatches(entry.url, server.url))) return false;
  return true;
}

/** An entry in words, as a refusal names it: `{"command":"npx","args":["*"]}`. */
function entryWords(entry: McpServerMatch): string {
  return JSON.stringify(entry);
}

/**
 * Why the policy refuses an MCP server, in words; null when it may run. A denied entry that matches wins over any
 * allowlist; then the server must be on every allowlist a source sets.
 */
export function mcpServerRefusedBy(
  policy: EffectivePolicy | null | undefined,
  server: McpServerIdentity,
): string | null {
  if (!policy) return null;
  const denied = policy.mcpServersDenied.find((entry) => mcpServerMatches(entry, server));
  if (denied) return `your organization denies the MCP server \`${server.name}\` (${entryWords(denied)})`;
  for (const allowed of policy.mcpServersAllowed)
    if (!allowed.some((entry) => mcpServerMatches(entry, server)))
      return `the MCP server \`${server.name}\` is not on your organization's list of allowed MCP servers`;
  return null;
}

const RULE_ORDER = ['allow', 'ask', 'block'] as const;

/** The strictest tool rule matching `tool` (`block` over `ask` over `allow`); null when none matches. */
export function toolRuleFor(policy: EffectivePolicy | null | undefined, tool: string): ToolRule | null {
  let strictest: ToolRule | null = null;
  for (const rule of policy?.toolRules ?? [])
    if (
      toolPatternMatches(rule.match, tool) &&
      (strictest === null || RULE_ORDER.indexOf(rule.permission) > RULE_ORDER.indexOf(strictest.permission))
    )
      strictest = rule;
  return strictest;
}

/** The words of a tool rule's match: "this tool" when it names the tool exactly, the pattern otherwise. */
export function ruleWords(rule: ToolRule, tool: string): string {
  return rule.match === tool ? 'this tool' : `“${rule.match}”`;
}

/** Why the policy keeps `tool` asking before each call (an `ask` rule is its strictest), in words; null otherwise. */
export function toolAskedBy(policy: EffectivePolicy | null | undefined, tool: string): string | null {
  const rule = toolRuleFor(policy, tool);
  return rule?.permission === 'ask' ? `your organization asks you before each call of ${ruleWords(rule, tool)}` : null;
}

/** Whether a feed's address is trusted: it starts with a prefix on every allowlist a source sets (none set: any). */
export function feedAllowed(policy: EffectivePolicy | null | undefined, address: string): boolean {
  return (policy?.feedsAllowed ?? []).every((prefixes) => prefixes.some((prefix) => address.startsWith(prefix)));
}

/** Whether a package may be installed from where it comes: `installSources: "feeds"` refuses a local file. */
export function installSourceAllowed(policy: EffectivePolicy | null | undefined, from: 'file' | 'feed'): boolean {
  return !policy || policy.installSources === 'any' || from === 'feed';
}
