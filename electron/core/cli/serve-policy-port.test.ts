/**
 * `serve` honours the organization's `webhookPort` over `--port` (DESIGN.md "Managed policy": the port is the
 * organization's, not the person's), and says that the port asked for is not used.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { serveInProcess } from '../../../test/helpers/cli-run';
import { freePort } from '../../../test/helpers/free-port';

describe('serve --port under a policy that fixes the webhook port', () => {
  it("listens on the policy's port, not the one asked for, and says so", async () => {
    const dataDir = join(tempDir('apollia-serve-port-'), 'data');
    const [fixed, asked] = [await freePort(), await freePort()];
    const policy = join(tempDir('apollia-serve-port-policy-'), 'policy.json');
    writeFileSync(policy, JSON.stringify({ version: 1, webhookPort: fixed }));
    const serve = serveInProcess(['--data-dir', dataDir, 'serve', '--port', String(asked)], {
      env: { HOME: '/home/someone', APOLLIA_POLICY_FILE: policy },
    });
    await serve.listening;
    const answer = await fetch(`http://127.0.0.1:${fixed}/hooks/none`, { method: 'POST', body: '{}' });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    await expect(fetch(`http://127.0.0.1:${asked}/hooks/none`, { method: 'POST', body: '{}' })).rejects.toThrow();
    serve.stop('SIGINT');
    const done = await serve.done;
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(
      `--port ${asked} is not used: your organization's policy fixes the webhook port at ${fixed}\n`,
    );
    expect(done.stdout).toContain(`on http://127.0.0.1:${fixed} `);
  });
});
