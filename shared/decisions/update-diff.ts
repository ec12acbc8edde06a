/**
 * What an update (or a downgrade) changes in what a package asks, and the decisions it starts from.
 *
 * DESIGN.md "Consent, install, apply": "the user's answers are what the store records, and an
 * update keeps them. An update shows what changed in what it asks." The spec says the same of
 * `[agents.defaults]`: "an override the user sets on their machine takes precedence, and a package
 * update keeps it".
 *
 * What an update keeps and what it asks again is decided in one place, `shared/decisions/decisions.ts`;
 * this module only describes the change (an entry that is new or whose family changed is listed in
 * `proposedAccess`: the decision asks it again, unticked).
 */
import type { UpdateDiff, McpServerChange, CapabilityDiff, AgentAccessDiff } from './update-diff-schema';
import {
  type ActionFamily,
  type ApolliaManifest,
  type McpServerEntry,
  type TriggerEntry,
  mcpCommandLine,
} from '../manifests/apollia-manifest';
import { apolliaNativeTool, reachesOutside } from '../manifests/catalogues';
import { ownRecord } from '../base/own-data';
import { accessFamilies } from './consent';
import { sameTrigger, triggerSourceWords } from './trigger-change';
import { compareNames } from '../words/name-comparison';
import { FAMILY_ABILITY } from '../words/words';
import { addressRisks } from '../base/http-url';
import type { UpdateChangeLevel } from './update-diff-schema';

/** What each part of a server's launch is called in a sentence. */
const MCP_PART_WORDS: Record<McpServerChange['changed'][number], string> = {
  command: 'the program it runs',
  args: 'its command line',
  url: 'the address it connects to',
  transport: 'how it connects',
  env: 'the environment variables it receives',
};

/** An access entry in words: a built-in tool by what it does, else what kind of entry it is and its name. */
export function entryWords(entry: string): string {
  const native = entry.includes(':') ? undefined : apolliaNativeTool(entry);
  if (native) return `${native.description.charAt(0).toLowerCase()}${native.description.slice(1)} (\`${entry}\`)`;
  const match = /^(pkg|workflow|mcp|agent):(.*)$/.exec(entry);
  const kind = match?.[1];
  const rest = match?.[2] ?? entry;
  if (kind === 'pkg') return `its tool \`${rest.split('/').slice(1).join('/')}\``;
  if (kind === 'workflow') return `its workflow \`${rest.split('/').slice(1).join('/')}\``;
  if (kind === 'mcp') {
    const [server = '', ...tool] = rest.split('/');
    return `the tool \`${tool.join('/')}\` of the program \`${server}\``;
  }
  if (kind === 'agent') return `the agent \`${rest}\``;
  return `\`${entry}\``;
}

// What an update changes is defined once with its schema (shared/contract/api-replies.ts): the Api answers it in `inspect`.
export type {
  UpdateDiff,
  McpServerChange,
  FamilyChange,
  CapabilityDiff,
  AgentAccessDiff,
  UpdateChangeLevel,
} from './update-diff-schema';

/** One sentence of an update's changes and how much it weighs. */
export interface UpdateChangeLine {
  text: string;
  level: UpdateChangeLevel;
}

/** An update's sentences with their levels, in order (`changes` and `changeLevels` zipped). */
export function updateChangeLines(diff: Pick<UpdateDiff, 'changes' | 'changeLevels'>): UpdateChangeLine[] {
  return diff.changes.map((text, i) => ({ text, level: diff.changeLevels[i] ?? 'sensitive' }));
}

/** Families whose new or widened use an update marks high: code that runs, and what sends outside. */
const HIGH_FAMILIES: ReadonlySet<ActionFamily> = new Set(['execute_code', 'send_external']);

/** A server address's risks in words after its url, and whether there is any (then the line is high). */
function addressWords(url: string): { words: string; risky: boolean } {
  const risks = addressRisks(url);
  const parts = [
    ...(risks.plainHttp ? ['over plain http://, so what it sends can be read and changed on the way'] : []),
    ...(risks.rawIp ? ['at a raw IP address, not a name you can check'] : []),
  ];
  return { words: parts.length > 0 ? ` (${parts.join('; ')})` : '', risky: parts.length > 0 };
}

function names<T extends { name: string }>(list: T[] | undefined): Map<string, T> {
  return new Map((list ?? []).map((item) => [item.name, item]));
}

function capabilityDiff(
  before: { name: string; action: ActionFamily }[] | undefined,
  after: { name: string; action: ActionFamily }[] | undefined,
): CapabilityDiff {
  const a = names(before);
  const b = names(after);
  return {
    added: [...b.keys()].filter((n) => !a.has(n)).sort(),
    removed: [...a.keys()].filter((n) => !b.has(n)).sort(),
    familyChanged: [...b.values()]
      .filter((item) => a.has(item.name) && a.get(item.name)?.action !== item.action)
      .map((item) => ({ name: item.name, from: a.get(item.name)?.action as ActionFamily, to: item.action }))
      .sort((x, y) => x.name.localeCompare(y.name)),
  };
}

