/**
 * Changes to an agent on this computer: its tool access (the dashboard's switches) and archiving a
 * template's agent (a package's agents leave with their package).
 */
import type { AgentView, ApiRequest } from '../../shared/api';
import { type ApiContext, own } from './api-context';
import { CoreError } from './errors';
import { disarmTrigger } from './store/records';
import type { AgentRecord, StoreState } from './store/state';
import { agentView } from './store/views';

/** The agent with this id, not archived; else `agent.unknown` or `agent.archived`. */
export function liveAgent(state: StoreState, agentId: string): AgentRecord {
  const agent = own(state.agents, agentId);
  if (!agent) throw new CoreError('agent.unknown', `There is no agent \`${agentId}\` on this computer.`);
  if (agent.archived) throw new CoreError('agent.archived', `${agent.displayName} is archived.`);
  return agent;
}

/** Grants or withdraws one tool of an agent: an offered access entry, or a template tool's setting. */
export function setToolAccess(ctx: ApiContext, request: ApiRequest<'setToolAccess'>): Promise<AgentView> {
  return ctx.store.update((state) => {
    const agent = liveAgent(state, request.agentId);
    if (agent.origin === 'package') {
      const entry = agent.access.find((a) => a.entry === request.tool);
      if (!entry) throw new CoreError('access.unknown', `${agent.displayName} is not offered \`${request.tool}\`.`);
      entry.granted = request.granted;
    } else {
      const setting = own(agent.toolSettings, request.tool);
      if (!setting) throw new CoreError('access.unknown', `${agent.displayName} has no tool \`${request.tool}\`.`);
      if (request.granted && setting.pinMissing) throw new CoreError('access.pin_missing', `\`${request.tool}\` is pinned to a parameter that was not given at apply: it stays denied.`);
      setting.setting = request.granted ? 'allow' : 'deny';
    }
    return { result: agentView(state, agent, ctx.deps.now()) };
  });
}

/** Archives a template's agent and disarms its triggers; a package's agent is refused (uninstall the package). */
export function archiveAgent(ctx: ApiContext, request: ApiRequest<'archiveAgent'>): Promise<AgentView> {
  return ctx.store.update((state) => {
    const agent = liveAgent(state, request.agentId);
    if (agent.origin === 'package') throw new CoreError('agent.part_of_package', `${agent.displayName} belongs to the package ${agent.packageName}: uninstall the package instead.`);
    agent.archived = true;
    for (const trigger of Object.values(state.triggers)) if (trigger.agentId === agent.id) disarmTrigger(state, trigger);
    return { result: agentView(state, agent, ctx.deps.now()) };
  });
}
