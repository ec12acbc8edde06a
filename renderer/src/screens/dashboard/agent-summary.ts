/**
 * The dashboard's overview of many agents: how many there are, what they may do that is sensitive, what runs
 * without asking and what is armed, and the order that puts the riskiest first (DESIGN.md: the dashboard shows
 * what each agent may do; a long page must not bury the agent that can run programs under six that only read).
 */
import type { AgentView } from '../../../../shared/contract/api';
import { FAMILY_SEVERITY } from '../../../../shared/manifests/apollia-manifest';

/** The dashboard shows its summary line and filter once it holds more agents than this. */
export const MANY_AGENTS = 5;

/** An agent's risk rank: the index of the worst family it is granted in `FAMILY_SEVERITY` (0 is worst); unknown counts as worst. */
export function agentRisk(agent: AgentView): number {
  let rank = FAMILY_SEVERITY.length;
  for (const access of agent.access) {
    if (!access.granted || access.permission === 'deny') continue;
    const family = access.family;
    rank = Math.min(rank, family === null ? 0 : FAMILY_SEVERITY.indexOf(family));
  }
  return rank;
}

/** The agents riskiest first, archived ones last, otherwise in the order the store gives them. */
export function riskiestFirst(agents: readonly AgentView[]): AgentView[] {
  return agents
    .map((agent, index) => ({ agent, index, risk: agent.archived ? FAMILY_SEVERITY.length + 1 : agentRisk(agent) }))
    .sort((a, b) => a.risk - b.risk || a.index - b.index)
    .map(({ agent }) => agent);
}

/** The counts the summary line says. */
export interface AgentCounts {
  agents: number;
  sensitive: number;
  unattended: number;
  armed: number;
}

/** Counts over the agents: those granted something sensitive, tools running without asking, triggers armed. */
export function agentCounts(agents: readonly AgentView[]): AgentCounts {
  const live = agents.filter((agent) => !agent.archived);
  return {
    agents: live.length,
    sensitive: live.filter((agent) => agentRisk(agent) < FAMILY_SEVERITY.indexOf('read')).length,
    unattended: live.reduce(
      (n, agent) => n + agent.access.filter((a) => a.granted && a.permission === 'allow').length,
      0,
    ),
    armed: live.reduce((n, agent) => n + agent.triggers.filter((t) => t.armed).length, 0),
  };
}

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The summary line: "7 agents: 3 may do something sensitive, 4 tools run without asking, 2 triggers armed." */
export function agentCountsText(counts: AgentCounts): string {
  return `${count(counts.agents, 'agent', 'agents')}: ${counts.sensitive.toLocaleString('en-US')} may do something sensitive, ${count(counts.unattended, 'tool runs', 'tools run')} without asking, ${count(counts.armed, 'trigger', 'triggers')} armed.`;
}

/** Whether an agent matches the filter typed: its name, its package or template, or its id, ignoring case. */
export function matchesFilter(agent: AgentView, filter: string): boolean {
  const wanted = filter.trim().toLocaleLowerCase();
  if (wanted === '') return true;
  return [agent.displayName, agent.from, agent.id].some((text) => text.toLocaleLowerCase().includes(wanted));
}
