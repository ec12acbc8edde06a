import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AppLocation } from './app-location';
import { ALLOWED_PERMISSION, isAppOrigin, permissionCheckHandler, permissionRequestHandler } from './permissions';

const app: AppLocation = { kind: 'app', indexUrl: 'app://renderer/index.html' };
const dev: AppLocation = { kind: 'dev', origin: 'http://localhost:5173' };

/**
 * Every permission name Electron 45 may pass the check handler, read from its own type declarations (never
 * `require('electron')`).
 */
const ELECTRON_PERMISSIONS: string[] = (() => {
  const declarations = readFileSync(new URL('../../node_modules/electron/electron.d.ts', import.meta.url), 'utf8');
  const signature = declarations.match(
    /setPermissionCheckHandler\(handler: \(\(webContents: \(WebContents\) \| \(null\), permission: ([^,]+(?:, |[^,])*?), requestingOrigin/,
  );
  if (!signature?.[1]) throw new Error('setPermissionCheckHandler not found in electron.d.ts');
  return [...signature[1].matchAll(/'([^']+)'/g)].map((m) => m[1] as string);
})();

const fakeContents = { id: 1 };

/** What Electron's request handler call looks like; the answer its callback got. */
function request(
  location: AppLocation,
  permission: string,
  details: { isMainFrame: boolean; requestingUrl?: string } | undefined,
): boolean[] {
  const answers: boolean[] = [];
  permissionRequestHandler(location)(fakeContents, permission, (granted) => answers.push(granted), details);
  return answers;
}

describe('permission handlers', () => {
  it('reads the permission names from Electron', () => {
    expect(ELECTRON_PERMISSIONS).toContain(ALLOWED_PERMISSION);
    expect(ELECTRON_PERMISSIONS).toContain('clipboard-read');
    expect(ELECTRON_PERMISSIONS.length).toBeGreaterThan(30);
  });

  it('grants clipboard-sanitized-write to the app page, top-level, as request and as check', () => {
    expect(request(app, ALLOWED_PERMISSION, { isMainFrame: true, requestingUrl: 'app://renderer/index.html' })).toEqual(
      [true],
    );
    expect(
      permissionCheckHandler(app)(fakeContents, ALLOWED_PERMISSION, 'app://renderer', {
        isMainFrame: true,
        requestingUrl: 'app://renderer/index.html',
      }),
    ).toBe(true);
    // A hash or query on the page is still the page.
    expect(
      request(app, ALLOWED_PERMISSION, { isMainFrame: true, requestingUrl: 'app://renderer/index.html#/settings' }),
    ).toEqual([true]);
  });

  it('grants it to the dev server page at its exact origin', () => {
    expect(request(dev, ALLOWED_PERMISSION, { isMainFrame: true, requestingUrl: 'http://localhost:5173/' })).toEqual([
      true,
    ]);
    expect(
      permissionCheckHandler(dev)(fakeContents, ALLOWED_PERMISSION, 'http://localhost:5173', {
        isMainFrame: true,
        requestingUrl: 'http://localhost:5173/',
      }),
    ).toBe(true);
    expect(
      permissionCheckHandler(dev)(fakeContents, ALLOWED_PERMISSION, 'http://localhost:5174', {
        isMainFrame: true,
        requestingUrl: 'http://localhost:5174/',
      }),
    ).toBe(false);
  });

  it.each(ELECTRON_PERMISSIONS.filter((p) => p !== ALLOWED_PERMISSION))(
    'refuses %s even to the app page',
    (permission) => {
      const details = { isMainFrame: true, requestingUrl: 'app://renderer/index.html' };
      expect(request(app, permission, details)).toEqual([false]);
      expect(permissionCheckHandler(app)(fakeContents, permission, 'app://renderer', details)).toBe(false);
    },
  );

  it.each([
    ['another origin', 'https://evil.example', 'https://evil.example/'],
    ['a file:// page', 'file://', 'file:///opt/Apollia/resources/app.asar/out/renderer/index.html'],
    ['another app:// host', 'app://renderer.evil', 'app://renderer.evil/index.html'],
    ['another page of the app scheme', 'app://renderer', 'app://renderer/other.html'],
    ['about:blank', 'null', 'about:blank'],
    ['a data: page', 'null', 'data:text/html,<p>hi</p>'],
  ])('refuses the clipboard to %s', (_name, origin, url) => {
    expect(request(app, ALLOWED_PERMISSION, { isMainFrame: true, requestingUrl: url })).toEqual([false]);
    expect(
      permissionCheckHandler(app)(fakeContents, ALLOWED_PERMISSION, origin, { isMainFrame: true, requestingUrl: url }),
    ).toBe(false);
  });

  it('refuses the clipboard to an iframe of the app page', () => {
    expect(
      request(app, ALLOWED_PERMISSION, { isMainFrame: false, requestingUrl: 'app://renderer/index.html' }),
    ).toEqual([false]);
    expect(
      permissionCheckHandler(app)(fakeContents, ALLOWED_PERMISSION, 'app://renderer', {
        isMainFrame: false,
        requestingUrl: 'app://renderer/index.html',
      }),
    ).toBe(false);
    expect(
      permissionCheckHandler(app)(fakeContents, ALLOWED_PERMISSION, 'app://renderer', {
        isMainFrame: true,
        requestingUrl: 'app://renderer/index.html',
        embeddingOrigin: 'https://evil.example',
      }),
    ).toBe(false);
  });

  it('refuses a check made for no document, or whose origin and URL disagree', () => {
    expect(
      permissionCheckHandler(app)(null, ALLOWED_PERMISSION, 'app://renderer', {
        isMainFrame: true,
        requestingUrl: 'app://renderer/index.html',
      }),
    ).toBe(false);
    expect(permissionCheckHandler(app)(fakeContents, ALLOWED_PERMISSION, 'app://renderer', { isMainFrame: true })).toBe(
      false,
    );
    expect(
      permissionCheckHandler(app)(fakeContents, ALLOWED_PERMISSION, 'https://evil.example', {
        isMainFrame: true,
        requestingUrl: 'app://renderer/index.html',
      }),
    ).toBe(false);
    expect(permissionCheckHandler(app)(fakeContents, ALLOWED_PERMISSION, 'app://renderer', undefined)).toBe(false);
    expect(request(app, ALLOWED_PERMISSION, undefined)).toEqual([false]);
  });

  it('compares origins parsed, not as text', () => {
    expect(isAppOrigin('app://renderer', app)).toBe(true);
    expect(isAppOrigin('app://RENDERER', app)).toBe(true);
    expect(isAppOrigin('app://renderer:8080', app)).toBe(false);
    expect(isAppOrigin('app://renderer.evil', app)).toBe(false);
    expect(isAppOrigin('app://user@renderer', app)).toBe(false);
    expect(isAppOrigin('null', app)).toBe(false);
    expect(isAppOrigin('http://localhost:5173', dev)).toBe(true);
    expect(isAppOrigin('http://localhost:5173.evil.com', dev)).toBe(false);
  });
});
