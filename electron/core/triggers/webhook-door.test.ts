/**
 * The webhook door against a hostile local caller (DESIGN.md "Triggers at run time"): Host and
 * Origin checked, one answer for whatever is not a delivery, no slot an unsigned connection can
 * hold, no delivery lost on a failed write, replays keyed by the secret, noise counted not kept.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { ActivityLog } from '../activity/activity-log';
import { createFileKeySecretBox } from '../secrets/secret-box';
import { Store } from '../store/store';
import { tempDir } from '../../../test/helpers/test-api';
import { activity, putTriggers, runRequests, triggerRecord } from '../../../test/helpers/trigger-host';
import { JOURNAL_FILE, readRecords } from './intake-journal';
import { PENDING_DIR, type RunRequest, runFileName, TAKEN_DIR } from './run-requests';
import { TriggerHost, type TriggerHostOptions } from './trigger-host';
import { WAITING_HOLD_MAX } from './waiting-runs';
import type { ListenerLimits } from './webhook-listener';

const hosts: TriggerHost[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
});

const HOOK = 'crm/new-lead';

async function setup(
  limits: Partial<ListenerLimits> = {},
  extra: Parameters<typeof triggerRecord>[0][] = [],
  options: Partial<TriggerHostOptions> = {},
) {
  const dataDir = tempDir('apollia-door-');
  const lines: string[] = [];
  const secrets = await putTriggers(dataDir, [
    triggerRecord({ id: HOOK, type: 'webhook', agentId: 'crm/scorer', target: 'crm/scorer' }),
    ...extra.map(triggerRecord),
  ]);
  const host = new TriggerHost({
    dataDir,
    secretBox: createFileKeySecretBox(dataDir),
    port: 0,
    watchStore: false,
    listenerLimits: limits,
    onLine: (l) => lines.push(l),
    ...options,
  });
  await host.start();
  hosts.push(host);
  return { dataDir, host, lines, secret: secrets.get(HOOK) as string, url: host.urlOf(HOOK), secrets };
}

interface Answer {
  status: number;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; agent?: Agent } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'POST',
        headers: { 'content-type': 'application/json', ...options.headers },
        ...(options.agent ? { agent: options.agent } : {}),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

function signed(secret: string, id: string, body: string, at = new Date()): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  };
}

/** What may differ between two answers that must be the same: nothing but the date. */
const shape = (a: Answer) => ({ status: a.status, text: a.text, headers: { ...a.headers, date: undefined } });

