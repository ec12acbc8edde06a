/**
 * `apollia-desktop serve` as a real process, for the trigger host's crash tests (`electron/core/triggers/intake-*.test.ts`):
 * run from source in its own process group (so strace and the host it traces end together), its output watched.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { hostLockHolder } from '../../electron/core/triggers/host-lock';

const ROOT = new URL('../../', import.meta.url).pathname;

/** Whether strace can be run here (the fault tests need it). */
export const hasStrace = spawnSync('strace', ['-V']).status === 0;

/** Every serve started, so a test's `afterEach` can end what is left ({@link endServes}). */
const children: ChildProcess[] = [];

/** Ends a host and, under strace, strace with it (its process group). */
export function endGroup(child: ChildProcess): void {
  try {
    process.kill(-(child.pid as number), 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * Waits until no live process holds the data folder's host lock: a host killed under strace may outlive strace for a
 * moment (its parent gone, not yet reaped).
 */
export async function hostGone(dataDir: string): Promise<void> {
  for (let i = 0; i < 200 && (await hostLockHolder(dataDir)) !== null; i++)
    await new Promise((resolve) => setTimeout(resolve, 50));
}

/** Ends every serve still running (a test's `afterEach`). */
export function endServes(): void {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) endGroup(child);
}

/** A started serve: `ready` once it listens (rejects if it ended first), `exited` with its signal or exit code. */
export interface ServeProcess {
  child: ChildProcess;
  ready: Promise<void>;
  exited: Promise<string>;
  out: () => string;
}

/** Starts `serve` (from source, a real process), optionally under strace. */
export function serve(
  dataDir: string,
  port: number,
  env: Record<string, string> = {},
  strace: string[] = [],
): ServeProcess {
  const node = [process.execPath, '--import', 'tsx', join(ROOT, 'electron/cli.ts')];
  const args = ['--data-dir', dataDir, 'serve', '--port', String(port)];
  const [command, ...rest] = strace.length > 0 ? ['strace', '-f', '-qq', '-o', '/dev/null', ...strace, ...node] : node;
  const child = spawn(command as string, [...rest, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
    detached: true,
  });
  children.push(child);
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? String(code))),
  );
  let out = '';
  let err = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (c) => {
      out += c.toString();
      if (out.includes('stop with Ctrl-C')) resolve();
    });
    child.stderr?.on('data', (c) => (err += c.toString()));
    void exited.then((how) => reject(new Error(`serve ended (${how}) before listening: ${err}`)));
  });
  // A test that waits for the exit instead must not see an unhandled rejection.
  ready.catch(() => undefined);
  return { child, ready, exited, out: () => out };
}
