/**
 * The intake journal across real crashes (DESIGN.md "Commit points"): `serve` is killed (SIGKILL) at
 * each step of a batch (`kill-point.ts`: after the append, after the sync, after the run file, after
 * the answer, during the trim) or at its first `fdatasync` by strace, then started again. Every
 * delivery answered 2xx has exactly one run; a delivery that got no answer, retried by its sender, is
 * accepted once (a new 202, or a 409 because its run was already made) and has exactly one run.
 * A sync failed by strace (EIO) is a 503 with Retry-After and leaves the id not seen.
 */
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../../test/helpers/free-port';
import { endGroup, endServes, hasStrace, hostGone, serve } from '../../../test/helpers/serve-process';
import { tempDir } from '../../../test/helpers/test-api';
import { putTriggers, runRequests, triggerRecord } from '../../../test/helpers/trigger-host';
import { ActivityLog } from '../activity/activity-log';
import { readJournalTraffic } from '../activity/traffic-commit';
import { webhookPath } from './webhook-listener';

const HOOK = 'crm/new-lead';
afterEach(endServes);

interface Delivery {
  id: string;
  body: string;
  headers: Record<string, string>;
}

function deliveries(secret: string, prefix: string, n: number): Delivery[] {
  const webhook = new Webhook(secret);
  return Array.from({ length: n }, (_, i) => {
    const id = `${prefix}-${i}`;
    const body = JSON.stringify({ type: 'lead.submitted', i });
    const at = new Date();
    return {
      id,
      body,
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': webhook.sign(id, at, body),
      },
    };
  });
}

/** Posts one delivery: its status and Retry-After, or null when no answer came (the host died). */
function post(port: number, d: Delivery): Promise<{ status: number; retryAfter?: string } | null> {
  return new Promise((resolve) => {
    const req = request(
      `http://127.0.0.1:${port}${webhookPath(HOOK)}`,
      { method: 'POST', headers: d.headers, agent: false },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ...(typeof res.headers['retry-after'] === 'string' ? { retryAfter: res.headers['retry-after'] } : {}),
          }),
        );
        res.on('error', () => resolve(null));
      },
    );
    req.on('error', () => resolve(null));
    req.end(d.body);
  });
}

async function setup() {
  const dataDir = join(tempDir('apollia-crash-'), 'data');
  const secrets = await putTriggers(dataDir, [
    triggerRecord({ id: HOOK, type: 'webhook', agentId: 'crm/scorer', target: 'crm/scorer' }),
  ]);
  return { dataDir, secret: secrets.get(HOOK) as string, port: await freePort() };
}

