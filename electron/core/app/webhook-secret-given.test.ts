import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { packFolder } from '../../../test/helpers/pack';
import { activityText, editedPackage, RECORD_FILES, tempDir, testApi, treeHash } from '../../../test/helpers/test-api';
import { activity, runRequests } from '../../../test/helpers/trigger-host';
import { pastedWebhookSecret } from '../../../test/helpers/webhook-secrets';
import type { CoreApi } from '../api';
import { createFileKeySecretBox } from '../secrets/secret-box';
import { STATE_VERSION, type TriggerRecord } from '../store/state';
import { sharedSecretWords } from './trigger-arming';
import { TriggerHost } from '../triggers/trigger-host';

const WATCHER_DIR = new URL('../../../test/fixtures/apo/watcher', import.meta.url).pathname;
const HOOK = 'watcher/on-call';

const pasted = pastedWebhookSecret;

function apoFile(dir: string): string {
  const path = join(tempDir('apollia-apo-'), 'package.apo');
  writeFileSync(path, packFolder(dir));
  return path;
}

async function openWatcher(api: CoreApi): Promise<string> {
  const handle = await api.registerSource(apoFile(WATCHER_DIR), 'open-file');
  if (!handle.ok) throw new Error(handle.error.message);
  const inspected = await api.inspect({ sourceId: handle.value.id });
  if (!inspected.ok) throw new Error(inspected.error.message);
  return handle.value.id;
}

/** Every file under `dir`, as text. */
function everyFile(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((rel) => join(dir, rel))
    .filter((path) => statSync(path).isFile())
    .map((path) => ({ path, text: readFileSync(path).toString('latin1') }));
}

/** The files of the data folder that hold the secret, whole or its key part, in clear or in base64 of its text. */
function filesHolding(dataDir: string, secret: string): string[] {
  const forms = [
    secret,
    secret.slice(6),
    Buffer.from(secret).toString('base64'),
    Buffer.from(secret.slice(6), 'base64').toString('latin1'),
  ];
  return everyFile(dataDir)
    .filter((f) => forms.some((form) => f.text.includes(form)))
    .map((f) => f.path);
}

function state(dataDir: string) {
  return JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
}

async function installGiven(secret: string) {
  const { api, dataDir } = testApi();
  const sourceId = await openWatcher(api);
  const receipt = await api.install({
    sourceId,
    decisions: { agents: {}, triggers: { 'on-call': { armed: true, webhookSecret: { kind: 'given', secret } } } },
  });
  return { api, dataDir, receipt };
}

