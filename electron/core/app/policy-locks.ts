/** The Settings changes an organization's policy locks, refused through the Api (DESIGN.md "Managed policy"). */
import { POLICY_REFUSAL } from '../../../shared/policy/policy';
import { type ApiContext, policyOf } from './context';
import { refuse, usablePolicy } from '../policy/index';

/**
 * Refuses a Settings change the organization's policy locks: one of its MCP servers (saved or
 * removed), the webhook port it fixes, a key of the person's own when it allows none. An
 * unreadable policy locks them all (fail closed).
 */
export function lockedByPolicy(ctx: ApiContext, what: 'mcp' | 'webhookPort' | 'userKeys', name: string): void {
  const view = policyOf(ctx);
  const policy = usablePolicy(
    view,
    what === 'mcp'
      ? `MCP server \`${name}\` was not changed`
      : what === 'webhookPort'
        ? 'The webhook port was not changed'
        : `The key \`${name}\` was not trusted`,
  );
  if (!policy) return;
  if (what === 'mcp' && policy.mcpServers.some((s) => s.name === name))
    refuse({
      code: 'policy.mcp_server_locked',
      message: `MCP server \`${name}\` is provided by your organization: it cannot be changed or removed here; ${POLICY_REFUSAL}.`,
    });
  if (what === 'webhookPort' && policy.webhookPort !== null)
    refuse({
      code: 'policy.webhook_port',
      message: `The webhook port is fixed at ${policy.webhookPort} by your organization: ${POLICY_REFUSAL}.`,
    });
  if (what === 'userKeys' && !policy.allowUserTrustedKeys)
    refuse({
      code: 'policy.user_keys',
      message: `Only the publisher keys your organization trusts count on this computer: you cannot add your own; ${POLICY_REFUSAL}.`,
    });
}
