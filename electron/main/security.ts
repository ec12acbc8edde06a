/**
 * Electron-side enforcement of DESIGN.md "Security of the app itself": denied navigation, denied
 * new windows, no `<webview>`, every permission refused but the clipboard write of Copy, and the
 * CSP header. The decisions themselves live in `app-location.ts`, `permissions.ts` and `csp.ts`
 * (tested without Electron); this file only wires them to Electron's events.
 */
import { app, session, type WebContents } from 'electron';
import { isAllowedNavigation, windowOpenDecision, type AppLocation } from './app-location';
import { CONTENT_SECURITY_POLICY, DEV_CONTENT_SECURITY_POLICY, withCspHeader } from './csp';
import { permissionCheckHandler, permissionRequestHandler } from './permissions';

/** Locks down one window's contents: navigation, redirects, new windows and `<webview>`. */
export function lockDownContents(contents: WebContents, location: AppLocation): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAllowedNavigation(url, location)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAllowedNavigation(url, location)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => windowOpenDecision());
}

/**
 * Applies the app-wide rules once, before any window exists: every permission request and check
 * is refused except `clipboard-sanitized-write` for the app's own page (Copy), every future `webContents` is locked
 * down as it is created,
 * and every response gets the CSP header.
 */
export function applyAppSecurity(location: AppLocation): void {
  const ses = session.defaultSession;
  const request = permissionRequestHandler(location);
  const check = permissionCheckHandler(location);
  ses.setPermissionRequestHandler((contents, permission, callback, details) =>
    request(contents, permission, callback, details),
  );
  ses.setPermissionCheckHandler((contents, permission, requestingOrigin, details) =>
    check(contents, permission, requestingOrigin, details),
  );
  // The dev server's page (`npm run dev`) pins its inline preamble by hash in its <meta> (csp.ts).
  const policy = location.kind === 'dev' ? DEV_CONTENT_SECURITY_POLICY : CONTENT_SECURITY_POLICY;
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withCspHeader(details.responseHeaders, policy) });
  });
  app.on('web-contents-created', (_event, contents) => lockDownContents(contents, location));
}
