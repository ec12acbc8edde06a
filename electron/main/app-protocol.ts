/**
 * The `app://` scheme the built renderer is served from (DESIGN.md "Security of the app itself";
 * Electron security checklist item 18, "avoid the file:// protocol"): with the page at
 * `app://renderer/index.html`, the CSP's `'self'` is the renderer's own folder, not every file on
 * the disk. Pure decisions only (no `electron` import): which file a request maps to, with what
 * MIME type and headers. `protocol.ts` wires them to Electron.
 */
import { extname, isAbsolute, join, relative } from 'node:path';
import { CONTENT_SECURITY_POLICY } from './csp';

/** The scheme, registered as privileged (standard, secure) before `ready`. */
export const APP_SCHEME = 'app';
/** The one host the scheme serves. */
export const APP_HOST = 'renderer';
/** The page the window loads. */
export const APP_INDEX_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** MIME types of what the renderer build emits; anything else is served as opaque bytes. */
const MIME_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};

/** The MIME type a file is served with, by its extension (case-insensitive). */
export function mimeTypeOf(path: string): string {
  return MIME_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** Where an `app://` request goes: a file under the renderer folder, or a refusal status. */
export type AppRequestTarget = { ok: true; path: string; mimeType: string } | { ok: false; status: 400 | 404 };

/**
 * Maps an `app://renderer/…` URL to a file under `rootDir` (the built renderer folder), or
 * refuses it. Parsed with `new URL()`; every path segment is decoded on its own and refused when
 * it decodes to `.`, `..`, or holds a slash, a backslash or a NUL, so no spelling (`%2e%2e`,
 * `%2f`, `..%5c`) can leave the folder; the joined path is checked to lie inside it as well.
 * Another scheme or host, a malformed escape, or a path that leaves the folder → 404 / 400.
 */
export function resolveAppRequest(url: string, rootDir: string): AppRequestTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, status: 400 };
  }
  if (
    parsed.protocol !== `${APP_SCHEME}:` ||
    parsed.host.toLowerCase() !== APP_HOST ||
    parsed.username ||
    parsed.password ||
    parsed.port
  )
    return { ok: false, status: 404 };
  const segments: string[] = [];
  for (const raw of parsed.pathname.split('/')) {
    if (raw === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return { ok: false, status: 400 };
    }
    if (segment === '.' || segment === '..' || /[/\\\0]/.test(segment)) return { ok: false, status: 404 };
    segments.push(segment);
  }
  if (segments.length === 0) segments.push('index.html');
  const path = join(rootDir, ...segments);
  const inside = relative(rootDir, path);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return { ok: false, status: 404 };
  return { ok: true, path, mimeType: mimeTypeOf(path) };
}

/**
 * The headers of every `app://` response: its MIME type, no sniffing, and the CSP header, which
 * is where `frame-ancestors` belongs (browsers ignore it in a `<meta>`).
 */
export function appResponseHeaders(mimeType: string): Record<string, string> {
  return {
    'Content-Type': mimeType,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  };
}