function mcpChange(before: McpServerEntry, after: McpServerEntry): McpServerChange['changed'] {
  const changed: McpServerChange['changed'] = [];
  if ((before.command ?? '') !== (after.command ?? '')) changed.push('command');
  if (JSON.stringify(before.args ?? []) !== JSON.stringify(after.args ?? [])) changed.push('args');
  if ((before.url ?? '') !== (after.url ?? '')) changed.push('url');
  if ((before.transport ?? 'stdio') !== (after.transport ?? 'stdio')) changed.push('transport');
  const envKeys = (entry: McpServerEntry) =>
    Object.keys(entry.env ?? {})
      .sort()
      .join('\n');
  if (envKeys(before) !== envKeys(after)) changed.push('env');
  return changed;
}

/** Whether two versions of a trigger fire on the same words (then what changed is what it starts). */
function sameSourceWords(a: TriggerEntry, b: TriggerEntry): boolean {
  return triggerSourceWords(a.source) === triggerSourceWords(b.source);
}

function list(items: string[]): string {
  return items.map((item) => `\`${item}\``).join(', ');
}

/** Compares what `before` asked to what `after` asks, in lists and in sentences. Pure. */
export function diffUpdate(before: ApolliaManifest, after: ApolliaManifest): UpdateDiff {
  const { agents, proposedAccess } = agentsDiff(before, after);
  const lists: UpdateLists = {
    tools: capabilityDiff(before.tools, after.tools),
    workflows: capabilityDiff(before.workflows, after.workflows),
    connections: connectionsDiff(before, after),
    mcpServers: mcpServersDiff(before, after),
    triggers: triggersDiff(before, after),
    agents,
    publisher:
      before.package.publisher === after.package.publisher
        ? null
        : {
            from: before.package.publisher,
            to: after.package.publisher,
            comparison: compareNames(before.package.publisher, after.package.publisher),
          },
  };
  const { tools, workflows, connections, mcpServers, triggers } = lists;
  const lines = [...askedMoreSentences(before, after, lists), ...askedLessSentences(before, after, lists)];
  const asksMore =
    tools.added.length +
      workflows.added.length +
      tools.familyChanged.length +
      workflows.familyChanged.length +
      connections.added.length +
      mcpServers.added.length +
      mcpServers.changed.length +
      triggers.added.length +
      triggers.changed.length +
      agents.added.length +
      Object.keys(proposedAccess).length >
    0;
  return {
    fromVersion: before.package.version,
    toVersion: after.package.version,
    tools,
    workflows,
    connections,
    mcpServers,
    triggers,
    agents,
    changes: lines.map((line) => line.text),
    changeLevels: lines.map((line) => line.level),
    asksMore,
    proposedAccess,
    publisher: lists.publisher,
  };
}

/** The lists of an update's diff, from which its sentences are made. */
type UpdateLists = Pick<
  UpdateDiff,
  'tools' | 'workflows' | 'connections' | 'mcpServers' | 'triggers' | 'agents' | 'publisher'
>;

function connectionsDiff(before: ApolliaManifest, after: ApolliaManifest): UpdateDiff['connections'] {
  const reqBefore = new Set((before.requires ?? []).map((r) => r.type));
  const reqAfter = new Set((after.requires ?? []).map((r) => r.type));
  return {
    added: [...reqAfter].filter((t) => !reqBefore.has(t)).sort(),
    removed: [...reqBefore].filter((t) => !reqAfter.has(t)).sort(),
  };
}

function mcpServersDiff(before: ApolliaManifest, after: ApolliaManifest): UpdateDiff['mcpServers'] {
  const mcpBefore = names(before.mcp_servers);
  const mcpAfter = names(after.mcp_servers);
  return {
    added: [...mcpAfter.keys()].filter((n) => !mcpBefore.has(n)).sort(),
    removed: [...mcpBefore.keys()].filter((n) => !mcpAfter.has(n)).sort(),
    changed: [...mcpAfter.values()]
      .flatMap((server) => {
        const old = mcpBefore.get(server.name);
        const changed = old ? mcpChange(old, server) : [];
        return changed.length > 0 ? [{ name: server.name, changed }] : [];
      })
      .sort((x, y) => x.name.localeCompare(y.name)),
  };
}

