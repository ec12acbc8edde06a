/**
 * The Content Security Policy of the renderer (DESIGN.md "Security of the app itself"; Electron
 * security checklist item 7). `renderer/index.html` carries the same policy in its `<meta>`; main
 * also sends it as a response header (where Chromium consults headers: the dev server), and
 * `csp.test.ts` checks that the two agree and that neither is loosened.
 *
 * Only the app's own scripts run: no `unsafe-eval`, no inline script, no remote origin. Package
 * text is rendered as text, so nothing from a package can add a script, a frame or an object.
 * `connect-src 'self'` lets the e2e harness's bridge reach its same-origin server; in the app the
 * renderer talks to main over IPC only.
 */
export const CONTENT_SECURITY_POLICY = ["default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"].join('; ');

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
