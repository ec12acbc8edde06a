/**
 * When the data folder's triggers run in another process (`apollia-desktop serve`, or its systemd
 * service), what that means for webhook secrets: `serve` opens secrets with the key-file box only
 * (electron/core/cli/serve-command.ts), so a webhook whose secret this app keeps in the keychain
 * receives no delivery while `serve` holds the triggers, and this app starts no host of its own to
 * open it. Said on the dashboard and in Settings (DESIGN.md "Triggers at run time": never pretend
 * a trigger is live). Pure: tested without a DOM.
 */
import type { SecretBackend, TriggerStatusView } from '../../../../shared/contract/api';

/** What to say about another host, or null when the triggers run here or nowhere. */
export type OtherHost = { pid: number; keychainWebhooksDark: boolean } | null;

/**
 * The other host holding the triggers, and whether webhooks this app sealed go unserved there:
 * every box but the key file's (`file_key`, the one `serve` opens) seals through Electron's
 * safeStorage — the keychain (`keychain`, or `pending`: still probing it) or Chromium's built-in key
 * (`basic_text`) — which a command cannot open. `unavailable` keeps no secret at all.
 */
export function otherHost(status: TriggerStatusView | undefined, backend: SecretBackend | undefined): OtherHost {
  if (!status?.running || !status.host || status.host.here) return null;
  const sealedBySafeStorage = backend === 'keychain' || backend === 'pending' || backend === 'basic_text';
  return { pid: status.host.pid, keychainWebhooksDark: sealedBySafeStorage };
}

/** The words for a webhook whose keychain-kept secret `serve` cannot open. */
export const KEYCHAIN_WEBHOOKS_DARK_WORDS =
  'Webhooks whose signing secret this app keeps in the keychain receive no deliveries there: serve opens only secrets sealed with the key file beside the app data, and this app starts no trigger host while serve runs. To have them received, stop serve (for the service: systemctl --user stop apollia-desktop-serve), then quit and start this app again. Schedules and watched folders are not affected.';
