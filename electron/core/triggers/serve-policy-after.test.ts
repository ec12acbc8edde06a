/**
 * `serve` under a policy written AFTER the install (DESIGN.md "Managed policy": the trigger host before each fire, for
 * what is installed as much as for what is new): a package the policy now refuses whole neither receives its webhook
 * deliveries (the same answer as an unknown address, no run) nor fires its due schedule; the same package on a data
 * folder whose policy allows it does both.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { packFolder } from '../../../test/helpers/pack';
import { tempDir } from '../../../test/helpers/test-api';
import { runCliCaptured } from '../../../test/helpers/cli-run';
import { changeTrigger, runRequests } from '../../../test/helpers/trigger-host';
import { webhookPath } from './webhook-listener';

const ROOT = new URL('../../../', import.meta.url).pathname;
const WATCHER = join(ROOT, 'test/fixtures/apo/watcher');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** The watcher installed with no policy, its webhook and its hourly armed (due), then `policy` written. */
async function installedThenPolicy(policy: object) {
  const dir = tempDir('apollia-serve-policy-');
  const dataDir = join(dir, 'data');
  const policyFile = join(dir, 'policy.json');
  writeFileSync(policyFile, JSON.stringify({ version: 1 }));
  const env = { HOME: '/home/someone', APOLLIA_POLICY_FILE: policyFile };
  const apo = join(dir, 'watcher.apo');
  writeFileSync(apo, packFolder(WATCHER));
  const cli = (argv: string[]) => runCliCaptured(['--data-dir', dataDir, ...argv], { cwd: dir, env });
  expect((await cli(['install', apo, '--yes'])).code).toBe(0);
  expect((await cli(['arm', 'watcher/hourly'])).code).toBe(0);
  const armed = await cli(['arm', 'watcher/on-call']);
  const secret = /whsec_\S+/.exec(armed.stdout)?.[0];
  if (!secret) throw new Error(`no secret: ${armed.stdout}`);
  await changeTrigger(dataDir, 'watcher/hourly', (t) => {
    t.armedAt = new Date(Date.now() - 3 * 3_600_000).toISOString();
  });
  writeFileSync(policyFile, JSON.stringify(policy));
  return { dataDir, env, secret };
}

function serve(dataDir: string, env: Record<string, string>): Promise<{ origin: string; out: () => string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'electron/cli.ts'), '--data-dir', dataDir, 'serve', '--port', '0'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
  );
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (c) => {
      out += c.toString();
      const origin = / on (http:\/\/127\.0\.0\.1:\d+) \(pid/.exec(out)?.[1];
      if (origin && out.includes('stop with Ctrl-C')) resolve({ origin, out: () => out });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}

function deliver(url: string, secret: string): Promise<number> {
  const body = JSON.stringify({ type: 'lead.created' });
  const at = new Date();
  const id = `msg_${Math.random().toString(36).slice(2)}`;
  const headers = {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  };
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('serve under a policy written after the install', () => {
  it('a package it refuses whole: its webhook delivery is refused and its due schedule does not fire; allowed, both run', async () => {
    const refused = await installedThenPolicy({ version: 1, requireSignature: 'trusted' });
    const allowed = await installedThenPolicy({ version: 1 });
    const [a, b] = await Promise.all([serve(refused.dataDir, refused.env), serve(allowed.dataDir, allowed.env)]);
    const path = webhookPath('watcher/on-call');
    expect(await deliver(`${b.origin}${path}`, allowed.secret)).toBeLessThan(300);
    const status = await deliver(`${a.origin}${path}`, refused.secret);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBe(await deliver(`${a.origin}${webhookPath('nobody/unknown')}`, refused.secret));
    const deadline = Date.now() + 10_000;
    while (runRequests(allowed.dataDir).length < 2 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(
      runRequests(allowed.dataDir)
        .map((r) => r.trigger)
        .sort(),
    ).toEqual(['watcher/hourly', 'watcher/on-call']);
    expect(runRequests(refused.dataDir)).toEqual([]);
    expect(a.out()).not.toContain('listening watcher/on-call');
    expect(b.out()).toContain('listening watcher/on-call');
  }, 60_000);
});