describe('install with the secret the sender gave', () => {
  it('keeps it sealed, answers only that it was given, and the dashboard says given by the sender and when', async () => {
    const secret = pasted();
    const { api, dataDir, receipt } = await installGiven(`  ${secret}\n`);
    expect(receipt.ok && receipt.value).toMatchObject({
      armed: [HOOK],
      webhookSecrets: [],
      webhookSecretsGiven: [{ triggerId: HOOK, given: true }],
    });
    expect(JSON.stringify(receipt)).not.toContain(secret.slice(6));

    const s = state(dataDir);
    expect(s.version).toBe(STATE_VERSION);
    expect(s.triggers[HOOK]).toMatchObject({
      armed: true,
      secretOrigin: 'given',
      secretSetAt: '2026-12-01T10:00:00.000Z',
    });
    expect(Object.keys(s.webhookSecrets)).toEqual([s.triggers[HOOK].secretRef]);
    // Sealing: no file of the data folder holds the secret in clear (nor its key, nor its text in base64).
    expect(filesHolding(dataDir, secret)).toEqual([]);
    // …and it opens to exactly the trimmed secret with the file box.
    const opened = await createFileKeySecretBox(dataDir).decrypt(
      Buffer.from(s.webhookSecrets[s.triggers[HOOK].secretRef], 'base64'),
    );
    expect(opened).toBe(secret);

    const dashboard = await api.dashboard();
    expect(dashboard.ok && dashboard.value.agents[0]?.triggers.find((t) => t.id === HOOK)).toMatchObject({
      webhookSecretSet: true,
      webhookSecretOrigin: 'given',
      webhookSecretSetAt: '2026-12-01T10:00:00.000Z',
    });
    expect(JSON.stringify(dashboard)).not.toContain(secret.slice(6));
  });

  it('a secret made at install is recorded as made, and still shown once', async () => {
    const { api, dataDir } = testApi();
    const sourceId = await openWatcher(api);
    const receipt = await api.install({
      sourceId,
      decisions: { agents: {}, triggers: { 'on-call': { armed: true, webhookSecret: { kind: 'make' } } } },
    });
    if (!receipt.ok) throw new Error(receipt.error.message);
    expect(receipt.value.webhookSecretsGiven).toEqual([]);
    const made = receipt.value.webhookSecrets[0]?.secret ?? '';
    expect(made).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(state(dataDir).triggers[HOOK]).toMatchObject({
      secretOrigin: 'made',
      secretSetAt: '2026-12-01T10:00:00.000Z',
    });
    expect(filesHolding(dataDir, made)).toEqual([]);
  });

  it.each([
    [
      'too short',
      `whsec_${randomBytes(16).toString('base64')}`,
      'webhook_secret.too_short',
      'The secret your sender gave was not kept: The key is 16 bytes: Standard Webhooks wants 24 to 64.',
    ],
    [
      'without its prefix',
      randomBytes(32).toString('base64'),
      'webhook_secret.no_prefix',
      'The secret your sender gave was not kept: A Standard Webhooks secret starts with `whsec_`: this one does not. Copy the whole secret your sender shows, prefix included.',
    ],
    [
      'with a space inside',
      `whsec_${randomBytes(16).toString('base64')} ${randomBytes(16).toString('base64')}`,
      'webhook_secret.whitespace',
      'The secret your sender gave was not kept: The secret has a space or line break inside it: copy it again as one piece, with nothing between its characters.',
    ],
  ])(
    'refuses a secret %s: the code and message say what is wrong, nothing is written',
    async (_what, secret, code, message) => {
      const { api, dataDir } = testApi();
      const sourceId = await openWatcher(api);
      const before = treeHash(dataDir, RECORD_FILES);
      const refused = await api.install({
        sourceId,
        decisions: { agents: {}, triggers: { 'on-call': { armed: true, webhookSecret: { kind: 'given', secret } } } },
      });
      expect(refused).toEqual({
        ok: false,
        error: { code, message, path: 'decisions.triggers.on-call.webhookSecret' },
      });
      // Nothing but the refusal's own line in the activity log, which never holds the secret.
      expect(treeHash(dataDir, RECORD_FILES)).toBe(before);
      expect(activityText(dataDir)).not.toContain(secret.trim().slice(6, 20));
    },
  );

  it('refuses a secret for a trigger that is not a webhook, or not armed', async () => {
    const { api, dataDir } = testApi();
    const sourceId = await openWatcher(api);
    const before = treeHash(dataDir, RECORD_FILES);
    const notWebhook = await api.install({
      sourceId,
      decisions: {
        agents: {},
        triggers: { 'on-change': { armed: false, webhookSecret: { kind: 'given', secret: pasted() } } },
      },
    });
    expect(notWebhook).toEqual({
      ok: false,
      error: {
        code: 'trigger.secret_not_needed',
        message: 'trigger `on-change` is not a webhook: it takes no secret',
        path: 'decisions.triggers.on-change.webhookSecret',
      },
    });
    const notArmed = await api.install({
      sourceId,
      decisions: { agents: {}, triggers: { 'on-call': { armed: false, webhookSecret: { kind: 'make' } } } },
    });
    expect(notArmed).toEqual({
      ok: false,
      error: {
        code: 'trigger.secret_not_needed',
        message: 'trigger `on-call` is not armed: a secret is set only when it is armed',
        path: 'decisions.triggers.on-call.webhookSecret',
      },
    });
    expect(treeHash(dataDir, RECORD_FILES)).toBe(before); // the refusals are recorded in the activity log only
  });

  it('the request schema is closed: an unknown kind or an extra field is request.invalid, and the error never repeats the secret', async () => {
    const { api } = testApi();
    const sourceId = await openWatcher(api);
    const secret = pasted();
    for (const webhookSecret of [
      { kind: 'given', secret, note: 'x' },
      { kind: 'pasted', secret },
      { kind: 'given' },
      { kind: 'given', secret: 'x'.repeat(2000) },
    ]) {
      const answer = await api.install({
        sourceId,
        decisions: { agents: {}, triggers: { 'on-call': { armed: true, webhookSecret } } },
      } as never);
      expect(answer.ok === false && answer.error.code).toBe('request.invalid');
      expect(JSON.stringify(answer)).not.toContain(secret.slice(6));
    }
  });
});

