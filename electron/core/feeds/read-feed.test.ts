/**
 * Reading a feed (DESIGN.md "Feeds, updates and install links") against a real HTTP server on
 * loopback, the feed signed by the real `minisign`: a good feed is read, and every refusal the
 * contract names is refused with its code and the feed's address as `path`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFeedServer, publishFeed, type FeedServer } from '../../../test/helpers/feed-server';
import { describeWithMinisign, minisignKeyPair, type MinisignKeyPair } from '../../../test/helpers/minisign-tool';
import { CoreError } from '../errors';
import { parsePublicKey, type MinisignPublicKey } from '../trust';
import { MAX_FEED_BYTES } from './feed-format';
import { readFeed, signatureUrlOf, type FeedReadRequest } from './read-feed';

const nodeFetch: FeedReadRequest['fetch'] = (url, init) => fetch(url, init);

let dir: string;
let server: FeedServer;
let publisher: MinisignKeyPair;
let stranger: MinisignKeyPair;
let publisherKey: MinisignPublicKey;
let strangerKey: MinisignPublicKey;

const archive = { name: 'invoices', version: '1.3.0', bytes: Buffer.from('an archive') };

async function refusal(request: Partial<FeedReadRequest> & { url: string }): Promise<CoreError> {
  try {
    await readFeed({ fetch: nodeFetch, keys: [publisherKey], highestSerial: null, now: new Date(), ...request });
  } catch (error) {
    if (error instanceof CoreError) return error;
    throw error;
  }
  throw new Error('the feed was read, not refused');
}

describeWithMinisign('readFeed', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'feed-read-'));
    server = await startFeedServer();
    publisher = minisignKeyPair(dir, 'publisher');
    stranger = minisignKeyPair(dir, 'stranger');
    const key = (pair: MinisignKeyPair) => {
      const parsed = parsePublicKey(readFileSync(pair.publicKeyPath));
      if (!parsed.ok) throw new Error(parsed.error.message);
      return parsed.value;
    };
    publisherKey = key(publisher);
    strangerKey = key(stranger);
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads a feed signed by the expected key, served where it says it lives', async () => {
    const { url, bytes } = publishFeed(server, dir, publisher, { serial: 42, archives: [archive] });
    const read = await readFeed({ url, fetch: nodeFetch, keys: [publisherKey], highestSerial: 41, now: new Date() });
    expect(read.feed.serial).toBe(42);
    expect(read.key.keyId).toBe(publisher.printedKeyId);
    expect(Buffer.from(read.bytes).equals(bytes)).toBe(true);
    expect(read.feed.packages['invoices']?.versions[0]?.size).toBe(archive.bytes.byteLength);
  });

  it('accepts the same serial again (a re-read), and sends If-None-Match with the kept ETag', async () => {
    const { url } = publishFeed(server, dir, publisher, { serial: 50, archives: [archive], etag: '"v50"' });
    const first = await readFeed({ url, fetch: nodeFetch, keys: [publisherKey], highestSerial: 50, now: new Date() });
    expect(first.etag).toBe('"v50"');
    server.seen.length = 0;
    const again = await readFeed({
      url,
      fetch: nodeFetch,
      keys: [publisherKey],
      highestSerial: 50,
      now: new Date(),
      cached: { etag: '"v50"', bytes: first.bytes, signature: first.signature },
    });
    expect(again.notModified).toBe(true);
    expect(again.feed.serial).toBe(50);
    expect(server.seen).toEqual([{ path: '/feed.json', ifNoneMatch: '"v50"' }]);
  });

  it('refuses a feed signed by another key', async () => {
    const { url } = publishFeed(server, dir, stranger, { serial: 60, archives: [archive] });
    const error = await refusal({ url });
    expect(error.code).toBe('feed.unknown_key');
    expect(error.message).toContain(stranger.printedKeyId);
    expect(error.extra.path).toBe(url);
    // The stranger's key, given, verifies it: the refusal was the key, not the file.
    await expect(
      readFeed({ url, fetch: nodeFetch, keys: [strangerKey], highestSerial: null, now: new Date() }),
    ).resolves.toBeTruthy();
  });

  it('refuses a feed whose bytes changed after signing', async () => {
    const { url, bytes } = publishFeed(server, dir, publisher, { serial: 61, archives: [archive] });
    server.routes.set('/feed.json', { body: Buffer.from(bytes.toString().replace('"serial": 61', '"serial": 99')) });
    const error = await refusal({ url });
    expect(error.code).toBe('feed.signature_invalid');
  });

  it('refuses a feed with no signature beside it', async () => {
    const { url } = publishFeed(server, dir, publisher, { serial: 62, archives: [archive] });
    server.routes.delete('/feed.json.minisig');
    const error = await refusal({ url });
    expect(error.code).toBe('feed.unsigned');
    expect(error.extra.path).toBe(url);
  });

  it('refuses a serial lower than the highest seen', async () => {
    const { url } = publishFeed(server, dir, publisher, { serial: 41, archives: [archive] });
    const error = await refusal({ url, highestSerial: 42 });
    expect(error.code).toBe('feed.serial_lower');
    expect(error.message).toContain('41');
    expect(error.message).toContain('42');
  });

  it('refuses an expired feed', async () => {
    const { url } = publishFeed(server, dir, publisher, {
      serial: 70,
      archives: [archive],
      expires: '2020-01-01T00:00:00Z',
    });
    const error = await refusal({ url });
    expect(error.code).toBe('feed.expired');
    expect(error.message).toContain('2020-01-01T00:00:00Z');
  });

  it('refuses a feed that says it lives elsewhere (a mirror passing off another feed)', async () => {
    const { url } = publishFeed(server, dir, publisher, {
      serial: 71,
      archives: [archive],
      url: 'https://example.com/apollia/feed.json',
    });
    const error = await refusal({ url });
    expect(error.code).toBe('feed.wrong_url');
    expect(error.message).toContain('https://example.com/apollia/feed.json');
  });

  it('refuses an unknown key in the feed (strict, as the manifest)', async () => {
    const { url } = publishFeed(server, dir, publisher, {
      serial: 72,
      archives: [archive],
      edit: (document) => {
        document['mirror'] = 'https://elsewhere.example';
      },
    });
    const error = await refusal({ url });
    expect(error.code).toBe('feed.malformed');
    expect(error.message).toContain('`mirror`');
  });

  it('refuses a yanked version without its reason', async () => {
    const { url } = publishFeed(server, dir, publisher, {
      serial: 73,
      archives: [archive],
      edit: (document) => {
        const versions = (document['packages'] as Record<string, { versions: Record<string, unknown>[] }>)['invoices']
          ?.versions as Record<string, unknown>[];
        (versions[0] as Record<string, unknown>)['status'] = 'yanked';
      },
    });
    expect((await refusal({ url })).code).toBe('feed.malformed');
  });

  it('refuses a huge feed without reading it whole', async () => {
    const huge = Buffer.alloc(MAX_FEED_BYTES + 10, 0x20);
    server.routes.set('/huge/feed.json', { body: huge });
    const error = await refusal({ url: `${server.origin}/huge/feed.json` });
    expect(error.code).toBe('feed.too_large');
    // No Content-Length: refused as it streams past.
    server.routes.set('/chunked/feed.json', (_req, res) => {
      res.writeHead(200);
      const piece = Buffer.alloc(64 * 1024, 0x20);
      for (let i = 0; i < 20; i++) res.write(piece);
      res.end();
    });
    expect((await refusal({ url: `${server.origin}/chunked/feed.json` })).code).toBe('feed.too_large');
  });

  it('refuses a redirect to another origin, and follows one on the same origin', async () => {
    const { url } = publishFeed(server, dir, publisher, { serial: 80, archives: [archive], path: '/real/feed.json' });
    server.routes.set('/moved/feed.json', (_req, res) => {
      res.writeHead(302, { location: url.replace('127.0.0.1', 'localhost') }).end();
    });
    const elsewhere = await refusal({ url: `${server.origin}/moved/feed.json` });
    expect(elsewhere.code).toBe('feed.redirect_elsewhere');
    expect(elsewhere.extra.path).toBe(`${server.origin}/moved/feed.json`);

    server.routes.set('/same/feed.json', (_req, res) => {
      res.writeHead(301, { location: '/real/feed.json' }).end();
    });
    server.routes.set('/same/feed.json.minisig', (_req, res) => {
      res.writeHead(307, { location: '/real/feed.json.minisig' }).end();
    });
    // Followed, but the feed says it lives at /real/: the address asked for is what it must name.
    expect((await refusal({ url: `${server.origin}/same/feed.json` })).code).toBe('feed.wrong_url');
  });

  it('refuses a slow server within the time limit', async () => {
    server.routes.set('/slow/feed.json', (_req, res) => {
      res.writeHead(200);
      res.write('{');
      // Never ends: the body is what is slow.
    });
    const started = Date.now();
    const error = await refusal({ url: `${server.origin}/slow/feed.json`, timeoutMs: 300 });
    expect(error.code).toBe('feed.timeout');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses plain http to another host, and a network failure names the feed', async () => {
    const plain = await refusal({ url: 'http://example.com/feed.json' });
    expect(plain.code).toBe('feed.address_refused');
    const closed = await startFeedServer();
    const url = `${closed.origin}/feed.json`;
    await closed.close();
    const error = await refusal({ url });
    expect(error.code).toBe('feed.network');
    expect(error.extra.path).toBe(url);
  });

  it('puts the signature beside the feed', () => {
    expect(signatureUrlOf('https://example.com/a/feed.json?x=1')).toBe('https://example.com/a/feed.json.minisig');
  });
});
