/**
 * The owner's own tool settings (Settings → Tools you never allow): which names a denial may take.
 *
 * Template spec "Apply" step 2: apply grants a package's tools "never one the owner denies on this
 * server (it stays denied, with a `grants.<tool>` warning)". A denial names a tool as the gate and
 * a template name it: an MCP tool by its gate name `mcp:<server>/<tool>` (spec agent.md `mcp`: a
 * server name is as `shared/manifests/mcp-server-name.ts` defines it, a tool name `A-Z a-z 0-9 _ . -`), or a tool the runtime
 * binds
 * natively for templates (the catalogue's `template` list: `shell`, `web_fetch`, …). Anything else
 * could never match a tool, so it is refused rather than kept as a denial that does nothing.
 */
import { APOLLIA_NATIVE_TOOLS, TEMPLATE_TOOLS } from './catalogues';
import { MCP_SERVER_NAME_SOURCE } from './mcp-server-name';

/** At most this many tools may be denied: the list is for people, not a blocklist to paste in. */
export const MAX_DENIED_TOOLS = 512;

/** An MCP tool's gate name: `mcp:<server>/<tool>`, each part as agent.md names it. */
const MCP_GATE_NAME = new RegExp(`^mcp:${MCP_SERVER_NAME_SOURCE}/[A-Za-z0-9_.-]{1,128}$`);

/**
 * The native tool names a denial may take: the catalogue's template tools and `.apo` tools (the
 * list applies to `.apo` installs too), each once, sorted.
 */
export const DENIABLE_NATIVE_TOOLS: readonly string[] = [
  ...new Set([...TEMPLATE_TOOLS, ...APOLLIA_NATIVE_TOOLS].map((tool) => tool.name)),
].sort();

/**
 * Whether the owner never allows `entry`, an `.apo` access entry (a native name or
 * `mcp:<server>/<tool>`) or a template tool's name: both are written as a denial names them, so
 * the test is exact equality (a `pkg:`, `workflow:` or `agent:` entry is never on the list).
 */
export function ownerDenies(deniedTools: readonly string[], entry: string): boolean {
  return deniedTools.includes(entry);
}

/**
 * Why `tool` cannot be denied, as a sentence naming it and the expected form, or null when it is
 * an MCP gate name or a native template tool.
 */
export function deniedToolProblem(tool: string): string | null {
  if (MCP_GATE_NAME.test(tool) || DENIABLE_NATIVE_TOOLS.includes(tool)) return null;
  const shown = tool.length > 80 ? `${tool.slice(0, 80)}…` : tool;
  if (tool.startsWith('mcp:')) {
    return `\`${shown}\` is not an MCP tool's gate name: write it as mcp:<server>/<tool>, like mcp:slack/slack_send_message (a server name in lower-case letters, digits, _ and -; a tool name in letters, digits, _, - and .)`;
  }
  return `\`${shown}\` is not a tool name: write an MCP tool as mcp:<server>/<tool> (like mcp:slack/slack_send_message), or a built-in tool by its name (${DENIABLE_NATIVE_TOOLS.join(', ')})`;
}