describe('the webhook door', () => {
  it('answers a foreign Host, an unknown path and a wrong method with one and the same answer, armed or not', async () => {
    const { host, secret, url } = await setup();
    const body = JSON.stringify({ type: 'x' });
    const port = new URL(url).port;
    const answers = [
      await send(url, { body, headers: { ...signed(secret, 'rebind-1', body), host: `attacker.example:${port}` } }),
      await send(`${host.origin}/hooks/crm/unknown`, {
        body,
        headers: { ...signed(secret, 'rebind-2', body), host: `attacker.example:${port}` },
      }),
      await send(url, {
        body,
        headers: { ...signed(secret, 'rebind-3', body), host: `127.0.0.1:${Number(port) + 1}` },
      }),
      await send(url, { method: 'GET' }),
      await send(`${host.origin}/hooks/crm/unknown`, { method: 'GET' }),
      await send(url, { method: 'PUT', body, headers: signed(secret, 'put', body) }),
      await send(`${host.origin}/admin`, { body, headers: signed(secret, 'admin', body) }),
    ];
    expect(answers[0]).toMatchObject({ status: 404, text: 'not found\n' });
    for (const answer of answers) expect(shape(answer)).toEqual(shape(answers[0] as Answer));
    expect(answers[0]?.headers.allow).toBeUndefined();
    // localhost:PORT is this listener too.
    expect(
      (await send(url, { body, headers: { ...signed(secret, 'local', body), host: `localhost:${port}` } })).status,
    ).toBe(202);
  });

  it('refuses a request with an Origin header (a browser page), armed or unknown alike, before any check', async () => {
    const { dataDir, host, secret, url } = await setup();
    const body = JSON.stringify({ type: 'x' });
    const armed = await send(url, {
      body,
      headers: { ...signed(secret, 'page-1', body), origin: 'https://attacker.example' },
    });
    const unknown = await send(`${host.origin}/hooks/crm/unknown`, {
      body,
      headers: { ...signed(secret, 'page-2', body), origin: 'null' },
    });
    expect(armed).toMatchObject({
      status: 403,
      text: 'refused: a request from a browser page (it has an Origin header)\n',
    });
    expect(shape(unknown)).toEqual(shape(armed));
    await host.settled();
    expect(runRequests(dataDir)).toHaveLength(0);
  });

  it('answers an unknown /hooks/ address exactly as an armed one with a wrong secret', async () => {
    const { host, url } = await setup();
    const body = JSON.stringify({ type: 'x' });
    const wrong = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const armed = await send(url, { body, headers: signed(wrong, 'w-1', body) });
    const unknown = await send(`${host.origin}/hooks/crm/unknown`, { body, headers: signed(wrong, 'w-2', body) });
    expect(armed).toMatchObject({ status: 401, text: 'signature does not match\n' });
    expect(shape(unknown)).toEqual(shape(armed));
    const unsignedArmed = await send(url, { body });
    const unsignedUnknown = await send(`${host.origin}/hooks/crm/unknown`, { body });
    expect(unsignedArmed.status).toBe(401);
    expect(shape(unsignedUnknown)).toEqual(shape(unsignedArmed));
  });

  it('lets signed deliveries through while 100 idle or trickling unsigned connections are open, and closes them at the deadlines', async () => {
    const { dataDir, host, secret, url } = await setup({ headersTimeoutMs: 1_500, bodyTimeoutMs: 1_500 });
    const { port, pathname } = new URL(url);
    const closed: Promise<void>[] = [];
    const bodies: Socket[] = [];
    const open = (onConnect: (socket: Socket) => void) => {
      const socket = connect(Number(port), '127.0.0.1', () => onConnect(socket));
      socket.on('error', () => undefined);
      closed.push(new Promise((resolve) => socket.on('close', () => resolve())));
      sockets.push(socket);
    };
    const fake = {
      'webhook-id': 'x',
      'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
      'webhook-signature': 'v1,AAAA',
    };
    const fakeHeaders = Object.entries(fake)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    for (let i = 0; i < 34; i++) open(() => undefined);
    for (let i = 0; i < 33; i++) open((s) => s.write(`POST ${pathname} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`)); // headers, trickling
    for (let i = 0; i < 33; i++)
      open((s) => {
        bodies.push(s);
        s.write(`POST ${pathname} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${fakeHeaders}Content-Length: 1000\r\n\r\n{`);
      }); // a body, trickling
    const trickle = setInterval(() => {
      for (const s of sockets) if (!s.destroyed && s.writable) s.write(' ');
    }, 100);
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => {
          const body = JSON.stringify({ type: 'x', i });
          return send(url, { body, headers: signed(secret, `through-${i}`, body) });
        }),
      );
      expect(answers.map((a) => `${a.status} ${a.text.trim()}`)).toEqual(Array(8).fill('202 queued'));
      // Answered while the 33 bodies still trickle in (their deadline is 1.5 s away), not once they freed the door:
      // told by the connections, not by a time bound.
      expect(bodies.filter((s) => !s.destroyed)).toHaveLength(33);
      await host.settled();
      expect(runRequests(dataDir)).toHaveLength(8);
      // Every unsigned connection is closed by the header or the body deadline, trickling or not.
      await Promise.race([
        Promise.all(closed),
        new Promise((_, reject) => setTimeout(() => reject(new Error('connections still open')), 6_000)),
      ]);
    } finally {
      clearInterval(trickle);
    }
  });

  it('never loses a delivery: a run whose file cannot be made yet is queued in the journal (202), its file made once the folder is back, once', async () => {
    const { dataDir, host, secret, url } = await setup();
    mkdirSync(join(dataDir, 'runs'), { recursive: true });
    writeFileSync(join(dataDir, 'runs', 'pending'), 'not a folder');
    const body = JSON.stringify({ type: 'x' });
    const headers = signed(secret, 'msg_retry', body);
    expect(await send(url, { body, headers })).toMatchObject({ status: 202, text: 'queued\n' });
    rmSync(join(dataDir, 'runs', 'pending'));
    const until = Date.now() + 5_000;
    while (runRequests(dataDir).length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await host.settled();
    expect(runRequests(dataDir).map((r) => r.payload?.webhook_id)).toEqual(['msg_retry']);
    expect(await send(url, { body, headers })).toMatchObject({ status: 409 });
  });

  it('group commit: 16 deliveries at once share fewer journal syncs than deliveries, each 2xx with its run in the journal and counted waiting, its file made after; each id is then a replay (after a restart too), each run made once', async () => {
    const { dataDir, host, secret, url } = await setup();
    const delivery = (i: number) => {
      const body = JSON.stringify({ type: 'x', i });
      return { body, headers: signed(secret, `burst-${i}`, body) };
    };
    // At once: over 16 connections opened beforehand, so that the 16 requests are written in one turn and reach the
    // host together. Each on a connection of its own, their handshakes and reads spread over the host's turns on a
    // busy machine, and a delivery that arrives once the one before it synced rightly makes a batch of its own (16
    // batches were seen so, with the done records' batches counted too).
    const agent = new Agent({ keepAlive: true });
    let connections = 0;
    const createConnection = agent.createConnection.bind(agent);
    agent.createConnection = (...args: Parameters<typeof createConnection>) => {
      connections++;
      return createConnection(...args);
    };
    // Opened by deliveries signed with another secret: a 401 keeps the connection (a malformed request's answer closes
    // it).
    const other = `whsec_${randomBytes(32).toString('base64')}`;
    const opened = await Promise.all(
      Array.from({ length: 16 }, (_, i) => {
        const body = JSON.stringify({ type: 'x', i });
        return send(url, { body, headers: signed(other, `open-${i}`, body), agent });
      }),
    );
    expect(opened.map((a) => a.status)).toEqual(Array(16).fill(401));
    expect(connections).toBe(16);
    const before = host.intakeStats();
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        send(url, { ...delivery(i), agent }).then((answer) => {
          // A 2xx means the run is in the synced journal and counted as waiting (its file may still be on its way).
          const journaled = readRecords(readFileSync(join(dataDir, JOURNAL_FILE))).records.some(
            (r) => r.t === 'run' && r.seen?.id === `burst-${i}`,
          );
          return [answer.status, journaled, (host.status().triggers[HOOK]?.waiting ?? 0) > 0];
        }),
      ),
    );
    expect(answers).toEqual(Array.from({ length: 16 }, () => [202, true, true]));
    // Counted as the answers are in: the done records (each run's file fsynced) are batches of their own, later.
    const stats = host.intakeStats();
    agent.destroy();
    expect(connections).toBe(16);
    expect(stats.records - before.records).toBeGreaterThanOrEqual(16);
    expect(stats.batches - before.batches).toBeLessThan(16);
    await host.settled();
    expect(host.status().triggers[HOOK]?.waiting).toBe(16);
    expect(runRequests(dataDir)).toHaveLength(16);
    for (let i = 0; i < 16; i++) expect((await send(url, delivery(i))).status, `burst-${i} again`).toBe(409);
    await host.stop();
    const again = new TriggerHost({ dataDir, secretBox: createFileKeySecretBox(dataDir), port: 0, watchStore: false });
    await again.start();
    hosts.push(again);
    for (let i = 0; i < 16; i++)
      expect((await send(again.urlOf(HOOK), delivery(i))).status, `burst-${i} after a restart`).toBe(409);
    expect(
      runRequests(dataDir)
        .map((r) => r.payload?.webhook_id)
        .sort(),
    ).toEqual(Array.from({ length: 16 }, (_, i) => `burst-${i}`).sort());
  });

  it('a run taken into runs/taken/ and one still waiting are both done in the journal (the waiting one once its file is fsynced); a restart makes neither again', async () => {
    const steps: string[] = [];
    const { dataDir, host, secret, url } = await setup({}, [], { runFileFaults: { onTrace: (s) => steps.push(...s) } });
    const post = async (id: string) => {
      const body = JSON.stringify({ type: 'x', id });
      expect((await send(url, { body, headers: signed(secret, id, body) })).status).toBe(202);
      // The file follows the answer: wait for it (the runtime's side of the hand-off).
      for (let i = 0; i < 200 && !runRequests(dataDir).some((r) => r.payload?.webhook_id === id); i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      return runRequests(dataDir).find((r) => r.payload?.webhook_id === id) as RunRequest;
    };
    const taken = await post('taken-1');
    mkdirSync(join(dataDir, TAKEN_DIR), { recursive: true });
    renameSync(join(dataDir, PENDING_DIR, runFileName(taken)), join(dataDir, TAKEN_DIR, runFileName(taken)));
    const waiting = await post('waiting-1');
    await host.settled();
    expect(steps).toContain(`file-synced ${runFileName(waiting)}`);
    expect(steps).not.toContain(`file-synced ${runFileName(taken)}`);
    const done = readRecords(readFileSync(join(dataDir, JOURNAL_FILE))).records.flatMap((r) =>
      r.t === 'done' ? r.runs : [],
    );
    expect(done).toEqual(expect.arrayContaining([taken.id, waiting.id]));
    await host.stop();
    const again = new TriggerHost({ dataDir, secretBox: createFileKeySecretBox(dataDir), port: 0, watchStore: false });
    await again.start();
    hosts.push(again);
    await again.settled();
    expect(runRequests(dataDir).map((r) => r.id)).toEqual([waiting.id]);
    expect(readdirSync(join(dataDir, TAKEN_DIR))).toEqual([runFileName(taken)]);
  });

  it('a full queue answers 429 with Retry-After, never 2xx: 150 deliveries to a trigger with 100 waiting give 100 runs and 50 refusals', async () => {
    const { dataDir, host, secret, url } = await setup();
    const answers: Answer[] = [];
    for (let i = 0; i < 150; i++) {
      const body = JSON.stringify({ type: 'x', i });
      answers.push(await send(url, { body, headers: signed(secret, `q-${i}`, body) }));
    }
    await host.settled();
    const ok = answers.filter((a) => a.status >= 200 && a.status < 300);
    expect(ok).toHaveLength(runRequests(dataDir).length);
    expect(ok).toHaveLength(100);
    expect(answers.slice(100).every((a) => a.status === 429 && a.headers['retry-after'] === '60')).toBe(true);
  });

  it('a flood at the cap: 16 senders at once, 400 deliveries, no runtime taking runs: exactly 100 runs, each once, every other delivery 429, none answered 2xx without its run', async () => {
    const { dataDir, host, secret, url } = await setup();
    const answers = new Map<string, Answer>();
    let next = 0;
    const sender = async () => {
      for (let i = next++; i < 400; i = next++) {
        const body = JSON.stringify({ type: 'x', i });
        answers.set(`f-${i}`, await send(url, { body, headers: signed(secret, `f-${i}`, body) }));
      }
    };
    await Promise.all(Array.from({ length: 16 }, sender));
    await host.settled();
    const all = [...answers.values()];
    const ok = [...answers].filter(([, a]) => a.status >= 200 && a.status < 300).map(([id]) => id);
    expect(all).toHaveLength(400);
    expect(ok).toHaveLength(100);
    expect(all.filter((a) => a.status === 429)).toHaveLength(300);
    const runs = runRequests(dataDir);
    expect(runs).toHaveLength(100);
    // Each accepted delivery has exactly one run, and no refused one has any.
    expect(new Set(runs.map((r) => r.payload?.webhook_id)).size).toBe(100);
    expect(runs.map((r) => r.payload?.webhook_id).sort()).toEqual([...ok].sort());
  });

  it('a trigger whose runs cannot be filed holds at most WAITING_HOLD_MAX of the door’s slots: another trigger’s delivery is still queued, not 503', async () => {
    const slow = 'crm/slow';
    const { dataDir, host, secret, url, secrets } = await setup({ maxInFlight: WAITING_HOLD_MAX + 2 }, [
      { id: slow, type: 'webhook', maxConcurrent: 1 },
    ]);
    const slowUrl = host.urlOf(slow);
    const slowSecret = secrets.get(slow) as string;
    const deliver = (to: string, key: string, id: string) => {
      const body = JSON.stringify({ type: 'x', id });
      return send(to, { body, headers: signed(key, id, body) });
    };
    // Its run files cannot be made: its one run waiting (its limit) stays journaled and unfiled, so its next fires
    // are held at the limit.
    mkdirSync(join(dataDir, 'runs'), { recursive: true });
    writeFileSync(join(dataDir, 'runs', 'pending'), 'not a folder');
    expect((await deliver(slowUrl, slowSecret, 'slow-0')).status).toBe(202);
    const pressed = Array.from({ length: WAITING_HOLD_MAX + 4 }, (_, i) =>
      deliver(slowUrl, slowSecret, `slow-${i + 1}`),
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    // The door has two slots more than one trigger may hold: the other trigger's delivery finds one.
    expect(await deliver(url, secret, 'other-1')).toMatchObject({ status: 202, text: 'queued\n' });
    // Every pressed delivery of the full trigger is refused as full (held, then refused; or refused at once), none 503.
    const answers = await Promise.all(pressed);
    expect(answers.map((a) => a.status)).toEqual(Array(WAITING_HOLD_MAX + 4).fill(429));
    rmSync(join(dataDir, 'runs', 'pending'));
    const until = Date.now() + 5_000;
    while (runRequests(dataDir).length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await host.settled();
    expect(
      runRequests(dataDir)
        .map((r) => r.payload?.webhook_id)
        .sort(),
    ).toEqual(['other-1', 'slow-0']);
  });

  it('keys replays by the secret: a delivery captured for one trigger is refused on another with the same secret, and the shared secret is warned about', async () => {
    const dataDir = tempDir('apollia-door-');
    const secrets = await putTriggers(dataDir, [
      triggerRecord({ id: 'a/one', type: 'webhook' }),
      triggerRecord({ id: 'b/two', type: 'webhook' }),
    ]);
    await new Store(dataDir).update((state) => {
      (state.triggers['b/two'] as { secretRef: string | null }).secretRef = state.triggers['a/one']?.secretRef ?? null;
      return { result: undefined };
    });
    const lines: string[] = [];
    const host = new TriggerHost({
      dataDir,
      secretBox: createFileKeySecretBox(dataDir),
      port: 0,
      watchStore: false,
      onLine: (l) => lines.push(l),
    });
    await host.start();
    hosts.push(host);
    const secret = secrets.get('a/one') as string;
    const body = JSON.stringify({ type: 'x' });
    const headers = signed(secret, 'captured', body);
    expect((await send(host.urlOf('a/one'), { body, headers })).status).toBe(202);
    expect(await send(host.urlOf('b/two'), { body, headers })).toMatchObject({
      status: 409,
      text: 'replay: this webhook-id was already delivered\n',
    });
    await host.settled();
    expect(runRequests(dataDir).map((r) => r.trigger)).toEqual(['a/one']);
    expect(
      lines.filter((l) => l.startsWith('warning one signing secret is set on 2 triggers (a/one, b/two)')),
    ).toHaveLength(1);
    const warned = (await activity(dataDir)).filter(
      (e) => e.kind === 'trigger_problem' && e.detail.includes('one signing secret is set on 2 triggers'),
    );
    expect(warned.map((e) => e.trigger).sort()).toEqual(['a/one', 'b/two']);
    await host.reload();
    expect(lines.filter((l) => l.startsWith('warning'))).toHaveLength(1);
  });

  it('counts unsigned noise per cause per minute and never keeps what the caller sent (path, newline, secret)', async () => {
    const { dataDir, host, lines, url } = await setup();
    await new ActivityLog(dataDir).record({
      kind: 'install',
      package: 'crm',
      outcome: 'ok',
      detail: 'installed crm 1.0.0',
    });
    await new ActivityLog(dataDir).record({
      kind: 'arm',
      package: 'crm',
      trigger: HOOK,
      outcome: 'ok',
      detail: 'armed: webhook',
    });
    const secretInPath = `whsec_${Buffer.alloc(32, 5).toString('base64url')}`;
    const forged = '%0A2026-12-01T10:00:00.000Z  key_change_accepted ok      invoices  forged';
    const long = 'A'.repeat(15_000);
    for (let i = 0; i < 40; i++) await send(`${host.origin}/x/${long}${forged}${secretInPath}`, { method: 'GET' });
    for (let i = 0; i < 40; i++) await send(`${host.origin}/hooks/${long}${forged}`, { body: '{}' });
    for (let i = 0; i < 5; i++) await send(url, { body: '{}' });
    await host.stop();
    hosts.splice(0);
    const text = readFileSync(join(dataDir, 'activity', 'traffic.jsonl'), 'utf8') + lines.join('\n');
    expect(text).not.toContain('AAAAAAAAAA');
    expect(text).not.toContain('forged');
    expect(text).not.toContain(secretInPath.slice(6, 30));
    const refused = (await activity(dataDir)).filter((e) => e.kind === 'delivery_refused');
    const byCause = new Map<string, number>();
    for (const e of refused) {
      const match = /^(\d+) × .+? — (.+) \(HTTP (\d{3})\), in the minute/.exec(e.detail);
      expect(match).not.toBeNull();
      const cause = `${e.trigger ?? '-'} ${match?.[3]} ${match?.[2]}`;
      byCause.set(cause, (byCause.get(cause) ?? 0) + Number(match?.[1]));
    }
    expect(byCause).toEqual(
      new Map([
        ['- 404 not found', 40],
        ['- 401 missing signature headers (webhook-id, webhook-timestamp, webhook-signature)', 40],
        [`${HOOK} 401 missing signature headers (webhook-id, webhook-timestamp, webhook-signature)`, 5],
      ]),
    );
    expect(refused.length).toBeLessThanOrEqual(6); // one per cause per minute (a minute boundary may split one)
    // The person's decisions are still there, and the record's chains hold.
    expect((await new ActivityLog(dataDir).list({ decisionsOnly: true })).map((e) => e.kind)).toEqual([
      'arm',
      'install',
    ]);
    expect((await new ActivityLog(dataDir).verify()).intact).toBe(true);
  });
});
