/**
 * `serve` honours the organization's `webhookPort` over `--port` (DESIGN.md "Managed policy": the port is the
 * organization's, not the person's), and says that the port asked for is not used.
 */
import { createServer } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { runCli } from './dispatcher';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('serve --port under a policy that fixes the webhook port', () => {
  it("listens on the policy's port, not the one asked for, and says so", async () => {
    const dataDir = join(tempDir('apollia-serve-port-'), 'data');
    const [fixed, asked] = [await freePort(), await freePort()];
    const policy = join(tempDir('apollia-serve-port-policy-'), 'policy.json');
    writeFileSync(policy, JSON.stringify({ version: 1, webhookPort: fixed }));
    let stop: (signal: string) => void = () => undefined;
    const stopped = new Promise<string>((resolve) => (stop = resolve));
    let started: () => void = () => undefined;
    const serving = new Promise<void>((resolve) => (started = resolve));
    let stdout = '';
    let stderr = '';
    const running = runCli(['--data-dir', dataDir, 'serve', '--port', String(asked)], {
      cwd: process.cwd(),
      env: { HOME: '/home/someone', APOLLIA_POLICY_FILE: policy },
      stdout: (text) => {
        stdout += text;
        if (stdout.includes('stop with Ctrl-C')) started();
      },
      stderr: (text) => {
        stderr += text;
      },
      untilStopped: () => stopped,
    });
    // Asked once serve says it listens, not after a fixed wait: loading its modules takes longer on a busy machine.
    await Promise.race([
      serving,
      running.then((code) => Promise.reject(new Error(`serve ended (${code}): ${stderr}`))),
    ]);
    const answer = await fetch(`http://127.0.0.1:${fixed}/hooks/none`, { method: 'POST', body: '{}' });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    await expect(fetch(`http://127.0.0.1:${asked}/hooks/none`, { method: 'POST', body: '{}' })).rejects.toThrow();
    stop('SIGINT');
    expect(await running).toBe(0);
    expect(stdout).toContain(
      `--port ${asked} is not used: your organization's policy fixes the webhook port at ${fixed}\n`,
    );
    expect(stdout).toContain(`on http://127.0.0.1:${fixed} `);
  });
});
