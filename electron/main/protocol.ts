/**
 * Electron glue for the `app://` scheme (decisions in `app-protocol.ts`, unit-tested): registered
 * as privileged before `ready`, then served from the built renderer folder only.
 */
import { protocol } from 'electron';
import { readFile } from 'node:fs/promises';
import { APP_SCHEME, appResponseHeaders, resolveAppRequest } from './app-protocol';

/** Registers `app:` as a standard, secure scheme; must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/** Serves `app://renderer/…` from `rootDir` (out/renderer), and nothing else. */
export function serveAppScheme(rootDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const target = resolveAppRequest(request.url, rootDir);
    if (!target.ok) return new Response(null, { status: target.status });
    try {
      return new Response(await readFile(target.path), { status: 200, headers: appResponseHeaders(target.mimeType) });
    } catch {
      return new Response(null, { status: 404 });
    }
  });
}
