import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { putTriggers, runRequests, triggerRecord } from '../../../test/helpers/trigger-host';
import type { CliIo } from './cli-io';
import { runCli } from './dispatcher';
import { HOST_LOCK_FILE } from '../triggers/host-lock';
import { freePort } from '../../../test/helpers/free-port';

const ROOT = new URL('../../../', import.meta.url).pathname;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

async function cli(argv: string[], extra: Partial<CliIo> = {}) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    cwd: process.cwd(),
    env: { HOME: '/home/someone' },
    ...extra,
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

/** Spawns the CLI (through tsx, from source) and resolves once stdout holds `until`. */
function spawnCli(
  args: string[],
  until: string,
): Promise<{ child: ChildProcess; out: () => string; err: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'electron/cli.ts'), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (c) => {
      out += c.toString();
      if (out.includes(until)) resolve({ child, out: () => out, err: () => err });
    });
    child.stderr?.on('data', (c) => (err += c.toString()));
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
}

describe('serve and activity', () => {
  it('serve on a free port answers a signed delivery from another process and records it; SIGTERM stops it cleanly', async () => {
    const dataDir = join(tempDir('apollia-serve-'), 'data');
    const secrets = await putTriggers(dataDir, [
      triggerRecord({ id: 'crm/new-lead', type: 'webhook', agentId: 'crm/scorer', target: 'crm/scorer' }),
      triggerRecord({ id: 'reports/daily', type: 'cron', schedule: '0 6 * * *', armedAt: new Date().toISOString() }),
    ]);
    const port = await freePort();
    const serve = await spawnCli(['--data-dir', dataDir, 'serve', '--port', String(port)], 'stop with Ctrl-C');
    const url = `http://127.0.0.1:${port}/hooks/crm/new-lead`;
    expect(serve.out()).toContain(`listening crm/new-lead ${url}\n`);
    expect(serve.out()).toMatch(/scheduled reports\/daily next \d{4}-\d\d-\d\dT06:00:00\.000Z\n/);

    const second = await cli(['--data-dir', dataDir, 'serve', '--port', '0']);
    expect(second).toEqual({
      code: 3, // busy: the systemd unit does not restart on it (RestartPreventExitStatus=3)
      stdout: '',
      stderr: `apollia-desktop: another trigger host (pid ${serve.child.pid}) is already running on ${dataDir}; stop it first\n`,
    });

    const body = JSON.stringify({ type: 'lead.submitted', email: 'a@example.com' });
    const at = new Date();
    const secret = secrets.get('crm/new-lead') as string;
    const answer = await fetch(url, {
      method: 'POST',
      body,
      headers: {
        'webhook-id': 'msg_cli_1',
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign('msg_cli_1', at, body),
      },
    });
    expect([answer.status, await answer.text()]).toEqual([202, 'queued\n']);

    const exited = new Promise<number | null>((resolve) => serve.child.once('exit', (code) => resolve(code)));
    serve.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // The 202 came once the run was in the intake journal; its file is made off the answer's path, before serve ends.
    expect(runRequests(dataDir).map((r) => [r.trigger, r.payload?.webhook_id])).toEqual([
      ['crm/new-lead', 'msg_cli_1'],
    ]);
    expect(serve.out()).toContain('stopped (SIGTERM)\n');
    expect(serve.err()).toBe('');

    const listed = await cli(['--data-dir', dataDir, 'activity', '--json']);
    expect(listed.code).toBe(0);
    const events = JSON.parse(listed.stdout).events as {
      kind: string;
      trigger?: string;
      outcome: string;
      detail: string;
    }[];
    expect(events.map((e) => e.kind)).toEqual(['host_stopped', 'delivery_accepted', 'host_started']);
    expect(events[1]).toMatchObject({
      trigger: 'crm/new-lead',
      agent: 'crm/scorer',
      package: 'crm',
      outcome: 'ok',
      detail: expect.stringMatching(/^webhook-id msg_cli_1: run [0-9a-f-]{36} queued$/),
    });
    expect(listed.stdout).not.toContain(secret.slice(6));
    expect(listed.stdout).not.toContain('a@example.com');

    const filtered = JSON.parse(
      (await cli(['--data-dir', dataDir, 'activity', '--json', '--agent', 'crm/scorer', '--limit', '2'])).stdout,
    );
    expect(filtered.events.map((e: { kind: string }) => e.kind)).toEqual(['delivery_accepted']);
    const text = await cli(['--data-dir', dataDir, 'activity', '--limit', '1']);
    expect(text.stdout).toMatch(
      /^\S+Z {2}Triggers stopped · Done: nothing receives webhooks, watches folders or keeps schedules \(process \d+\)\n$/,
    );
  });

  it('serve stops cleanly in-process, and its usage errors and an empty log are plain', async () => {
    const dataDir = join(tempDir('apollia-serve-'), 'data');
    // The stop signal exists before serve asks for it: the command's module loads asynchronously.
    let stop: (signal: string) => void = () => undefined;
    const stopped = new Promise<string>((resolve) => (stop = resolve));
    const running = cli(['--data-dir', dataDir, 'serve', '--port', '0'], { untilStopped: () => stopped });
    stop('SIGINT');
    const done = await running;
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(
      /^serving .* on http:\/\/127\.0\.0\.1:\d+ \(pid \d+\); stop with Ctrl-C\nstopped \(SIGINT\)\n$/,
    );
    expect((await cli(['--data-dir', dataDir, 'serve', '--port', '70000'])).stderr).toContain(
      '--port needs a port number from 0 to 65535, not `70000`',
    );
    expect((await cli(['--data-dir', dataDir, 'activity', '--limit', '0'])).code).toBe(2);
    expect((await cli(['--data-dir', join(dataDir, 'none'), 'activity'])).stdout).toBe('No activity recorded.\n');
    expect(JSON.parse((await cli(['--data-dir', join(dataDir, 'none'), 'activity', '--json'])).stdout)).toEqual({
      events: [],
    });
  });

  it('a serve killed with SIGKILL leaves its host lock, and the next host takes it over through the store’s lock code', async () => {
    const dataDir = join(tempDir('apollia-serve-'), 'data');
    const killed = await spawnCli(['--data-dir', dataDir, 'serve', '--port', '0'], 'stop with Ctrl-C');
    const gone = new Promise((resolve) => killed.child.once('exit', resolve));
    killed.child.kill('SIGKILL');
    await gone;
    // The lock file is left behind, naming the dead process: no clean stop released it.
    expect(readFileSync(join(dataDir, HOST_LOCK_FILE), 'utf8')).toContain(String(killed.child.pid));
    let stop: (signal: string) => void = () => undefined;
    const stopped = new Promise<string>((resolve) => (stop = resolve));
    const next = cli(['--data-dir', dataDir, 'serve', '--port', '0'], { untilStopped: () => stopped });
    stop('SIGTERM');
    const done = await next;
    expect([done.code, done.stderr]).toEqual([0, '']);
    expect(done.stdout).toContain(`(pid ${process.pid}); stop with Ctrl-C\n`);
  });

  it('the trigger host takes and releases its lock with the store’s lock code only', () => {
    const source = readFileSync(join(ROOT, 'electron/core/triggers/host-lock.ts'), 'utf8');
    const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
    expect(imports.sort()).toEqual(['../store/pid-lock', 'node:path']);
    expect(source).not.toMatch(/process\.kill|unlink|open\(/);
  });
});
