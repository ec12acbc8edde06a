/**
 * Where the app's own page lives, and the pure checks built on it: which URLs count as "the app"
 * for IPC senders and navigation (DESIGN.md "Security of the app itself"; Electron security
 * checklist items 13, 14 and 17). No `electron` import: unit-tested in plain Node.
 *
 * URLs are always parsed with `new URL()`, never compared with `startsWith` (STYLE.md "Security
 * defaults nobody copies wrong"): `app://renderer/index.html.evil`, `app://renderer.evil/index.html`
 * or `http://localhost:5173.evil.com` must not pass. The built renderer is served from the
 * privileged `app://` scheme (`app-protocol.ts`), never from `file://`, so no file on disk is "the app".
 */

/** The app is either the built `index.html` served from `app://`, or the electron-vite dev server. */
export type AppLocation =
  | { kind: 'app' /** `app://renderer/index.html`: the built renderer's page. */; indexUrl: string }
  | { kind: 'dev' /** Origin of the dev server, e.g. `http://localhost:5173`. */; origin: string };

/** The location the window loads: the dev server when electron-vite runs one, else the built page on `app://`. */
export function resolveAppLocation(devServerUrl: string | undefined, appIndexUrl: string): AppLocation {
  if (devServerUrl) {
    const parsed = safeUrl(devServerUrl);
    if (parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:'))
      return { kind: 'dev', origin: parsed.origin };
  }
  return { kind: 'app', indexUrl: appIndexUrl };
}

/** Parses a URL, or null when it is not one. */
export function safeUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/**
 * Whether `url` is the app's own page: for a built app, exactly `app://renderer/index.html`
 * (search and hash ignored; scheme, host and path compared as parsed — `new URL().origin` is
 * "null" for a scheme Node does not know, so it is not used here); for the dev server, its exact
 * origin (scheme, host, port).
 */
export function isAppUrl(url: string, app: AppLocation): boolean {
  const parsed = safeUrl(url);
  if (!parsed) return false;
  if (app.kind === 'dev') {
    // `new URL('about:blank').origin` is the string "null": never equal to a real origin.
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.origin === app.origin;
  }
  const index = safeUrl(app.indexUrl);
  if (!index || parsed.protocol !== index.protocol || parsed.protocol === 'file:') return false;
  if (parsed.username !== '' || parsed.password !== '') return false;
  // Chromium lower-cases a standard scheme's host; Node's parser keeps an unknown scheme's host as written.
  return parsed.host.toLowerCase() === index.host.toLowerCase() && parsed.pathname === index.pathname;
}

/** The part of Electron's `WebFrameMain` the sender check reads. */
export interface SenderFrame {
  url: string;
  /** Null for a top-level frame: an iframe inside the app is not the app. */
  parent: unknown;
}

/**
 * Whether an IPC message may be answered: it must come from the app's own top-level frame.
 * A destroyed or missing frame (`null`), `about:blank`, a `file://` page, another origin, or a child
 * frame is refused (Electron security checklist item 17, "validate the sender of all IPC messages").
 */
export function isTrustedSender(frame: SenderFrame | null | undefined, app: AppLocation): boolean {
  if (!frame) return false;
  if (frame.parent !== null && frame.parent !== undefined) return false;
  return isAppUrl(frame.url, app);
}

/**
 * Whether the window may navigate to `url` (`will-navigate`, `will-redirect`): only to the app's
 * own page (a reload). Everything else, links in a package's text included, is denied
 * (checklist item 13).
 */
export function isAllowedNavigation(url: string, app: AppLocation): boolean {
  return isAppUrl(url, app);
}

/** What the new-window handler answers for every request: always deny (checklist item 14). */
export function windowOpenDecision(): { action: 'deny' } {
  return { action: 'deny' };
}