function triggersDiff(before: ApolliaManifest, after: ApolliaManifest): UpdateDiff['triggers'] {
  const trBefore = new Map((before.triggers ?? []).map((t) => [t.id, t]));
  const trAfter = new Map((after.triggers ?? []).map((t) => [t.id, t]));
  return {
    added: [...trAfter.keys()].filter((id) => !trBefore.has(id)).sort(),
    removed: [...trBefore.keys()].filter((id) => !trAfter.has(id)).sort(),
    changed: [...trAfter.values()]
      .filter((t) => trBefore.has(t.id) && !sameTrigger(trBefore.get(t.id) as TriggerEntry, t))
      .map((t) => t.id)
      .sort(),
  };
}

/** Agents added and removed, each kept agent's offered entries added and removed, and what is asked again. */
function agentsDiff(
  before: ApolliaManifest,
  after: ApolliaManifest,
): { agents: UpdateDiff['agents']; proposedAccess: UpdateDiff['proposedAccess'] } {
  const agBefore = new Map((before.agents ?? []).map((a) => [a.id, a]));
  const agAfter = new Map((after.agents ?? []).map((a) => [a.id, a]));
  const agents = {
    added: [...agAfter.keys()].filter((id) => !agBefore.has(id)).sort(),
    removed: [...agBefore.keys()].filter((id) => !agAfter.has(id)).sort(),
    access: [] as AgentAccessDiff[],
  };
  const proposedAccess = ownRecord<string[]>();
  // Sets and lookups built once: an agent may be offered thousands of entries (linear, DESIGN.md).
  const familyBefore = accessFamilies(before);
  const familyAfter = accessFamilies(after);
  for (const agent of after.agents ?? []) {
    const oldAgent = agBefore.get(agent.id);
    const oldEntries = new Set(oldAgent?.defaults?.access ?? []);
    const newEntries = agent.defaults?.access ?? [];
    if (oldAgent) {
      const offered = new Set(newEntries);
      const added = newEntries.filter((e) => !oldEntries.has(e));
      const removed = (oldAgent.defaults?.access ?? []).filter((e) => !offered.has(e));
      if (added.length > 0 || removed.length > 0) agents.access.push({ agentId: agent.id, added, removed });
    }
    const proposed = newEntries.filter((entry) => !oldEntries.has(entry) || familyBefore(entry) !== familyAfter(entry));
    if (proposed.length > 0) proposedAccess[agent.id] = proposed;
  }
  return { agents, proposedAccess };
}

/** An agent's name in `after`, else in `before`, else its id. */
function agentNames(before: ApolliaManifest, after: ApolliaManifest): (id: string) => string {
  const agBefore = new Map((before.agents ?? []).map((a) => [a.id, a]));
  const agAfter = new Map((after.agents ?? []).map((a) => [a.id, a]));
  return (id) => agAfter.get(id)?.name ?? agBefore.get(id)?.name ?? id;
}

/** The sentences of what the new version starts or connects to that the old one did not, or starts differently. */
function serverSentences(after: ApolliaManifest, mcpServers: UpdateDiff['mcpServers']): UpdateChangeLine[] {
  const serverOf = names(after.mcp_servers);
  const lines: UpdateChangeLine[] = [];
  for (const server of mcpServers.changed) {
    const url = serverOf.get(server.name)?.url;
    const address = url && server.changed.includes('url') ? addressWords(url) : { words: '', risky: false };
    lines.push({
      text: `The program \`${server.name}\` would now start differently: ${server.changed.map((part) => MCP_PART_WORDS[part]).join(', ')} changed${address.words}`,
      level: server.changed.includes('command') || address.risky ? 'high' : 'sensitive',
    });
  }
  for (const name of mcpServers.added) {
    const server = serverOf.get(name);
    const commandLine = server ? mcpCommandLine(server) : '';
    if (commandLine !== '') {
      lines.push({ text: `Starts a new program on this computer: \`${commandLine}\``, level: 'high' });
      continue;
    }
    const address = addressWords(server?.url ?? '');
    lines.push({
      text: `Connects to a new server outside this computer: ${server?.url ?? name}${address.words}`,
      level: address.risky ? 'high' : 'sensitive',
    });
  }
  return lines;
}

