/**
 * `npm run dev` works under the app's CSP: the React plugin's inline preamble is pinned by its hash
 * in the dev page's `<meta>`, nothing else inline is admitted, and the built page keeps the strict
 * policy. Runs the real Vite dev transform of renderer/index.html with the renderer's plugins.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { createServer, type Plugin } from 'vite';
import { describe, expect, it } from 'vitest';
import {
  CONTENT_SECURITY_POLICY,
  DEV_CONTENT_SECURITY_POLICY,
  parseCsp,
  withInlineScriptHashes,
} from '../electron/main/csp';

const ROOT = new URL('../renderer/', import.meta.url).pathname;
const hashOf = (code: string) => `'sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}'`;
const metaPolicy = (html: string) => /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i.exec(html)?.[1] ?? '';

describe('the dev server page (npm run dev)', () => {
  it('pins the React preamble by hash in its <meta>, and only the inline scripts it holds', async () => {
    const pin: Plugin = {
      name: 'pin',
      apply: 'serve',
      transformIndexHtml: { order: 'post', handler: (html) => withInlineScriptHashes(html) },
    };
    const server = await createServer({
      root: ROOT,
      configFile: false,
      logLevel: 'silent',
      server: { middlewareMode: true, ws: false },
      plugins: [react(), pin],
    });
    try {
      const html = await server.transformIndexHtml('/index.html', readFileSync(`${ROOT}index.html`, 'utf8'));
      const inline = [...html.matchAll(/<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi)].map(
        (m) => m[1] as string,
      );
      expect(inline.length).toBeGreaterThan(0);
      expect(inline.join('\n')).toContain('injectIntoGlobalHook');
      const scriptSrc = parseCsp(metaPolicy(html)).get('script-src') ?? [];
      expect(scriptSrc).toEqual(["'self'", ...inline.map(hashOf)]);
      expect(scriptSrc).not.toContain("'unsafe-inline'");
      // Vite's dev server injects imported CSS as <style> elements.
      expect(parseCsp(metaPolicy(html)).get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    } finally {
      await server.close();
    }
  });

  it('gets a header that differs from the app’s only by allowing inline scripts (the <meta> narrows them to the hashes) and styles', () => {
    const dev = parseCsp(DEV_CONTENT_SECURITY_POLICY);
    const strict = parseCsp(CONTENT_SECURITY_POLICY);
    expect(dev.get('script-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(dev.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    for (const name of ['script-src', 'style-src']) {
      dev.delete(name);
      strict.delete(name);
    }
    expect([...dev]).toEqual([...strict]);
  });

  it('leaves a page without inline scripts as it is (the built page)', () => {
    const built = readFileSync(`${ROOT}index.html`, 'utf8');
    expect(withInlineScriptHashes(built)).toBe(built);
  });
});