describe('arming and rotating with the sender’s secret', () => {
  it('armTrigger keeps a given secret; rotate can make one (shown once) or take another given one; neither answer holds a given secret', async () => {
    const { api, dataDir, deps } = testApi();
    const sourceId = await openWatcher(api);
    const installed = await api.install({ sourceId, decisions: { agents: {}, triggers: {} } });
    expect(installed.ok).toBe(true);

    const first = pasted(24);
    const armed = await api.armTrigger({ triggerId: HOOK, webhookSecret: { kind: 'given', secret: first } });
    expect(
      armed.ok && [armed.value.webhookSecret, armed.value.webhookSecretGiven, armed.value.trigger.webhookSecretOrigin],
    ).toEqual([null, true, 'given']);
    expect(JSON.stringify(armed)).not.toContain(first.slice(6));

    deps.now = () => new Date('2026-12-02T08:30:00Z');
    const rotated = await api.rotateWebhookSecret({ triggerId: HOOK, webhookSecret: { kind: 'make' } });
    if (!rotated.ok) throw new Error(rotated.error.message);
    expect(rotated.value.webhookSecretGiven).toBe(false);
    expect(rotated.value.webhookSecret).toMatch(/^whsec_/);
    expect(rotated.value.trigger).toMatchObject({
      webhookSecretOrigin: 'made',
      webhookSecretSetAt: '2026-12-02T08:30:00.000Z',
    });

    const second = pasted(64);
    const given = await api.rotateWebhookSecret({ triggerId: HOOK, webhookSecret: { kind: 'given', secret: second } });
    expect(
      given.ok && [given.value.webhookSecret, given.value.webhookSecretGiven, given.value.trigger.webhookSecretOrigin],
    ).toEqual([null, true, 'given']);
    const s = state(dataDir);
    expect(Object.keys(s.webhookSecrets)).toHaveLength(1);
    for (const secret of [first, second, rotated.value.webhookSecret ?? ''])
      expect(filesHolding(dataDir, secret)).toEqual([]);

    const before = treeHash(dataDir);
    const bad = await api.rotateWebhookSecret({
      triggerId: HOOK,
      webhookSecret: { kind: 'given', secret: `whsec_${randomBytes(32).toString('hex')}` },
    });
    expect(bad.ok === false && [bad.error.code, bad.error.path]).toEqual(['webhook_secret.stripe', 'webhookSecret']);
    expect(treeHash(dataDir)).toBe(before);

    const disarmed = await api.disarmTrigger({ triggerId: HOOK });
    expect(
      disarmed.ok && [
        disarmed.value.webhookSecretSet,
        disarmed.value.webhookSecretOrigin,
        disarmed.value.webhookSecretSetAt,
      ],
    ).toEqual([false, null, null]);
  });

  it('a secret for a trigger that is not a webhook is refused by armTrigger', async () => {
    const watched = tempDir('apollia-watched-');
    const { api, dataDir } = testApi({ folders: [watched] });
    const sourceId = await openWatcher(api);
    await api.install({ sourceId, decisions: { agents: {}, triggers: {} } });
    const pick = await api.pickWatchFolder();
    if (!pick.ok || !pick.value) throw new Error('no folder');
    const before = treeHash(dataDir);
    const answer = await api.armTrigger({
      triggerId: 'watcher/on-change',
      folderId: pick.value.folderId,
      webhookSecret: { kind: 'given', secret: pasted() },
    });
    expect(answer).toEqual({
      ok: false,
      error: {
        code: 'trigger.secret_not_needed',
        message: 'trigger `on-change` is not a webhook: it takes no secret',
        path: 'webhookSecret',
      },
    });
    expect(treeHash(dataDir)).toBe(before);
  });
});

