/**
 * The organization's policy in words (DESIGN.md "Managed policy"): who sets it
 * and from where (a machine source, or the person's own `APOLLIA_POLICY_FILE` alone: a trial policy, said so), each
 * rule it sets, which rule a `policy.*` refusal comes from, and the request a person copies for their administrator.
 * One home, so the policy page, the banner, the refusals and the CLI say the same thing.
 */
import type { EffectivePolicy, PolicySource, PolicyView } from './policy-in-force-schema';

/**
 * Whether the policy in force comes from the person's own `APOLLIA_POLICY_FILE` alone (no machine or per-user source
 * read): a trial policy. It only adds restrictions, and never supplies a granting key while a machine source exists.
 */
export function policyIsTrial(view: PolicyView | null | undefined): boolean {
  if (!view || view.state === 'none') return false;
  const read = view.sources.filter((s) => s.state !== 'absent');
  return read.length > 0 && read.every((s) => s.role === 'env');
}

/** Who sets the policy here, in one line: the organization, a trial policy, an unusable file, or none. */
export function policyHeading(view: PolicyView | null | undefined): string {
  if (!view || view.state === 'none') return 'No policy: nothing on this computer is managed by an organization';
  if (view.state === 'unreadable') return "Your organization's policy cannot be used";
  if (policyIsTrial(view))
    return `A trial policy${view.effective?.organization ? ` (${view.effective.organization})` : ''}, from your own file (APOLLIA_POLICY_FILE), not from your organization`;
  return `Managed by ${view.effective?.organization ?? 'your organization'}`;
}

/** Where one source is, in words. */
export function policySourceWords(source: PolicySource): string {
  const where = source.path.startsWith('HK') ? `the registry key ${source.path}` : source.path;
  const role =
    source.role === 'machine'
      ? "this computer's policy"
      : source.role === 'user'
        ? 'the policy for your account'
        : 'your own file, named by APOLLIA_POLICY_FILE (a trial policy: it only adds restrictions)';
  const state =
    source.state === 'absent'
      ? 'not present'
      : source.state === 'read'
        ? 'read'
        : `cannot be used: ${source.problem ?? ''}`;
  return `${role}: ${where} (${state})`;
}

const list = (items: readonly string[]) => (items.length === 0 ? 'none' : items.join(', '));
const yes = (value: boolean, on: string, off: string) => (value ? on : off);

