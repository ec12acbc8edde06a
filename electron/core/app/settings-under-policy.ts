/**
 * Settings as the organization's policy leaves them (DESIGN.md "Managed policy"): every view shown
 * with what the policy provides, every change it may lock refused first (`policy-locks.ts`). The
 * use cases in `settings.ts`, `trigger-status.ts` and `publisher-trust.ts` stay policy-free.
 */
import { mcpServerRefusedBy, POLICY_REFUSAL } from '../../../shared/policy/policy';
import { policyKeys, refuse } from '../policy/index';
import { settingsUnderPolicy } from '../policy/policy-effects';
import { keyFingerprint } from '../trust/trusted-keys';
import { type ApiContext, policyOf } from './context';
import { lockedByPolicy } from './policy-locks';
import { listTrustedKeys, trustKey } from './publisher-trust';
import { readSettings, removeMcpServer, saveMcpServer } from './settings';
import { setWebhookPort } from './trigger-status';

/**
 * Settings, with the organization's MCP servers and webhook port shown locked.
 * Read under the policy in force now, so a policy change shows at the next read.
 */
export async function readSettingsUnderPolicy(ctx: ApiContext) {
  return settingsUnderPolicy(await readSettings(ctx), policyOf(ctx));
}

/**
 * Saves an MCP server, unless it is one the organization provides.
 * Refused before anything is written: a locked server is never half changed.
 */
export async function saveMcpServerUnderPolicy(ctx: ApiContext, request: Parameters<typeof saveMcpServer>[1]) {
  lockedByPolicy(ctx, 'mcp', request.name);
  // Version 2's `mcpServers.allowed` / `.denied` hold for a server saved here as for a package's: by name, command and
  // each argument, or URL; deny wins.
  const refusedBy = mcpServerRefusedBy(policyOf(ctx).effective, request);
  if (refusedBy !== null)
    refuse({
      code: 'policy.mcp_server_denied',
      message: `MCP server \`${request.name}\` was not saved: ${refusedBy}; ${POLICY_REFUSAL}.`,
    });
  return settingsUnderPolicy(await saveMcpServer(ctx, request), policyOf(ctx));
}

/**
 * Removes an MCP server, unless it is one the organization provides.
 * Refused before anything is written, as {@link saveMcpServerUnderPolicy}.
 */
export async function removeMcpServerUnderPolicy(ctx: ApiContext, request: Parameters<typeof removeMcpServer>[1]) {
  lockedByPolicy(ctx, 'mcp', request.name);
  return settingsUnderPolicy(await removeMcpServer(ctx, request), policyOf(ctx));
}

/**
 * Sets the webhook port, unless the organization fixes it.
 * Refused before the store changes, so the host never rebinds to a port the policy forbids.
 */
export async function setWebhookPortUnderPolicy(ctx: ApiContext, request: Parameters<typeof setWebhookPort>[1]) {
  lockedByPolicy(ctx, 'webhookPort', String(request.port));
  return settingsUnderPolicy(await setWebhookPort(ctx, request), policyOf(ctx));
}

/**
 * The trusted publisher keys: the organization's first, locked; then the person's own.
 * A key both trust is shown once, as the organization's, since the person cannot remove it.
 */
export async function trustedKeysUnderPolicy(ctx: ApiContext) {
  // The organization's publishers first, locked; then the person's own.
  const managed: Awaited<ReturnType<typeof listTrustedKeys>> = policyKeys(policyOf(ctx).effective).map(
    ({ keyId, name, publicKey }) => ({
      keyId,
      name,
      publicKey,
      fingerprint: keyFingerprint(publicKey),
      addedAt: '',
      pinnedPackages: [],
      managed: true,
    }),
  );
  return [...managed, ...(await listTrustedKeys(ctx)).filter((key) => !managed.some((m) => m.keyId === key.keyId))];
}

/**
 * Trusts a key of the person's own, unless the organization allows none.
 * Refused before the store changes: under such a policy only the organization's keys count.
 */
export function trustKeyUnderPolicy(ctx: ApiContext, request: Parameters<typeof trustKey>[1]) {
  lockedByPolicy(ctx, 'userKeys', request.name);
  return trustKey(ctx, request);
}
