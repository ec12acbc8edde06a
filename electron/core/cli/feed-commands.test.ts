/**
 * The feed commands on the built CLI (`out/cli/cli.cjs`) against a loopback feed signed by the real
 * `minisign` (DESIGN.md "Feeds, updates and install links"): install from a feed and from an install
 * link, `feeds`, `outdated`, `update`, `rollback`, `update-mode`, and a network failure refused with
 * the feed's address.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { publishFeed, startFeedServer, type FeedArchive, type FeedServer } from '../../../test/helpers/feed-server';
import { describeWithMinisign, minisignKeyPair, type MinisignKeyPair } from '../../../test/helpers/minisign-tool';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { editedPackage } from '../../../test/helpers/test-api';

const BUILT = new URL('../../../out/cli/cli.cjs', import.meta.url).pathname;
const run = promisify(execFile);

let server: FeedServer;
let dir: string;
let publisher: MinisignKeyPair;
const v120: FeedArchive = { name: 'invoices', version: '1.2.0', bytes: packFolder(INVOICES_DIR) };
const v130: FeedArchive = {
  name: 'invoices',
  version: '1.3.0',
  bytes: packFolder(editedPackage(INVOICES_DIR, (toml) => toml.replace('version = "1.2.0"', 'version = "1.3.0"'))),
};

/** Runs the built CLI over `dataDir` without blocking this process (the feed server answers meanwhile). */
async function cli(dataDir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BUILT, '--data-dir', dataDir, ...args], {
      env: { HOME: dir, PATH: process.env['PATH'] ?? '' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function trustingDataDir(): Promise<string> {
  const dataDir = mkdtempSync(join(dir, 'data-'));
  const trusted = await cli(dataDir, 'trust', 'add', publisher.publicKeyPath, '--name', 'Example Accounting');
  expect(trusted.code, trusted.stderr).toBe(0);
  return dataDir;
}

describeWithMinisign('feed commands on the built CLI', () => {
  beforeAll(async () => {
    expect(existsSync(BUILT), 'out/cli/cli.cjs is missing: run `npm run build:cli` first').toBe(true);
    server = await startFeedServer();
    dir = mkdtempSync(join(tmpdir(), 'feed-cli-'));
    publisher = minisignKeyPair(dir, 'publisher');
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('installs from a feed, lists it, shows and applies an update, rolls back, and holds', async () => {
    const dataDir = await trustingDataDir();
    const feed = publishFeed(server, dir, publisher, { serial: 1, archives: [v120], path: '/a/feed.json' });
    const installed = await cli(dataDir, 'install', '--feed', feed.url, 'invoices', '--yes');
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain('invoices');

    const feeds = await cli(dataDir, 'feeds', '--json');
    expect(JSON.parse(feeds.stdout)).toEqual([
      expect.objectContaining({ url: feed.url, packages: ['invoices'], highestSerial: 1 }),
    ]);

    publishFeed(server, dir, publisher, { serial: 2, archives: [v120, v130], path: '/a/feed.json' });
    const outdated = await cli(dataDir, 'outdated', '--json');
    expect(JSON.parse(outdated.stdout)).toEqual([
      expect.objectContaining({
        name: 'invoices',
        installed: '1.2.0',
        latest: '1.3.0',
        updateAvailable: true,
        mode: 'notify',
      }),
    ]);
    expect((await cli(dataDir, 'outdated')).stdout).toContain('invoices 1.2.0: 1.3.0 available (mode notify');

    const shown = await cli(dataDir, 'update', 'invoices');
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('1.2.0 → 1.3.0');
    expect(JSON.parse((await cli(dataDir, 'outdated', '--json')).stdout)[0].installed).toBe('1.2.0');
    const updated = await cli(dataDir, 'update', 'invoices', '--yes');
    expect(updated.code, updated.stderr).toBe(0);
    expect(JSON.parse((await cli(dataDir, 'outdated', '--json')).stdout)[0].installed).toBe('1.3.0');
    // Run again (as after a kill once it committed): the newest is installed, nothing to do, exit 0; --json refuses.
    const again = await cli(dataDir, 'update', 'invoices', '--yes');
    expect([again.code, again.stdout.trim()]).toEqual([
      0,
      expect.stringMatching(/1\.3\.0 is the newest .*nothing to do\.$/),
    ]);
    expect(JSON.parse((await cli(dataDir, 'update', 'invoices', '--json')).stdout).errors[0].code).toBe('update.none');
    // The downloads are gone from staging; the archives of both versions are kept for roll back.
    expect(
      (existsSync(join(dataDir, 'staging')) ? readdirSync(join(dataDir, 'staging'), { recursive: true }) : []).filter(
        (p) => String(p).endsWith('.apo'),
      ),
    ).toEqual([]);
    expect(readdirSync(join(dataDir, 'archives', 'invoices')).length).toBe(2);

    const back = await cli(dataDir, 'rollback', 'invoices', '--yes');
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toContain('back from 1.3.0 to 1.2.0');
    expect(JSON.parse((await cli(dataDir, 'outdated', '--json')).stdout)[0].installed).toBe('1.2.0');
    // Rolled back, the version kept is the newer one: rolling back again is done already (never forward again).
    const twice = await cli(dataDir, 'rollback', 'invoices', '--yes');
    expect([twice.code, twice.stdout.trim()]).toEqual([
      0,
      'invoices is already back at 1.2.0 (the version kept, 1.3.0, is newer: `update invoices` goes forward to it): nothing to do.',
    ]);
    expect(JSON.parse((await cli(dataDir, 'outdated', '--json')).stdout)[0].installed).toBe('1.2.0');
    const twiceJson = await cli(dataDir, 'rollback', 'invoices', '--json');
    expect([twiceJson.code, JSON.parse(twiceJson.stdout).errors[0].code]).toEqual([1, 'rollback.done']);

    expect((await cli(dataDir, 'update-mode', 'invoices', 'hold')).code).toBe(0);
    const held = await cli(dataDir, 'update', 'invoices', '--yes');
    expect(held.code).toBe(1);
    expect(held.stderr).toContain('held at 1.2.0');
    expect((await cli(dataDir, 'update-mode', 'invoices', 'sometimes')).code).toBe(2);
  });

  it('opens an install link on the consent form and installs nothing without --yes', async () => {
    const dataDir = await trustingDataDir();
    const feed = publishFeed(server, dir, publisher, { serial: 3, archives: [v120, v130], path: '/b/feed.json' });
    const link = `apollia://install?feed=${encodeURIComponent(feed.url)}&package=invoices&version=1.3.0`;
    const shown = await cli(dataDir, 'install', link);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('invoices');
    expect(JSON.parse((await cli(dataDir, 'feeds', '--json')).stdout)).toEqual([]);

    const smuggled = await cli(dataDir, 'install', `${link}&grant=shell`);
    expect(smuggled.code).toBe(1);
    expect(smuggled.stderr).toContain('`grant`');
  });

  it('with --json, a refusal is the one JSON document on standard output, nothing on standard error', async () => {
    const dataDir = await trustingDataDir();
    const notFollowed = await cli(dataDir, 'feeds', 'remove', 'https://feeds.example/feed.json', '--json');
    expect(notFollowed.code).toBe(1);
    expect(notFollowed.stderr).toBe('');
    expect(JSON.parse(notFollowed.stdout)).toEqual({
      ok: false,
      errors: [expect.objectContaining({ code: 'feed.not_followed', path: 'https://feeds.example/feed.json' })],
    });
    const noFeed = await cli(dataDir, 'update', 'invoices', '--json');
    expect(noFeed.code).toBe(1);
    expect(noFeed.stderr).toBe('');
    expect(JSON.parse(noFeed.stdout)).toMatchObject({ ok: false, errors: [{ code: 'update.no_feed' }] });
    const mode = await cli(dataDir, 'update-mode', 'invoices', 'auto', '--json');
    expect([mode.code, mode.stderr, JSON.parse(mode.stdout).errors[0].code]).toEqual([1, '', 'update.no_feed']);
    const back = await cli(dataDir, 'rollback', 'invoices', '--json');
    expect([back.code, JSON.parse(back.stdout).errors[0].code]).toEqual([1, 'rollback.none']);
  });

  it('refuses a network failure with the feed’s address', async () => {
    const dataDir = await trustingDataDir();
    const gone = await startFeedServer();
    const url = `${gone.origin}/feed.json`;
    await gone.close();
    const failed = await cli(dataDir, 'install', '--feed', url, 'invoices');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(url);
    expect(failed.stderr).toContain('could not be reached');
  });
});
