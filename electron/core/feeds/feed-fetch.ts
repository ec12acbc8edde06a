/**
 * Fetching from a publisher, bounded (DESIGN.md "Feeds, updates and install links": https only,
 * http only to a loopback address, no redirect to another origin, time and size limits, `ETag` /
 * `If-None-Match`). The fetch function itself is injected: Electron's `net.fetch` in the app (the
 * system's proxy and certificates), Node's `fetch` in the CLI. Every refusal is a {@link CoreError}
 * whose `path` is the address asked for, so a network failure names the feed it was reaching.
 */
import { CoreError } from '../errors';
import { FEED_TIMEOUT_MS, MAX_FEED_REDIRECTS } from './feed-format';

/** What core asks of the injected fetch: the WHATWG `fetch` subset both Node and Electron give. */
export type FeedFetch = (
  url: string,
  init: { method: 'GET'; headers: Record<string, string>; redirect: 'manual'; signal: AbortSignal },
) => Promise<Response>;

/** One bounded request: its address, its limits, and the `ETag` kept from the last answer. */
export interface BoundedRequest {
  url: string;
  maxBytes: number;
  timeoutMs?: number;
  /** The `ETag` of the copy kept; a `304 Not Modified` then answers `notModified`. */
  etag?: string | null;
}

/** A bounded answer: the body's bytes and its `ETag`, or that the copy kept is still current. */
export type BoundedAnswer =
  | { notModified: false; bytes: Uint8Array; etag: string | null; finalUrl: string }
  | { notModified: true; etag: string | null; finalUrl: string };

/** Whether `hostname` (as `URL` gives it) is a loopback address: 127.0.0.0/8, `::1` or `localhost`. */
export function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * The address parsed, when a feed or download may be fetched from it: `https:`, or `http:` to a
 * loopback host; no user name or password in it. Refused `feed.address_refused` otherwise.
 */
export function fetchableUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CoreError('feed.address_refused', `\`${text}\` is not an address`, { path: text });
  }
  if (url.username || url.password)
    throw new CoreError('feed.address_refused', `\`${text}\` carries a user name or password: refused`, {
      path: text,
    });
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url;
  throw new CoreError(
    'feed.address_refused',
    `\`${text}\` is refused: feeds and their archives are fetched over https only (http only to a loopback address)`,
    { path: text },
  );
}

async function readBounded(response: Response, url: string, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(url, maxBytes);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(url, maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

const tooLarge = (url: string, maxBytes: number) =>
  new CoreError('feed.too_large', `\`${url}\` answered more than ${maxBytes} bytes: refused`, { path: url });

/** A fetch failure in words: a timeout, or what the network said. */
function networkRefusal(error: unknown, url: string, timeoutMs: number): CoreError {
  if (error instanceof CoreError) return error;
  const name = (error as { name?: string } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError')
    return new CoreError('feed.timeout', `\`${url}\` did not answer in full within ${timeoutMs / 1000} s`, {
      path: url,
    });
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
  const why = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  return new CoreError('feed.network', `\`${url}\` could not be reached: ${why}`, { path: url });
}

/**
 * GETs `request.url` through `fetch`, following at most {@link MAX_FEED_REDIRECTS} redirects that
 * stay on the same origin (a redirect elsewhere is `feed.redirect_elsewhere`), within the time
 * limit (`feed.timeout`, the body included) and the size limit (`feed.too_large`). An answer other
 * than 200 (or 304 to an `If-None-Match`) is `feed.network`.
 */
export async function boundedGet(fetch: FeedFetch, request: BoundedRequest): Promise<BoundedAnswer> {
  const timeoutMs = request.timeoutMs ?? FEED_TIMEOUT_MS;
  const origin = fetchableUrl(request.url).origin;
  const signal = AbortSignal.timeout(timeoutMs);
  let current = request.url;
  try {
    for (let hop = 0; hop <= MAX_FEED_REDIRECTS; hop++) {
      const headers: Record<string, string> = { accept: 'application/json, application/octet-stream' };
      if (request.etag) headers['if-none-match'] = request.etag;
      const response = await fetch(current, { method: 'GET', headers, redirect: 'manual', signal });
      const etag = response.headers.get('etag');
      if (response.status >= 300 && response.status < 400 && response.status !== 304) {
        await response.body?.cancel().catch(() => undefined);
        const location = response.headers.get('location');
        const next = location ? new URL(location, current) : null;
        if (!next || next.origin !== origin)
          throw new CoreError(
            'feed.redirect_elsewhere',
            `\`${current}\` redirects to ${next ? `\`${next.href}\`` : 'nowhere'}: a feed and its archives never leave ${origin}`,
            { path: request.url },
          );
        current = fetchableUrl(next.href).href;
        continue;
      }
      if (response.status === 304 && request.etag) {
        await response.body?.cancel().catch(() => undefined);
        return { notModified: true, etag: etag ?? request.etag, finalUrl: current };
      }
      if (response.status !== 200) {
        await response.body?.cancel().catch(() => undefined);
        throw new CoreError('feed.network', `\`${current}\` answered ${response.status}`, { path: request.url });
      }
      const bytes = await readBounded(response, request.url, request.maxBytes);
      return { notModified: false, bytes, etag, finalUrl: current };
    }
  } catch (error) {
    throw networkRefusal(error, request.url, timeoutMs);
  }
  throw new CoreError('feed.redirect_elsewhere', `\`${request.url}\` redirects more than ${MAX_FEED_REDIRECTS} times`, {
    path: request.url,
  });
}
