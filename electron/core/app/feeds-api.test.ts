/**
 * The feed methods the window calls (Settings → Feeds, the Updates screen, an install link's form),
 * over a real loopback server and feeds signed by the real `minisign`: a feed added with its key
 * shows that key's fingerprint; a source from a feed says its exact address and what it installs;
 * the rows name the version kept for roll back; the organization's `updates` locks the mode with its
 * reason. And the policy's door for feeds (every door, DESIGN.md "Managed policy"): an update arriving by feed for a package the
 * policy now refuses is refused with the policy's reason (and mode auto leaves it, saying why), and an
 * update whose bytes are not the signed SHA-256 is refused naming both hashes.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { publishFeed, startFeedServer, type FeedArchive, type FeedServer } from '../../../test/helpers/feed-server';
import { describeWithMinisign, minisignKeyPair, type MinisignKeyPair } from '../../../test/helpers/minisign-tool';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { editedPackage, testApi } from '../../../test/helpers/test-api';
import Ajv2020 from 'ajv/dist/2020.js';
import type { ApiResult } from '../../../shared/contract/api';
import { API_REPLY_SCHEMAS, type ApiRepliedMethod } from '../../../shared/contract/api-replies';
import type { CoreApi } from '../api';
import { keyFingerprint } from '../trust/trusted-keys';
import { Store } from '../store/store';
import { keptCopyPath } from './feed-cache';

let server: FeedServer;
let dir: string;
let publisher: MinisignKeyPair;
const emptyAnswers = { agents: {}, triggers: {} };

const version = (v: string) =>
  packFolder(editedPackage(INVOICES_DIR, (toml) => toml.replace('version = "1.2.0"', `version = "${v}"`)));
const v120: FeedArchive = { name: 'invoices', version: '1.2.0', bytes: packFolder(INVOICES_DIR) };
const v130: FeedArchive = { name: 'invoices', version: '1.3.0', bytes: version('1.3.0') };
const v140: FeedArchive = { name: 'invoices', version: '1.4.0', bytes: version('1.4.0') };
const keyLine = (keys: MinisignKeyPair) => keys.publicKeyText.trim().split('\n').at(-1) as string;

async function installLink(api: CoreApi, feedUrl: string) {
  const opened = await api.feeds.open({ feedUrl, name: 'invoices', version: null, link: true });
  if (!opened.ok) throw new Error(opened.error.message);
  const inspected = await api.inspect({ sourceId: opened.value.handle.id });
  if (!inspected.ok || !inspected.value.ok) throw new Error('the link did not inspect');
  const installed = await api.install({ sourceId: opened.value.handle.id, decisions: emptyAnswers });
  if (!installed.ok) throw new Error(`${installed.error.code}: ${installed.error.message}`);
  return opened.value.handle;
}

describeWithMinisign('the feed methods of the window', () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'feeds-api-'));
    publisher = minisignKeyPair(dir, 'publisher');
  });
  beforeAll(async () => {
    server = await startFeedServer();
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('Settings → Feeds: a feed added with its key shows the fingerprint; a wrong key or address adds nothing', async () => {
    const { api } = testApi({ now: () => new Date() });
    const url = `${server.origin}/settings/feed.json`;
    const added = await api.followFeed({ url, publicKey: publisher.publicKeyText, name: 'Example Accounting' });
    if (!added.ok) throw new Error(added.error.message);
    expect(added.value.feeds).toEqual([
      expect.objectContaining({
        url,
        packages: [],
        keys: [
          {
            keyId: publisher.printedKeyId,
            fingerprint: keyFingerprint(keyLine(publisher)),
            trustedAs: 'Example Accounting',
          },
        ],
      }),
    ]);
    const keys = await api.trustedKeys();
    expect(keys.ok && keys.value.map((key) => key.name)).toEqual(['Example Accounting']);
    const listed = await api.followedFeeds();
    expect(listed.ok && listed.value.feeds.map((feed) => feed.url)).toEqual([url]);

    const badKey = await api.followFeed({ url: `${server.origin}/other/feed.json`, publicKey: 'RWQ0000', name: null });
    expect(!badKey.ok && badKey.error.code).toMatch(/^key\./);
    const notHttps = await api.followFeed({ url: 'http://feeds.example/feed.json', publicKey: null, name: null });
    expect(!notHttps.ok && notHttps.error.code).toBe('feed.address_refused');
    expect((await api.followedFeeds()).ok && (await api.followedFeeds())).toMatchObject({
      value: { feeds: [{ url }] },
    });

    const removed = await api.unfollowFeed({ url });
    expect(removed.ok && removed.value.feeds).toEqual([]);
  });

  it('a feed refused by the policy, or a key the policy does not let the person trust, leaves nothing written', async () => {
    const policyPath = join(dir, 'follow-policy.json');
    writeFileSync(policyPath, JSON.stringify({ version: 2, feeds: { allowed: [`${server.origin}/ok/`] } }));
    const { api, dataDir } = testApi({ now: () => new Date(), policy: { machine: null, env: policyPath } });
    const elsewhere = await api.followFeed({
      url: `${server.origin}/elsewhere/feed.json`,
      publicKey: publisher.publicKeyText,
      name: 'Example Accounting',
    });
    expect(!elsewhere.ok && elsewhere.error.code).toBe('feed.not_allowed');
    const view = await api.followedFeeds();
    expect(view.ok && [view.value.feeds, view.value.allowedPrefixes]).toEqual([[], [`${server.origin}/ok/`]]);
    expect((await api.trustedKeys()).ok && (await api.trustedKeys())).toEqual({ ok: true, value: [] });

    writeFileSync(policyPath, JSON.stringify({ version: 2, allowUserTrustedKeys: false }));
    const noOwnKeys = await api.followFeed({
      url: `${server.origin}/ok/feed.json`,
      publicKey: publisher.publicKeyText,
      name: null,
    });
    expect(!noOwnKeys.ok && noOwnKeys.error.code).toBe('policy.user_keys');
    expect(Object.keys((await new Store(dataDir).read()).feeds)).toEqual([]);
  });

  it('the Updates screen: the link says its source; a row per package, the kept version for roll back, the mode', async () => {
    const { api } = testApi({ now: () => new Date() });
    expect((await api.trustKey({ publicKey: publisher.publicKeyText, name: 'Example Accounting' })).ok).toBe(true);
    const feed = publishFeed(server, dir, publisher, { serial: 1, archives: [v120], path: '/u/feed.json' });
    const handle = await installLink(api, feed.url);
    expect(handle.feed).toEqual({
      url: feed.url,
      publisher: 'Example Accounting',
      name: 'invoices',
      version: '1.2.0',
      sha256: createHash('sha256').update(v120.bytes).digest('hex'),
      size: v120.bytes.byteLength,
      yanked: null,
      link: true,
    });

    publishFeed(server, dir, publisher, { serial: 2, archives: [v120, v130], path: '/u/feed.json' });
    const rows = await api.checkUpdates();
    expect(rows.ok && rows.value.rows).toEqual([
      expect.objectContaining({
        name: 'invoices',
        installed: '1.2.0',
        latest: '1.3.0',
        updateAvailable: true,
        rollbackTo: null,
      }),
    ]);
    expect(rows.ok && rows.value.modeLocked).toBeNull();

    const update = await api.openUpdate({ name: 'invoices' });
    if (!update.ok) throw new Error(update.error.message);
    expect([update.value.from, update.value.to, update.value.handle.feed?.link]).toEqual(['1.2.0', '1.3.0', false]);
    const inspected = await api.inspect({ sourceId: update.value.handle.id });
    expect(inspected.ok && inspected.value.updateDiff?.toVersion).toBe('1.3.0');
    expect((await api.install({ sourceId: update.value.handle.id, decisions: emptyAnswers })).ok).toBe(true);

    const after = await api.checkUpdates();
    expect(after.ok && after.value.rows[0]).toMatchObject({
      installed: '1.3.0',
      updateAvailable: false,
      rollbackTo: '1.2.0',
    });
    const back = await api.openRollback({ name: 'invoices' });
    expect(back.ok && [back.value.from, back.value.to]).toEqual(['1.3.0', '1.2.0']);
    if (!back.ok) throw new Error(back.error.message);
    expect((await api.inspect({ sourceId: back.value.handle.id })).ok).toBe(true);
    const rolledBack = await api.install({
      sourceId: back.value.handle.id,
      decisions: emptyAnswers,
      allowDowngrade: true,
    });
    expect(rolledBack.ok, rolledBack.ok ? '' : rolledBack.error.message).toBe(true);
    // Rolled back: the version kept (1.3.0) is newer, so the screen offers the update, not another roll back.
    const rolled = await api.checkUpdates();
    expect(rolled.ok && rolled.value.rows[0]).toMatchObject({
      installed: '1.2.0',
      updateAvailable: true,
      rollbackTo: null,
    });
    const again = await api.openRollback({ name: 'invoices' });
    expect(!again.ok && again.error.code).toBe('rollback.done');

    expect(await api.setUpdateMode({ name: 'invoices', mode: 'hold' })).toEqual({
      ok: true,
      value: { name: 'invoices', mode: 'hold' },
    });
    const held = await api.checkUpdates();
    expect(held.ok && held.value.rows[0]?.mode).toBe('hold');

    // The record says each check and the mode change, in words.
    const activity = await api.activity();
    if (!activity.ok) throw new Error(activity.error.message);
    const said = activity.value.events.map((event) => [event.kind, event.outcome, event.detail]);
    expect(said).toContainEqual(['update_mode_changed', 'ok', 'updates of invoices: notify → hold']);
    expect(said).toContainEqual(['feed_checked', 'ok', `${feed.url} (serial 2): update available: invoices 1.3.0`]);
    expect(said).toContainEqual(['feed_checked', 'ok', `${feed.url} (serial 2): up to date`]);
  });

  it("the organization's updates key locks the mode at the control, with its reason", async () => {
    const policyPath = join(dir, 'updates-policy.json');
    writeFileSync(policyPath, JSON.stringify({ version: 2, updates: 'notify' }));
    const { api } = testApi({ now: () => new Date(), policy: { machine: null, env: policyPath } });
    expect((await api.trustKey({ publicKey: publisher.publicKeyText, name: 'Example Accounting' })).ok).toBe(true);
    const feed = publishFeed(server, dir, publisher, { serial: 1, archives: [v120], path: '/p/feed.json' });
    await installLink(api, feed.url);
    const rows = await api.checkUpdates();
    expect(rows.ok && rows.value.modeLocked).toContain('Your organization sets how every package updates (tell me)');
    const set = await api.setUpdateMode({ name: 'invoices', mode: 'auto' });
    expect(!set.ok && set.error.code).toBe('policy.update_mode');
    expect((await api.store.read()).packageUpdates['invoices']?.mode).toBe('notify');
  });

  it('an update by feed for a package the policy now refuses is refused with its reason; auto leaves it, saying why', async () => {
    const policyPath = join(dir, 'door-policy.json');
    writeFileSync(policyPath, JSON.stringify({ version: 2 }));
    const { api } = testApi({ now: () => new Date(), policy: { machine: null, env: policyPath } });
    expect((await api.trustKey({ publicKey: publisher.publicKeyText, name: 'Example Accounting' })).ok).toBe(true);
    const feed = publishFeed(server, dir, publisher, { serial: 1, archives: [v120], path: '/door/feed.json' });
    await installLink(api, feed.url);
    expect((await api.setUpdateMode({ name: 'invoices', mode: 'auto' })).ok).toBe(true);

    // The organization now blocks what runs programs: invoices' stdio MCP server is that.
    writeFileSync(policyPath, JSON.stringify({ version: 2, blockedActionFamilies: ['execute_code'] }));
    publishFeed(server, dir, publisher, { serial: 2, archives: [v120, v130], path: '/door/feed.json' });
    const update = await api.openUpdate({ name: 'invoices' });
    if (!update.ok) throw new Error(update.error.message);
    const inspected = await api.inspect({ sourceId: update.value.handle.id });
    expect(inspected.ok && inspected.value.errors.map((e) => e.code)).toContain('policy.blocked_family');
    const install = await api.install({ sourceId: update.value.handle.id, decisions: emptyAnswers });
    expect(!install.ok && install.error.code).toBe('policy.blocked_family');
    expect(!install.ok && install.error.message).toContain('your administrator can change the policy');

    const auto = await api.feeds.applyAuto();
    expect(auto.ok && auto.value).toEqual([
      expect.objectContaining({
        name: 'invoices',
        to: '1.3.0',
        outcome: 'refused',
        notice: expect.stringContaining('your organization'),
      }),
    ]);
    expect((await api.store.read()).packages['invoices']?.version).toBe('1.2.0');
    const activity = await api.activity();
    expect(
      activity.ok && activity.value.events.find((event) => event.kind === 'feed_checked' && event.package),
    ).toMatchObject({
      package: 'invoices',
      outcome: 'refused',
      detail: expect.stringContaining('automatic update of invoices not applied: '),
    });
  });

  it("a feed's ETag and its copy are kept across runs: the next run asks If-None-Match and a 304 is verified again", async () => {
    const { api, dataDir } = testApi({ now: () => new Date() });
    expect((await api.trustKey({ publicKey: publisher.publicKeyText, name: 'Example Accounting' })).ok).toBe(true);
    const feed = publishFeed(server, dir, publisher, {
      serial: 1,
      archives: [v120],
      path: '/etag/feed.json',
      etag: '"v1"',
    });
    await installLink(api, feed.url);
    // The first check of the feed now followed keeps its answer.
    expect((await api.checkUpdates()).ok).toBe(true);
    expect((await api.store.read()).feeds[feed.url]).toMatchObject({ etag: '"v1"', keptSha256: expect.any(String) });

    // Another run (a new Api over the same data folder): it offers the kept ETag, and the 304 reads as the same feed.
    server.seen.length = 0;
    const { api: next } = testApi({ now: () => new Date(), dataDir });
    const rows = await next.checkUpdates();
    expect(rows.ok && rows.value.rows[0]).toMatchObject({ installed: '1.2.0', latest: '1.2.0', problem: null });
    expect(server.seen.filter((seen) => seen.path === '/etag/feed.json')).toEqual([
      { path: '/etag/feed.json', ifNoneMatch: '"v1"' },
    ]);
    expect(server.seen.map((seen) => seen.path)).not.toContain('/etag/feed.json.minisig');

    // A kept copy changed on disk is not offered: the next read is a full one (and verified as any).
    writeFileSync(keptCopyPath(dataDir, feed.url), '{"bytes":"AAAA","signature":"x"}');
    server.seen.length = 0;
    const again = await next.checkUpdates();
    expect(again.ok && again.value.rows[0]?.problem).toBeNull();
    expect(server.seen.find((seen) => seen.path === '/etag/feed.json')?.ifNoneMatch).toBeNull();
    expect(server.seen.map((seen) => seen.path)).toContain('/etag/feed.json.minisig');
  });

  it('keeps the current archive and one earlier for roll back, no more; an uninstall takes its archives away', async () => {
    const { api, dataDir } = testApi({ now: () => new Date() });
    expect((await api.trustKey({ publicKey: publisher.publicKeyText, name: 'Example Accounting' })).ok).toBe(true);
    const path = '/keep/feed.json';
    const feed = publishFeed(server, dir, publisher, { serial: 1, archives: [v120], path });
    await installLink(api, feed.url);
    const kept = () => readdirSync(join(dataDir, 'archives', 'invoices')).sort();
    const updateTo = async (serial: number, archives: FeedArchive[]) => {
      publishFeed(server, dir, publisher, { serial, archives, path });
      const update = await api.openUpdate({ name: 'invoices' });
      if (!update.ok) throw new Error(update.error.message);
      expect((await api.inspect({ sourceId: update.value.handle.id })).ok).toBe(true);
      const installed = await api.install({ sourceId: update.value.handle.id, decisions: emptyAnswers });
      if (!installed.ok) throw new Error(installed.error.message);
    };
    await updateTo(2, [v120, v130]);
    expect(kept().map((file) => file.split('-')[0])).toEqual(['1.2.0', '1.3.0']);
    // A copy no record names (an install whose commit was refused) goes at the next install.
    writeFileSync(join(dataDir, 'archives', 'invoices', '9.9.9-deadbeefdead.apo'), 'stray');
    await updateTo(3, [v120, v130, v140]);
    expect(kept().map((file) => file.split('-')[0])).toEqual(['1.3.0', '1.4.0']);
    const record = (await api.store.read()).packageUpdates['invoices'];
    expect([record?.previous?.version, record?.current?.version]).toEqual(['1.3.0', '1.4.0']);

    expect((await api.uninstallPackage({ name: 'invoices' })).ok).toBe(true);
    expect(existsSync(join(dataDir, 'archives', 'invoices'))).toBe(false);
  });

  it("every feed method's answer meets its reply schema (shared/contract/replies-feeds.ts)", async () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    const checked = <T>(method: ApiRepliedMethod, result: ApiResult<T>): T => {
      if (!result.ok) throw new Error(`${method}: ${result.error.code} ${result.error.message}`);
      const validate = ajv.compile(API_REPLY_SCHEMAS[method]);
      expect(validate(result.value) ? [] : validate.errors, `${method}'s answer meets its schema`).toEqual([]);
      return result.value;
    };
    const { api } = testApi({ now: () => new Date() });
    const path = '/replies/feed.json';
    const feedUrl = `${server.origin}${path}`;
    checked('followFeed', await api.followFeed({ url: feedUrl, publicKey: publisher.publicKeyText, name: null }));
    publishFeed(server, dir, publisher, {
      serial: 1,
      archives: [{ ...v120, status: 'yanked', reason: 'old' }, v130],
      path,
    });
    const opened = await api.feeds.open({ feedUrl, name: 'invoices', version: '1.2.0', link: true });
    if (!opened.ok) throw new Error(opened.error.message);
    expect(opened.value.handle.feed?.yanked).toBe('old');
    expect((await api.inspect({ sourceId: opened.value.handle.id })).ok).toBe(true);
    expect((await api.install({ sourceId: opened.value.handle.id, decisions: emptyAnswers })).ok).toBe(true);
    const rows = checked('checkUpdates', await api.checkUpdates());
    expect(rows.rows[0]).toMatchObject({ yanked: { reason: 'old' }, updateAvailable: true });
    checked('followedFeeds', await api.followedFeeds());
    const update = checked('openUpdate', await api.openUpdate({ name: 'invoices' }));
    expect((await api.inspect({ sourceId: update.handle.id })).ok).toBe(true);
    expect((await api.install({ sourceId: update.handle.id, decisions: emptyAnswers })).ok).toBe(true);
    checked('openRollback', await api.openRollback({ name: 'invoices' }));
    checked('setUpdateMode', await api.setUpdateMode({ name: 'invoices', mode: 'auto' }));
    publishFeed(server, dir, publisher, { serial: 2, archives: [v120, v130], path: '/replies/other.json' });
    checked(
      'followFeed',
      await api.followFeed({ url: `${server.origin}/replies/other.json`, publicKey: null, name: null }),
    );
    checked('unfollowFeed', await api.unfollowFeed({ url: `${server.origin}/replies/other.json` }));
  });

  it('a download a closed form left in staging goes at the next one when a day old; nothing else there does', async () => {
    const { api, dataDir } = testApi({ now: () => new Date() });
    expect((await api.trustKey({ publicKey: publisher.publicKeyText, name: 'Example Accounting' })).ok).toBe(true);
    const feed = publishFeed(server, dir, publisher, { serial: 1, archives: [v120], path: '/stale/feed.json' });
    const first = await api.feeds.open({ feedUrl: feed.url, name: 'invoices', link: true });
    if (!first.ok) throw new Error(first.error.message);
    const staging = join(dataDir, 'staging');
    const plant = (folder: string, file: string, daysOld: number) => {
      mkdirSync(join(staging, folder), { recursive: true });
      writeFileSync(join(staging, folder, file), 'x');
      const at = new Date(Date.now() - daysOld * 86_400_000);
      utimesSync(join(staging, folder, file), at, at);
    };
    plant('left-by-a-closed-form', 'package.apo', 2);
    plant('fresh', 'package.apo', 0);
    plant('not-a-download', 'notes.txt', 3);
    // The first link's download is two days old too, but its form is still open here.
    const firstFile = readdirSync(staging).find(
      (folder) =>
        existsSync(join(staging, folder, 'package.apo')) && !['left-by-a-closed-form', 'fresh'].includes(folder),
    ) as string;
    const old = new Date(Date.now() - 2 * 86_400_000);
    utimesSync(join(staging, firstFile, 'package.apo'), old, old);

    const second = await api.feeds.open({ feedUrl: feed.url, name: 'invoices', link: true });
    expect(second.ok).toBe(true);
    const left = readdirSync(staging);
    expect(left).not.toContain('left-by-a-closed-form');
    expect(left).toEqual(expect.arrayContaining(['fresh', 'not-a-download', firstFile]));
  });

  it('an update whose bytes are not the signed SHA-256 is refused naming both hashes, and nothing changes', async () => {
    const { api } = testApi({ now: () => new Date() });
    expect((await api.trustKey({ publicKey: publisher.publicKeyText, name: 'Example Accounting' })).ok).toBe(true);
    const feed = publishFeed(server, dir, publisher, { serial: 1, archives: [v120], path: '/h/feed.json' });
    await installLink(api, feed.url);
    publishFeed(server, dir, publisher, { serial: 2, archives: [v120, v130], path: '/h/feed.json' });
    // The archive is swapped on the server after the feed was signed: the same size, other bytes.
    const swapped = Buffer.from(v130.bytes);
    swapped[swapped.length - 1] = (swapped[swapped.length - 1] as number) ^ 0xff;
    server.routes.set('/h/invoices-1.3.0.apo', { body: swapped });
    const before = await api.store.read();
    const update = await api.openUpdate({ name: 'invoices' });
    expect(!update.ok && update.error.code).toBe('feed.hash_mismatch');
    const signed = createHash('sha256').update(v130.bytes).digest('hex');
    const served = createHash('sha256').update(swapped).digest('hex');
    expect(!update.ok && update.error.message).toContain(signed);
    expect(!update.ok && update.error.message).toContain(served);
    expect(!update.ok && update.error.path).toBe(`${server.origin}/h/invoices-1.3.0.apo`);
    const after = await api.store.read();
    expect(after.packages).toEqual(before.packages);
    expect(after.packageUpdates).toEqual(before.packageUpdates);
  });
});
