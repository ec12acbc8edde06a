/**
 * What the organization's policy does to what is already installed, applied on top of the
 * person's decisions and never in their place (DESIGN.md "Managed policy"): the store keeps every
 * grant and armed trigger as the person left it; this module says which of them the policy
 * withholds now (the dashboard's locked rows and banner, the trigger host's paused triggers), and
 * records each policy change in the activity log.
 *
 * Activity entries recorded here (the activity record's one list, DESIGN.md "Triggers at run
 * time": what changed decisions without the person):
 * - `policy_applied`: a policy is in force where there was none (its files named);
 * - `policy_changed`: the policy in force changed, or was removed;
 * - `policy_unreadable`: a policy file cannot be read or validated (fail closed: triggers paused);
 * - `revoke` / `grant`: a granted tool withheld by the policy, or given back when it is lifted;
 * - `disarm` / `arm`: an armed trigger turned off by the policy, or firing again when it is lifted.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentView, Dashboard, PolicyView, SettingsView, TriggerView } from '../../../shared/contract/api';
import {
  type EffectivePolicy,
  effectivePermission,
  managedBy,
  toolBlockedBy,
  triggerKindAllowed,
  triggerKindWords,
} from '../../../shared/policy/policy';
import type { ActivityInput } from '../activity/activity-log';
import { writeFileAtomic } from '../store/atomic-file';
import type { StoreState, TriggerRecord } from '../store/state';
import { organizationServers, type PolicyProblem, unreadableWords } from './index';
import { withheldPackages, withheldWords } from './installed-policy';
import { type PolicyLocations, policyLocations, readPolicy } from './read-policy';

/** The file in the data folder that remembers the policy last seen, so a change is recorded once. */
export const POLICY_SEEN_FILE = 'policy-seen.json';

/** What the policy withholds of what is installed: granted tools and armed triggers, by id. */
export interface PolicyHeld {
  tools: { agent: string; package: string | null; tool: string; why: string }[];
  triggers: { trigger: string; agent: string | null; package: string | null; why: string }[];
}

/** Why the policy keeps an armed trigger of `type` from firing, or null. */
export function triggerHeldWhy(view: PolicyView, type: string): string | null {
  if (view.state === 'unreadable') return "paused: your organization's policy file cannot be used";
  if (!triggerKindAllowed(view.effective, type))
    return `turned off by your organization's policy (no ${triggerKindWords(type)} triggers); still armed: it fires again when the policy allows it`;
  return null;
}

/** The words of a trigger paused because its package is withheld whole. */
function pausedWords(problems: readonly PolicyProblem[]): string {
  return `paused by your organization's policy (${withheldWords(problems)}); still armed, its folder and secret kept: it fires again when the policy allows it`;
}

/**
 * Why the policy keeps an armed trigger from firing now: an unreadable policy, a kind it does not allow, or its package
 * withheld whole (`withheld`: from {@link withheldPackages}); null when it may fire. The trigger host asks it of each
 * trigger before making it live and before each fire.
 */
export function triggerHeldByPolicy(
  view: PolicyView,
  trigger: Pick<TriggerRecord, 'type' | 'packageName'>,
  withheld: ReadonlyMap<string, PolicyProblem[]>,
): string | null {
  const kind = triggerHeldWhy(view, trigger.type);
  if (kind !== null) return kind;
  const problems = trigger.packageName !== null ? withheld.get(trigger.packageName) : undefined;
  return problems ? pausedWords(problems) : null;
}

/** What `view` withholds of the granted tools and armed triggers `state` holds. */
export function heldByPolicy(state: StoreState, view: PolicyView): PolicyHeld {
  const held: PolicyHeld = { tools: [], triggers: [] };
  const policy = view.effective;
  const withheld = withheldPackages(state, view);
  for (const agent of Object.values(state.agents)) {
    if (agent.archived) continue;
    const whole = agent.origin === 'package' ? withheld.get(agent.packageName) : undefined;
    const granted =
      agent.origin === 'package'
        ? agent.access.filter((a) => a.permission !== 'deny').map((a) => ({ tool: a.entry, family: a.family }))
        : Object.entries(agent.toolSettings).flatMap(([tool, s]) =>
            s.setting === 'allow' ? [{ tool, family: s.family }] : [],
          );
    for (const { tool, family } of granted) {
      const why = whole ? withheldWords(whole) : toolBlockedBy(policy, tool, family);
      if (why !== null)
        held.tools.push({ agent: agent.id, package: agent.origin === 'package' ? agent.packageName : null, tool, why });
    }
  }
  for (const trigger of Object.values(state.triggers)) {
    if (!trigger.armed) continue;
    const why = triggerHeldByPolicy(view, trigger, withheld);
    if (why !== null)
      held.triggers.push({ trigger: trigger.id, agent: trigger.agentId, package: trigger.packageName, why });
  }
  return held;
}

