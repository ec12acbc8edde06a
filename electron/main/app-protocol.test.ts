import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_INDEX_URL, appResponseHeaders, mimeTypeOf, resolveAppRequest } from './app-protocol';
import { CONTENT_SECURITY_POLICY } from './csp';

const ROOT = '/opt/Apollia Desktop/resources/app.asar/out/renderer';

describe('resolveAppRequest (app:// → a file under out/renderer)', () => {
  it('serves the page and its assets from the renderer folder, with their MIME types', () => {
    expect(resolveAppRequest(APP_INDEX_URL, ROOT)).toEqual({
      ok: true,
      path: join(ROOT, 'index.html'),
      mimeType: 'text/html; charset=utf-8',
    });
    expect(resolveAppRequest('app://renderer/', ROOT)).toEqual({
      ok: true,
      path: join(ROOT, 'index.html'),
      mimeType: 'text/html; charset=utf-8',
    });
    expect(resolveAppRequest('app://renderer/assets/index-CCRY9W03.js?v=1#x', ROOT)).toEqual({
      ok: true,
      path: join(ROOT, 'assets/index-CCRY9W03.js'),
      mimeType: 'text/javascript; charset=utf-8',
    });
    expect(resolveAppRequest('app://RENDERER/assets/a%20b.css', ROOT)).toEqual({
      ok: true,
      path: join(ROOT, 'assets/a b.css'),
      mimeType: 'text/css; charset=utf-8',
    });
  });

  it('cannot leave the folder, however the path is spelled', () => {
    for (const url of [
      'app://renderer/../../../../etc/passwd',
      'app://renderer/assets/../../secret',
      'app://renderer/%2e%2e/%2e%2e/etc/passwd',
      'app://renderer/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
      'app://renderer/assets%2F..%2F..%2Fx',
      'app://renderer/..%5C..%5Cwindows%5Cwin.ini',
      'app://renderer/a%00.html',
      'app://renderer/.',
    ]) {
      const target = resolveAppRequest(url, ROOT);
      if (target.ok) expect(target.path.startsWith(`${ROOT}/`), url).toBe(true);
      else expect(target.status, url).toBe(404);
    }
    expect(resolveAppRequest('app://renderer/%2e%2e/%2e%2e/etc/passwd', ROOT)).toEqual({
      ok: true,
      path: '/opt/Apollia Desktop/resources/app.asar/out/renderer/etc/passwd',
      mimeType: 'application/octet-stream',
    });
    expect(resolveAppRequest('app://renderer/assets%2F..%2F..%2Fx', ROOT)).toEqual({ ok: false, status: 404 });
    expect(resolveAppRequest('app://renderer/..%5C..%5Cwin.ini', ROOT)).toEqual({ ok: false, status: 404 });
  });

  it('serves only its own host and scheme', () => {
    expect(resolveAppRequest('app://other/index.html', ROOT)).toEqual({ ok: false, status: 404 });
    expect(resolveAppRequest('app://renderer:81/index.html', ROOT)).toEqual({ ok: false, status: 404 });
    expect(resolveAppRequest('app://u:p@renderer/index.html', ROOT)).toEqual({ ok: false, status: 404 });
    expect(resolveAppRequest('file:///etc/passwd', ROOT)).toEqual({ ok: false, status: 404 });
    expect(resolveAppRequest('app://renderer/%E0%A4%A.js', ROOT)).toEqual({ ok: false, status: 400 });
    expect(resolveAppRequest('not a url', ROOT)).toEqual({ ok: false, status: 400 });
  });
});

describe('app:// responses', () => {
  it('name their MIME type, refuse sniffing and carry the CSP header with frame-ancestors', () => {
    expect(mimeTypeOf('x.SVG')).toBe('image/svg+xml');
    expect(mimeTypeOf('fonts/x.woff2')).toBe('font/woff2');
    expect(mimeTypeOf('no-extension')).toBe('application/octet-stream');
    expect(appResponseHeaders('text/html; charset=utf-8')).toEqual({
      'Content-Type': 'text/html; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    });
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
  });
});
