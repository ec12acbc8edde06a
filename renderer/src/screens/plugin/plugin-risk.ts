/**
 * The plain-words risk summary of a plugin manifest, worst first, with what it does not do.
 * Pure, so the screen stays declarative. Names in the lines are package text: the screen shows
 * them through shared/display-text.ts like every other field.
 */
import type { MinimumRole, PluginManifestView } from '../../../../shared/plugin-manifest';

/** One line of the summary: `sensitive` lines come first, `cannot` lines say what it does not do. */
export interface PluginRiskLine {
  level: 'sensitive' | 'notice' | 'cannot';
  text: string;
}

/** Who a role floor lets in, in words (spec "Role floor"). */
export function roleFloorWords(role: MinimumRole | null): string {
  if (role === 'SUPER_ADMIN') return 'Only the platform operator (super admin)';
  if (role === 'TENANT_ADMIN') return 'Only tenant admins and the platform operator';
  return 'Anyone on the tenant';
}

function names(list: string[]): string {
  const shown = list.slice(0, 4).join(', ');
  return list.length > 4 ? `${shown} and ${list.length - 4} more` : shown;
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What the plugin would be able to do if a host installed it, worst first. */
export function pluginRiskSummary(view: PluginManifestView): PluginRiskLine[] {
  const sensitive: PluginRiskLine[] = [];
  const notice: PluginRiskLine[] = [];
  const cannot: PluginRiskLine[] = [];
  const writes = view.tools.filter((t) => t.access_class === 'write');
  const reads = view.tools.filter((t) => t.access_class === 'read');
  const minting = writes.filter((t) => !t.idempotent);

  if (view.remote_mcp) {
    sensitive.push({
      level: 'sensitive',
      text: 'Gets its tools from a remote MCP server at runtime: what it can do is decided by that server, not by this manifest.',
    });
  }
  if (view.mcp && view.mcp.transport !== 'STDIO') {
    sensitive.push({
      level: 'sensitive',
      text: `Exposes its tools as an MCP server over ${view.mcp.transport}${view.mcp.port !== null ? ` on port ${view.mcp.port}` : ''}: other programs that can reach that port could call them.`,
    });
  }
  if (writes.length > 0) {
    sensitive.push({ level: 'sensitive', text: `Can change or create things: ${count(writes.length, 'write tool', 'write tools')} (${names(writes.map((t) => t.name))}).` });
  }
  if (minting.length > 0) {
    sensitive.push({ level: 'sensitive', text: `Running ${minting.length === 1 ? 'this tool' : 'these tools'} twice does it twice (not idempotent): ${names(minting.map((t) => t.name))}.` });
  }
  if (view.mcp && view.mcp.transport === 'STDIO') {
    notice.push({ level: 'notice', text: 'Can also be run as a local MCP server over STDIO, for MCP clients outside Aperium.' });
  }
  const gated = view.capabilities.filter((c) => c.approval_required);
  if (gated.length > 0) {
    notice.push({ level: 'notice', text: `Asks for approval before using ${count(gated.length, 'capability', 'capabilities')}: ${names(gated.map((c) => c.name))}.` });
  }
  const floored = view.capabilities.filter((c) => c.minimum_role !== null);
  if (floored.length > 0) {
    notice.push({ level: 'notice', text: `Restricted to admins: ${names(floored.map((c) => `${c.name} (${roleFloorWords(c.minimum_role).toLowerCase()})`))}.` });
  }
  if (view.auth && view.auth.type.toLowerCase() !== 'none') {
    notice.push({ level: 'notice', text: `Needs credentials of the shape ${view.auth.type}${view.auth.scopes.length > 0 ? ` with ${count(view.auth.scopes.length, 'scope', 'scopes')}` : ''}; the manifest holds no credential values.` });
  }
  if (reads.length > 0) {
    notice.push({ level: 'notice', text: `Can read data: ${count(reads.length, 'read tool', 'read tools')} (${names(reads.map((t) => t.name))}).` });
  }

  if (writes.length === 0) cannot.push({ level: 'cannot', text: 'Declares no write tools: it only reads.' });
  if (!view.mcp) cannot.push({ level: 'cannot', text: 'Does not expose an MCP server.' });
  if (!view.remote_mcp) cannot.push({ level: 'cannot', text: 'Does not use a remote MCP server.' });
  if (!view.auth || view.auth.type.toLowerCase() === 'none') cannot.push({ level: 'cannot', text: 'Declares no credentials.' });
  return [...sensitive, ...notice, ...cannot];
}
