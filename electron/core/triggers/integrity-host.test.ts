/**
 * Integrity in the trigger host (DESIGN.md "Trust after install", "Triggers at run time"): the installed files are
 * re-hashed at the host's start and, before a fire, their size and mtime compared with what was hashed (a change means
 * a re-hash). A changed package's triggers are paused by integrity (still armed, the package marked changed in the
 * store, the pause recorded), under the in-process host and under `serve`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packFolder } from '../../../test/helpers/pack';
import { tempDir } from '../../../test/helpers/test-api';
import { runCliCaptured } from '../../../test/helpers/cli-run';
import { activity, changeTrigger, eventually, FakeClock, runRequests } from '../../../test/helpers/trigger-host';
import { createFileKeySecretBox } from '../secrets/secret-box';
import { INTEGRITY_INTERVAL_MS } from './fire-gate';
import { TriggerHost } from './trigger-host';

const ROOT = new URL('../../../', import.meta.url).pathname;
const WATCHER = join(ROOT, 'test/fixtures/apo/watcher');
const children: ChildProcess[] = [];
const hosts: TriggerHost[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const host of hosts.splice(0)) await host.stop();
});

/** The watcher installed, its hourly interval armed long ago (so it is due as soon as a host starts). */
async function watcherArmed(armedAt: string): Promise<string> {
  const dir = tempDir('apollia-integrity-host-');
  const dataDir = join(dir, 'data');
  const apo = join(dir, 'watcher.apo');
  writeFileSync(apo, packFolder(WATCHER));
  const cli = (argv: string[]) => runCliCaptured(['--data-dir', dataDir, ...argv], { cwd: dir });
  expect((await cli(['install', apo, '--yes'])).code).toBe(0);
  expect((await cli(['arm', 'watcher/hourly'])).code).toBe(0);
  await changeTrigger(dataDir, 'watcher/hourly', (t) => {
    t.armedAt = armedAt;
  });
  return dataDir;
}

function tamper(dataDir: string): void {
  const [version] = readdirSync(join(dataDir, 'packages', 'watcher'));
  appendFileSync(join(dataDir, 'packages', 'watcher', version as string, 'tools', 'tidy.py'), '\nimport os\n');
}

const state = (dataDir: string) => JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));

function serve(dataDir: string): Promise<{ child: ChildProcess; out: () => string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'electron/cli.ts'), '--data-dir', dataDir, 'serve', '--port', '0'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HOME: '/home/someone' } },
  );
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (c) => {
      out += c.toString();
      if (out.includes('stop with Ctrl-C')) resolve({ child, out: () => out });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}

describe('integrity in the trigger host', () => {
  it('a file changed after the host started: the size/mtime check before the fire re-hashes, pauses and records it', async () => {
    const dataDir = await watcherArmed('2026-12-01T09:00:00.000Z');
    const clock = new FakeClock(Date.parse('2026-12-01T09:30:00Z'));
    const host = new TriggerHost({
      dataDir,
      secretBox: createFileKeySecretBox(dataDir),
      port: 0,
      watchStore: false,
      clock,
      policy: { machine: null, env: null },
      onLine: (l) => lines.push(l),
    });
    const lines: string[] = [];
    await host.start();
    hosts.push(host);
    tamper(dataDir);
    clock.advanceTo('2026-12-01T10:30:00Z');
    await host.settled();
    expect(runRequests(dataDir)).toEqual([]);
    expect(lines).toContain('paused watcher: its files changed (tools/tidy.py)');
    // The mark and the record are written beside the fire path (the store's lock, the activity queue).
    const stored = await eventually(() => {
      const now = state(dataDir);
      return now.packageTrust.watcher.integrity.state === 'changed' && now;
    });
    expect(stored.packageTrust.watcher.integrity).toMatchObject({ state: 'changed', changed: ['tools/tidy.py'] });
    expect(stored.triggers['watcher/hourly'].armed).toBe(true);
    await host.stop();
    const paused = (await activity(dataDir)).filter((e) => e.kind === 'integrity_changed');
    expect(paused.map((e) => e.detail)).toEqual([
      expect.stringContaining('triggers paused by integrity, still armed: watcher/hourly'),
    ]);
  });

  it('the periodic re-hash finds a change that kept each file’s size and mtime, with no fire due to look', async () => {
    const dataDir = await watcherArmed('2026-12-01T09:00:00.000Z');
    const clock = new FakeClock(Date.parse('2026-12-01T09:05:00Z'));
    const host = new TriggerHost({
      dataDir,
      secretBox: createFileKeySecretBox(dataDir),
      port: 0,
      watchStore: false,
      clock,
      policy: { machine: null, env: null },
    });
    // Its time set to a whole second first, so it can be put back exactly.
    const [version] = readdirSync(join(dataDir, 'packages', 'watcher'));
    const file = join(dataDir, 'packages', 'watcher', version as string, 'tools', 'tidy.py');
    const then = new Date('2026-11-30T00:00:00Z');
    utimesSync(file, then, then);
    const before = statSync(file);
    await host.start();
    hosts.push(host);
    expect(Object.keys(host.status().triggers)).toEqual(['watcher/hourly']);
    // One byte swapped for another, the times put back: the size and mtime compared before a fire see nothing.
    const bytes = readFileSync(file);
    bytes[0] = bytes[0] === 0x23 ? 0x20 : 0x23;
    writeFileSync(file, bytes);
    utimesSync(file, then, then);
    expect([statSync(file).size, statSync(file).mtimeMs]).toEqual([before.size, before.mtimeMs]);
    // Before the interval, nothing re-hashes (no fire is due until 10:00).
    clock.advance(INTEGRITY_INTERVAL_MS - 120_000);
    await host.settled();
    expect(state(dataDir).packageTrust.watcher.integrity.state).toBe('ok');
    clock.advance(180_000);
    await eventually(() => state(dataDir).packageTrust.watcher.integrity.state === 'changed');
    await eventually(() => Object.keys(host.status().triggers).length === 0);
    clock.advanceTo('2026-12-01T10:30:00Z');
    await host.settled();
    expect(runRequests(dataDir)).toEqual([]);
    await host.stop();
    expect((await activity(dataDir)).filter((e) => e.kind === 'integrity_changed').length).toBe(1);
  });

  it('under serve: a tampered package’s due schedule does not fire; the same package untampered fires', async () => {
    const armedAt = new Date(Date.now() - 3 * 3_600_000).toISOString();
    const tampered = await watcherArmed(armedAt);
    tamper(tampered);
    const clean = await watcherArmed(armedAt);
    const [a, b] = await Promise.all([serve(tampered), serve(clean)]);
    const deadline = Date.now() + 10_000;
    while (runRequests(clean).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(runRequests(clean).map((r) => r.trigger)).toEqual(['watcher/hourly']);
    expect(runRequests(tampered)).toEqual([]);
    expect(a.out()).toContain('paused watcher: its files changed (tools/tidy.py)');
    expect(b.out()).not.toContain('paused watcher');
    expect(state(tampered).packageTrust.watcher.integrity.state).toBe('changed');
  }, 30_000);
});
