/**
 * Reading a publisher's feed (DESIGN.md "Feeds, updates and install links"): `feed.json` and
 * `feed.json.minisig` fetched bounded, the signature verified over the exact bytes before anything
 * in them is believed, then the checks in order: strict schema, its `url` is the address it was
 * fetched from, its `serial` is not below the highest seen, it has not expired.
 */
import { validateFeed } from '../generated/feed-validator';
import { CoreError } from '../errors';
import { readStrictJson } from '../plugin/strict-json';
import {
  MAX_SIGNATURE_FILE_BYTES,
  parseSignature,
  verifyBytes,
  type MinisignPublicKey,
  type MinisignSignature,
} from '../trust';
import { boundedGet, fetchableUrl, type FeedFetch } from './feed-fetch';
import { MAX_FEED_BYTES, type Feed } from './feed-format';

/** What reading a feed needs: the fetch, the keys it may be signed by, and what was seen before. */
export interface FeedReadRequest {
  url: string;
  fetch: FeedFetch;
  /**
   * The keys the feed may be signed by: the key pinned for the packages it serves, or the person's
   * trusted keys for a feed not yet followed. The signature names one by id; another key is refused.
   */
  keys: readonly MinisignPublicKey[];
  /** The highest `serial` seen from this feed (kept in the store); null for a first read. */
  highestSerial: number | null;
  /** The `ETag` of the copy kept, with that copy's bytes and signature, for `If-None-Match`. */
  cached?: { etag: string; bytes: Uint8Array; signature: string } | null;
  now: Date;
  timeoutMs?: number;
}