/** One rule of the policy in force (a source key, as `origin` names it), in words. */
export function policyRuleWords(key: string, policy: EffectivePolicy): string {
  switch (key) {
    case 'organization':
      return `The organization's name: ${policy.organization ?? 'not given'}`;
    case 'trustedPublishers':
      return `Publisher keys it trusts: ${list(policy.trustedPublishers.map((k) => k.name))}`;
    case 'requireSignature':
      return {
        none: 'Unsigned packages may be installed',
        any: 'A package must be signed',
        trusted: 'A package must be signed by a key trusted here',
      }[policy.requireSignature];
    case 'allowUserTrustedKeys':
      return yes(
        policy.allowUserTrustedKeys,
        'You may trust publisher keys of your own',
        'Only its publisher keys count: you cannot add your own',
      );
    case 'allowedPackages':
      return `Only these packages may be installed: ${list((policy.allowedPackages ?? []).map((p) => ('name' in p ? p.name : `the archive ${p.sha256.slice(0, 12)}…`)))}`;
    case 'blockedActionFamilies':
      return `No package that can do this: ${list(policy.blockedActionFamilies.map((f) => f.replaceAll('_', ' ')))}`;
    case 'blockedTools':
      return `Tools it blocks: ${list(policy.blockedTools)}`;
    case 'templates':
      return {
        any: 'Any template may be applied',
        builtin: 'Only the templates shipped with the app may be applied',
        none: 'No template may be applied',
      }[policy.templates];
    case 'triggers': {
      const off = Object.entries(policy.triggers)
        .filter(([, on]) => !on)
        .map(([kind]) => kind.replaceAll('_', ' '));
      return off.length === 0 ? 'Every kind of trigger may be armed' : `Triggers it does not allow: ${list(off)}`;
    }
    case 'webhookPort':
      return `The webhook listener's port: ${policy.webhookPort ?? 'not fixed'}`;
    case 'unattended':
      return yes(
        policy.unattended,
        'Tools may run without asking where you choose it',
        'No tool may run without asking: every tool asks you first',
      );
    case 'mcpServers.provided':
      return `MCP servers it provides: ${list(policy.mcpServers.map((s) => s.name))}`;
    case 'mcpServers.allowed':
      return 'Only the MCP servers it lists may be used';
    case 'mcpServers.denied':
      return `MCP servers it denies: ${list(policy.mcpServersDenied.map((m) => m.name ?? m.command ?? m.url ?? '…'))}`;
    case 'toolRules':
      return `Tool rules: ${list(policy.toolRules.map((r) => `${r.match} → ${r.permission}`))}`;
    case 'installSources':
      return policy.installSources === 'feeds' ? 'Packages only from feeds: no local files' : 'Packages from any place';
    case 'feeds.allowed':
      return `Feeds it allows: ${list(policy.feedsAllowed.flat())}`;
    case 'updates':
      return policy.updates === 'person'
        ? 'You choose how each package updates'
        : `Updates are set to ${policy.updates}`;
    case 'activityExport.file':
      return `Your decisions are also written to ${policy.activityExport ?? 'a file'}`;
    case 'activityExport.otlp':
      return `Your decisions are also sent to ${policy.activityExportOtlp ?? 'a collector'}`;
    default:
      return key;
  }
}

/** The policy rule a `policy.*` refusal code comes from (its key in the policy file), or null. */
export function policyRuleOf(code: string): string | null {
  const rules: Record<string, string> = {
    'policy.unreadable': 'the policy file itself',
    'policy.unsigned': 'requireSignature',
    'policy.untrusted_signature': 'requireSignature',
    'policy.package_not_allowed': 'allowedPackages',
    'policy.blocked_package': 'allowedPackages',
    'policy.blocked_publisher': 'trustedPublishers',
    'policy.blocked_family': 'blockedActionFamilies',
    'policy.blocked_tool': 'blockedTools / toolRules',
    'policy.templates': 'templates',
    'policy.mcp_server_locked': 'mcpServers',
    'policy.mcp_server_denied': 'mcpServers.allowed / mcpServers.denied',
    'policy.install_source': 'installSources',
    'policy.webhook_port': 'webhookPort',
    'policy.collector_locked': 'activityExport.otlp',
    'policy.user_keys': 'allowUserTrustedKeys',
    'policy.unattended': 'unattended',
    'policy.trigger_kind': 'triggers',
  };
  return Object.hasOwn(rules, code) ? (rules[code] as string) : null;
}

/** What a person sends their administrator about one policy refusal. */
export interface AdminRequest {
  /** The package, template or agent it was about, when known. */
  subject: string | null;
  /** The refusal's sentence, as the app said it. */
  refused: string;
  /** The refusal's code (`policy.blocked_tool`). */
  code: string;
  /** Who manages the computer, when the policy names it. */
  organization: string | null;
}

/** The request's text, plain and complete: what was refused, about what, by which rule, and what is asked. */
export function adminRequestText(request: AdminRequest): string {
  const rule = policyRuleOf(request.code);
  return [
    `To the administrator of Apollia Desktop${request.organization ? ` at ${request.organization}` : ''}:`,
    '',
    'Your policy refused something I tried to do in Apollia Desktop.',
    ...(request.subject ? [`About: ${request.subject}`] : []),
    `What was refused: ${request.refused}`,
    `The rule: ${rule ?? 'the policy'} (refusal code ${request.code})`,
    '',
    'Could you allow it for me, or tell me why it must stay refused?',
  ].join('\n');
}
