import { describe, expect, it } from 'vitest';
import {
  isAllowedNavigation,
  isAppUrl,
  isTrustedSender,
  resolveAppLocation,
  windowOpenDecision,
  type AppLocation,
} from './app-location';

const built: AppLocation = { kind: 'app', indexUrl: 'app://renderer/index.html' };
const dev: AppLocation = { kind: 'dev', origin: 'http://localhost:5173' };
const top = (url: string) => ({ url, parent: null });

describe('resolveAppLocation', () => {
  it('uses the dev server only when it is an http(s) URL', () => {
    expect(resolveAppLocation('http://localhost:5173/', 'app://renderer/index.html')).toEqual({
      kind: 'dev',
      origin: 'http://localhost:5173',
    });
    expect(resolveAppLocation(undefined, 'app://renderer/index.html')).toEqual({
      kind: 'app',
      indexUrl: 'app://renderer/index.html',
    });
    expect(resolveAppLocation('javascript:alert(1)', 'app://renderer/index.html')).toEqual({
      kind: 'app',
      indexUrl: 'app://renderer/index.html',
    });
  });
});

describe('isTrustedSender', () => {
  it('accepts the built index.html on app://, with or without a hash or query', () => {
    expect(isTrustedSender(top(built.indexUrl), built)).toBe(true);
    expect(isTrustedSender(top(`${built.indexUrl}#/dashboard`), built)).toBe(true);
    expect(isTrustedSender(top('app://renderer/index.html?x=1'), built)).toBe(true);
    expect(isTrustedSender(top('APP://RENDERER/index.html'), built)).toBe(true); // scheme and host are case-insensitive
  });

  it('refuses any file:// page, even the renderer folder on disk', () => {
    expect(isTrustedSender(top('file:///other.html'), built)).toBe(false);
    expect(
      isTrustedSender(top('file:///opt/Apollia%20Desktop/resources/app.asar/out/renderer/index.html'), built),
    ).toBe(false);
    expect(isTrustedSender(top('file://renderer/index.html'), built)).toBe(false);
    expect(
      isTrustedSender(top('file:///app/out/renderer/index.html'), {
        kind: 'app',
        indexUrl: 'file:///app/out/renderer/index.html',
      }),
    ).toBe(false);
  });

  it('refuses another app:// page, host, port or user', () => {
    expect(isTrustedSender(top('app://renderer/index.html.evil'), built)).toBe(false);
    expect(isTrustedSender(top('app://renderer/assets/index.html'), built)).toBe(false);
    expect(isTrustedSender(top('app://renderer.evil/index.html'), built)).toBe(false);
    expect(isTrustedSender(top('app://renderer:8080/index.html'), built)).toBe(false);
    expect(isTrustedSender(top('app://x@renderer/index.html'), built)).toBe(false);
    expect(isTrustedSender(top('app://other/index.html'), built)).toBe(false);
    expect(isTrustedSender(top('apps://renderer/index.html'), built)).toBe(false);
  });

  it('refuses about:blank, a foreign origin, a data: URL and garbage', () => {
    for (const app of [built, dev]) {
      expect(isTrustedSender(top('about:blank'), app)).toBe(false);
      expect(isTrustedSender(top('https://evil.example/index.html'), app)).toBe(false);
      expect(isTrustedSender(top('data:text/html,<p>x</p>'), app)).toBe(false);
      expect(isTrustedSender(top('not a url'), app)).toBe(false);
    }
  });

  it('refuses a null or missing frame', () => {
    expect(isTrustedSender(null, built)).toBe(false);
    expect(isTrustedSender(undefined, dev)).toBe(false);
  });

  it('refuses a child frame even at the app URL', () => {
    expect(isTrustedSender({ url: built.indexUrl, parent: { url: built.indexUrl } }, built)).toBe(false);
  });

  it('accepts the dev server origin only, not a look-alike host or another port', () => {
    expect(isTrustedSender(top('http://localhost:5173/'), dev)).toBe(true);
    expect(isTrustedSender(top('http://localhost:5173/index.html#x'), dev)).toBe(true);
    expect(isTrustedSender(top('http://localhost:5174/'), dev)).toBe(false);
    expect(isTrustedSender(top('http://localhost:5173.evil.example/'), dev)).toBe(false);
    expect(isTrustedSender(top('https://localhost:5173/'), dev)).toBe(false);
    expect(isTrustedSender(top('http://user@evil.example/?localhost:5173'), dev)).toBe(false);
    expect(isTrustedSender(top(built.indexUrl), dev)).toBe(false);
  });
});

describe('navigation and new windows', () => {
  it('allows only a reload of the app itself', () => {
    expect(isAllowedNavigation(built.indexUrl, built)).toBe(true);
    expect(isAllowedNavigation('https://example.com/', built)).toBe(false);
    expect(isAllowedNavigation('file:///etc/passwd', built)).toBe(false);
    expect(isAllowedNavigation('app://renderer/assets/x.svg', built)).toBe(false);
    expect(isAllowedNavigation('javascript:alert(1)', built)).toBe(false);
    expect(isAllowedNavigation('http://localhost:5173/', built)).toBe(false);
    expect(isAllowedNavigation('http://127.0.0.1:5173/', dev)).toBe(false);
  });

  it('denies every new window', () => {
    expect(windowOpenDecision()).toEqual({ action: 'deny' });
  });

  it('parses URLs instead of comparing prefixes', () => {
    expect(isAppUrl('app://renderer/index.html/../../../../etc/x', built)).toBe(false);
    expect(isAppUrl('app://renderer/x/../index.html', built)).toBe(true); // normalised by new URL() to the page itself
  });
});
