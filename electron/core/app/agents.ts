/**
 * Changes to an agent on this computer: its tool access (the dashboard's switches) and archiving a
 * template's agent (a package's agents leave with their package).
 */
import type { AgentView, ApiRequest } from '../../../shared/contract/api';
import { type ApiContext, policyOf } from './context';
import { own } from '../../../shared/base/own';
import { POLICY_REFUSAL, toolBlockedBy } from '../../../shared/policy/policy';
import { organizationServers, usablePolicy } from '../policy/index';
import { CoreError } from '../errors/index';
import { disarmTrigger } from '../store/records';
import { decideFromStore, storedTrust } from './decide-from-store';
import { ownRecord } from '../../../shared/base/own-data';
import type { PreviewMcpTool } from '../../../shared/decisions/apply-preview';
import type { AgentRecord, StoreState, TemplateAgentRecord } from '../store/state';
import { agentView, waitingToolGrantable } from './views';
import { refuseIfChanged } from './publisher-trust';
import { refuseWithheldPackage } from '../policy/installed-policy';

/** The agent with this id, not archived; else `agent.unknown` or `agent.archived`. */
export function liveAgent(state: StoreState, agentId: string): AgentRecord {
  const agent = own(state.agents, agentId);
  if (!agent) throw new CoreError('agent.unknown', `There is no agent \`${agentId}\` on this computer.`);
  if (agent.archived) throw new CoreError('agent.archived', `${agent.displayName} is archived.`);
  return agent;
}

/**
 * Grants or withdraws one tool of an agent: an offered access entry, or a template tool's setting; recorded as `grant`
 * / `revoke`.
 */
export async function setToolAccess(ctx: ApiContext, request: ApiRequest<'setToolAccess'>): Promise<AgentView> {
  // The organization's policy: unreadable, nothing is granted (withdrawing still is: it only takes away).
  const policyView = policyOf(ctx);
  const policy = request.granted
    ? usablePolicy(policyView, `\`${request.tool}\` was not allowed`)
    : policyView.effective;
  const { view } = await ctx.store.update(
    (state) => {
      const agent = liveAgent(state, request.agentId);
      if (agent.origin === 'package') {
        // A changed package is granted nothing until it is reinstalled or removed; withdrawing still works.
        if (request.granted) {
          refuseIfChanged(state, agent.packageName, `\`${request.tool}\` was not allowed`);
          // A package the policy now refuses is withheld whole: nothing of it is granted (DESIGN.md "Managed policy").
          refuseWithheldPackage(state, policy, agent.packageName, `\`${request.tool}\` was not allowed`);
        }
        const entry = agent.access.find((a) => a.entry === request.tool);
        if (!entry) throw new CoreError('access.unknown', `${agent.displayName} is not offered \`${request.tool}\`.`);
        // The one decision function says how a grant runs (its author's word is not enough for package code), and refuses
        // a tool the owner never allows.
        const decided = decideFromStore(
          state,
          own(state.packages, agent.packageName)?.manifest,
          storedTrust(state, agent.packageName),
          {
            agents: ownRecord([[agent.agentId, { access: ownRecord([[request.tool, request.granted]]) }]]),
            triggers: ownRecord(),
          },
          policy,
        );
        const permission = decided.agents[agent.agentId]?.[request.tool]?.stored ?? 'deny';
        entry.permission = permission;
        entry.granted = permission !== 'deny';
      } else {
        // The organization's blocked tools hold at every door, a skipped tool granted later included.
        const blocked = request.granted ? toolBlockedBy(policy, request.tool, null) : null;
        if (blocked !== null)
          throw new CoreError(
            'policy.blocked_tool',
            `\`${request.tool}\` cannot be allowed: ${blocked}; ${POLICY_REFUSAL}.`,
          );
        const waiting = waitingTool(agent, request.tool);
        if (waiting) {
          // A tool apply skipped because its server was not saved: once the server is saved, granting
          // it here gives it to the agent as apply would have, with its pin (no second apply needed).
          if (!request.granted)
            throw new CoreError(
              'access.unknown',
              `${agent.displayName} was never given \`${request.tool}\`: there is nothing to revoke.`,
            );
          const savedHere = Object.hasOwn(state.settings.mcpServers, waiting.server);
          if (!savedHere && !organizationServers(policyOf(ctx).effective).has(waiting.server))
            throw new CoreError(
              'access.server_missing',
              `\`${request.tool}\` needs the MCP server \`${waiting.server}\`: save it in Settings → MCP servers first.`,
            );
          if (!waitingToolGrantable(state, waiting.tool))
            throw new CoreError(
              'access.pin_missing',
              `\`${request.tool}\` cannot be given: its pin needs a parameter that was not given at apply, or it is on your list of tools you never allow.`,
            );
          agent.toolSettings[request.tool] = {
            family: null,
            setting: 'allow',
            pin: waiting.tool.pin,
            pinMissing: false,
          };
          return { result: { view: agentView(state, agent, ctx.deps.now()), packageName: null } };
        }
        const setting = own(agent.toolSettings, request.tool);
        if (!setting) throw new CoreError('access.unknown', `${agent.displayName} has no tool \`${request.tool}\`.`);
        if (request.granted && setting.pinMissing)
          throw new CoreError(
            'access.pin_missing',
            `\`${request.tool}\` is pinned to a parameter that was not given at apply: it stays denied.`,
          );
        setting.setting = request.granted ? 'allow' : 'deny';
      }
      return {
        result: {
          view: agentView(state, agent, ctx.deps.now()),
          packageName: agent.origin === 'package' ? agent.packageName : null,
        },
      };
    },
    ({ view, packageName }) => [
      {
        kind: request.granted ? 'grant' : 'revoke',
        ...(packageName ? { package: packageName } : {}),
        agent: view.id,
        outcome: 'ok',
        detail: `${request.granted ? 'allowed' : 'withdrew'} ${request.tool} for ${view.displayName}`,
      },
    ],
  );
  return view;
}

