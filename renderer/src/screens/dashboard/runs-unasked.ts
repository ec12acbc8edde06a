/**
 * What the dashboard lists first: the tools that send what they look up outside this computer and
 * run without asking, each with the one switch that makes it ask. A package's agent asks per tool; a template's agent
 * runs unattended as a whole (its approvals), so its switch makes the agent ask.
 */
import type { AccessView, AgentView } from '../../../../shared/contract/api';
import { isSensitive } from '../../../../shared/manifests/apollia-vocabulary';
import { reachesOutside } from '../../../../shared/manifests/catalogues';

/** One outbound tool running without asking, and how to make it ask. */
export interface OutboundUnasked {
  agent: AgentView;
  access: AccessView;
  /** `tool`: this tool alone asks (a package's agent); `agent`: the agent asks before every tool (a template's). */
  switches: 'tool' | 'agent';
}

/** The granted tools of live agents that send outside and run without asking now (the policy applied), in order. */
export function outboundUnasked(agents: readonly AgentView[]): OutboundUnasked[] {
  const found: OutboundUnasked[] = [];
  for (const agent of agents) {
    if (agent.archived) continue;
    for (const access of agent.access)
      if (access.granted && access.permission === 'allow' && reachesOutside(access.tool))
        found.push({ agent, access, switches: agent.origin === 'package' ? 'tool' : 'agent' });
  }
  return found;
}

/**
 * How a package agent's granted tool may be switched: to ask first (it runs without asking now), to run without asking
 * (it asks now and the person may choose otherwise: never for a sensitive family), or not at all. A template agent's
 * tools follow its approvals: none.
 */
export function runsSwitch(agent: AgentView, access: AccessView): 'ask' | 'unasked' | null {
  if (agent.origin !== 'package' || agent.archived || !access.granted) return null;
  if (access.permission === 'allow') return 'ask';
  if (access.permission === 'ask' && (access.family === null || !isSensitive(access.family))) return 'unasked';
  return null;
}
