import { request } from 'node:http';
import { connect } from 'node:net';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileKeySecretBox } from '../secrets/secret-box';
import { tempDir, treeHash } from '../../../test/helpers/test-api';
import { Store } from '../store/store';
import {
  activity,
  changeTrigger,
  eventually,
  putTriggers,
  runRequests,
  triggerRecord,
} from '../../../test/helpers/trigger-host';
import { TriggerHost } from './trigger-host';

const hosts: TriggerHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
});

async function hostOn(dataDir: string, limits = {}): Promise<TriggerHost> {
  const host = new TriggerHost({
    dataDir,
    secretBox: createFileKeySecretBox(dataDir),
    port: 0,
    watchStore: false,
    listenerLimits: limits,
  });
  await host.start();
  hosts.push(host);
  return host;
}

interface Answer {
  status: number;
  text: string;
}

function post(url: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<Answer> {
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

/** `post`, with the `Retry-After` header of the answer. */
function postFull(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<Answer & { retryAfter: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, retryAfter: res.headers['retry-after'] }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The counted refusals of an activity record: `<trigger or -> <status> <reason>` → total count. */
function refusalCounts(events: { kind: string; trigger?: string; detail: string }[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of events) {
    const match =
      /^(\d+) × .+? — (.+) \(HTTP (\d{3})\), in the minute from \d\d:\d\d UTC \(counted, not kept one by one\)$/.exec(
        e.detail,
      );
    if (e.kind !== 'delivery_refused' || !match) continue;
    const key = `${e.trigger ?? '-'} ${match[3]} ${match[2]}`;
    counts.set(key, (counts.get(key) ?? 0) + Number(match[1]));
  }
  return counts;
}

function signed(secret: string, id: string, body: string, at = new Date()): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  };
}

const HOOK = 'crm/new-lead';

async function setup(extra: Parameters<typeof triggerRecord>[0][] = []) {
  const dataDir = tempDir('apollia-hooks-');
  const secrets = await putTriggers(dataDir, [
    triggerRecord({ id: HOOK, type: 'webhook', agentId: 'crm/scorer', target: 'crm/scorer' }),
    ...extra.map(triggerRecord),
  ]);
  const host = await hostOn(dataDir);
  const secret = secrets.get(HOOK) as string;
  return { dataDir, host, secret, url: host.urlOf(HOOK), secrets };
}

describe('webhook listener (real HTTP, Standard Webhooks signatures)', () => {
  it('accepts a signed delivery: 202, one run request marked untrusted, the activity recorded, no secret or body logged', async () => {
    const lines: string[] = [];
    const dataDir = tempDir('apollia-hooks-');
    const secrets = await putTriggers(dataDir, [
      triggerRecord({ id: HOOK, type: 'webhook', agentId: 'crm/scorer', target: 'crm/scorer' }),
    ]);
    const host = new TriggerHost({
      dataDir,
      secretBox: createFileKeySecretBox(dataDir),
      port: 0,
      watchStore: false,
      onLine: (l) => lines.push(l),
    });
    await host.start();
    hosts.push(host);
    const secret = secrets.get(HOOK) as string;
    const url = host.urlOf(HOOK);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks\/crm\/new-lead$/);
    expect(lines).toContain(`listening ${HOOK} ${url}`);

    const body = JSON.stringify({ type: 'lead.submitted', email: 'a@example.com', note: 'SECRET-BODY-TEXT' });
    const answer = await post(url, body, signed(secret, 'msg_1', body));
    expect(answer).toEqual({ status: 202, text: 'queued\n' });
    await host.settled();

    const runs = runRequests(dataDir);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      trigger: HOOK,
      target: 'crm/scorer',
      cause: 'webhook',
      input: { text: 'Do the thing' },
    });
    expect(runs[0]?.payload).toEqual({
      untrusted: true,
      webhook_id: 'msg_1',
      type: 'lead.submitted',
      body: JSON.parse(body),
    });
    expect(Object.keys(runs[0] ?? {}).sort()).toEqual([
      'cause',
      'fired_at',
      'id',
      'input',
      'payload',
      'target',
      'trigger',
    ]);

    const events = await activity(dataDir);
    expect(events.map((e) => [e.kind, e.outcome, e.trigger ?? null])).toEqual([
      ['host_started', 'ok', null],
      ['delivery_accepted', 'ok', HOOK],
    ]);
    // One entry per delivery, naming the run it queued (the Runs view lists it by that id).
    expect(events[1]).toMatchObject({
      agent: 'crm/scorer',
      package: 'crm',
      detail: `webhook-id msg_1: run ${runs[0]?.id} queued`,
    });
    const logged = readFileSync(join(dataDir, 'activity', 'traffic.jsonl'), 'utf8') + lines.join('\n');
    // The intake journal holds the run as its file does (the body too), never the secret.
    expect(readFileSync(join(dataDir, 'triggers', 'intake.journal'), 'utf8')).not.toContain(secret.slice(6));
    expect(logged).not.toContain(secret.slice(6));
    expect(logged).not.toContain('SECRET-BODY-TEXT');
    expect(host.status().triggers[HOOK]).toMatchObject({
      state: 'listening',
      url,
      deliveries: [{ status: 202, reason: 'queued' }],
      lastFire: { cause: 'webhook', outcome: 'queued' },
      waiting: 1,
    });
  });

  it('refuses tampered, unsigned, stale, future-dated and replayed deliveries, and unknown or disarmed addresses, writing no run', async () => {
    const { dataDir, host, secret, url } = await setup();
    const body = JSON.stringify({ type: 'x', n: 1 });
    const runsBefore = () => readdirSync(join(dataDir, 'runs', 'pending')).length;

    expect(await post(url, body, signed(secret, 'ok-1', body))).toEqual({ status: 202, text: 'queued\n' });
    await host.settled();
    expect(runsBefore()).toBe(1);

    const tampered = await post(url, body.replace('1', '2'), signed(secret, 'msg_t', body));
    expect(tampered).toEqual({ status: 401, text: 'signature does not match\n' });
    expect(await post(url, body)).toEqual({
      status: 401,
      text: 'missing signature headers (webhook-id, webhook-timestamp, webhook-signature)\n',
    });
    const wrongKey = await post(url, body, signed(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, 'msg_w', body));
    expect(wrongKey.status).toBe(401);
    const stale = await post(url, body, signed(secret, 'msg_s', body, new Date(Date.now() - 6 * 60_000)));
    expect(stale).toEqual({ status: 401, text: 'timestamp too old (more than 5 minutes)\n' });
    const future = await post(url, body, signed(secret, 'msg_f', body, new Date(Date.now() + 6 * 60_000)));
    expect(future).toEqual({ status: 401, text: 'timestamp in the future (more than 5 minutes)\n' });
    const replay = await post(url, body, signed(secret, 'ok-1', body));
    expect(replay).toEqual({ status: 409, text: 'replay: this webhook-id was already delivered\n' });
    // An address with no armed trigger fails as a wrong secret does: nothing tells armed from unknown.
    const unknown = await post(`${host.origin}/hooks/crm/nope`, body, signed(secret, 'msg_u', body));
    expect(unknown).toEqual({ status: 401, text: 'signature does not match\n' });

    const get = await fetch(url);
    expect([get.status, await get.text()]).toEqual([404, 'not found\n']);
    const elsewhere = await post(`${host.origin}/admin`, body, signed(secret, 'msg_e', body));
    expect(elsewhere).toEqual({ status: 404, text: 'not found\n' });

    await changeTrigger(dataDir, HOOK, (t) => {
      t.armed = false;
    });
    await host.reload();
    const disarmed = await post(url, body, signed(secret, 'msg_d', body));
    expect(disarmed).toEqual({ status: 401, text: 'signature does not match\n' });
    await host.settled();
    expect(runsBefore()).toBe(1);

    await host.stop();
    const refused = refusalCounts(await activity(dataDir));
    expect(refused).toEqual(
      new Map([
        [`${HOOK} 401 signature does not match`, 2],
        [`${HOOK} 401 missing signature headers (webhook-id, webhook-timestamp, webhook-signature)`, 1],
        [`${HOOK} 401 timestamp too old (more than 5 minutes)`, 1],
        [`${HOOK} 401 timestamp in the future (more than 5 minutes)`, 1],
        [`${HOOK} 409 replay: this webhook-id was already delivered`, 1],
        ['- 401 signature does not match', 2],
        ['- 404 not found', 2],
      ]),
    );
  });

  it('refuses a body over the limit (413) and a body that never finishes (408), and stays up', async () => {
    const dataDir = tempDir('apollia-hooks-');
    const secrets = await putTriggers(dataDir, [triggerRecord({ id: HOOK, type: 'webhook' })]);
    const host = await hostOn(dataDir, { maxBodyBytes: 1024, bodyTimeoutMs: 300 });
    const secret = secrets.get(HOOK) as string;
    const url = new URL(host.urlOf(HOOK));
    const big = JSON.stringify({ type: 'x', pad: 'a'.repeat(5000) });
    expect(await post(url.href, big, signed(secret, 'big', big))).toEqual({
      status: 413,
      text: 'body too large (limit 1024 bytes)\n',
    });

    // Chunked (no declared length): refused once the bytes pass the limit.
    const chunked = await new Promise<Answer>((resolve, reject) => {
      const req = request(url, { method: 'POST', headers: signed(secret, 'chunked', big) }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.write(big.slice(0, 800));
      setTimeout(() => req.write(big.slice(800, 1600)), 20);
    });
    expect(chunked).toEqual({ status: 413, text: 'body too large (limit 1024 bytes)\n' });

    const slow = await new Promise<string>((resolve) => {
      const socket = connect(Number(url.port), '127.0.0.1', () => {
        const headers = Object.entries(signed(secret, 'slow', '{"type":"x"}'))
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('');
        socket.write(
          `POST ${url.pathname} HTTP/1.1\r\nHost: 127.0.0.1:${url.port}\r\n${headers}Content-Length: 100\r\n\r\n{"type":`,
        );
      });
      let text = '';
      socket.on('data', (c) => (text += c.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
    });
    expect(slow).toMatch(/^HTTP\/1\.1 408 /);
    expect(slow).toContain('the body did not arrive in time');

    const small = JSON.stringify({ type: 'x' });
    expect((await post(url.href, small, signed(secret, 'after', small))).status).toBe(202);
    await host.settled();
    expect(runRequests(dataDir)).toHaveLength(1);
    await host.stop();
    expect(refusalCounts(await activity(dataDir))).toEqual(
      new Map([
        [`${HOOK} 413 body too large (limit 1024 bytes)`, 2],
        [`${HOOK} 408 the body did not arrive in time`, 1],
      ]),
    );
  });

  it('applies a template events filter on the body type and max_concurrent on runs waiting', async () => {
    const dataDir = tempDir('apollia-hooks-');
    const secrets = await putTriggers(dataDir, [
      triggerRecord({
        id: 'agent-1/leads',
        type: 'webhook',
        events: ['lead.submitted'],
        maxConcurrent: 2,
        dayRule: 'or',
        packageName: null,
        agentId: 'agent-1',
      }),
    ]);
    const host = await hostOn(dataDir);
    const secret = secrets.get('agent-1/leads') as string;
    const url = host.urlOf('agent-1/leads');
    const other = JSON.stringify({ type: 'lead.deleted' });
    expect(await post(url, other, signed(secret, 'o1', other))).toEqual({
      status: 200,
      text: 'ignored: event type `lead.deleted` is not one this trigger takes (lead.submitted)\n',
    });
    const lead = (n: number) => JSON.stringify({ type: 'lead.submitted', n });
    expect((await post(url, lead(1), signed(secret, 'l1', lead(1)))).text).toBe('queued\n');
    expect((await post(url, lead(2), signed(secret, 'l2', lead(2)))).text).toBe('queued\n');
    // A full queue is never answered 2xx: the sender is told to come back (429, Retry-After) and nothing is written.
    const full = await postFull(url, lead(3), signed(secret, 'l3', lead(3)));
    expect([full.status, full.text, full.retryAfter]).toEqual([
      429,
      'this trigger already has its most runs waiting; try again later\n',
      '60',
    ]);
    await host.settled();
    expect(runRequests(dataDir).map((r) => (r.payload?.body as { n: number } | undefined)?.n)).toEqual([1, 2]);
    const events = await activity(dataDir);
    // One entry per delivery: the refused one says why, with the count and the limit.
    expect(events.filter((e) => e.kind === 'run_skipped' || e.kind === 'trigger_fired')).toEqual([]);
    expect(events.filter((e) => e.kind === 'delivery_refused').map((e) => [e.agent, e.outcome, e.detail])).toEqual([
      [
        'agent-1',
        'skipped',
        'ignored: event type `lead.deleted` is not one this trigger takes (lead.submitted) (HTTP 200)',
      ],
      [
        'agent-1',
        'skipped',
        'webhook-id l3: not queued, 2 run(s) already waiting (limit 2, max_concurrent); the sender was told to retry',
      ],
    ]);
    // Once a run is taken, the sender's retry of the same webhook-id is queued.
    const [taken] = readdirSync(join(dataDir, 'runs', 'pending'));
    rmSync(join(dataDir, 'runs', 'pending', taken as string));
    expect(await post(url, lead(3), signed(secret, 'l3', lead(3)))).toEqual({ status: 202, text: 'queued\n' });
  });

  it('keeps seen webhook-ids across a restart, so a replay inside the window is still refused; a second host is refused', async () => {
    const { dataDir, host, secret } = await setup();
    const body = JSON.stringify({ type: 'x' });
    const headers = signed(secret, 'once', body);
    expect((await post(host.urlOf(HOOK), body, headers)).status).toBe(202);
    await host.settled();

    const second = new TriggerHost({ dataDir, secretBox: createFileKeySecretBox(dataDir), port: 0, watchStore: false });
    const before = treeHash(dataDir);
    await expect(second.start()).rejects.toMatchObject({
      code: 'host.busy',
      message: `another trigger host (pid ${process.pid}) is already running on ${dataDir}; stop it first`,
    });
    expect(treeHash(dataDir)).toBe(before);

    await host.stop();
    hosts.splice(hosts.indexOf(host), 1);
    const again = await hostOn(dataDir);
    expect(await post(again.urlOf(HOOK), body, headers)).toEqual({
      status: 409,
      text: 'replay: this webhook-id was already delivered\n',
    });
    await again.settled();
    expect(runRequests(dataDir)).toHaveLength(1);
  });

  it('absorbs a flood: every delivery answered, none lost or doubled, runs bounded by the waiting limit', async () => {
    const dataDir = tempDir('apollia-hooks-');
    const secrets = await putTriggers(dataDir, [triggerRecord({ id: HOOK, type: 'webhook', maxConcurrent: 20 })]);
    const host = await hostOn(dataDir, { maxInFlight: 8 });
    const secret = secrets.get(HOOK) as string;
    const url = host.urlOf(HOOK);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => {
        const body = JSON.stringify({ type: 'x', i });
        return post(url, body, signed(secret, `flood-${i}`, body));
      }),
    );
    await host.settled();
    const counts = new Map<string, number>();
    for (const a of answers)
      counts.set(`${a.status} ${a.text.trim()}`, (counts.get(`${a.status} ${a.text.trim()}`) ?? 0) + 1);
    const queued = counts.get('202 queued') ?? 0;
    expect(queued).toBe(runRequests(dataDir).length);
    expect(queued).toBeLessThanOrEqual(20);
    expect(
      [...counts.keys()].filter(
        (k) =>
          ![
            '202 queued',
            '429 this trigger already has its most runs waiting; try again later',
            '503 too many deliveries at once; try again',
          ].includes(k),
      ),
    ).toEqual([]);
    expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(60);
    // Still up: once a run is taken, the next delivery is queued.
    const [taken] = readdirSync(join(dataDir, 'runs', 'pending'));
    if (taken) rmSync(join(dataDir, 'runs', 'pending', taken));
    const body = JSON.stringify({ type: 'x' });
    expect((await post(url, body, signed(secret, 'after-flood', body))).status).toBe(202);
  });
});

