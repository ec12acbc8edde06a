/**
 * Starts one e2e harness server (`e2e/harness/server.ts`) per Playwright worker, on a free port,
 * so workers never share a data folder. Stopped by its own pid when the worker ends.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { REPO_ROOT } from './electron-binary';

/** A port the OS says is free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no free port')),
      );
    });
  });
}

/** A running harness: its base URL, and how to stop it. */
export interface HarnessProcess {
  url: string;
  stop(): Promise<void>;
}

/** Spawns the harness with tsx and waits until `/test/health` answers. */
export async function startHarness(): Promise<HarnessProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(REPO_ROOT, 'e2e', 'harness', 'server.ts')],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, E2E_PORT: String(port), TZ: 'UTC' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));

  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`the e2e harness exited (${child.exitCode}):\n${output}`);
    try {
      const response = await fetch(`${url}/test/health`);
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((wait) => setTimeout(wait, 100));
    if (attempt === 299) {
      child.kill('SIGTERM');
      throw new Error(`the e2e harness did not start on ${url}:\n${output}`);
    }
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
