/**
 * The Content Security Policy of the renderer (DESIGN.md "Security of the app itself"; Electron
 * security checklist item 7). Main sends it as a response header (the `app://` handler, and every
 * response of the session: the dev server); `renderer/index.html` carries the same policy in its
 * `<meta>` minus the directives browsers ignore there (`frame-ancestors`: header only), and
 * `csp.test.ts` checks that the two agree and that neither is loosened.
 *
 * Only the app's own scripts run: no `unsafe-eval`, no inline script, no remote origin. Package
 * text is rendered as text, so nothing from a package can add a script, a frame or an object.
 * `connect-src 'self'` lets the e2e harness's bridge reach its same-origin server; in the app the
 * renderer talks to main over IPC only.
 *
 * `npm run dev` only: the React plugin injects one inline module script (Fast Refresh's preamble),
 * which `script-src 'self'` blocks, and Vite serves imported CSS as `<style>` elements. In
 * development the dev server's page pins each inline script by its hash in the `<meta>` and allows
 * inline styles ({@link withInlineScriptHashes}, a `serve`-only plugin of electron.vite.config.mts);
 * main's header for the dev server allows both, so the pair admits exactly the hashed scripts. The
 * built app's policy is never touched.
 */
import { createHash } from 'node:crypto';

/** The app's policy: the header of every response, and (minus header-only directives) the page's `<meta>`. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The header main sends for the electron-vite dev server's page only (`npm run dev`): the app's
 * policy with inline scripts allowed, which the page's `<meta>` then narrows to the hashes of its
 * own inline scripts (both policies are enforced).
 */
export const DEV_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace(
  "script-src 'self'",
  "script-src 'self' 'unsafe-inline'",
).replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");

/**
 * Development only: adds the SHA-256 of each inline `<script>` of `html` to its CSP `<meta>`'s
 * `script-src`, so the dev server's injected preamble runs and no other inline script does, and
 * allows the `<style>` elements Vite's dev server injects for imported CSS.
 */
export function withInlineScriptHashes(html: string): string {
  const hashes = [...html.matchAll(/<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi)].map(
    (m) =>
      `'sha256-${createHash('sha256')
        .update(m[1] ?? '', 'utf8')
        .digest('base64')}'`,
  );
  if (hashes.length === 0) return html;
  return html.replace(
    /(<meta\b[^>]*http-equiv\s*=\s*["']Content-Security-Policy["'][^>]*content\s*=\s*")([^"]*)(")/i,
    (_all, before: string, policy: string, after: string) =>
      `${before}${policy.replace("script-src 'self'", `script-src 'self' ${hashes.join(' ')}`).replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")}${after}`,
  );
}

/** Directives a browser ignores in a `<meta>` policy (CSP 3 §"meta"): they work only as a header. */
export const HEADER_ONLY_DIRECTIVES: readonly string[] = ['frame-ancestors', 'report-uri', 'sandbox'];

/** The policy `renderer/index.html`'s `<meta>` carries: the header's, without the header-only directives. */
export const META_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.split('; ')
  .filter((directive) => !HEADER_ONLY_DIRECTIVES.includes(directive.split(' ')[0] as string))
  .join('; ');

/** A policy split into its directives: name → sources, in order (names lower-cased). */
export function parseCsp(policy: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const tokens = part.trim().split(/\s+/).filter(Boolean);
    const [name, ...sources] = tokens;
    if (!name) continue;
    const key = name.toLowerCase();
    // CSP: the first occurrence of a directive wins; later duplicates are ignored.
    if (!directives.has(key)) directives.set(key, sources);
  }
  return directives;
}

/** Adds the app's CSP (or `policy`) to a response's headers, replacing any policy the response carried. */
export function withCspHeader(
  headers: Record<string, string[]> | undefined,
  policy: string = CONTENT_SECURITY_POLICY,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() !== 'content-security-policy') out[name] = value;
  }
  out['Content-Security-Policy'] = [policy];
  return out;
}
