/**
 * The CLI's feed fetch honours the proxy of its run's environment: through a real CONNECT proxy on
 * 127.0.0.1 when `HTTP_PROXY` / `HTTPS_PROXY` name it, straight to the server when `NO_PROXY` names
 * the host or no proxy is set — and the feed read through it is the same verified feed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishFeed, startFeedServer, type FeedServer } from '../../../test/helpers/feed-server';
import { describeWithMinisign, minisignKeyPair, type MinisignKeyPair } from '../../../test/helpers/minisign-tool';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { readFeed } from '../feeds';
import { parsePublicKey } from '../trust/index';
import { cliFetch, proxySettings } from './cli-fetch';

/** A forward proxy that tunnels CONNECT to its target, keeping each target asked for. */
async function startProxy(): Promise<{ url: string; targets: string[]; close(): Promise<void> }> {
  const targets: string[] = [];
  const server: Server = createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req, client, head) => {
    targets.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host as string, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    targets,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('proxySettings', () => {
  it('reads the lower-case names first, then the upper-case ones, and nothing else', () => {
    expect(
      proxySettings({ HTTPS_PROXY: 'http://p:3128', https_proxy: 'http://q:3128', NO_PROXY: 'a.example' }),
    ).toEqual({
      httpProxy: '',
      httpsProxy: 'http://q:3128',
      noProxy: 'a.example',
    });
    expect(proxySettings({})).toEqual({ httpProxy: '', httpsProxy: '', noProxy: '' });
  });
});

describeWithMinisign('the CLI fetch through the environment proxy', () => {
  let server: FeedServer;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let dir: string;
  let keys: MinisignKeyPair;
  let feedUrl: string;

  beforeAll(async () => {
    server = await startFeedServer();
    proxy = await startProxy();
    dir = mkdtempSync(join(tmpdir(), 'cli-fetch-'));
    keys = minisignKeyPair(dir, 'publisher');
    feedUrl = publishFeed(server, dir, keys, {
      serial: 3,
      archives: [{ name: 'invoices', version: '1.2.0', bytes: packFolder(INVOICES_DIR) }],
    }).url;
  });
  afterAll(async () => {
    await proxy.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const read = (env: NodeJS.ProcessEnv) => {
    const key = parsePublicKey(keys.publicKeyText);
    if (!key.ok) throw new Error('the key did not parse');
    return readFeed({ url: feedUrl, fetch: cliFetch(env), keys: [key.value], highestSerial: null, now: new Date() });
  };

  it('goes through HTTP_PROXY, and reads the same verified feed', async () => {
    proxy.targets.length = 0;
    const feed = await read({ HTTP_PROXY: proxy.url });
    expect(feed.feed.serial).toBe(3);
    const host = new URL(server.origin).host;
    // Each tunnel is to the feed's server (the feed and its signature may share one).
    expect(proxy.targets.length).toBeGreaterThan(0);
    expect(new Set(proxy.targets)).toEqual(new Set([host]));
  });

  it('goes straight to a host NO_PROXY names, and when no proxy is set', async () => {
    proxy.targets.length = 0;
    expect((await read({ HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' })).feed.serial).toBe(3);
    expect((await read({})).feed.serial).toBe(3);
    expect(proxy.targets).toEqual([]);
  });
});
