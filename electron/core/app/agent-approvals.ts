/**
 * How an agent's tools run, changed after it was made (DESIGN.md "Consent, install, apply":
 * the one decision function decides, the form, the CLI and the core agree):
 *
 * - `setApprovals`: a template agent switched between asking before each tool (`ask`) and running unattended
 *   (`never`), by the approvals rule (`shared/decisions/approvals-decision.ts`): `never` is refused where the
 *   organization's policy forbids it, with its reason. A package's agent has no such switch: each of its tools is set
 *   on its own row.
 * - `setToolAsks`: one granted tool of a package's agent set to ask first, or to run without asking, through the
 *   decision function (`decideFromStore`: a sensitive family, a policy without `unattended`, a blocked tool are
 *   refused as at install). A template agent's tools follow its approvals: switching them is `setApprovals`.
 *
 * Both recorded (`approvals_changed`, `grant`), both refusing a changed or withheld package's agent.
 */
import type { AgentView, ApiRequest } from '../../../shared/contract/api';
import { approvalsProblem } from '../../../shared/decisions/approvals-decision';
import { approvalsSummary } from '../../../shared/decisions/approvals-words';
import { own } from '../../../shared/base/own';
import { ownRecord } from '../../../shared/base/own-data';
import { CoreError } from '../errors/index';
import { usablePolicy } from '../policy/index';
import { refuseWithheldPackage } from '../policy/installed-policy';
import { liveAgent } from './agents';
import { type ApiContext, policyOf } from './context';
import { decideFromStore, storedTrust } from './decide-from-store';
import { refuseIfChanged } from './publisher-trust';
import { agentView } from './views';

/** Switches a template agent between asking (`ask`) and running unattended (`never`); recorded when it changed. */
export async function setApprovals(ctx: ApiContext, request: ApiRequest<'setApprovals'>): Promise<AgentView> {
  const what = `${request.agentId} was not changed`;
  // Asking more is always allowed; running unattended needs a readable policy that allows it.
  const view = policyOf(ctx);
  const policy = request.approvals === 'never' ? usablePolicy(view, what) : view.effective;
  const problem = approvalsProblem(policy, request.approvals);
  if (problem !== null) throw new CoreError(problem.code, problem.message, { path: problem.path });
  const { agent } = await ctx.store.update(
    (state) => {
      const agent = liveAgent(state, request.agentId);
      if (agent.origin === 'package')
        throw new CoreError(
          'agent.part_of_package',
          `${agent.displayName} belongs to the package ${agent.packageName}: it has no approvals switch: how each of its tools runs is set per tool (on its row in the dashboard, or \`approvals AGENT ask|never --tool TOOL\`)`,
          { path: 'approvals' },
        );
      const changed = agent.approvals !== request.approvals;
      agent.approvals = request.approvals;
      return { result: { agent: agentView(state, agent, ctx.deps.now()), changed }, write: changed };
    },
    // The switch and its entry in one commit (DESIGN.md "Commit points").
    ({ agent, changed }) =>
      changed
        ? [
            {
              kind: 'approvals_changed',
              agent: agent.id,
              outcome: 'ok',
              detail: `${agent.displayName} now ${approvalsSummary(request.approvals)}`,
            },
          ]
        : [],
  );
  return agent;
}

/** Sets one granted tool of a package's agent to ask first (`asks`) or to run without asking; recorded as `grant`. */
export async function setToolAsks(ctx: ApiContext, request: ApiRequest<'setToolAsks'>): Promise<AgentView> {
  const what = `\`${request.tool}\` was not changed`;
  const view = policyOf(ctx);
  const policy = request.asks ? view.effective : usablePolicy(view, what);
  const { agent } = await ctx.store.update(
    (state) => {
      const agent = liveAgent(state, request.agentId);
      if (agent.origin !== 'package')
        throw new CoreError(
          'agent.part_of_package',
          `${agent.displayName} was made from a template: its tools follow its approvals: switch the agent to ask, or to run unattended (\`approvals AGENT ask|never\`), instead`,
          { path: 'tool' },
        );
      const entry = agent.access.find((a) => a.entry === request.tool);
      if (!entry) throw new CoreError('access.unknown', `${agent.displayName} is not offered \`${request.tool}\`.`);
      if (!entry.granted)
        throw new CoreError(
          'access.not_granted',
          `\`${request.tool}\` is not granted to ${agent.displayName}: grant it first, then choose how it runs`,
          { path: 'tool' },
        );
      if (!request.asks) {
        refuseIfChanged(state, agent.packageName, what);
        refuseWithheldPackage(state, policy, agent.packageName, what);
      }
      // The one decision function: running without asking is refused for a sensitive family, under a policy without
      // `unattended`, for a tool the organization blocks or the owner never allows.
      const decided = decideFromStore(
        state,
        own(state.packages, agent.packageName)?.manifest,
        storedTrust(state, agent.packageName),
        {
          agents: ownRecord([[agent.agentId, { access: ownRecord([[request.tool, request.asks ? 'ask' : 'allow']]) }]]),
          triggers: ownRecord(),
        },
        policy,
      );
      const permission = decided.agents[agent.agentId]?.[request.tool]?.stored ?? 'deny';
      const changed = entry.permission !== permission;
      entry.permission = permission;
      entry.granted = permission !== 'deny';
      return {
        result: { agent: agentView(state, agent, ctx.deps.now()), packageName: agent.packageName, changed },
        write: changed,
      };
    },
    ({ agent, packageName, changed }) =>
      changed
        ? [
            {
              kind: 'grant',
              package: packageName,
              agent: agent.id,
              outcome: 'ok',
              detail: request.asks
                ? `${request.tool} for ${agent.displayName} now asks you first`
                : `${request.tool} for ${agent.displayName} now runs without asking (you chose it)`,
            },
          ]
        : [],
  );
  return agent;
}
