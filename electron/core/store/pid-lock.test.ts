import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { lockPid, parseHolder, releaseLock, tryTakeLock } from './pid-lock';

const ROOT = new URL('../../../', import.meta.url).pathname;
const RACER = join(ROOT, 'test/helpers/lock-racer.ts');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

interface Racer {
  child: ChildProcess;
  ready: Promise<void>;
  lines: Promise<string[]>;
}

/** Starts a racer process; `lines` resolves with its stdout lines after `ready`, once it has printed `count`. */
function racer(args: string[], count = 1): Racer {
  const child = spawn(process.execPath, ['--import', 'tsx', RACER, ...args], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  let onReady = () => {};
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  const lines = new Promise<string[]>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      out += chunk.toString();
      const got = out.split('\n').filter(Boolean);
      if (got[0] === 'ready') onReady();
      if (got.length > count) resolve(got.slice(1));
    });
    child.stderr?.on('data', (chunk) => (err += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`racer exited with ${code} after ${JSON.stringify(out)}: ${err}`)));
  });
  return { child, ready, lines };
}

/** Starts the racers together, once every one has loaded. */
async function race(racers: Racer[]): Promise<string[][]> {
  await Promise.all(racers.map((r) => r.ready));
  const startAt = Date.now() + 300;
  for (const r of racers) r.child.stdin?.end(`${startAt}\n`);
  return Promise.all(racers.map((r) => r.lines));
}

const DEAD_PID = 2147483646;
const bootId = () => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();

describe('tryTakeLock: one pid lock rule for the store, the record and the trigger host', () => {
  it('takes a free lock, writing its pid, boot and start time whole; a second take answers the holder', async () => {
    const path = join(tempDir('apollia-lock-'), 'x.lock');
    expect(await tryTakeLock(path)).toEqual({ taken: true });
    const text = readFileSync(path, 'utf8');
    expect(text).toMatch(new RegExp(`^${process.pid} boot=${bootId()} start=\\d+ nonce=[0-9a-f]{16}\\n$`));
    expect(parseHolder(text)?.pid).toBe(process.pid);
    expect(await tryTakeLock(path)).toEqual({ taken: false, holder: process.pid });
    expect(await lockPid(path)).toBe(process.pid);
    // No temp file or gate is left beside it.
    expect(readdirSync(join(path, '..'))).toEqual(['x.lock']);
  });

  it.each([
    ['empty (killed between create and write)', ''],
    ['torn (a pid cut short)', '12'],
    ['not a lock line', 'hello\n'],
    ['of a dead pid', `${DEAD_PID}\n`],
    ['of a dead pid, in the full form', `${DEAD_PID} boot=${'0'.repeat(8)} start=1 nonce=00\n`],
    ['from an earlier boot (this very pid, reused)', `${process.pid} boot=not-this-boot start=1 nonce=00\n`],
    ['of a later process that reused the pid', `${process.pid} boot=- start=1 nonce=00\n`],
  ])('a lock left %s never blocks', async (_why, text) => {
    const path = join(tempDir('apollia-lock-'), 'stale.lock');
    writeFileSync(path, text);
    expect(await lockPid(path)).toBeNull();
    expect(await tryTakeLock(path)).toEqual({ taken: true });
    expect(parseHolder(readFileSync(path, 'utf8'))?.pid).toBe(process.pid);
  });

  it('an unreadable lock (a folder in its place it cannot remove) is refused with no holder, not taken', async () => {
    const path = join(tempDir('apollia-lock-'), 'dir.lock');
    mkdirSync(join(path, 'inner'), { recursive: true });
    expect(await tryTakeLock(path)).toEqual({ taken: false, holder: null });
  });

  it('leftover temp files and gates of dead processes are swept when the lock is taken', async () => {
    const dir = tempDir('apollia-lock-');
    const path = join(dir, 's.lock');
    writeFileSync(`${path}.${DEAD_PID}.0123456789ab.tmp`, `${DEAD_PID}\n`);
    writeFileSync(`${path}.stale-0011223344556677`, `${DEAD_PID}\n`);
    expect(await tryTakeLock(path)).toEqual({ taken: true });
    expect(readdirSync(dir)).toEqual(['s.lock']);
  });

  it('releases only a lock this process holds', async () => {
    const dir = tempDir('apollia-lock-');
    const other = join(dir, 'other.lock');
    writeFileSync(other, '1\n');
    await releaseLock(other);
    expect(existsSync(other)).toBe(true);
    const mine = join(dir, 'mine.lock');
    await tryTakeLock(mine);
    await releaseLock(mine);
    expect(existsSync(mine)).toBe(false);
  });
});

describe('the lock across real processes', () => {
  it('a holder killed with SIGKILL never blocks the next taker', async () => {
    const path = join(tempDir('apollia-lock-'), 'k.lock');
    const holder = racer(['once', path]);
    expect(await race([holder])).toEqual([['taken']]);
    expect(await lockPid(path)).toBe(holder.child.pid);
    expect(await tryTakeLock(path)).toEqual({ taken: false, holder: holder.child.pid });
    const exited = new Promise((resolve) => holder.child.once('exit', resolve));
    holder.child.kill('SIGKILL');
    await exited;
    expect(await tryTakeLock(path)).toEqual({ taken: true });
  }, 30_000);

  it('12 processes racing for a stale lock: exactly one holder', async () => {
    const path = join(tempDir('apollia-lock-'), 'race.lock');
    writeFileSync(path, `${DEAD_PID} boot=- start=- nonce=00\n`);
    const racers = Array.from({ length: 12 }, () => racer(['once', path]));
    const answers = (await race(racers)).map((lines) => lines[0]);
    expect(answers.filter((a) => a === 'taken')).toHaveLength(1);
    expect(answers.filter((a) => a === 'refused')).toHaveLength(11);
    const winner = racers[answers.indexOf('taken')]?.child.pid;
    expect(await lockPid(path)).toBe(winner);
  }, 60_000);

  it('12 processes taking turns through a stale lock: every one gets in, never two at once', async () => {
    const path = join(tempDir('apollia-lock-'), 'turns.lock');
    writeFileSync(path, '');
    const racers = Array.from({ length: 12 }, () => racer(['rounds', path, '4']));
    const outputs = await race(racers);
    expect(outputs.flat()).toEqual(Array(12).fill('done'));
    expect(existsSync(path)).toBe(false);
  }, 60_000);
});