/** What the new version asks that the old one did not, in sentences, most sensitive first. */
function askedMoreSentences(before: ApolliaManifest, after: ApolliaManifest, lists: UpdateLists): UpdateChangeLine[] {
  const { publisher, tools, workflows, connections, mcpServers, agents, triggers } = lists;
  const toolOf = names(after.tools);
  const workflowOf = names(after.workflows);
  const agentName = agentNames(before, after);
  const familyAfter = accessFamilies(after);
  const changes: UpdateChangeLine[] = [];
  if (publisher) {
    changes.push(
      publisher.comparison === 'lookalike'
        ? {
            text: `The publisher changed to a name that passes for the old one: “${publisher.to}” (was: “${publisher.from}”)`,
            level: 'high',
          }
        : { text: `The publisher changed: “${publisher.to}” (was: “${publisher.from}”)`, level: 'sensitive' },
    );
  }
  const level = (family: ActionFamily): UpdateChangeLevel => (HIGH_FAMILIES.has(family) ? 'high' : 'sensitive');
  for (const [what, list] of [
    ['tool', tools.familyChanged],
    ['workflow', workflows.familyChanged],
  ] as const)
    for (const change of list)
      changes.push({
        text: `The ${what} \`${change.name}\` can now ${FAMILY_ABILITY[change.to]} (was: ${FAMILY_ABILITY[change.from]})`,
        level: level(change.to),
      });
  for (const [what, list, of] of [
    ['tool', tools.added, toolOf],
    ['workflow', workflows.added, workflowOf],
  ] as const)
    for (const name of list) {
      const family = of.get(name)?.action ?? 'read';
      changes.push({
        text: `New ${what} \`${name}\` (Python code): says it can ${FAMILY_ABILITY[family]}`,
        level: 'high',
      });
    }
  if (connections.added.length > 0)
    changes.push({
      text: `Now needs ${connections.added.length === 1 ? 'a connection' : 'connections'} to ${list(connections.added)}`,
      level: 'sensitive',
    });
  changes.push(...serverSentences(after, mcpServers));
  for (const id of agents.added) changes.push({ text: `New agent ${agentName(id)}`, level: 'sensitive' });
  for (const diff of agents.access)
    if (diff.added.length > 0)
      changes.push({
        text: `${agentName(diff.agentId)} asks for something new, not allowed until you tick it: ${diff.added.map(entryWords).join('; ')}`,
        level: diff.added.some((entry) => HIGH_FAMILIES.has(familyAfter(entry) ?? 'read') || reachesOutside(entry))
          ? 'high'
          : 'sensitive',
      });
  if (triggers.added.length > 0)
    changes.push({
      text: `New ${triggers.added.length === 1 ? 'trigger' : 'triggers'} ${list(triggers.added)}: off until you arm ${triggers.added.length === 1 ? 'it' : 'them'}`,
      level: 'sensitive',
    });
  return [...changes, ...changedTriggerSentences(before, after, triggers.changed)];
}

/** Each changed trigger: what it now starts, or when it now fires; off until armed again. */
function changedTriggerSentences(
  before: ApolliaManifest,
  after: ApolliaManifest,
  changed: string[],
): UpdateChangeLine[] {
  const trBefore = new Map((before.triggers ?? []).map((t) => [t.id, t]));
  const trAfter = new Map((after.triggers ?? []).map((t) => [t.id, t]));
  return changed.map((id) => {
    const from = trBefore.get(id) as TriggerEntry;
    const to = trAfter.get(id) as TriggerEntry;
    const what = sameSourceWords(from, to)
      ? `now starts \`${to.target}\`${to.input ? ` with “${to.input}”` : ''} (was: \`${from.target}\`${from.input ? ` with “${from.input}”` : ''})`
      : `${triggerSourceWords(from.source)} → ${triggerSourceWords(to.source)}`;
    return { text: `Changed trigger \`${id}\`: ${what}; off until you arm it again`, level: 'sensitive' };
  });
}

/** What the new version no longer has or asks, in sentences: worth knowing, never a risk. */
function askedLessSentences(before: ApolliaManifest, after: ApolliaManifest, lists: UpdateLists): UpdateChangeLine[] {
  const { tools, workflows, connections, mcpServers, triggers, agents } = lists;
  const agentName = agentNames(before, after);
  const changes: string[] = [];
  if (tools.removed.length > 0)
    changes.push(`No longer has the ${tools.removed.length === 1 ? 'tool' : 'tools'} ${list(tools.removed)}`);
  if (workflows.removed.length > 0)
    changes.push(
      `No longer has the ${workflows.removed.length === 1 ? 'workflow' : 'workflows'} ${list(workflows.removed)}`,
    );
  if (connections.removed.length > 0) changes.push(`No longer needs ${list(connections.removed)}`);
  if (mcpServers.removed.length > 0) changes.push(`No longer starts or connects to ${list(mcpServers.removed)}`);
  if (triggers.removed.length > 0)
    changes.push(
      `No longer proposes the ${triggers.removed.length === 1 ? 'trigger' : 'triggers'} ${list(triggers.removed)}`,
    );
  if (agents.removed.length > 0)
    changes.push(
      `No longer has the ${agents.removed.length === 1 ? 'agent' : 'agents'} ${agents.removed.map(agentName).join(', ')}`,
    );
  for (const diff of agents.access)
    if (diff.removed.length > 0)
      changes.push(`${agentName(diff.agentId)} no longer asks for: ${diff.removed.map(entryWords).join('; ')}`);
  return changes.map((text) => ({ text, level: 'notice' }));
}
