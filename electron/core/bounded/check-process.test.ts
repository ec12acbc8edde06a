/**
 * The checker's process boundary: the app runs the bounded worker inside a utility process
 * (`check-process.cjs`), so what ends a whole process while checking — here the worker aborting its
 * process, as a native crash or a process-wide out-of-memory does — ends that process only, and the
 * package is refused. Electron cannot run here: the BUILT relay runs in a Node child forked with
 * structured-clone IPC, which speaks the same messages as Electron's `process.parentPort`.
 */
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { skipWithoutBuild } from '../../../test/helpers/built-output';
import { tempDir } from '../../../test/helpers/test-api';
import { inspectApo } from '../apollia/index';
import { BoundedChecker, type CheckerOptions, checkApo, relaySpawn } from './index';

const RELAY = new URL('../../../out/main/check-process.cjs', import.meta.url).pathname;
const apo = join(tempDir('apollia-process-'), 'invoices.apo');
writeFileSync(apo, packFolder(INVOICES_DIR, { gzip: true }));

const pids: number[] = [];
/** A spawn forking the built relay as a Node child, as `utilityProcess.fork` starts it in the app. */
const nodeChildSpawn = relaySpawn(() => {
  const child = fork(RELAY, [], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
  if (child.pid) pids.push(child.pid);
  return {
    post: (message) => child.send(message),
    onMessage: (listener) => child.on('message', listener),
    onExit: (listener) => child.on('exit', (code) => listener(code)),
    kill: () => child.kill(),
    ref: () => {
      child.ref();
      child.channel?.ref();
    },
    unref: () => {
      child.unref();
      child.channel?.unref();
    },
  };
});

const checkers: BoundedChecker[] = [];
function checker(options: CheckerOptions = {}): BoundedChecker {
  const made = new BoundedChecker({ spawn: nodeChildSpawn, ...options });
  checkers.push(made);
  return made;
}
afterAll(async () => {
  await Promise.all(checkers.map((c) => c.close()));
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(skipWithoutBuild(RELAY))('the checker in its own process (run `npm run build` first)', () => {
  test('answers what the reader answers in-thread', async () => {
    expect(await checkApo(apo, [], checker())).toEqual(await inspectApo(apo));
  });

  test('a package that aborts the checker’s whole process is refused; this process and the next check go on', async () => {
    const aborting = checker({ testMode: 'abort' });
    const refused = await checkApo(apo, [], aborting);
    expect(refused).toMatchObject({
      ok: false,
      kind: 'apo',
      summary: null,
      errors: [{ code: 'inspect.checker_crashed', message: expect.stringContaining('nothing else was affected') }],
    });
    expect(alive(process.pid)).toBe(true);
    const second = await checkApo(apo, [], aborting);
    expect(second.errors[0]?.code).toBe('inspect.checker_crashed');
    expect(aborting.workersStarted).toBe(2);
    expect((await checkApo(apo, [], checker())).ok).toBe(true);
  });

  test('keeps the budgets: over time is too_slow (the process is killed), over the heap cap too_large', async () => {
    const slow = checker({ testMode: 'slow', budgetMs: 500 });
    const before = pids.length;
    expect((await checkApo(apo, [], slow)).errors[0]?.code).toBe('inspect.too_slow');
    const slowPid = pids[before] as number;
    const hungry = checker({
      testMode: 'hungry',
      resourceLimits: { maxOldGenerationSizeMb: 24, maxYoungGenerationSizeMb: 4 },
      budgetMs: 60_000,
    });
    expect((await checkApo(apo, [], hungry)).errors[0]?.code).toBe('inspect.too_large');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(alive(slowPid)).toBe(false);
  }, 90_000);
});