/**
 * The dashboard with the policy applied on top: a withheld tool shown denied with its reason, a held trigger shown
 * paused, and the banner.
 */
export function dashboardUnderPolicy(dashboard: Dashboard, state: StoreState, view: PolicyView): Dashboard {
  const policy = view.effective;
  const servers = organizationServers(policy);
  const withheld = withheldPackages(state, view);
  const agent = (a: AgentView): AgentView => {
    const whole = a.origin === 'package' ? withheld.get(a.from) : undefined;
    return whole ? agentWithheld(a, whole) : agentUnderPolicy(a);
  };
  // A package withheld whole: every tool shown withheld and every trigger paused, with each violation.
  const agentWithheld = (a: AgentView, problems: PolicyProblem[]): AgentView => ({
    ...a,
    access: a.access.map((row) => ({ ...row, permission: 'deny', policy: withheldWords(problems) })),
    triggers: a.triggers.map((t) => withheldTrigger(t, problems)),
  });
  const agentUnderPolicy = (a: AgentView): AgentView => ({
    ...a,
    access: a.access.map((row) => {
      const why = toolBlockedBy(policy, row.tool, row.family);
      const permission = effectivePermission(policy, row.tool, row.family, row.permission);
      return why !== null || permission !== row.permission
        ? { ...row, permission, policy: why ?? 'your organization does not allow tools to run without asking' }
        : row;
    }),
    triggers: a.triggers.map((t) => triggerUnderPolicy(t, view)),
    // A server the organization provides counts as saved: its tools can be granted from the card.
    waitingServers: a.waitingServers.map((w) => (!w.saved && servers.has(w.server) ? { ...w, saved: true } : w)),
  });
  const held = heldByPolicy(state, view);
  const heldCount = held.tools.length + held.triggers.length;
  const parts = [
    ...[...withheld].map(([name, problems]) => `withholds ${name} whole (${problems.map((p) => p.code).join(', ')})`),
    held.tools.length > 0 ? `withholds ${held.tools.length} tool${held.tools.length === 1 ? '' : 's'} you allowed` : '',
    held.triggers.length > 0
      ? `keeps ${held.triggers.length} armed trigger${held.triggers.length === 1 ? '' : 's'} from firing`
      : '',
  ].filter((p) => p !== '');
  const notice =
    view.state === 'unreadable'
      ? `${unreadableWords(view)}.`
      : heldCount + withheld.size > 0
        ? `Your organization's policy ${parts.join(' and ')}. Your own decisions are kept: they apply again when the policy allows them.`
        : null;
  return {
    ...dashboard,
    agents: dashboard.agents.map(agent),
    packages: dashboard.packages.map((p) => {
      const problems = withheld.get(p.name);
      return problems
        ? {
            ...p,
            triggers: p.triggers.map((t) => withheldTrigger(t, problems)),
            policy: problems.map(({ code, message }) => ({ code, message })),
          }
        : { ...p, triggers: p.triggers.map((t) => triggerUnderPolicy(t, view)) };
    }),
    policy: { view, managedBy: managedBy(view), notice },
  };
}

/** A trigger of a package withheld whole: paused when armed, not armable when off; each violation said. */
function withheldTrigger(trigger: TriggerView, problems: readonly PolicyProblem[]): TriggerView {
  return {
    ...trigger,
    policy: trigger.armed ? pausedWords(problems) : `it cannot be armed: ${withheldWords(problems)}`,
  };
}

function triggerUnderPolicy(trigger: TriggerView, view: PolicyView): TriggerView {
  if (trigger.armed) {
    const why = triggerHeldWhy(view, trigger.type);
    return why === null ? trigger : { ...trigger, policy: why };
  }
  // Off: it cannot be armed while the policy is unreadable or does not allow its kind.
  if (view.state === 'unreadable')
    return { ...trigger, policy: "it cannot be armed: your organization's policy file cannot be used" };
  if (!triggerKindAllowed(view.effective, trigger.type))
    return {
      ...trigger,
      policy: `it cannot be armed: your organization's policy does not allow ${triggerKindWords(trigger.type)} triggers`,
    };
  return trigger;
}

/** Settings with the policy shown: the organization's MCP servers (locked), its port, and the policy itself. */
export function settingsUnderPolicy(settings: SettingsView, view: PolicyView): SettingsView {
  const policy: EffectivePolicy | null = view.effective;
  const managed = (policy?.mcpServers ?? []).map((s) => ({ ...s, credentialsSealed: false, managed: true }));
  const own = settings.mcpServers.filter((s) => !managed.some((m) => m.name === s.name));
  return {
    ...settings,
    mcpServers: [...managed, ...own],
    webhookPort: policy?.webhookPort ? { port: policy.webhookPort, chosen: true, managed: true } : settings.webhookPort,
    policy: view,
  };
}