describe('one secret set on two triggers is warned about', () => {
  it('arming, rotating or installing with a secret another trigger holds answers a warning naming it, never the secret; a secret of its own, or one made here, gets none', async () => {
    const { api } = testApi();
    await api.install({ sourceId: await openWatcher(api), decisions: { agents: {}, triggers: {} } });
    const shared = pasted();
    const armed = await api.armTrigger({ triggerId: HOOK, webhookSecret: { kind: 'given', secret: shared } });
    expect(armed.ok && armed.value.webhookSecretSharedWarning).toBeNull();
    // Asked while a form is filled, before anything is kept: for another trigger, yes; for its own, or a refused
    // secret, no warning.
    const asked = await api.webhookSecretShared({ triggerId: 'watcher-two/on-call', secret: ` ${shared}\n` });
    expect(asked.ok && asked.value.warning).toMatch(/^This secret is also set on trigger `watcher\/on-call` of agent/);
    expect(JSON.stringify(asked)).not.toContain(shared.slice(6));
    const itself = await api.webhookSecretShared({ triggerId: HOOK, secret: shared });
    expect(itself.ok && itself.value.warning).toBeNull();
    const refused = await api.webhookSecretShared({ triggerId: 'watcher-two/on-call', secret: 'whsec_short' });
    expect(refused.ok && refused.value.warning).toBeNull();

    const twinDir = editedPackage(WATCHER_DIR, (toml) =>
      toml.replace('name = "watcher"', 'name = "watcher-two"').replaceAll('pkg:watcher/', 'pkg:watcher-two/'),
    );
    const twin = await api.registerSource(apoFile(twinDir), 'open-file');
    if (!twin.ok) throw new Error(twin.error.message);
    await api.inspect({ sourceId: twin.value.id });
    const installed = await api.install({
      sourceId: twin.value.id,
      decisions: {
        agents: {},
        triggers: { 'on-call': { armed: true, webhookSecret: { kind: 'given', secret: shared } } },
      },
    });
    if (!installed.ok) throw new Error(installed.error.message);
    const warning = `This secret is also set on trigger \`${HOOK}\` of agent \`watcher/tidy\`: a delivery signed for one is accepted by the other too (the signature does not cover the address), and each delivery only once over all of them, since replays are refused per secret. Give each trigger its own secret.`;
    expect(installed.value.webhookSecretsGiven).toEqual([
      { triggerId: 'watcher-two/on-call', given: true, sharedWarning: warning },
    ]);

    const own = await api.rotateWebhookSecret({
      triggerId: 'watcher-two/on-call',
      webhookSecret: { kind: 'given', secret: pasted() },
    });
    expect(own.ok && own.value.webhookSecretSharedWarning).toBeNull();
    const again = await api.rotateWebhookSecret({
      triggerId: 'watcher-two/on-call',
      webhookSecret: { kind: 'given', secret: shared },
    });
    expect(again.ok && again.value.webhookSecretSharedWarning).toBe(warning);
    // From the other side, the warning names the other trigger.
    const back = await api.rotateWebhookSecret({ triggerId: HOOK, webhookSecret: { kind: 'given', secret: shared } });
    expect(back.ok && back.value.webhookSecretSharedWarning).toBe(
      warning.replace(`\`${HOOK}\` of agent \`watcher/tidy\``, '`watcher-two/on-call` of agent `watcher-two/tidy`'),
    );
    const made = await api.rotateWebhookSecret({ triggerId: HOOK, webhookSecret: { kind: 'make' } });
    expect(made.ok && made.value.webhookSecretSharedWarning).toBeNull();
    const alone = await api.rotateWebhookSecret({
      triggerId: 'watcher-two/on-call',
      webhookSecret: { kind: 'given', secret: shared },
    });
    expect(alone.ok && alone.value.webhookSecretSharedWarning).toBeNull();
    for (const answer of [armed, installed, own, again, back, alone])
      expect(JSON.stringify(answer)).not.toContain(shared.slice(6));
  });

  it('names each other trigger with its agent, or its package', () => {
    const trigger = (id: string, agentId: string | null, packageName: string | null) =>
      ({ id, agentId, packageName }) as TriggerRecord;
    expect(sharedSecretWords([trigger('crm/new-lead', 'crm/scorer', 'crm'), trigger('shop/order', null, 'shop')])).toBe(
      'This secret is also set on trigger `crm/new-lead` of agent `crm/scorer` and trigger `shop/order` of package `shop`: a delivery signed for one is accepted by the others too (the signature does not cover the address), and each delivery only once over all of them, since replays are refused per secret. Give each trigger its own secret.',
    );
    expect(sharedSecretWords([])).toBeNull();
  });
});

