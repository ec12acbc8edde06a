/**
 * The verdict at the top of a template's Overview (as `verdict.ts` gives an
 * `.apo` one): one headline of the worst the agent it makes could do, a level, and the facts
 * behind it, from what the template declares (template spec, agent.md `tools`, `mcp`, `approvals`,
 * `triggers`).
 *
 * Honesty rule, as for packages: an MCP tool runs in a server the owner saved, on the owner's
 * account, so what it reads is the owner's data and what it sends leaves in the owner's name. A
 * tool's kind is read from the first verb in its name (`send`, `create`, `get`…) only to sort the
 * facts; a tool whose name says nothing is counted as one that may change things. Pure: no DOM, no Node.
 */
import { templateTool } from '../manifests/catalogues';
import { WEB_TOOLS } from '../manifests/catalogues';
import type { TemplateManifest } from '../manifests/template-manifest';
import type { Verdict } from './verdict';
import { andList, someNames } from '../base/word-lists';

/** Verbs of tool names, by what a tool named with them does: sends in the owner's name, or only reads. */
const SEND_VERBS: ReadonlySet<string> = new Set([
  'send',
  'post',
  'reply',
  'comment',
  'publish',
  'notify',
  'tweet',
  'email',
  'mail',
  'message',
]);
const READ_VERBS: ReadonlySet<string> = new Set([
  'get',
  'list',
  'search',
  'read',
  'fetch',
  'find',
  'lookup',
  'query',
  'view',
  'describe',
  'show',
  'count',
]);
/** Verbs of tool names that change something (create, update…): a name with no known verb counts as one too. */
const CHANGE_VERBS: ReadonlySet<string> = new Set([
  'create',
  'update',
  'delete',
  'write',
  'set',
  'add',
  'remove',
  'edit',
  'merge',
  'close',
  'upload',
  'move',
  'archive',
  'assign',
  'invite',
]);

/**
 * What a tool named `name` does, from the first verb among its words (`slack_send_message` sends,
 * `get_message` reads, `hubspot-batch-update-objects` changes); no known verb: it may change things.
 */
function toolKind(name: string): 'sends' | 'reads' | 'changes' {
  for (const word of name.toLowerCase().split(/[-_.]+/)) {
    if (SEND_VERBS.has(word)) return 'sends';
    if (READ_VERBS.has(word)) return 'reads';
    if (CHANGE_VERBS.has(word)) return 'changes';
  }
  return 'changes';
}

/** What one kind of MCP tool the template uses amounts to, with the tools (`server/tool`). */
interface McpReach {
  sends: string[];
  changes: string[];
  reads: string[];
  /** Sending tools whose every call is pinned (spec agent.md `mcp[].pin`). */
  pinnedSends: string[];
  /** The servers it reads from or changes things in (one it only sends through is not read). */
  readFrom: string[];
}

function mcpReach(manifest: TemplateManifest): McpReach {
  const reach: McpReach = { sends: [], changes: [], reads: [], pinnedSends: [], readFrom: [] };
  const readFrom = new Set<string>(); // what readFrom holds, looked up: thousands of servers and tools may come
  for (const entry of manifest.mcp ?? []) {
    for (const tool of entry.tools) {
      const name = `${tool} (${entry.server})`;
      const kind = toolKind(tool);
      if (kind === 'sends') {
        reach.sends.push(name);
        if (entry.pin !== undefined && Object.hasOwn(entry.pin, tool)) reach.pinnedSends.push(name);
        continue;
      }
      reach[kind].push(name);
      if (!readFrom.has(entry.server)) {
        readFrom.add(entry.server);
        reach.readFrom.push(entry.server);
      }
    }
  }
  return reach;
}

/**
 * The verdict of a template. `high`: its agent can run commands, or read the owner's accounts and
 * reach the internet (together they could leak), or send in the owner's name unattended. `care`:
 * it sends, changes or reads through the owner's accounts, reaches the internet, or writes files.
 * `low`: its built-in tools only read its own work folder.
 */
export function templateVerdict(manifest: TemplateManifest): Verdict {
  const natives = manifest.tools ?? [];
  const code = natives.filter((tool) => templateTool(tool)?.family === 'execute_code');
  const web = natives.filter((tool) => WEB_TOOLS.has(tool));
  const writes = natives.filter((tool) => templateTool(tool)?.family === 'write_or_delete');
  const mcp = mcpReach(manifest);
  const touchesAccounts = (manifest.mcp ?? []).length > 0;
  const accounts = mcp.readFrom;
  const unattended = manifest.approvals === 'never';
  const triggers = manifest.triggers?.length ?? 0;
  const leaks = accounts.length > 0 && web.length > 0;

  let headline: string;
  if (code.length > 0)
    headline = `Can run commands${web.length > 0 || mcp.sends.length > 0 ? ' and send your data out' : ''}`;
  else if (mcp.sends.length > 0) headline = `Can send or post in your name${unattended ? ', on its own' : ''}`;
  else if (leaks) headline = 'Can read your accounts and send what it reads out';
  else if (mcp.changes.length > 0) headline = 'Can change things in your accounts';
  else if (touchesAccounts) headline = 'Can read your accounts';
  else if (web.length > 0) headline = 'Can reach the internet';
  else if (writes.length > 0) headline = 'Can change files in its work folder';
  else headline = 'Only reads its own work folder';

  const facts: string[] = [];
  if (code.length > 0) facts.push(`Its agent may use ${someNames(code)}, which runs any command in its box.`);
  if (mcp.sends.length > 0) {
    const pinned =
      mcp.pinnedSends.length === mcp.sends.length
        ? ': each only where its pin says'
        : mcp.pinnedSends.length > 0
          ? `: only ${someNames(mcp.pinnedSends)} is held to where its pin says`
          : ': it chooses where';
    facts.push(`Sends through your saved MCP servers: ${someNames(mcp.sends)}${pinned}.`);
  }
  if (unattended) {
    const started = triggers > 0 ? `, started by ${triggers === 1 ? 'its trigger' : `its ${triggers} triggers`},` : '';
    facts.push(`The template recommends running unattended: its tools would run${started} without asking you.`);
  }
  if (leaks)
    facts.push(
      `Reads your ${andList(accounts)} ${accounts.length === 1 ? 'account' : 'accounts'} and can reach the internet (${someNames(web)}): together they could leak what it reads.`,
    );
  else if (web.length > 0) facts.push(`Reaches the internet: ${someNames(web)}.`);
  if (mcp.changes.length > 0) facts.push(`Can change things in your accounts: ${someNames(mcp.changes)}.`);
  if (!leaks && mcp.reads.length > 0) facts.push(`Reads your accounts: ${someNames(mcp.reads)}.`);
  if (writes.length > 0) facts.push(`Writes files in its work folder: ${someNames(writes)}.`);
  if (facts.length === 0) facts.push('Its tools only read its own work folder; it uses none of your accounts.');

  const level: Verdict['level'] =
    code.length > 0 || leaks || (mcp.sends.length > 0 && unattended)
      ? 'high'
      : touchesAccounts || web.length > 0 || writes.length > 0
        ? 'care'
        : 'low';
  return { level, headline, facts: facts.slice(0, 3) };
}
