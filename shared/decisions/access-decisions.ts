/**
 * The access decisions: how each entry an agent of the manifest is offered runs, and why, in words.
 *
 * The rules (the others are in `decisions.ts`):
 * - A first install proposes every `defaults.access` entry ticked (a package never grants itself anything: the person
 *   can untick).
 * - How a granted entry runs: a tool the app knows to only read runs without asking; every other family asks before
 *   each call (spec: "Every family except read makes the access sensitive"). A package's own Python tool or workflow
 *   is its author's word: declaring `read` makes it run without asking only when a publisher key the person trusts
 *   signed the package ("its verified publisher says it only reads"); otherwise it asks, unless the person chooses
 *   "runs without asking" for that entry. A tool whose family cannot be known before it runs (an MCP tool, another
 *   agent) asks unless the person chooses otherwise. A sensitive family always asks.
 * - An update keeps every answer for an entry offered before whose family did not change; a new entry, or one whose
 *   family changed, starts ungranted.
 * - A tool on the owner's "never allow" list is never granted; a kept grant of one is withdrawn.
 * - A tool the organization's policy blocks is decided `deny` (reason `policy`), and an answer asking for it is
 *   refused; a kept grant it blocks is withheld but still what the store records (`stored`).
 */
import type { AccessAnswer } from './consent-answers-schema';
import { type ActionFamily, type AgentEntry, isSensitive } from '../manifests/apollia-manifest';
import { apolliaNativeTool, reachesOutside } from '../manifests/catalogues';
import type { Permission } from './consent';
import { ownRecord } from '../base/own-data';
import { FAMILY_ABILITY } from '../words/words';
import { effectivePermission, POLICY_REFUSAL, toolAskedBy, toolBlockedBy } from '../policy/policy';
import type { DecisionContext, DecisionTrust } from './decision-input';
import type { DecisionProblem } from './decision-problems';

/**
 * Why an entry runs the way it does.
 *
 * The form and the CLI show it beside the entry in a few words ({@link permissionWords}), so a default is never
 * unexplained.
 */
export type PermissionReason =
  | 'answer'
  | 'kept'
  | 'new'
  | 'family_changed'
  | 'denied_by_owner'
  | 'reads'
  | 'sensitive'
  | 'unknown_family'
  | 'package_code'
  | 'verified_reads'
  | 'sends_outside'
  | 'policy';

/**
 * One access entry as decided.
 *
 * It carries what the form needs to offer a choice (`grantedAs`, `canAllow`) besides the decision itself, so the form
 * never works out a rule of its own.
 */
export interface AccessDecided {
  permission: Permission;
  family: ActionFamily | null;
  /** Why: the person's answer, kept from the installed version, or a default with its reason. */
  reason: PermissionReason;
  /** The permission a grant of it gets when the person does not choose: what a tick means. */
  grantedAs: Exclude<Permission, 'deny'>;
  /** Whether the person may choose "runs without asking" for it (never for a sensitive family). */
  canAllow: boolean;
  /** Whether the owner never allows it (Settings): it cannot be granted. */
  ownerDenied: boolean;
  /** New in this version, or its family changed: asked again. */
  asked: 'new' | 'family_changed' | null;
  /** Why the organization's policy withholds it or keeps it asking, in words; null when it does not. */
  policy: string | null;
  /**
   * What the store records: the person's kept decision even while the policy withholds it (lifting the block restores
   * it).
   */
  stored: Permission;
}

/** How one entry runs when granted and the person does not choose, and why. */
function defaultGrant(
  entry: string,
  family: ActionFamily | null,
  ownCode: boolean,
  trust: DecisionTrust,
): { as: 'allow' | 'ask'; reason: PermissionReason } {
  if (family !== null && isSensitive(family)) return { as: 'ask', reason: 'sensitive' };
  if (family === null) return { as: 'ask', reason: 'unknown_family' };
  if (ownCode)
    return trust.verifiedPublisher !== null
      ? { as: 'allow', reason: 'verified_reads' }
      : { as: 'ask', reason: 'package_code' };
  if (!apolliaNativeTool(entry)) return { as: 'ask', reason: 'unknown_family' };
  // A built-in tool that reads but sends what it looks up outside (web_fetch, web_search) asks by default: what it
  // reads here could leave with the query. The person may still let it run without asking.
  return reachesOutside(entry) ? { as: 'ask', reason: 'sends_outside' } : { as: 'allow', reason: 'reads' };
}

/** Whether an entry names the package's own Python code (a tool or workflow of this package). */
function isOwnCode(entry: string, packageName: string): boolean {
  return entry.startsWith(`pkg:${packageName}/`) || entry.startsWith(`workflow:${packageName}/`);
}

/** The permission an answer gives, or a problem. */
function answered(answer: AccessAnswer, grantedAs: 'allow' | 'ask', canAllow: boolean): Permission | 'cannot_allow' {
  if (answer === false) return 'deny';
  if (answer === true) return grantedAs;
  if (answer === 'allow' && !canAllow) return 'cannot_allow';
  return answer;
}

/**
 * Decides one agent's access entries from the person's answers for it.
 *
 * `answer` maps entry → answer, only those touched; problems with an answer are added to `problems`. The consent form
 * calls it for the one agent the person changes, `decide` for each, so both decide by the same rules.
 */
