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
 */
export const CONTENT_SECURITY_POLICY = ["default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"].join('; ');

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

/** Adds the app's CSP to a response's headers, replacing any policy the response carried. */
export function withCspHeader(headers: Record<string, string[]> | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() !== 'content-security-policy') out[name] = value;
  }
  out['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY];
  return out;
}