/** A feed read and verified: what it says, the key that signed it, and what to keep of it. */
export interface VerifiedFeed {
  feed: Feed;
  key: MinisignPublicKey;
  /** The exact bytes verified and their signature's text, kept for the next `If-None-Match`. */
  bytes: Uint8Array;
  signature: string;
  etag: string | null;
  /** Whether the server answered `304 Not Modified` (the kept copy was verified again). */
  notModified: boolean;
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The address of a feed's signature: `feed.json.minisig` beside it (query and fragment dropped). */
export function signatureUrlOf(feedUrl: string): string {
  const url = fetchableUrl(feedUrl);
  url.search = '';
  url.hash = '';
  url.pathname = `${url.pathname}.minisig`;
  return url.href;
}

function verifiedBy(
  url: string,
  signatureText: string,
  bytes: Uint8Array,
  keys: readonly MinisignPublicKey[],
): MinisignPublicKey {
  const parsed = parseSignature(signatureText);
  if (!parsed.ok)
    throw new CoreError(
      'feed.signature_invalid',
      `the feed's signature is not a minisign signature: ${parsed.error.message}`,
      {
        path: url,
        problems: [parsed.error],
      },
    );
  const signature: MinisignSignature = parsed.value;
  const key = keys.find((candidate) => candidate.keyId === signature.keyId);
  if (!key)
    throw new CoreError(
      'feed.unknown_key',
      keys.length === 0
        ? `the feed is signed by key ${signature.keyId}, which you do not trust: add the publisher's key first (Settings → Trusted keys, or \`trust add\`)`
        : `the feed is signed by key ${signature.keyId}, not by ${keys.map((k) => k.keyId).join(' or ')}: only the key the packages are pinned to may update them`,
      { path: url },
    );
  const verdict = verifyBytes(signature, key, bytes);
  if (!verdict.ok)
    throw new CoreError('feed.signature_invalid', `the feed's signature does not hold: ${verdict.error.message}`, {
      path: url,
      problems: [verdict.error],
    });
  return key;
}

function parseFeed(url: string, bytes: Uint8Array): Feed {
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch {
    throw new CoreError('feed.malformed', 'the feed is not UTF-8 text', { path: url });
  }
  const json = readStrictJson(text);
  if (!json.ok)
    throw new CoreError(
      'feed.malformed',
      `the feed is not valid JSON: ${json.error.message} (line ${json.error.line}, column ${json.error.column})`,
      { path: url },
    );
  if (!validateFeed(json.value)) {
    const problems = (validateFeed.errors ?? []).slice(0, 5).map((error) => {
      const where = error.instancePath ? `\`${error.instancePath.slice(1).replaceAll('/', '.')}\`` : 'the feed';
      if (error.keyword === 'additionalProperties')
        return `${where} has the unknown key \`${String((error.params as { additionalProperty?: string }).additionalProperty)}\``;
      return `${where} ${error.message ?? 'is invalid'}`;
    });
    throw new CoreError(
      'feed.malformed',
      `the feed is not a feed this app reads: ${[...new Set(problems)].join('; ')}`,
      {
        path: url,
      },
    );
  }
  return json.value as unknown as Feed;
}

/** The checks after the signature: where it says it lives, that it never goes back, that it is fresh. */
function checkFeed(url: string, feed: Feed, request: FeedReadRequest): void {
  if (fetchableUrl(feed.url).href !== fetchableUrl(url).href)
    throw new CoreError(
      'feed.wrong_url',
      `the feed says it lives at \`${feed.url}\`, but it was fetched from \`${url}\`: a mirror cannot pass off another feed`,
      { path: url },
    );
  if (request.highestSerial !== null && feed.serial < request.highestSerial)
    throw new CoreError(
      'feed.serial_lower',
      `the feed's serial ${feed.serial} is lower than ${request.highestSerial}, already seen from it: an older feed is refused (it could hide an update or bring back a withdrawn version)`,
      { path: url },
    );
  const expires = Date.parse(feed.expires);
  if (!Number.isFinite(expires))
    throw new CoreError('feed.malformed', `the feed's \`expires\` (${feed.expires}) is not a date`, { path: url });
  if (expires <= request.now.getTime())
    throw new CoreError(
      'feed.expired',
      `the feed expired at ${feed.expires}: an expired feed is refused (its publisher has stopped renewing it, or it is being replayed)`,
      { path: url },
    );
}

/**
 * Fetches, verifies and checks the feed at `request.url`. Nothing of the feed is read before its
 * signature holds under one of `request.keys`. Refusals: the fetch's (`feed.network`,
 * `feed.timeout`, `feed.too_large`, `feed.redirect_elsewhere`, `feed.address_refused`), then
 * `feed.unknown_key`, `feed.signature_invalid`, `feed.malformed`, `feed.wrong_url`,
 * `feed.serial_lower`, `feed.expired`; each with `path` the feed's address.
 */
export async function readFeed(request: FeedReadRequest): Promise<VerifiedFeed> {
  const { url, fetch } = request;
  const etag = request.cached?.etag ?? null;
  const answer = await boundedGet(fetch, { url, maxBytes: MAX_FEED_BYTES, etag, timeoutMs: request.timeoutMs });
  let bytes: Uint8Array;
  let signature: string;
  if (answer.notModified && request.cached) {
    bytes = request.cached.bytes;
    signature = request.cached.signature;
  } else if (!answer.notModified) {
    bytes = answer.bytes;
    const signatureUrl = signatureUrlOf(url);
    const signed = await boundedGet(fetch, {
      url: signatureUrl,
      maxBytes: MAX_SIGNATURE_FILE_BYTES,
      timeoutMs: request.timeoutMs,
    }).catch((error: unknown) => {
      // A feed without its signature is refused as unsigned, and named by the feed's address.
      if (error instanceof CoreError)
        throw new CoreError(
          error.code === 'feed.network' ? 'feed.unsigned' : error.code,
          `the feed's signature (${signatureUrl}): ${error.message}`,
          { path: url },
        );
      throw error;
    });
    if (signed.notModified) throw new Error('a request without If-None-Match answered not modified');
    try {
      signature = STRICT_UTF8.decode(signed.bytes);
    } catch {
      throw new CoreError('feed.signature_invalid', "the feed's signature is not text", { path: url });
    }
  } else throw new Error('a 304 answered without a kept copy');
  const key = verifiedBy(url, signature, bytes, request.keys);
  const feed = parseFeed(url, bytes);
  checkFeed(url, feed, request);
  return { feed, key, bytes, signature, etag: answer.etag, notModified: answer.notModified };
}