/** A tool of a server the apply skipped, not given to `agent` since (null: not one). */
function waitingTool(agent: TemplateAgentRecord, tool: string): { server: string; tool: PreviewMcpTool } | null {
  if (Object.hasOwn(agent.toolSettings, tool)) return null;
  for (const server of agent.preview.mcp) {
    if (server.saved) continue;
    const found = server.tools.find((t) => t.gateName === tool);
    if (found) return { server: server.server, tool: found };
  }
  return null;
}

/**
 * Archives a template's agent and disarms its triggers; a package's agent is refused (uninstall the package). Recorded
 * as `uninstall` of the agent, plus one `disarm` per trigger it disarmed.
 */
export async function archiveAgent(ctx: ApiContext, request: ApiRequest<'archiveAgent'>): Promise<AgentView> {
  const { view } = await ctx.store.update(
    (state) => {
      const agent = liveAgent(state, request.agentId);
      if (agent.origin === 'package')
        throw new CoreError(
          'agent.part_of_package',
          `${agent.displayName} belongs to the package ${agent.packageName}: uninstall the package instead.`,
        );
      agent.archived = true;
      const disarmed: string[] = [];
      for (const trigger of Object.values(state.triggers)) {
        if (trigger.agentId !== agent.id) continue;
        if (trigger.armed) disarmed.push(trigger.id);
        disarmTrigger(state, trigger);
      }
      return { result: { view: agentView(state, agent, ctx.deps.now()), disarmed } };
    },
    ({ view, disarmed }) => [
      ...disarmed.map((trigger) => ({
        kind: 'disarm' as const,
        agent: view.id,
        trigger,
        outcome: 'ok' as const,
        detail: `disarmed: ${view.displayName} was archived`,
      })),
      { kind: 'uninstall', agent: view.id, outcome: 'ok', detail: `archived ${view.displayName}` },
    ],
  );
  return view;
}
