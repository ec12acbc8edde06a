import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { activityText, tempDir, testApi } from '../../../test/helpers/test-api';
import type { CoreApi } from '../api';
import { STATE_VERSION } from '../store/state';
import { STATE_FILE } from '../store/store';
import { DEFAULT_WEBHOOK_PORT, TriggerHost } from '../triggers';
import { freePort } from '../../../test/helpers/free-port';

const WATCHER_DIR = new URL('../../../test/fixtures/apo/watcher', import.meta.url).pathname;
const MARKET_MONITOR = new URL('../../../resources/templates/market-monitor', import.meta.url).pathname;

async function inspected(api: CoreApi, dir: string): Promise<string> {
  const path = join(tempDir('apollia-apo-'), 'package.apo');
  writeFileSync(path, packFolder(dir));
  const handle = await api.registerSource(path, 'open-file');
  if (!handle.ok) throw new Error(handle.error.message);
  const shown = await api.inspect({ sourceId: handle.value.id });
  if (!shown.ok) throw new Error(shown.error.message);
  return handle.value.id;
}

async function events(api: CoreApi, agent?: string) {
  const answer = await api.activity(agent === undefined ? undefined : { agent });
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value.events.map((e) => [e.kind, e.outcome, e.agent ?? null, e.trigger ?? null, e.detail]);
}

/** A port nothing listens on now. */
function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
  return postText(url, body, headers).then((answer) => answer.status);
}

function postText(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the Api records each change in the activity log', () => {
  it('install with a webhook and a folder armed, grant, revoke, rotate, disarm, uninstall: each one event, never the secret', async () => {
    const folder = tempDir('apollia-watched-');
    const { api, dataDir } = testApi({ folders: [folder] });
    const picked = await api.pickWatchFolder();
    if (!picked.ok || !picked.value) throw new Error('no folder');
    const sourceId = await inspected(api, WATCHER_DIR);
    const installed = await api.install({
      sourceId,
      decisions: {
        agents: { tidy: { access: { file_list: true } } },
        triggers: { 'on-call': { armed: true }, 'on-change': { armed: true, folderId: picked.value.folderId } },
      },
    });
    if (!installed.ok) throw new Error(installed.error.message);
    const secret = installed.value.webhookSecrets[0]?.secret as string;
    await api.setToolAccess({ agentId: 'watcher/tidy', tool: 'pkg:watcher/tidy_folder', granted: true });
    await api.setToolAccess({ agentId: 'watcher/tidy', tool: 'file_list', granted: false });
    const rotated = await api.rotateWebhookSecret({ triggerId: 'watcher/on-call' });
    await api.disarmTrigger({ triggerId: 'watcher/on-change' });
    await api.disarmTrigger({ triggerId: 'watcher/on-change' });
    await api.uninstallPackage({ name: 'watcher' });
    expect(await events(api)).toEqual([
      ['uninstall', 'ok', null, null, 'uninstalled watcher 0.1.0; 1 agent(s) removed; 3 trigger(s) removed'],
      ['disarm', 'ok', 'watcher/tidy', 'watcher/on-change', 'disarmed'],
      [
        'secret_rotated',
        'ok',
        'watcher/tidy',
        'watcher/on-call',
        'a new signing secret was made; the old one no longer signs',
      ],
      ['revoke', 'ok', 'watcher/tidy', null, 'withdrew file_list for Tidy'],
      ['grant', 'ok', 'watcher/tidy', null, 'allowed pkg:watcher/tidy_folder for Tidy'],
      [
        'grant',
        'ok',
        'watcher/tidy',
        null,
        'at the install of 0.1.0: allowed file_list, its tool “tidy_folder”; withheld nothing',
      ],
      ['arm', 'ok', 'watcher/tidy', 'watcher/on-call', 'armed: webhook, a new signing secret was made'],
      ['arm', 'ok', 'watcher/tidy', 'watcher/on-change', `armed: watches ${folder}`],
      ['install', 'ok', null, null, 'installed watcher 0.1.0 from Fixture Works — Unverified publisher'],
    ]);
    const log = activityText(dataDir);
    expect(log).not.toContain(secret.slice(6));
    expect(rotated.ok && log.includes((rotated.value.webhookSecret as string).slice(6))).toBe(false);
  });

  it('an update, an arm and an apply with its live trigger; the Activity filter takes an agent and its package', async () => {
    const { api } = testApi();
    await api.saveMcpServer({ name: 'slack', transport: 'stdio', command: 'slack-mcp' });
    const first = await api.install({
      sourceId: await inspected(api, INVOICES_DIR),
      decisions: { agents: {}, triggers: {} },
    });
    expect(first.ok).toBe(true);
    const armed = await api.armTrigger({ triggerId: 'invoices/first-monday' });
    expect(armed.ok).toBe(true);
    const template = await api.registerSource(MARKET_MONITOR, 'dialog');
    if (!template.ok) throw new Error(template.error.message);
    const parameters = { companies: 'Acme', channel: 'C0123ABCD' };
    await api.previewApply({ sourceId: template.value.id, parameters, grants: [] });
    const applied = await api.apply({
      sourceId: template.value.id,
      parameters,
      grants: [],
      arm: ['weekly'],
      requestId: 'r1',
    });
    if (!applied.ok) throw new Error(applied.error.message);
    const again = await api.apply({
      sourceId: template.value.id,
      parameters,
      grants: [],
      arm: ['weekly'],
      requestId: 'r1',
    });
    expect(again.ok).toBe(true);
    const id = applied.value.agentId;
    const [trigger] = applied.value.triggers;
    expect(await events(api, id)).toEqual([
      ['arm', 'ok', id, trigger, 'armed: runs on its schedule'],
      ['apply', 'ok', id, null, 'made Market monitor: Acme from the template market-monitor 0.1.0'],
    ]);
    expect((await events(api, 'invoices/invoice-clerk')).map((e) => e[0])).toEqual(['arm', 'grant', 'install']);
    // The MCP server saved first is a decision too: 4 + 1, and the install's grant: + 1.
    expect((await events(api)).length).toBe(6);
    const archived = await api.archiveAgent({ agentId: id });
    expect(archived.ok).toBe(true);
    expect((await events(api, id)).slice(0, 2)).toEqual([
      ['uninstall', 'ok', id, null, 'archived Market monitor: Acme'],
      ['disarm', 'ok', id, trigger, 'disarmed: Market monitor: Acme was archived'],
    ]);
    const limited = await api.activity({ limit: 1 });
    expect(limited.ok && limited.value.events.map((e) => e.kind)).toEqual(['uninstall']);
    // The filter offers every agent the record names, the archived one too.
    expect(limited.ok && limited.value.agents).toEqual([id, 'invoices/invoice-clerk'].sort());
    expect(await api.activity({ limit: 0 })).toMatchObject({ ok: false, error: { code: 'request.invalid' } });
  });
});

