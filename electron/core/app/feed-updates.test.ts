/**
 * Updates from a feed through the decision model (DESIGN.md "Feeds, updates and install links"),
 * over a real loopback server and feeds signed by the real `minisign`: an install from a feed is
 * as signed as the feed, an update is an install like any other (the same inspection, diff and
 * `decide`), only the pinned key's feed updates a package, modes hold and auto are kept, a yanked
 * installed version is said with its reason, and roll back puts the kept previous archive back.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ApoSummary } from '../../../shared/manifests/inspection';
import { publishFeed, startFeedServer, type FeedArchive, type FeedServer } from '../../../test/helpers/feed-server';
import { describeWithMinisign, minisignKeyPair, type MinisignKeyPair } from '../../../test/helpers/minisign-tool';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { editedPackage, testApi } from '../../../test/helpers/test-api';
import type { CoreApi } from '../api';
import { asksNothingNew } from './feed-updates';

let server: FeedServer;
let dir: string;
let publisher: MinisignKeyPair;
let stranger: MinisignKeyPair;
const emptyAnswers = { agents: {}, triggers: {} };

const version = (v: string, edit: (toml: string) => string = (t) => t) =>
  packFolder(editedPackage(INVOICES_DIR, (toml) => edit(toml.replace('version = "1.2.0"', `version = "${v}"`))));
const v120: FeedArchive = { name: 'invoices', version: '1.2.0', bytes: packFolder(INVOICES_DIR) };
const v130: FeedArchive = { name: 'invoices', version: '1.3.0', bytes: version('1.3.0') };
// 1.4.0 asks more: its read tool now sends outside.
const v140: FeedArchive = {
  name: 'invoices',
  version: '1.4.0',
  bytes: version('1.4.0', (toml) => toml.replace('action = "read_personal"', 'action = "send_external"')),
};

async function trusted(keys: MinisignKeyPair) {
  const { api, dataDir } = testApi({ now: () => new Date() });
  const added = await api.trustKey({ publicKey: keys.publicKeyText, name: 'Example Accounting' });
  expect(added.ok).toBe(true);
  return { api, dataDir };
}

async function installFromFeed(api: CoreApi, feedUrl: string, name = 'invoices', v?: string) {
  const opened = await api.feeds.open({ feedUrl, name, version: v ?? null });
  if (!opened.ok) throw new Error(opened.error.message);
  const inspected = await api.inspect({ sourceId: opened.value.handle.id });
  if (!inspected.ok) throw new Error(inspected.error.message);
  return { opened: opened.value, inspected: inspected.value };
}

async function install(api: CoreApi, sourceId: string, extra: Record<string, unknown> = {}) {
  const installed = await api.install({ sourceId, decisions: emptyAnswers, ...extra });
  if (!installed.ok) throw new Error(`${installed.error.code}: ${installed.error.message}`);
  return installed.value;
}

describeWithMinisign('updates from a feed', () => {
  beforeAll(async () => {
    server = await startFeedServer();
    dir = mkdtempSync(join(tmpdir(), 'feed-updates-'));
    publisher = minisignKeyPair(dir, 'publisher');
    stranger = minisignKeyPair(dir, 'stranger');
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('installs from a feed as signed by its key, follows the feed, and updates through the same path', async () => {
    const { api, dataDir } = await trusted(publisher);
    const feed = publishFeed(server, dir, publisher, { serial: 1, archives: [v120], path: '/a/feed.json' });
    const first = await installFromFeed(api, feed.url);
    const summary = first.inspected.summary as ApoSummary;
    expect(summary.signature.state).toBe('verified');
    expect(summary.signature.key_id).toBe(publisher.printedKeyId);
    expect(first.inspected.ok).toBe(true);
    await install(api, first.opened.handle.id);

    const listed = await api.feeds.list();
    expect(listed.ok && listed.value.map((f) => [f.url, f.highestSerial, f.packages])).toEqual([
      [feed.url, 1, ['invoices']],
    ]);

    publishFeed(server, dir, publisher, { serial: 2, archives: [v120, v130], path: '/a/feed.json' });
    const outdated = await api.feeds.outdated();
    expect(outdated.ok && outdated.value).toEqual([
      expect.objectContaining({
        name: 'invoices',
        installed: '1.2.0',
        latest: '1.3.0',
        mode: 'notify',
        updateAvailable: true,
        yanked: null,
        problem: null,
      }),
    ]);
    const update = await api.feeds.openUpdate('invoices');
    expect(update.ok && [update.value.from, update.value.to]).toEqual(['1.2.0', '1.3.0']);
    if (!update.ok) return;
    const inspected = await api.inspect({ sourceId: update.value.handle.id });
    expect(inspected.ok && inspected.value.installed).toMatchObject({ version: '1.2.0', relation: 'newer' });
    expect(inspected.ok && inspected.value.updateDiff?.asksMore).toBe(false);
    expect(inspected.ok && asksNothingNew(inspected.value.updateDiff)).toBe(true);
    const receipt = await install(api, update.value.handle.id);
    expect(receipt.version).toBe('1.3.0');

    // Both archives are kept; roll back opens 1.2.0's and installs it as a confirmed downgrade.
    const state = await api.store.read();
    const record = state.packageUpdates['invoices'];
    expect([record?.current?.version, record?.previous?.version]).toEqual(['1.3.0', '1.2.0']);
    expect(readFileSync(join(dataDir, record?.previous?.archive as string)).equals(v120.bytes)).toBe(true);
    const rollback = await api.feeds.openRollback('invoices');
    if (!rollback.ok) throw new Error(rollback.error.message);
    expect([rollback.value.from, rollback.value.to]).toEqual(['1.3.0', '1.2.0']);
    const back = await api.inspect({ sourceId: rollback.value.handle.id });
    expect(back.ok && (back.value.summary as ApoSummary).signature.state).toBe('verified');
    expect(back.ok && back.value.installed?.relation).toBe('older');
    const refusedWithoutConfirm = await api.install({ sourceId: rollback.value.handle.id, decisions: emptyAnswers });
    expect(!refusedWithoutConfirm.ok && refusedWithoutConfirm.error.code).toBe('install.downgrade');
    expect((await install(api, rollback.value.handle.id, { allowDowngrade: true })).version).toBe('1.2.0');
    const after = (await api.store.read()).packageUpdates['invoices'];
    expect([after?.current?.version, after?.previous?.version]).toEqual(['1.2.0', '1.3.0']);
  });

  it('refuses an update from a feed signed by another key than the pin, and a lower serial', async () => {
    const { api } = await trusted(publisher);
    const trustStranger = await api.trustKey({ publicKey: stranger.publicKeyText, name: 'Someone else' });
    expect(trustStranger.ok).toBe(true);
    const feed = publishFeed(server, dir, publisher, { serial: 5, archives: [v120], path: '/b/feed.json' });
    await install(api, (await installFromFeed(api, feed.url)).opened.handle.id);

    // The same address now serves a feed signed by a key the person trusts, but not the pinned one.
    publishFeed(server, dir, stranger, { serial: 6, archives: [v120, v130], path: '/b/feed.json' });
    const update = await api.feeds.openUpdate('invoices');
    expect(!update.ok && update.error.code).toBe('feed.unknown_key');
    expect(!update.ok && update.error.path).toBe(feed.url);
    const outdated = await api.feeds.outdated();
    expect(outdated.ok && outdated.value[0]?.problem?.code).toBe('feed.unknown_key');
    expect((await api.store.read()).feeds[feed.url]?.lastProblem).toMatch(/^feed\.unknown_key/);

    // A replayed older feed, signed by the right key, is refused: serial 5 was seen.
    publishFeed(server, dir, publisher, { serial: 4, archives: [v120, v130], path: '/b/feed.json' });
    const replay = await api.feeds.openUpdate('invoices');
    expect(!replay.ok && replay.error.code).toBe('feed.serial_lower');
  });

  it('holds a package at its version, says a yanked installed version with its reason, and keeps auto only for what asks nothing new', async () => {
    const { api } = await trusted(publisher);
    const feed = publishFeed(server, dir, publisher, { serial: 1, archives: [v120], path: '/c/feed.json' });
    await install(api, (await installFromFeed(api, feed.url)).opened.handle.id);

    expect((await api.feeds.setMode('invoices', 'hold')).ok).toBe(true);
    publishFeed(server, dir, publisher, {
      serial: 2,
      archives: [{ ...v120, status: 'yanked', reason: 'sends reminders twice' }, v140],
      path: '/c/feed.json',
    });
    const outdated = await api.feeds.outdated();
    expect(outdated.ok && outdated.value[0]).toEqual(
      expect.objectContaining({ mode: 'hold', latest: '1.4.0', yanked: { reason: 'sends reminders twice' } }),
    );
    const held = await api.feeds.openUpdate('invoices');
    expect(!held.ok && held.error.code).toBe('update.held');

    // auto: an update that widens access is not one to apply without asking.
    expect((await api.feeds.setMode('invoices', 'auto')).ok).toBe(true);
    const update = await api.feeds.openUpdate('invoices');
    if (!update.ok) throw new Error(update.error.message);
    const inspected = await api.inspect({ sourceId: update.value.handle.id });
    expect(inspected.ok && inspected.value.updateDiff?.asksMore).toBe(true);
    expect(inspected.ok && asksNothingNew(inspected.value.updateDiff)).toBe(false);

    const notFromFeed = await api.feeds.setMode('payroll', 'auto');
    expect(!notFromFeed.ok && notFromFeed.error.code).toBe('update.no_feed');
  });

  it("honours the policy's feed keys: feeds.allowed by prefix, installSources feeds only, an update mode it fixes", async () => {
    const policyPath = join(dir, 'feeds-policy.json');
    writeFileSync(
      policyPath,
      JSON.stringify({
        version: 2,
        feeds: { allowed: [`${server.origin}/allowed/`] },
        installSources: 'feeds',
        updates: 'hold',
      }),
    );
    const { api } = testApi({ now: () => new Date(), policy: { machine: null, env: policyPath } });
    expect((await api.trustKey({ publicKey: publisher.publicKeyText, name: 'Example Accounting' })).ok).toBe(true);
    const elsewhere = publishFeed(server, dir, publisher, {
      serial: 1,
      archives: [v120],
      path: '/elsewhere/feed.json',
    });
    const refused = await api.feeds.open({ feedUrl: elsewhere.url, name: 'invoices', version: null });
    expect(!refused.ok && refused.error.code).toBe('feed.not_allowed');

    // A feed the policy allows installs, though local files may not.
    const allowed = publishFeed(server, dir, publisher, { serial: 1, archives: [v120], path: '/allowed/feed.json' });
    await install(api, (await installFromFeed(api, allowed.url)).opened.handle.id);
    const file = join(dir, 'local-invoices.apo');
    writeFileSync(file, v130.bytes);
    const opened = await api.registerSource(file, 'command-line');
    if (!opened.ok) throw new Error(opened.error.message);
    expect((await api.inspect({ sourceId: opened.value.id })).ok).toBe(true);
    const local = await api.install({ sourceId: opened.value.id, decisions: emptyAnswers });
    expect(!local.ok && local.error.code).toBe('policy.install_source');

    // The organization fixes the mode: the package is held, whatever the person chooses.
    publishFeed(server, dir, publisher, { serial: 2, archives: [v120, v130], path: '/allowed/feed.json' });
    const held = await api.feeds.openUpdate('invoices');
    expect(!held.ok && held.error.code).toBe('update.held');
  });

  it('refuses a download whose bytes are not the signed ones, and keeps nothing', async () => {
    const { api, dataDir } = await trusted(publisher);
    const feed = publishFeed(server, dir, publisher, { serial: 1, archives: [v120], path: '/d/feed.json' });
    server.routes.set('/d/invoices-1.2.0.apo', { body: v130.bytes });
    const opened = await api.feeds.open({ feedUrl: feed.url, name: 'invoices' });
    expect(!opened.ok && opened.error.code).toMatch(/^feed\.(size|hash)_mismatch$/);
    expect(existsSync(join(dataDir, 'archives'))).toBe(false);
    expect((await api.store.read()).feeds).toEqual({});
  });

  it('mode auto applies an update that asks nothing new, and leaves one that asks more waiting with a notice', async () => {
    const { api, dataDir } = await trusted(publisher);
    const feed = publishFeed(server, dir, publisher, { serial: 1, archives: [v120], path: '/e/feed.json' });
    await install(api, (await installFromFeed(api, feed.url)).opened.handle.id);
    expect((await api.feeds.setMode('invoices', 'auto')).ok).toBe(true);

    publishFeed(server, dir, publisher, { serial: 2, archives: [v120, v130], path: '/e/feed.json' });
    const applied = await api.feeds.applyAuto();
    expect(applied.ok && applied.value).toEqual([
      { name: 'invoices', from: '1.2.0', to: '1.3.0', outcome: 'applied', notice: null },
    ]);
    expect((await api.store.read()).packages['invoices']?.version).toBe('1.3.0');

    publishFeed(server, dir, publisher, { serial: 3, archives: [v120, v130, v140], path: '/e/feed.json' });
    const waiting = await api.feeds.applyAuto();
    expect(waiting.ok && waiting.value[0]).toEqual(
      expect.objectContaining({ name: 'invoices', to: '1.4.0', outcome: 'waiting' }),
    );
    expect(waiting.ok && waiting.value[0]?.notice).toContain('asks for more than 1.3.0');
    expect((await api.store.read()).packages['invoices']?.version).toBe('1.3.0');
    // Nothing left in staging from either run.
    const staging = join(dataDir, 'staging');
    expect(existsSync(staging) ? readdirSync(staging) : []).toEqual([]);

    // Held: auto does nothing.
    expect((await api.feeds.setMode('invoices', 'hold')).ok).toBe(true);
    expect((await api.feeds.applyAuto()).ok && (await api.feeds.applyAuto())).toEqual({ ok: true, value: [] });
  });
});