/** The runs each webhook-id has in runs/pending/. */
function runsById(dataDir: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const run of runRequests(dataDir)) {
    const id = run.payload?.webhook_id ?? '';
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/**
 * A burst to a host that dies mid-batch, then a restart and the senders' retries: each 2xx has exactly one
 * run and is a replay now; each unanswered one is accepted once on retry (202, or 409 when its run was made).
 */
async function crashAndRecover(env: Record<string, string>, strace: string[] = []) {
  const { dataDir, secret, port } = await setup();
  const first = serve(dataDir, port, env, strace);
  await first.ready;
  const burst = deliveries(secret, 'burst', 8);
  const answers = await Promise.all(burst.map((d) => post(port, d)));
  expect(await first.exited).toBe('SIGKILL');
  await hostGone(dataDir);
  const again = serve(dataDir, port);
  await again.ready;
  const retried: (number | undefined)[] = [];
  for (const [i, d] of burst.entries()) {
    const answer = answers[i];
    const retry = await post(port, d);
    if (answer && answer.status >= 200 && answer.status < 300) expect(retry?.status, `${d.id} answered 2xx`).toBe(409);
    else {
      expect([202, 409], `${d.id} not answered 2xx`).toContain(retry?.status);
      retried.push(retry?.status);
      expect((await post(port, d))?.status, `${d.id} retried twice`).toBe(409);
    }
  }
  again.child.kill('SIGTERM');
  await again.exited;
  const runs = runsById(dataDir);
  expect(
    burst.map((d) => [d.id, runs.get(d.id) ?? 0]),
    'exactly one run per delivery',
  ).toEqual(burst.map((d) => [d.id, 1]));
  expect(runs.size).toBe(burst.length);
  return { answers, retried };
}

describe('the intake journal across real crashes (serve killed mid-batch, then restarted)', () => {
  for (const step of ['after-append', 'after-sync', 'after-run-file', 'after-answer', 'during-trim']) {
    it(`killed ${step}: every 2xx has exactly one run, every unanswered delivery is accepted once on retry`, async () => {
      const env: Record<string, string> = { APOLLIA_TEST_KILL_AT: step };
      if (step === 'during-trim') env.APOLLIA_TEST_JOURNAL_TRIM_BYTES = '1';
      const { answers } = await crashAndRecover(env);
      const answered = answers.filter((a) => a !== null && a.status === 202).length;
      // Before the answer nothing was answered; after it (before or after its run files were made), the whole first
      // batch was.
      if (step === 'after-answer' || step === 'after-run-file') expect(answered).toBeGreaterThan(0);
      if (step === 'after-append' || step === 'after-sync') expect(answered).toBe(0);
    }, 60_000);
  }

  it.skipIf(!hasStrace)(
    'killed by strace at its first fdatasync: the same',
    async () => {
      const { answers } = await crashAndRecover({}, [
        '-e',
        'trace=fdatasync',
        '-e',
        'inject=fdatasync:signal=SIGKILL:when=1',
      ]);
      expect(answers.every((a) => a === null)).toBe(true);
    },
    60_000,
  );

  it.skipIf(!hasStrace)(
    'a failed sync (strace: EIO) answers 503 with Retry-After and leaves the ids not seen: the retries are queued, once',
    async () => {
      const { dataDir, secret, port } = await setup();
      // strace counts per thread: the first fdatasync of each of libuv's pool threads fails.
      const host = serve(dataDir, port, {}, ['-e', 'trace=fdatasync', '-e', 'inject=fdatasync:error=EIO:when=1']);
      await host.ready;
      const burst = deliveries(secret, 'eio', 4);
      const answers = await Promise.all(burst.map((d) => post(port, d)));
      // The first batch failed: each of its deliveries is a 503 with Retry-After; a later batch may have passed.
      const failed = answers.filter((a) => a?.status === 503);
      expect(failed.length).toBeGreaterThan(0);
      for (const a of failed) expect(a?.retryAfter).toBe('5');
      for (const [i, d] of burst.entries()) {
        if (answers[i]?.status !== 503) {
          expect((await post(port, d))?.status, `${d.id} was queued`).toBe(409);
          continue;
        }
        // Not seen: the sender's retry is taken (after at most one more failed sync per pool thread).
        let retry = await post(port, d);
        for (let n = 0; n < 4 && retry?.status === 503; n++) retry = await post(port, d);
        expect(retry?.status, d.id).toBe(202);
        expect((await post(port, d))?.status, `${d.id} again`).toBe(409);
      }
      // strace would not pass a SIGTERM on, so the group is killed: a 202 means the run is in the journal, and the
      // next start makes every file still to be made.
      endGroup(host.child);
      await host.exited;
      await hostGone(dataDir);
      const again = serve(dataDir, port);
      await again.ready;
      again.child.kill('SIGTERM');
      await again.exited;
      const runs = runsById(dataDir);
      expect(burst.map((d) => runs.get(d.id) ?? 0)).toEqual(burst.map(() => 1));
    },
    60_000,
  );

  it('killed after the journal synced traffic, before traffic.jsonl: the restart appends it once, verify intact', async () => {
    const { dataDir, secret, port } = await setup();
    const first = serve(dataDir, port, { APOLLIA_TEST_KILL_AT: 'after-traffic-sync' });
    await first.ready;
    const burst = deliveries(secret, 'traffic', 4);
    await Promise.all(burst.map((d) => post(port, d)));
    expect(await first.exited).toBe('SIGKILL');
    await hostGone(dataDir);
    const log = new ActivityLog(dataDir);
    const trafficSeqs = () =>
      existsSync(log.trafficPath())
        ? readFileSync(log.trafficPath(), 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => (JSON.parse(l) as { seq: number }).seq)
        : [];
    // The journal committed more than traffic.jsonl holds: the kill struck between the two.
    const committed = await readJournalTraffic(dataDir);
    expect(committed?.head.count ?? 0).toBeGreaterThan(trafficSeqs().length);
    const again = serve(dataDir, port);
    await again.ready;
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe('0');
    const seqs = trafficSeqs();
    expect(seqs, 'each traffic entry once, in order').toEqual(seqs.map((_, i) => i + 1));
    expect(seqs.length).toBeGreaterThanOrEqual(committed?.head.count ?? 0);
    const report = await log.verify();
    expect(report.traffic).toMatchObject({ intact: true, headSource: 'committed' });
    expect(report.recordedBreaks).toEqual([]);
  }, 60_000);
});
