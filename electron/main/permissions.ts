/**
 * Which web permissions the app's page gets (DESIGN.md "Security of the app itself"): exactly one,
 * `clipboard-sanitized-write` (what `navigator.clipboard.writeText` needs: every Copy button), and
 * only for the app's own top-level page. Everything else — another permission, an iframe, another
 * origin, a check made for no document (a service worker) — is refused. Electron's docs: "most web
 * APIs do a permission check and then make a permission request if the check is denied", so both
 * handlers answer the same rule. No `electron` import: the handlers are unit-tested with fakes and
 * `security.ts` hands them to the session.
 */
import { isAppUrl, safeUrl, type AppLocation } from './app-location';

/** The one permission the app's page may use. */
export const ALLOWED_PERMISSION = 'clipboard-sanitized-write';

/** The part of Electron's `PermissionRequest` the request handler reads. */
export interface PermissionRequestDetails {
  isMainFrame: boolean;
  requestingUrl?: string;
}

/** The part of Electron's `PermissionCheckHandlerHandlerDetails` the check handler reads. */
export interface PermissionCheckDetails {
  isMainFrame: boolean;
  requestingUrl?: string;
  /** Set only for a cross-origin subframe. */
  embeddingOrigin?: string;
}

/**
 * Whether `origin` (an origin string such as `app://renderer`) is the app's own: the built page's
 * scheme and host, or the dev server's exact origin. Parsed, never compared as text.
 */
export function isAppOrigin(origin: string, location: AppLocation): boolean {
  const parsed = safeUrl(origin);
  if (!parsed || parsed.username !== '' || parsed.password !== '' || parsed.search !== '' || parsed.hash !== '')
    return false;
  if (parsed.pathname !== '' && parsed.pathname !== '/') return false;
  if (location.kind === 'dev')
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.origin === location.origin;
  const index = safeUrl(location.indexUrl);
  if (!index || parsed.protocol === 'file:') return false;
  return (
    parsed.protocol === index.protocol && parsed.port === '' && parsed.host.toLowerCase() === index.host.toLowerCase()
  );
}

/** The request rule: the one permission, from the app's own page in its top-level frame. */
export function isPermissionRequestAllowed(
  permission: string,
  details: PermissionRequestDetails | undefined,
  location: AppLocation,
): boolean {
  if (permission !== ALLOWED_PERMISSION || !details || details.isMainFrame !== true) return false;
  return typeof details.requestingUrl === 'string' && isAppUrl(details.requestingUrl, location);
}

/**
 * The check rule: the one permission, checked for a document (a `webContents`, a requesting URL),
 * the app's own page, top-level, at the app's own origin, embedded in nothing.
 */
export function isPermissionCheckAllowed(
  hasContents: boolean,
  permission: string,
  requestingOrigin: string,
  details: PermissionCheckDetails | undefined,
  location: AppLocation,
): boolean {
  if (permission !== ALLOWED_PERMISSION || !hasContents || !details || details.isMainFrame !== true) return false;
  if (details.embeddingOrigin !== undefined && details.embeddingOrigin !== '') return false;
  if (!isAppOrigin(requestingOrigin, location)) return false;
  return typeof details.requestingUrl === 'string' && isAppUrl(details.requestingUrl, location);
}

/** The handler `session.setPermissionRequestHandler` gets: the request rule, answered through Electron's callback. */
export function permissionRequestHandler(location: AppLocation) {
  return (
    _contents: unknown,
    permission: string,
    callback: (granted: boolean) => void,
    details?: PermissionRequestDetails,
  ): void => {
    callback(isPermissionRequestAllowed(permission, details, location));
  };
}

/** The handler `session.setPermissionCheckHandler` gets: the check rule. */
export function permissionCheckHandler(location: AppLocation) {
  return (contents: unknown, permission: string, requestingOrigin: string, details?: PermissionCheckDetails): boolean =>
    isPermissionCheckAllowed(
      contents !== null && contents !== undefined,
      permission,
      requestingOrigin,
      details,
      location,
    );
}
