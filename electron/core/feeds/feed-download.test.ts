/**
 * Downloads from a verified feed (DESIGN.md "Feeds, updates and install links"): the bytes must be
 * the signed size and SHA-256 before they reach staging, a redirect elsewhere is refused, and what
 * is staged goes through the same inspection as a file. A real HTTP server on loopback serves them.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApoDetails } from '../../../shared/manifests/inspection';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFeedServer, feedDocument, type FeedServer } from '../../../test/helpers/feed-server';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { inspectPath } from '../app/inspect';
import { CoreError } from '../errors';
import type { FeedFetch } from './feed-fetch';
import type { Feed, FeedVersion } from './feed-format';
import { downloadToStaging, feedVersionOf } from './feed-download';

const nodeFetch: FeedFetch = (url, init) => fetch(url, init);
let server: FeedServer;
let dataDir: string;
const apo = packFolder(INVOICES_DIR);
const sha256 = createHash('sha256').update(apo).digest('hex');
const version = (overrides: Partial<FeedVersion> = {}): FeedVersion =>
  ({
    version: '1.2.0',
    url: 'invoices-1.2.0.apo',
    sha256,
    size: apo.byteLength,
    status: 'active',
    ...overrides,
  }) as FeedVersion;

async function refused(promise: Promise<unknown>): Promise<CoreError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CoreError) return error;
    throw error;
  }
  throw new Error('not refused');
}

/** Nothing but empty folders (or nothing) in staging: a refused download writes nothing. */
const stagedFiles = () =>
  existsSync(join(dataDir, 'staging'))
    ? readdirSync(join(dataDir, 'staging'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
    : [];

describe('downloadToStaging', () => {
  beforeAll(async () => {
    server = await startFeedServer();
    dataDir = mkdtempSync(join(tmpdir(), 'feed-download-'));
    server.routes.set('/invoices-1.2.0.apo', { body: apo });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stages the exact signed bytes, which inspect like the file itself', async () => {
    const staged = await downloadToStaging(nodeFetch, `${server.origin}/feed.json`, version(), dataDir);
    expect(staged.url).toBe(`${server.origin}/invoices-1.2.0.apo`);
    expect(readFileSync(staged.path).equals(apo)).toBe(true);
    const inspection = await inspectPath(staged.path);
    expect(inspection.kind).toBe('apo');
    expect(inspection.errors).toEqual([]);
    expect((inspection.details as ApoDetails).manifest.package.name).toBe('invoices');
    rmSync(staged.folder, { recursive: true, force: true });
  });

  it('refuses a size mismatch, smaller or larger, and writes nothing', async () => {
    const smaller = await refused(
      downloadToStaging(nodeFetch, `${server.origin}/feed.json`, version({ size: apo.byteLength + 1 }), dataDir),
    );
    expect(smaller.code).toBe('feed.size_mismatch');
    const larger = await refused(
      downloadToStaging(nodeFetch, `${server.origin}/feed.json`, version({ size: apo.byteLength - 1 }), dataDir),
    );
    expect(larger.code).toBe('feed.size_mismatch');
    expect(larger.extra.path).toBe(`${server.origin}/invoices-1.2.0.apo`);
    expect(stagedFiles()).toEqual([]);
  });

  it('refuses a hash mismatch (the archive changed after the feed was signed), and writes nothing', async () => {
    const tampered = Buffer.from(apo);
    tampered.writeUInt8((tampered.at(-1) ?? 0) ^ 1, tampered.length - 1);
    server.routes.set('/tampered.apo', { body: tampered });
    const error = await refused(
      downloadToStaging(nodeFetch, `${server.origin}/feed.json`, version({ url: 'tampered.apo' }), dataDir),
    );
    expect(error.code).toBe('feed.hash_mismatch');
    expect(error.message).toContain(sha256);
    expect(stagedFiles()).toEqual([]);
  });

  it("refuses a link's sha256 that is not the feed's", async () => {
    const error = await refused(
      downloadToStaging(nodeFetch, `${server.origin}/feed.json`, version(), dataDir, { sha256: 'ab'.repeat(32) }),
    );
    expect(error.code).toBe('feed.hash_mismatch');
  });

  it('refuses an archive redirected to another origin', async () => {
    server.routes.set('/moved.apo', (_req, res) => {
      res.writeHead(302, { location: `${server.origin.replace('127.0.0.1', 'localhost')}/invoices-1.2.0.apo` }).end();
    });
    const error = await refused(
      downloadToStaging(nodeFetch, `${server.origin}/feed.json`, version({ url: 'moved.apo' }), dataDir),
    );
    expect(error.code).toBe('feed.redirect_elsewhere');
  });
});

describe('feedVersionOf', () => {
  const feed = feedDocument({
    url: 'https://example.com/feed.json',
    serial: 1,
    archives: [
      { name: 'invoices', version: '1.10.0', bytes: Buffer.from('a'), status: 'yanked', reason: 'sends twice' },
      { name: 'invoices', version: '1.9.0', bytes: Buffer.from('b') },
      { name: 'invoices', version: '1.2.0', bytes: Buffer.from('c') },
    ],
  }) as unknown as Feed;

  it('offers the newest version not yanked (by semver, not by text)', () => {
    expect(feedVersionOf('f', feed, 'invoices').version).toBe('1.9.0');
  });

  it('gives an asked version, even a yanked one (the caller says it is yanked)', () => {
    expect(feedVersionOf('f', feed, 'invoices', '1.10.0').status).toBe('yanked');
  });

  it('refuses an unknown package or version', () => {
    expect(() => feedVersionOf('f', feed, 'payroll')).toThrow(/does not serve a package named `payroll`/);
    expect(() => feedVersionOf('f', feed, 'invoices', '2.0.0')).toThrow(/lists no version 2.0.0/);
    expect(() => feedVersionOf('f', feed, '__proto__')).toThrow(/does not serve/);
  });
});