export function decideAgent(
  ctx: DecisionContext,
  agent: AgentEntry,
  answer: Record<string, AccessAnswer> | undefined,
  problems: DecisionProblem[] = [],
): Record<string, AccessDecided> {
  const { manifest, installed, trust } = ctx.input;
  const name = manifest.package.name;
  const decided = ownRecord<AccessDecided>();
  const kept = installed && Object.hasOwn(installed.access, agent.id) ? installed.access[agent.id] : undefined;
  const offeredBefore = new Set(ctx.agentsBefore.get(agent.id)?.defaults?.access ?? []);
  for (const entry of agent.defaults?.access ?? []) {
    if (Object.hasOwn(decided, entry)) continue;
    const family = ctx.familyOf(entry);
    const policy = ctx.input.policy ?? null;
    const blocked = toolBlockedBy(policy, entry, family);
    const unattendedOff = policy?.unattended === false;
    const byDefault = defaultGrant(entry, family, isOwnCode(entry, name), trust);
    // The policy may forbid "runs without asking": a grant then asks first.
    const grantedAs = unattendedOff ? 'ask' : byDefault.as;
    const grantReason = unattendedOff && byDefault.as === 'allow' ? 'policy' : byDefault.reason;
    const canAllow = (family === null || !isSensitive(family)) && !unattendedOff;
    const ownerDenied = ctx.denied.has(entry);
    let asked: AccessDecided['asked'] = null;
    if (installed) {
      if (!offeredBefore.has(entry)) asked = 'new';
      else if (ctx.familyBefore?.(entry) !== family) asked = 'family_changed';
    }
    let permission: Permission;
    let reason: PermissionReason;
    let keptDecision = false;
    const given = answer && Object.hasOwn(answer, entry) ? answer[entry] : undefined;
    if (given !== undefined) {
      const result = answered(given, grantedAs, canAllow);
      if (result === 'cannot_allow' && unattendedOff) {
        problems.push({
          code: 'policy.unattended',
          message: `agent \`${agent.id}\` of ${name}: \`${entry}\` cannot run without asking: ${POLICY_REFUSAL}`,
          path: `decisions.agents.${agent.id}.access.${entry}`,
        });
        permission = grantedAs;
      } else if (result === 'cannot_allow') {
        problems.push({
          code: 'install.cannot_allow',
          message: `agent \`${agent.id}\` of ${name}: \`${entry}\` can ${family ? FAMILY_ABILITY[family] : 'act'}, so it asks you before each call: it cannot run without asking`,
          path: `decisions.agents.${agent.id}.access.${entry}`,
        });
        permission = grantedAs;
      } else permission = result;
      reason = 'answer';
      if (permission !== 'deny' && blocked !== null) {
        problems.push({
          code: 'policy.blocked_tool',
          message: `agent \`${agent.id}\` of ${name} cannot be granted \`${entry}\`: ${blocked}; ${POLICY_REFUSAL}`,
          path: `decisions.agents.${agent.id}.access.${entry}`,
        });
      }
      if (permission !== 'deny' && ownerDenied) {
        problems.push({
          code: 'install.denied_tool',
          message: `agent \`${agent.id}\` of ${name} cannot be granted \`${entry}\`: it is on your list of tools you never allow (Settings)`,
          path: `decisions.agents.${agent.id}.access.${entry}`,
        });
      }
    } else if (installed && asked === null && kept && Object.hasOwn(kept, entry)) {
      permission = kept[entry] as Permission;
      reason = 'kept';
      keptDecision = true;
    } else if (installed && asked !== null) {
      permission = 'deny';
      reason = asked;
    } else {
      permission = grantedAs;
      reason = grantReason;
    }
    // A kept or default grant of a tool the owner has since denied is not kept (Settings holds for every install).
    if (ownerDenied && permission !== 'deny' && reason !== 'answer') {
      permission = 'deny';
      reason = 'denied_by_owner';
    }
    // The policy on top: a kept decision stays what the store records; anything else the person
    // could not have chosen otherwise is recorded as the policy leaves it.
    const decidedByPerson = permission;
    const effective = effectivePermission(policy, entry, family, permission);
    const policyWords =
      blocked ??
      (unattendedOff && (permission === 'allow' || byDefault.as === 'allow')
        ? 'your organization does not allow tools to run without asking'
        : null) ??
      toolAskedBy(policy, entry);
    if (effective !== permission) {
      permission = effective;
      reason = 'policy';
    } else if (blocked !== null && reason !== 'answer') reason = 'policy';
    const stored = keptDecision && reason !== 'denied_by_owner' ? decidedByPerson : permission;
    decided[entry] = {
      permission,
      family,
      reason,
      grantedAs,
      canAllow,
      ownerDenied,
      asked,
      policy: policyWords,
      stored,
    };
  }
  return decided;
}

/**
 * What "how it runs" means, in words, for a permission and its reason.
 *
 * The form and the CLI say it alike, from this one place.
 */
export function permissionWords(decided: AccessDecided): string {
  if (decided.reason === 'policy' && decided.policy !== null)
    return decided.permission === 'deny' ? `Not allowed: ${decided.policy}` : `Asks you first: ${decided.policy}`;
  if (decided.permission === 'deny') {
    if (decided.reason === 'denied_by_owner') return 'Not allowed: on your list of tools you never allow';
    if (decided.reason === 'new') return 'Not allowed: new in this version, tick it to allow';
    if (decided.reason === 'family_changed') return 'Not allowed: it now does something else, tick it to allow';
    return 'Not allowed';
  }
  if (decided.permission === 'allow') {
    if (decided.reason === 'verified_reads') return 'Runs without asking: its verified publisher says it only reads';
    if (decided.reason === 'answer') return 'Runs without asking: you chose it';
    return 'Runs without asking';
  }
  if (decided.reason === 'package_code')
    return "Asks you first: the package's own code, and only its author says it only reads";
  if (decided.reason === 'unknown_family') return 'Asks you first: what it does is known only when it runs';
  if (decided.reason === 'sends_outside') return 'Asks you first: it sends what it looks up outside this computer';
  return 'Asks you first';
}
