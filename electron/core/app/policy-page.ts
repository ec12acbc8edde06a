/**
 * The policy page (DESIGN.md "Managed policy"): what the organization sets, from which source (a
 * trial policy when only the person's `APOLLIA_POLICY_FILE` was read), and what it changes on this computer now —
 * read from the same evaluation every door makes (`policy/installed-policy.ts`'s packages withheld whole,
 * `policy-effects.ts`'s tools and triggers held), never worked out again here.
 */
import type { PolicyPage } from '../../../shared/contract/replies-policy';
import { unattendedLocked } from '../../../shared/decisions/approvals-decision';
import { policyHeading, policyIsTrial, policyRuleWords, policySourceWords } from '../../../shared/policy/policy-words';
import { withheldPackages } from '../policy/installed-policy';
import { heldByPolicy } from '../policy/policy-effects';
import type { StoreState } from '../store/state';
import { type ApiContext, policyOf } from './context';

type Effect = PolicyPage['effects'][number];

/** Granted tools that run without asking by the person's choice, which a policy without `unattended` makes ask. */
function madeToAsk(state: StoreState, why: string): Effect[] {
  const effects: Effect[] = [];
  for (const agent of Object.values(state.agents)) {
    if (agent.archived) continue;
    const tools =
      agent.origin === 'package'
        ? agent.access.filter((a) => a.permission === 'allow').map((a) => a.entry)
        : agent.approvals === 'never'
          ? Object.entries(agent.toolSettings).flatMap(([tool, s]) => (s.setting === 'allow' ? [tool] : []))
          : [];
    for (const tool of tools)
      effects.push({
        kind: 'tool',
        subject: agent.displayName,
        what: `${tool} of ${agent.displayName} asks you first (you had let it run without asking)`,
        why,
        code: 'policy.unattended',
      });
  }
  return effects;
}

/** The policy page: the policy in force in words, and what it changes here now. */
export async function policyPage(ctx: ApiContext): Promise<PolicyPage> {
  const view = policyOf(ctx);
  const state = await ctx.store.read();
  const effective = view.effective;
  const rules =
    effective === null
      ? []
      : Object.entries(view.origin).map(([key, from]) => ({ key, words: policyRuleWords(key, effective), from }));
  const withheld = withheldPackages(state, view);
  const held = heldByPolicy(state, view);
  const effects: Effect[] = [
    ...[...withheld].map(([name, problems]) => ({
      kind: 'package' as const,
      subject: name,
      what: `${name} is withheld whole: its tools are not given and its triggers are paused (your decisions are kept)`,
      why: problems.map((p) => p.message).join('; '),
      code: problems[0]?.code ?? null,
    })),
    ...held.tools
      .filter((t) => t.package === null || !withheld.has(t.package))
      .map((t) => ({
        kind: 'tool' as const,
        subject: t.package ?? t.agent,
        what: `${t.tool} of ${own(state, t.agent)} is withheld (you allowed it: it applies again when the policy allows it)`,
        why: t.why,
        code: t.why.startsWith('your organization blocks tools that') ? 'policy.blocked_family' : 'policy.blocked_tool',
      })),
    ...held.triggers
      .filter((t) => t.package === null || !withheld.has(t.package))
      .map((t) => ({
        kind: 'trigger' as const,
        subject: t.package ?? t.agent ?? t.trigger,
        what: `The trigger ${t.trigger} is paused: still armed, its folder and secret kept`,
        why: t.why,
        code: view.state === 'unreadable' ? 'policy.unreadable' : 'policy.trigger_kind',
      })),
  ];
  const unattended = unattendedLocked(effective);
  if (unattended !== null) effects.push(...madeToAsk(state, unattended));
  return {
    policy: view,
    heading: policyHeading(view),
    trial: policyIsTrial(view),
    sources: view.sources.map(policySourceWords),
    rules,
    effects,
  };
}

/** An agent's name as shown, or its id. */
function own(state: StoreState, agentId: string): string {
  return Object.hasOwn(state.agents, agentId) ? (state.agents[agentId]?.displayName ?? agentId) : agentId;
}
