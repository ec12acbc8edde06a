/**
 * The plain-words risk summary at the top of the `.apo` consent form (DESIGN.md "Consent, install,
 * apply": "a plain-words risk summary first"). Pure: the same manifest always gives the same lines,
 * so the Overview step and its tests agree on what a person reads.
 */
import {
  FAMILY_SEVERITY,
  isSensitive,
  type ActionFamily,
  type ApolliaManifest,
  isPinnedRequirement,
  mcpCommandLine,
} from '../manifests/apollia-manifest';
import { reachesOutside, type NativeTool } from '../manifests/catalogues';
import { FAMILY_WORDS } from '../words/words';

/**
 * How a line reads on screen: `sensitive` (warning colours), `notice` (worth knowing, neutral),
 * `cannot` (something the package is NOT able to do).
 */
export type RiskLevel = 'sensitive' | 'notice' | 'cannot';

/** One line of the summary: a sentence, and the names it is about. */
export interface RiskLine {
  level: RiskLevel;
  /** The action family the line is about, when it is about one. */
  family?: ActionFamily;
  text: string;
  /** The tools, workflows, servers, connections or triggers the line names. */
  items: string[];
}

/** What a package cannot do when a family is absent from everything it declares. */
const CANNOT_WORDS: Record<Exclude<ActionFamily, 'read'>, string> = {
  execute_code: 'Cannot run code on this computer',
  send_external: 'Cannot send things outside this computer',
  write_or_delete: 'Cannot delete or write files',
  read_personal: 'Cannot read your personal data',
};

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** "1 workflow (monthly-reminders)", "2 tools (a, b) and 1 built-in tool (file_read)". */
function countedList(groups: { one: string; names: string[] }[]): string {
  return groups
    .filter((group) => group.names.length > 0)
    .map((group) => `${plural(group.names.length, group.one)} (${group.names.join(', ')})`)
    .join(' and ');
}

/**
 * The risk summary of a manifest, worst first: one `sensitive` line per sensitive family (tools,
 * workflows and the built-in tools agents are granted by default), programs and servers the MCP
 * entries bring, connections, pip requirements, triggers, then, for a package with no code of its
 * own, what the built-in tools it is granted cannot do.
 *
 * `catalogue` gives the family of a native tool named in `agents[].defaults.access`; a name it does
 * not know is left out of the family lines (the archive check warns about it).
 */
export function riskSummary(manifest: ApolliaManifest, catalogue: readonly NativeTool[]): RiskLine[] {
  const tools = manifest.tools ?? [];
  const workflows = manifest.workflows ?? [];
  const servers = manifest.mcp_servers ?? [];
  const nativeNames = new Set<string>();
  for (const agent of manifest.agents ?? []) {
    for (const entry of agent.defaults?.access ?? []) {
      if (!entry.includes(':')) nativeNames.add(entry);
    }
  }
  const native = [...nativeNames]
    .map((name) => catalogue.find((tool) => tool.name === name))
    .filter((tool): tool is NativeTool => tool !== undefined);

  const lines: RiskLine[] = [];
  const present = new Set<ActionFamily>();
  const commandServers = servers.filter((server) => (server.command ?? '') !== '');
  const networkServers = servers.filter((server) => (server.command ?? '') === '' && server.url !== undefined);

  for (const family of FAMILY_SEVERITY) {
    const toolNames = tools.filter((tool) => tool.action === family).map((tool) => tool.name);
    const workflowNames = workflows.filter((workflow) => workflow.action === family).map((workflow) => workflow.name);
    // A web tool reads, but what it looks up leaves the computer: it is said with what sends outside, as the verdict
    // counts it (`reachesOutside`), never as only reading.
    const nativeNamesOf = native
      .filter((tool) => (reachesOutside(tool.name) ? family === 'send_external' : tool.family === family))
      .map((tool) => tool.name);
    if (family === 'execute_code') {
      for (const server of commandServers) {
        lines.push({
          level: 'sensitive',
          family,
          text: `Runs a program on this computer: \`${mcpCommandLine(server)}\``,
          items: [server.name],
        });
      }
    }
    if (family === 'send_external') {
      if (networkServers.length > 0) present.add(family);
      for (const server of networkServers) {
        lines.push({
          level: 'sensitive',
          family,
          text: `Connects to a server outside this computer: ${server.url ?? ''}`,
          items: [server.name],
        });
      }
    }
    const count = toolNames.length + workflowNames.length + nativeNamesOf.length;
    if (count === 0) continue;
    present.add(family);
    const list = countedList([
      { one: 'tool', names: toolNames },
      { one: 'workflow', names: workflowNames },
      { one: 'built-in tool', names: nativeNamesOf },
    ]);
    lines.push({
      level: isSensitive(family) ? 'sensitive' : 'notice',
      family,
      text: `${FAMILY_WORDS[family]} — ${list}`,
      items: [...toolNames, ...workflowNames, ...nativeNamesOf],
    });
  }

  for (const requirement of manifest.requires ?? []) {
    lines.push({ level: 'notice', text: `Asks for a connection to ${requirement.type}`, items: [requirement.type] });
  }
  const pip = manifest.pip?.packages ?? [];
  if (pip.length > 0) {
    const unpinned = pip.filter((requirement) => !isPinnedRequirement(requirement));
    const extra = unpinned.length > 0 ? ` (${unpinned.length} not pinned to one version: ${unpinned.join(', ')})` : '';
    lines.push({
      level: unpinned.length > 0 ? 'sensitive' : 'notice',
      text: `Installs ${plural(pip.length, 'Python package')}${extra}`,
      items: pip,
    });
  }
  const triggers = manifest.triggers ?? [];
  if (triggers.length > 0) {
    lines.push({
      level: 'notice',
      text: `Proposes ${plural(triggers.length, 'trigger')} (off until you arm ${triggers.length === 1 ? 'it' : 'them'})`,
      items: triggers.map((trigger) => trigger.id),
    });
  }

  // "Cannot" is said only where Apollia makes it true: a package with no code of its own (no Python
  // tool or workflow, no MCP server) can do only what the built-in tools it is granted do. Code can
  // do anything its person can, whatever family its author declares.
  const hasCode = tools.length + workflows.length + servers.length > 0;
  if (hasCode) return lines;
  const web = native.some((tool) => reachesOutside(tool.name));
  for (const family of ['execute_code', 'send_external', 'write_or_delete', 'read_personal'] as const) {
    if (present.has(family) || (family === 'send_external' && web)) continue;
    lines.push({ level: 'cannot', family, text: CANNOT_WORDS[family], items: [] });
  }
  return lines;
}