/**
 * The policy the trigger host applies, read now, with its fingerprint: a change makes the host reload what it holds.
 */
export function readHostPolicy(locations: PolicyLocations | undefined): { view: PolicyView; fingerprint: string } {
  const view = readPolicy(locations ?? policyLocations());
  return { view, fingerprint: fingerprint(view) };
}

/** A fingerprint of the policy in force (its state, what it says, what is wrong with it). */
function fingerprint(view: PolicyView): string {
  return createHash('sha256')
    .update(JSON.stringify([view.state, view.effective, view.problem]))
    .digest('hex');
}

/**
 * Records a policy change once, whoever notices it first (the Api, the trigger host): the change
 * itself, then each tool it withholds or gives back and each armed trigger it turns off or lets
 * fire again. The first policy ever seen being none records nothing. The entries are committed
 * before `policy-seen.json` remembers the policy, so an interrupted notice is recorded again by the
 * next look rather than lost.
 */
export async function noticePolicyChange(
  dataDir: string,
  state: StoreState,
  view: PolicyView,
  record: (events: ActivityInput[]) => Promise<void>,
): Promise<boolean> {
  const path = join(dataDir, POLICY_SEEN_FILE);
  let before: { fingerprint: string; view: PolicyView } | null = null;
  try {
    before = JSON.parse(await readFile(path, 'utf8')) as { fingerprint: string; view: PolicyView };
  } catch {
    before = null;
  }
  const now = fingerprint(view);
  if (before?.fingerprint === now) return false;
  // No policy ever: nothing to remember, nothing written (a data folder without a policy holds no trace of one).
  if (!before && view.state === 'none') return false;
  const files = view.sources.filter((s) => s.state !== 'absent').map((s) => s.path);
  const events: ActivityInput[] = [];
  if (view.state === 'unreadable')
    events.push({ kind: 'policy_unreadable', outcome: 'failed', detail: unreadableWords(view) });
  else if (view.state === 'none')
    events.push({
      kind: 'policy_changed',
      outcome: 'ok',
      detail: "your organization's policy was removed: your own decisions apply again",
    });
  else if (!before || before.view.state === 'none')
    events.push({
      kind: 'policy_applied',
      outcome: 'ok',
      detail: `${managedBy(view)}: the policy in ${files.join(' and ')} applies`,
    });
  else
    events.push({
      kind: 'policy_changed',
      outcome: 'ok',
      detail: `${managedBy(view)}: the policy in ${files.join(' and ')} changed`,
    });
  const heldBefore = before ? heldByPolicy(state, before.view) : { tools: [], triggers: [] };
  const heldNow = heldByPolicy(state, view);
  const key = (t: { agent?: string | null; tool?: string; trigger?: string }) =>
    `${t.agent ?? ''}\u0000${t.tool ?? t.trigger ?? ''}`;
  const toolsBefore = new Set(heldBefore.tools.map(key));
  const toolsNow = new Set(heldNow.tools.map(key));
  for (const t of heldNow.tools)
    if (!toolsBefore.has(key(t)))
      events.push({
        kind: 'revoke',
        ...(t.package ? { package: t.package } : {}),
        agent: t.agent,
        outcome: 'ok',
        detail: `${t.tool} withheld: ${t.why}; your decision is kept and applies again when the policy allows it`,
      });
  for (const t of heldBefore.tools)
    if (!toolsNow.has(key(t)) && state.agents[t.agent] !== undefined)
      events.push({
        kind: 'grant',
        ...(t.package ? { package: t.package } : {}),
        agent: t.agent,
        outcome: 'ok',
        detail: `${t.tool} given back: your organization's policy no longer blocks it (as you had decided)`,
      });
  const triggersBefore = new Set(heldBefore.triggers.map(key));
  const triggersNow = new Set(heldNow.triggers.map(key));
  for (const t of heldNow.triggers)
    if (!triggersBefore.has(key(t)))
      events.push({
        kind: 'disarm',
        ...(t.package ? { package: t.package } : {}),
        ...(t.agent ? { agent: t.agent } : {}),
        trigger: t.trigger,
        outcome: 'ok',
        detail: t.why,
      });
  for (const t of heldBefore.triggers)
    if (!triggersNow.has(key(t)) && state.triggers[t.trigger]?.armed)
      events.push({
        kind: 'arm',
        ...(t.package ? { package: t.package } : {}),
        ...(t.agent ? { agent: t.agent } : {}),
        trigger: t.trigger,
        outcome: 'ok',
        detail: "fires again: your organization's policy no longer keeps it off (armed as you had decided)",
      });
  // Recorded first, then remembered (DESIGN.md "Commit points"): a kill between the two records the change again at
  // the next look (at least once), where the other order would remember a change the record never got.
  await record(events);
  await writeFileAtomic(path, JSON.stringify({ fingerprint: now, view }));
  return true;
}
