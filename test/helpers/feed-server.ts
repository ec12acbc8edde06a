/**
 * Test helper: a publisher's feed served by a real HTTP server on 127.0.0.1, signed by the real
 * `minisign` (test/helpers/minisign-tool.ts), so the feed tests exercise real sockets, real
 * redirects and real signatures, not mocks of `fetch`.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { minisignSign, type MinisignKeyPair } from './minisign-tool';

/** A route's answer: bytes with headers, or a handler of its own (a redirect, a slow body). */
export type Route =
  | { body: Uint8Array | string; headers?: Record<string, string>; status?: number }
  | ((req: IncomingMessage, res: ServerResponse) => void);

/** A loopback server whose routes a test sets and changes. */
export interface FeedServer {
  origin: string;
  routes: Map<string, Route>;
  /** Every request path seen, in order, with its `If-None-Match`. */
  seen: { path: string; ifNoneMatch: string | null }[];
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 (a free port); unknown paths answer 404. */
export async function startFeedServer(): Promise<FeedServer> {
  const routes = new Map<string, Route>();
  const seen: FeedServer['seen'] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const header = req.headers['if-none-match'];
    seen.push({ path, ifNoneMatch: typeof header === 'string' ? header : null });
    const route = routes.get(path);
    if (!route) {
      res.writeHead(404).end('not found');
      return;
    }
    if (typeof route === 'function') {
      route(req, res);
      return;
    }
    const body = typeof route.body === 'string' ? Buffer.from(route.body) : Buffer.from(route.body);
    const etag = route.headers?.['etag'];
    if (etag && header === etag) {
      res.writeHead(304, { etag }).end();
      return;
    }
    res.writeHead(route.status ?? 200, { 'content-length': String(body.length), ...route.headers }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    routes,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One version a test feed lists, with its archive's bytes (the SHA-256 and size are computed). */
export interface FeedArchive {
  name: string;
  version: string;
  bytes: Uint8Array;
  status?: 'active' | 'deprecated' | 'yanked';
  reason?: string;
}

/** What a feed document says, before it is written and signed. */
export interface FeedDocumentOptions {
  url: string;
  serial: number;
  expires?: string;
  publisher?: string;
  archives: readonly FeedArchive[];
  /** Changes the document after it is built (an unknown key, a wrong hash). */
  edit?: (document: Record<string, unknown>) => void;
}

/** The feed document for `options`, each archive listed at `<name>-<version>.apo`. */
export function feedDocument(options: FeedDocumentOptions): Record<string, unknown> {
  const packages: Record<string, { versions: Record<string, unknown>[] }> = {};
  for (const archive of options.archives) {
    const entry = (packages[archive.name] ??= { versions: [] });
    entry.versions.push({
      version: archive.version,
      url: `${archive.name}-${archive.version}.apo`,
      sha256: createHash('sha256').update(archive.bytes).digest('hex'),
      size: archive.bytes.byteLength,
      status: archive.status ?? 'active',
      ...(archive.status === 'yanked' ? { reason: archive.reason ?? 'withdrawn' } : {}),
    });
  }
  const document: Record<string, unknown> = {
    apolliaFeed: 1,
    url: options.url,
    publisher: options.publisher ?? 'Example Accounting',
    serial: options.serial,
    expires: options.expires ?? new Date(Date.now() + 86_400_000).toISOString(),
    packages,
  };
  options.edit?.(document);
  return document;
}

/**
 * Writes the feed for `options` into `dir`, signs it with `keys` by `minisign -S`, and serves
 * `feed.json`, `feed.json.minisig` and each archive at `path` on `server`.
 */
export function publishFeed(
  server: FeedServer,
  dir: string,
  keys: MinisignKeyPair,
  options: Omit<FeedDocumentOptions, 'url'> & { url?: string; path?: string; etag?: string },
): { url: string; bytes: Buffer } {
  const path = options.path ?? '/feed.json';
  const url = options.url ?? `${server.origin}${path}`;
  const bytes = Buffer.from(JSON.stringify(feedDocument({ ...options, url }), null, 2));
  const file = join(dir, `feed-${options.serial}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, bytes);
  const signature = minisignSign(keys, file, { trustedComment: `feed serial ${options.serial}` });
  const base = path.slice(0, path.lastIndexOf('/') + 1);
  server.routes.set(path, { body: bytes, headers: options.etag ? { etag: options.etag } : {} });
  server.routes.set(`${path}.minisig`, { body: signature });
  for (const archive of options.archives)
    server.routes.set(`${base}${archive.name}-${archive.version}.apo`, { body: archive.bytes });
  return { url: `${server.origin}${path}`, bytes };
}
