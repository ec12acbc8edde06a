/**
 * The organization's policy as every surface sees it (DESIGN.md "Managed policy"): the evaluated
 * policy the core reads from the policy files (`electron/core/policy/`), and the pure rules that
 * say what it blocks. The core evaluates the files once; the decision function (`decisions.ts`),
 * the consent form and the CLI read the same {@link EffectivePolicy} and these functions, so a tool
 * blocked in one place is blocked in every place.
 */
import type { EffectivePolicy, PolicyView } from './policy-in-force-schema';
import type { ActionFamily } from '../manifests/apollia-manifest';
import { FAMILY_ABILITY } from '../words/words';
import { type PolicyTriggerKind } from './policy-trigger-kinds';
import { ruleWords, toolRuleFor } from './policy-rules';
import { toolPatternMatches } from './tool-pattern';

export { toolPatternMatches } from './tool-pattern';
export {
  feedAllowed,
  globMatches,
  installSourceAllowed,
  type McpServerIdentity,
  mcpServerMatches,
  mcpServerRefusedBy,
  toolAskedBy,
  toolRuleFor,
} from './policy-rules';

export { POLICY_TRIGGER_KINDS, type PolicyTriggerKind } from './policy-trigger-kinds';

// The policy in force, as every Api answer carries it (`EffectivePolicy`, `PolicyView`, and their parts), is defined
// once with its schema (shared/policy/policy-in-force-schema.ts); the policy file's schema is built of the same parts.
export type {
  AllowedPackage,
  EffectivePolicy,
  McpServerMatch,
  PolicyMcpServer,
  PolicySource,
  PolicyView,
  ToolRule,
} from './policy-in-force-schema';

/** The policy where there is none: everything the app allows by itself. */
export const NO_POLICY: EffectivePolicy = {
  organization: null,
  trustedPublishers: [],
  requireSignature: 'none',
  allowUserTrustedKeys: true,
  allowedPackages: null,
  blockedActionFamilies: [],
  blockedTools: [],
  templates: 'any',
  triggers: { schedule: true, file_watch: true, webhook: true },
  webhookPort: null,
  unattended: true,
  mcpServers: [],
  activityExport: null,
  activityExportOtlp: null,
  mcpServersAllowed: [],
  mcpServersDenied: [],
  toolRules: [],
  installSources: 'any',
  feedsAllowed: [],
  updates: 'person',
};

/** What every policy refusal says (DESIGN.md "Consent, install, apply": a refusal says who can act). */
export const POLICY_REFUSAL = 'your organization does not allow this; your administrator can change the policy';

/** Why the policy withholds `tool` (of `family`), in words; null when it does not. */
export function toolBlockedBy(
  policy: EffectivePolicy | null | undefined,
  tool: string,
  family: ActionFamily | null,
): string | null {
  if (!policy) return null;
  if (family !== null && policy.blockedActionFamilies.includes(family))
    return `your organization blocks tools that ${FAMILY_ABILITY[family]}`;
  const pattern = policy.blockedTools.find((p) => toolPatternMatches(p, tool));
  if (pattern !== undefined)
    return pattern === tool ? 'your organization blocks this tool' : `your organization blocks “${pattern}”`;
  // Version 2's tool rules, in the same evaluation: a `block` rule withholds like `blockedTools`.
  const rule = toolRuleFor(policy, tool);
  return rule?.permission === 'block' ? `your organization blocks ${ruleWords(rule, tool)}` : null;
}

/** The policy's kind of a stored or declared trigger type. */
export function policyTriggerKind(type: string): PolicyTriggerKind {
  if (type === 'file_watch') return 'file_watch';
  if (type === 'webhook') return 'webhook';
  return 'schedule';
}

/** Whether the policy lets a trigger of `type` be armed (and fire). */
export function triggerKindAllowed(policy: EffectivePolicy | null | undefined, type: string): boolean {
  return !policy || policy.triggers[policyTriggerKind(type)];
}

/** "Managed by …", or null when no policy names an organization. */
export function managedBy(view: PolicyView | null | undefined): string | null {
  if (!view || view.state === 'none') return null;
  return `Managed by ${view.effective?.organization ?? 'your organization'}`;
}

/**
 * How an entry runs once the policy is applied on top of what the person decided (`permission`):
 * withheld while the policy blocks it, asking first while "runs without asking" is not allowed.
 */
export function effectivePermission<P extends 'allow' | 'ask' | 'deny'>(
  policy: EffectivePolicy | null | undefined,
  tool: string,
  family: ActionFamily | null,
  permission: P,
): 'allow' | 'ask' | 'deny' {
  if (!policy || permission === 'deny') return permission;
  if (toolBlockedBy(policy, tool, family) !== null) return 'deny';
  if (permission === 'allow' && !policy.unattended) return 'ask';
  // An `ask` rule (the strictest matching one) keeps the tool asking before each call.
  if (permission === 'allow' && toolRuleFor(policy, tool)?.permission === 'ask') return 'ask';
  return permission;
}

/** The kind of a trigger in words, as every refusal and lock says it: "scheduled", "watched-folder", "webhook". */
export function triggerKindWords(type: string): string {
  const kind = policyTriggerKind(type);
  return kind === 'schedule' ? 'scheduled' : kind === 'file_watch' ? 'watched-folder' : 'webhook';
}

/** Every refusal the policy makes, with its code. */
export type PolicyRefusalCode =
  | 'policy.unreadable'
  | 'policy.unsigned'
  | 'policy.untrusted_signature'
  | 'policy.package_not_allowed'
  | 'policy.blocked_family'
  | 'policy.templates'
  | 'policy.mcp_server_locked'
  | 'policy.mcp_server_denied'
  | 'policy.install_source'
  | 'policy.webhook_port'
  | 'policy.collector_locked'
  | 'policy.user_keys'
  | 'policy.update_mode';
