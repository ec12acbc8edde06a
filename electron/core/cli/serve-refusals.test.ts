/**
 * `serve`'s refusals follow the one contract (DESIGN.md "The command line"): a sentence in text, and with `--json`
 * one document `{ ok: false, errors: [{ code, message, path }] }` on standard output; a busy data folder stays exit 3
 * (DESIGN.md "Commit points"), a port in use (the one asked for, or the one the organization's policy fixes) exit 1.
 */
import { createServer, type Server } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { runCliCaptured, serveInProcess } from '../../../test/helpers/cli-run';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A port something else listens on, on 127.0.0.1. */
function takenPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    servers.push(server);
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
}

function refusal(stdout: string) {
  const doc = JSON.parse(stdout);
  expect(Object.keys(doc).sort()).toEqual(['errors', 'ok']);
  expect(doc.ok).toBe(false);
  expect(doc.errors).toHaveLength(1);
  return doc.errors[0] as { code: string; message: string; path: string | null };
}

describe('serve refuses in words, and in one document with --json', () => {
  it('a data folder another host serves: exit 3, the sentence or the document', async () => {
    const dataDir = join(tempDir('apollia-serve-refusals-'), 'data');
    const first = serveInProcess(['--data-dir', dataDir, 'serve', '--port', '0']);
    await first.listening;
    try {
      const text = await runCliCaptured(['--data-dir', dataDir, 'serve', '--port', '0']);
      expect([text.code, text.stdout]).toEqual([3, '']);
      expect(text.stderr).toMatch(
        /^apollia-desktop: another trigger host \(pid \d+\) is already running on .*; stop it first\n$/,
      );
      const json = await runCliCaptured(['--data-dir', dataDir, 'serve', '--port', '0', '--json']);
      expect([json.code, json.stderr]).toEqual([3, '']);
      expect(refusal(json.stdout)).toEqual({
        code: 'serve.busy',
        message: expect.stringContaining('another trigger host'),
        path: null,
      });
    } finally {
      first.stop('SIGINT');
    }
    expect((await first.done).code).toBe(0);
  });

  it('a port in use: exit 1, what to do, and the --port it is about', async () => {
    const dataDir = join(tempDir('apollia-serve-refusals-'), 'data');
    const port = await takenPort();
    const text = await runCliCaptured(['--data-dir', dataDir, 'serve', '--port', String(port)]);
    expect([text.code, text.stdout]).toEqual([1, '']);
    expect(text.stderr).toBe(
      `apollia-desktop: port ${port} on 127.0.0.1 is in use: pick another with --port (0 picks a free one)\n`,
    );
    const json = await runCliCaptured(['--data-dir', dataDir, 'serve', '--port', String(port), '--json']);
    expect([json.code, json.stderr]).toEqual([1, '']);
    expect(refusal(json.stdout)).toEqual({
      code: 'serve.port_in_use',
      message: expect.stringContaining(`port ${port} on 127.0.0.1 is in use`),
      path: '--port',
    });
    // A refused start leaves the folder free: the next serve on a free port starts.
    let stop: (signal: string) => void = () => undefined;
    const stopped = new Promise<string>((resolve) => (stop = resolve));
    const next = runCliCaptured(['--data-dir', dataDir, 'serve', '--port', '0'], { untilStopped: () => stopped });
    stop('SIGTERM');
    expect((await next).code).toBe(0);
  });

  it("the organization's port in use: the policy is named, not --port", async () => {
    const dataDir = join(tempDir('apollia-serve-refusals-'), 'data');
    const port = await takenPort();
    const policy = join(tempDir('apollia-serve-refusals-policy-'), 'policy.json');
    writeFileSync(policy, JSON.stringify({ version: 1, webhookPort: port }));
    const env = { HOME: '/home/someone', APOLLIA_POLICY_FILE: policy };
    const text = await runCliCaptured(['--data-dir', dataDir, 'serve'], { env });
    expect(text.code).toBe(1);
    expect(text.stderr).toContain(`your organization's policy fixes the webhook port at ${port}`);
    expect(text.stderr).not.toContain('pick another with --port');
    const json = await runCliCaptured(['--data-dir', dataDir, 'serve', '--json'], { env });
    expect(json.code).toBe(1);
    expect(refusal(json.stdout)).toMatchObject({ code: 'serve.port_in_use', path: null });
  });

  it('an unreadable policy: serve says no trigger is made live until it is fixed', async () => {
    const dataDir = join(tempDir('apollia-serve-refusals-'), 'data');
    const policy = join(tempDir('apollia-serve-refusals-policy-'), 'policy.json');
    writeFileSync(policy, '{ not json');
    let stop: (signal: string) => void = () => undefined;
    const stopped = new Promise<string>((resolve) => (stop = resolve));
    const running = runCliCaptured(['--data-dir', dataDir, 'serve', '--port', '0'], {
      env: { HOME: '/home/someone', APOLLIA_POLICY_FILE: policy },
      untilStopped: () => stopped,
    });
    stop('SIGINT');
    const done = await running;
    expect(done.code).toBe(0);
    expect(done.stderr).toMatch(
      new RegExp(
        `^apollia-desktop: note: your organization's policy ${policy} cannot be used \\(.+\\): no trigger is made live until it is fixed\n$`,
      ),
    );
  });
});
