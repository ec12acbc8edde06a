import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CONTENT_SECURITY_POLICY,
  HEADER_ONLY_DIRECTIVES,
  META_CONTENT_SECURITY_POLICY,
  parseCsp,
  withCspHeader,
} from './csp';

const INDEX_HTML = new URL('../../renderer/index.html', import.meta.url);

/** The policy of the `<meta http-equiv="Content-Security-Policy">` in renderer/index.html. */
function metaPolicy(): string {
  const html = readFileSync(INDEX_HTML, 'utf8');
  const metas = [...html.matchAll(/<meta\b[^>]*>/gis)].map((m) => m[0]);
  const csp = metas.filter((tag) => /http-equiv\s*=\s*["']content-security-policy["']/i.test(tag));
  expect(csp, 'renderer/index.html must hold exactly one CSP <meta>').toHaveLength(1);
  const content = /content\s*=\s*"([^"]*)"/is.exec(csp[0] ?? '') ?? /content\s*=\s*'([^']*)'/is.exec(csp[0] ?? '');
  expect(content, 'the CSP <meta> must have a content attribute').not.toBeNull();
  return (content?.[1] ?? '').replace(/\s+/g, ' ').trim();
}

const REMOTE = /^(https?:|wss?:|\*|data:|blob:|filesystem:)|^[a-z0-9.-]+\.[a-z]{2,}/i;

function assertStrict(policy: string) {
  const d = parseCsp(policy);
  expect(d.get('default-src')).toEqual(["'self'"]);
  const script = d.get('script-src') ?? d.get('default-src') ?? [];
  expect(script).not.toContain("'unsafe-eval'");
  expect(script).not.toContain("'unsafe-inline'");
  expect(script).not.toContain("'wasm-unsafe-eval'");
  expect(script.filter((source) => REMOTE.test(source))).toEqual([]);
  for (const [name, sources] of d) {
    expect(sources, `${name} must not allow eval`).not.toContain("'unsafe-eval'");
    if (name !== 'img-src')
      expect(
        sources.filter((source) => REMOTE.test(source)),
        `${name} allows a remote source`,
      ).toEqual([]);
  }
  expect(d.get('object-src')).toEqual(["'none'"]);
  expect(d.get('base-uri')).toEqual(["'none'"]);
  expect(d.get('form-action')).toEqual(["'none'"]);
  expect(d.get('connect-src')).toEqual(["'self'"]);
  expect((d.get('img-src') ?? []).filter((source) => /^(https?:|\*)/i.test(source))).toEqual([]);
}

describe('the renderer CSP', () => {
  it('in renderer/index.html is strict', () => {
    assertStrict(metaPolicy());
  });

  it('sent as a header by main is strict', () => {
    assertStrict(CONTENT_SECURITY_POLICY);
  });

  it('is the same policy in the header and in the <meta>, except what only a header can say', () => {
    expect([...parseCsp(metaPolicy())].sort()).toEqual([...parseCsp(META_CONTENT_SECURITY_POLICY)].sort());
    const header = parseCsp(CONTENT_SECURITY_POLICY);
    for (const name of HEADER_ONLY_DIRECTIVES) header.delete(name);
    expect([...parseCsp(metaPolicy())].sort()).toEqual([...header].sort());
  });

  it('leaves frame-ancestors out of the <meta> (browsers ignore it there) and sends it as a header', () => {
    for (const name of HEADER_ONLY_DIRECTIVES) expect(parseCsp(metaPolicy()).has(name), name).toBe(false);
    expect(parseCsp(CONTENT_SECURITY_POLICY).get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('replaces any policy a response carried', () => {
    const headers = withCspHeader({ 'content-security-policy': ['default-src *'], 'Content-Type': ['text/html'] });
    expect(headers).toEqual({ 'Content-Type': ['text/html'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] });
  });

  it('would catch a loosened policy', () => {
    expect(() =>
      assertStrict(
        "default-src 'self'; script-src 'self' 'unsafe-eval'; object-src 'none'; base-uri 'none'; form-action 'none'; connect-src 'self'",
      ),
    ).toThrow();
    expect(() =>
      assertStrict(
        "default-src 'self'; script-src 'self' https://cdn.example; object-src 'none'; base-uri 'none'; form-action 'none'; connect-src 'self'",
      ),
    ).toThrow();
    expect(() =>
      assertStrict("default-src 'self'; script-src 'self'; base-uri 'none'; form-action 'none'; connect-src 'self'"),
    ).toThrow();
  });
});
