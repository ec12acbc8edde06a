/**
 * A webhook trigger's address (DESIGN.md "Triggers at run time": webhooks are received on
 * 127.0.0.1 only). One home for the path, so the listener that answers it and every screen that
 * shows it agree; a trigger has its address from the moment it exists, armed or not, since a
 * sender needs the address before it gives you its secret.
 */

/** The only host the listener binds. */
export const WEBHOOK_HOST = '127.0.0.1';

/** The path of a trigger's webhook: `/hooks/` then each `/`-separated part of the id, URL-encoded. */
export function webhookPath(triggerId: string): string {
  return `/hooks/${triggerId.split('/').map(encodeURIComponent).join('/')}`;
}

/** The address of a trigger's webhook on a listener at `origin` (`http://127.0.0.1:PORT`). */
export function webhookAddress(origin: string, triggerId: string): string {
  return `${origin}${webhookPath(triggerId)}`;
}

/** The listener's origin on a port of this computer. */
export function listenerOrigin(port: number): string {
  return `http://${WEBHOOK_HOST}:${port}`;
}

/** Said beside every webhook address: who can reach it, and what a sender elsewhere needs. */
export const LOCAL_ONLY_WORDS =
  'Only this computer can reach this address (127.0.0.1). A sender on the internet or another machine needs a tunnel you set up (for example a relay that forwards to this address).';