describe('the host follows the store', () => {
  it('picks up an arm, a secret rotation and an uninstall made by another writer, without being told', async () => {
    const dataDir = tempDir('apollia-hooks-');
    await putTriggers(dataDir, []);
    const host = new TriggerHost({ dataDir, secretBox: createFileKeySecretBox(dataDir), port: 0 });
    await host.start();
    hosts.push(host);
    const first = (await putTriggers(dataDir, [triggerRecord({ id: HOOK, type: 'webhook' })])).get(HOOK) as string;
    await eventually(() => host.status().triggers[HOOK]?.state === 'listening');
    const body = JSON.stringify({ type: 'x' });
    expect((await post(host.urlOf(HOOK), body, signed(first, 'w1', body))).status).toBe(202);

    const second = (await putTriggers(dataDir, [triggerRecord({ id: HOOK, type: 'webhook' })])).get(HOOK) as string;
    await eventually(
      async () => (await post(host.urlOf(HOOK), body, signed(first, `w-old-${Date.now()}`, body))).status === 401,
    );
    expect((await post(host.urlOf(HOOK), body, signed(second, 'w2', body))).status).toBe(202);

    await new Store(dataDir).update((state) => {
      delete state.triggers[HOOK];
      return { result: undefined };
    });
    await eventually(() => host.status().triggers[HOOK] === undefined);
    expect((await post(host.urlOf(HOOK), body, signed(second, 'w3', body))).status).toBe(401);
  });
});