describe('the trigger host accepts deliveries signed with the pasted secret', () => {
  const hosts: TriggerHost[] = [];
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.stop()));
  });

  function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  const signed = (secret: string, id: string, body: string) => {
    const at = new Date();
    return {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(id, at, body),
    };
  };

  it.each([24, 32, 64])(
    'a %i-byte pasted secret: the standardwebhooks library’s signature is accepted (202), another key’s is not (401), the secret never logged',
    async (bytes) => {
      const secret = pasted(bytes);
      const { dataDir, receipt } = await installGiven(`${secret}\n`);
      expect(receipt.ok).toBe(true);
      const host = new TriggerHost({ dataDir, secretBox: createFileKeySecretBox(dataDir), port: 0, watchStore: false });
      await host.start();
      hosts.push(host);
      const url = host.urlOf(HOOK);
      const body = JSON.stringify({ type: 'lead.submitted', email: 'a@example.com' });
      expect(await post(url, body, signed(secret, 'msg_given', body))).toBe(202);
      expect(await post(url, body, signed(pasted(bytes), 'msg_other', body))).toBe(401);
      await host.settled();
      expect(runRequests(dataDir).map((r) => r.trigger)).toEqual([HOOK]);
      expect((await activity(dataDir)).length).toBeGreaterThan(0);
      expect(filesHolding(dataDir, secret)).toEqual([]);
    },
  );
});

describe('a state file of format 2 (before the secret origin)', () => {
  it('is read with its kept secret as made (set when armed) and other triggers with none', async () => {
    const { api, dataDir } = testApi();
    const sourceId = await openWatcher(api);
    await api.install({ sourceId, decisions: { agents: {}, triggers: { 'on-call': { armed: true } } } });
    const s = state(dataDir);
    s.version = 2;
    for (const trigger of Object.values(s.triggers) as Record<string, unknown>[]) {
      delete trigger.secretOrigin;
      delete trigger.secretSetAt;
    }
    s.triggers[HOOK].armedAt = '2026-11-20T09:00:00.000Z';
    writeFileSync(join(dataDir, 'state.json'), `${JSON.stringify(s)}\n`);
    const before = treeHash(dataDir);
    const dashboard = await api.dashboard();
    const triggers = dashboard.ok ? dashboard.value.agents.flatMap((a) => a.triggers) : [];
    expect(triggers.find((t) => t.id === HOOK)).toMatchObject({
      webhookSecretOrigin: 'made',
      webhookSecretSetAt: '2026-11-20T09:00:00.000Z',
    });
    expect(triggers.find((t) => t.id === 'watcher/on-change')).toMatchObject({
      webhookSecretOrigin: null,
      webhookSecretSetAt: null,
    });
    expect(dashboard.ok && dashboard.value.damage).toEqual([]);
    expect(treeHash(dataDir)).toBe(before);
  });
});
