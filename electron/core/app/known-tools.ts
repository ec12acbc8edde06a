/**
 * The tools the app knows, for Settings → Tools you never allow (the list is
 * picked, not typed). A tool the app has never seen cannot be offered: the native tools of the
 * catalogue (DESIGN.md "Catalogues"), the MCP tools the built-in templates name, and the MCP tools of
 * the agents on this computer (a template agent's tool settings, a package agent's `mcp:` access).
 * Saved MCP servers are never started to list their tools (nothing is run to fill a form).
 */
import type { KnownTool } from '../../../shared/contract/api';
import { APOLLIA_NATIVE_TOOLS, TEMPLATE_TOOLS } from '../../../shared/manifests/catalogues';
import { deniedToolProblem } from '../../../shared/manifests/owner-tools';
import { mcpGateName } from '../../../shared/manifests/template-manifest';
import type { ApiContext } from './context';
import { checkTemplateFolder } from '../bounded';
import type { StoreState } from '../store/state';
import { BUILTIN_TEMPLATES, builtinTemplateDir } from '../template/builtin';

/**
 * Built-in templates' MCP tools, read once per resources folder (the shipped folders do not change while the app runs).
 */
const builtinMcpTools = new Map<string, Promise<Map<string, string>>>();

/** The gate names of the MCP tools the built-in templates name, each with the template that names it first. */
function builtinMcp(resourcesDir: string): Promise<Map<string, string>> {
  let found = builtinMcpTools.get(resourcesDir);
  if (!found) {
    found = (async () => {
      const tools = new Map<string, string>();
      for (const card of BUILTIN_TEMPLATES) {
        const read = await checkTemplateFolder(builtinTemplateDir(resourcesDir, card.name)).catch(() => null);
        for (const server of read?.inspection.details?.manifest.mcp ?? []) {
          for (const tool of server.tools) {
            const gate = mcpGateName(server.server, tool);
            if (!tools.has(gate)) tools.set(gate, `Used by the built-in template ${card.title}`);
          }
        }
      }
      return tools;
    })();
    builtinMcpTools.set(resourcesDir, found);
  }
  return found;
}

/** The MCP tools of the agents in `state`, by gate name, each with the agent it was seen on. */
function agentMcp(state: StoreState): Map<string, string> {
  const tools = new Map<string, string>();
  for (const agent of Object.values(state.agents)) {
    const names = agent.origin === 'template' ? Object.keys(agent.toolSettings) : agent.access.map((a) => a.entry);
    for (const name of names)
      if (name.startsWith('mcp:') && !tools.has(name)) tools.set(name, `Used by your agent ${agent.displayName}`);
  }
  return tools;
}

/**
 * Every tool the picker may offer, sorted by name, without those already denied. Each is one
 * `denyTool` accepts (`deniedToolProblem` is the one check of that): an MCP name a template or an
 * agent holds but a denial cannot take is left out rather than offered and then refused.
 */
export async function knownTools(ctx: ApiContext, state: StoreState): Promise<KnownTool[]> {
  const denied = new Set(state.settings.deniedTools);
  const out = new Map<string, KnownTool>();
  for (const tool of [...TEMPLATE_TOOLS, ...APOLLIA_NATIVE_TOOLS]) {
    if (!out.has(tool.name)) out.set(tool.name, { tool: tool.name, description: tool.description, kind: 'native' });
  }
  for (const [gate, description] of [...(await builtinMcp(ctx.deps.resourcesDir)), ...agentMcp(state)]) {
    if (!out.has(gate)) out.set(gate, { tool: gate, description, kind: 'mcp' });
  }
  return [...out.values()]
    .filter((t) => !denied.has(t.tool) && deniedToolProblem(t.tool) === null)
    .sort((a, b) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
}