describe('trigger status and the webhook port', () => {
  it('without a host: not running, and the runs waiting are counted from runs/pending', async () => {
    const { api, dataDir } = testApi();
    expect(await api.triggerStatus()).toEqual({
      ok: true,
      value: {
        running: false,
        origin: null,
        host: null,
        updatedAt: null,
        pending: { total: 0, oldest: null, byTrigger: {} },
        triggers: {},
      },
    });
    mkdirSync(join(dataDir, 'runs', 'pending'), { recursive: true });
    const name = `${Buffer.from('a/b').toString('base64url')}.${String(Date.UTC(2026, 11, 1, 9)).padStart(13, '0')}.r1.json`;
    writeFileSync(join(dataDir, 'runs', 'pending', name), '{}');
    // A status file left by a host that is gone (no lock holder) is not believed.
    mkdirSync(join(dataDir, 'triggers'), { recursive: true });
    writeFileSync(
      join(dataDir, 'triggers', 'status.json'),
      JSON.stringify({
        pid: 999_999,
        origin: 'http://127.0.0.1:1',
        startedAt: 'x',
        updatedAt: '2026-12-01T09:00:00.000Z',
        running: true,
        pending: { total: 0, oldest: null },
        triggers: {},
      }),
    );
    const status = await api.triggerStatus();
    expect(status.ok && [status.value.running, status.value.origin, status.value.pending]).toEqual([
      false,
      null,
      { total: 1, oldest: '2026-12-01T09:00:00.000Z', byTrigger: { 'a/b': 1 } },
    ]);
  });

  it('a running host: live triggers, a signed delivery seen, and a port change in Settings rebinds it', async () => {
    const { api, dataDir, deps } = testApi();
    const settings = await api.settings();
    expect(settings.ok && settings.value.webhookPort).toEqual({ port: DEFAULT_WEBHOOK_PORT, chosen: false });
    const first = await freePort();
    expect((await api.setWebhookPort({ port: first })).ok).toBe(true);
    const installed = await api.install({
      sourceId: await inspected(api, WATCHER_DIR),
      decisions: { agents: {}, triggers: { 'on-call': { armed: true } } },
    });
    if (!installed.ok) throw new Error(installed.error.message);
    const secret = installed.value.webhookSecrets[0]?.secret as string;
    const host = new TriggerHost({ dataDir, secretBox: deps.secretBox, watchStore: false });
    await host.start();
    try {
      expect(host.origin).toBe(`http://127.0.0.1:${first}`);
      const body = '{"type":"ping"}';
      const at = new Date();
      expect(
        await post(host.urlOf('watcher/on-call'), body, {
          'webhook-id': 'm1',
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': new Webhook(secret).sign('m1', at, body),
        }),
      ).toBe(202);
      await host.settled();
      const status = await api.triggerStatus();
      if (!status.ok) throw new Error(status.error.message);
      expect(status.value).toMatchObject({
        running: true,
        origin: `http://127.0.0.1:${first}`,
        host: { here: true },
        pending: { total: 1 },
      });
      expect(status.value.triggers['watcher/on-call']).toMatchObject({
        state: 'listening',
        url: `http://127.0.0.1:${first}/hooks/watcher/on-call`,
        deliveries: [{ status: 202 }],
        lastFire: { cause: 'webhook', outcome: 'queued' },
        waiting: 1,
      });

      const second = await freePort();
      const moved = await api.setWebhookPort({ port: second });
      expect(moved.ok && moved.value.webhookPort).toEqual({ port: second, chosen: true });
      await host.reload();
      await host.settled();
      expect(host.origin).toBe(`http://127.0.0.1:${second}`);
      expect(host.status().triggers['watcher/on-call']?.url).toBe(`http://127.0.0.1:${second}/hooks/watcher/on-call`);

      // A port already taken: the listener stays where it was, and says why.
      const taken = createServer().listen(0, '127.0.0.1');
      await new Promise((resolve) => taken.once('listening', resolve));
      const takenPort = (taken.address() as { port: number }).port;
      await api.setWebhookPort({ port: takenPort });
      await host.reload();
      await host.settled();
      taken.close();
      expect(host.origin).toBe(`http://127.0.0.1:${second}`);
      expect(
        (await api.activity({ limit: 5 })).ok &&
          (await events(api)).some(
            (e) =>
              e[0] === 'trigger_problem' &&
              String(e[4]).startsWith(
                `the webhook port ${takenPort} from Settings cannot be used (EADDRINUSE); still on ${second}`,
              ),
          ),
      ).toBe(true);
    } finally {
      await host.stop();
    }
    const stopped = await api.triggerStatus();
    expect(stopped.ok && stopped.value.running).toBe(false);
  });

  it('a flood of signed deliveries to the host in the process of the Api: the Api answers throughout, and what it shows adds up', async () => {
    const { api, dataDir, deps } = testApi();
    const installed = await api.install({
      sourceId: await inspected(api, WATCHER_DIR),
      decisions: { agents: {}, triggers: { 'on-call': { armed: true } } },
    });
    if (!installed.ok) throw new Error(installed.error.message);
    const secret = installed.value.webhookSecrets[0]?.secret as string;
    const host = new TriggerHost({ dataDir, secretBox: deps.secretBox, port: 0, watchStore: false });
    await host.start();
    try {
      const url = host.urlOf('watcher/on-call');
      const deliveries = Array.from({ length: 150 }, (_, i) => {
        const body = `{"n":${i}}`;
        const at = new Date();
        return postText(url, body, {
          'webhook-id': `flood-${i}`,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': new Webhook(secret).sign(`flood-${i}`, at, body),
        });
      });
      // Asked while the deliveries are being answered: every Api call still answers.
      const during = await Promise.all([
        api.triggerStatus(),
        api.dashboard(),
        api.activity({ limit: 5 }),
        api.settings(),
      ]);
      expect(during.map((answer) => answer.ok)).toEqual([true, true, true, true]);
      const answers = await Promise.all(deliveries);
      await host.settled();
      // Beyond the bound a delivery is told to come back (429), never answered 2xx without its run.
      expect(answers.filter((a) => a.status !== 202 && a.status !== 429 && a.status !== 503)).toEqual([]);
      const queued = answers.filter((a) => a.text === 'queued\n').length;
      expect(answers.filter((a) => a.status === 202)).toHaveLength(queued);
      const status = await api.triggerStatus();
      if (!status.ok) throw new Error(status.error.message);
      // The default bound of runs waiting (100) holds; every queued delivery is one run waiting.
      expect(status.value.pending.total).toBe(queued);
      expect(queued).toBeLessThanOrEqual(100);
      expect(status.value.triggers['watcher/on-call']?.deliveries).toHaveLength(10);
    } finally {
      await host.stop();
    }
  });

  it('a state file of format 2 reads with the default port and is written in the current format by the next change', async () => {
    const { api, dataDir } = testApi();
    const formatTwo = {
      version: 2,
      packages: {},
      agents: {},
      triggers: {},
      settings: { mcpServers: {}, secrets: {}, deniedTools: ['shell'] },
      webhookSecrets: {},
      applies: {},
      damage: [],
    };
    writeFileSync(join(dataDir, STATE_FILE), JSON.stringify(formatTwo));
    const read = await api.settings();
    expect(read.ok && [read.value.deniedTools, read.value.webhookPort]).toEqual([
      ['shell'],
      { port: DEFAULT_WEBHOOK_PORT, chosen: false },
    ]);
    expect(JSON.parse(readFileSync(join(dataDir, STATE_FILE), 'utf8')).version).toBe(2);
    await api.setWebhookPort({ port: 50_123 });
    const written = JSON.parse(readFileSync(join(dataDir, STATE_FILE), 'utf8'));
    expect([written.version, written.settings]).toEqual([
      STATE_VERSION,
      { mcpServers: {}, secrets: {}, deniedTools: ['shell'], webhookPort: 50_123, activityCollector: null },
    ]);
    expect(await api.setWebhookPort({ port: 80 })).toMatchObject({ ok: false, error: { code: 'request.invalid' } });
    expect(await api.setWebhookPort({ port: 70_000 })).toMatchObject({ ok: false, error: { code: 'request.invalid' } });
  });
});
