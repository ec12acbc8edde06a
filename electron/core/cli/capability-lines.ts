/**
 * What a package can do, worst first, as `inspect` prints it (DESIGN.md "Consent, install, apply": the worst it could
 * do first): the text's "What it can do" section and `--json`'s `summary.capabilities` are these same lines, so the two
 * forms never disagree (a program an MCP server starts is said first, with code execution, in both).
 */
import {
  type ActionFamily,
  type ApolliaManifest,
  FAMILY_SEVERITY,
  mcpCommandLine,
} from '../../../shared/manifests/apollia-manifest';
import { apolliaNativeTool, reachesOutside } from '../../../shared/manifests/catalogues';
import { FAMILY_WORDS } from '../../../shared/words/words';

/**
 * The lines of what `manifest` can do, worst first: per family, the programs its MCP servers start (code execution),
 * the servers it connects to (sending outside), then its tools, workflows and the built-in tools its agents are given.
 */
export function capabilityLines(manifest: ApolliaManifest): string[] {
  const tools = manifest.tools ?? [];
  const workflows = manifest.workflows ?? [];
  // Built-in tools the agents are granted by default count under their catalogue family; MCP
  // servers run a program here (command) or talk to a server elsewhere (URL).
  const granted = [
    ...new Set(
      (manifest.agents ?? []).flatMap((a) => a.defaults?.access ?? []).filter((entry) => !entry.includes(':')),
    ),
  ];
  const servers = manifest.mcp_servers ?? [];
  const lines: string[] = [];
  for (const family of FAMILY_SEVERITY) {
    if (family === 'execute_code') {
      for (const server of servers.filter((sv) => sv.command))
        lines.push(`Runs a program on this computer: \`${mcpCommandLine(server)}\` (MCP server ${server.name})`);
    }
    if (family === 'send_external') {
      for (const server of servers.filter((sv) => !sv.command && sv.url))
        lines.push(`Connects to a server outside this computer: ${server.url} (MCP server ${server.name})`);
    }
    const items = [
      ...tools.filter((t) => t.action === family).map((t) => `tool ${t.name}`),
      ...workflows.filter((w) => w.action === family).map((w) => `workflow ${w.name}`),
      // A web tool reads, but what it looks up leaves the computer: said with what sends outside, as the app does.
      ...granted
        .filter((name) =>
          reachesOutside(name) ? family === 'send_external' : apolliaNativeTool(name)?.family === family,
        )
        .map((name) => `built-in tool ${name}`),
    ];
    if (items.length > 0) lines.push(`${FAMILY_WORDS[family as ActionFamily]}: ${items.join(', ')}`);
  }
  return lines;
}
