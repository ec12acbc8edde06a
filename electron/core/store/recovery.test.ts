/**
 * The open-time recovery of each interrupted step (DESIGN.md "Commit points"; `recovery.ts`,
 * `ActivityLog.recover`): what a process killed between two of a change's steps leaves, and what the
 * next store to open the folder makes of it. The leftovers are the ones `npm run faults` produces
 * by killing the built CLI at those steps.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { ActivityLog } from '../activity/activity-log';
import { emptyState } from './state';
import { Store, type StoreOptions } from './store';

/** A store with its record, as the Api and the trigger host open one. */
const opened = (dataDir: string, options: StoreOptions = {}) =>
  new Store(dataDir, { record: new ActivityLog(dataDir), ...options });

/** A pid no process has any more (a child that ran and ended). */
const deadPid = (): number => spawnSync(process.execPath, ['-e', '']).pid as number;

function place(dataDir: string, rel: string): void {
  mkdirSync(join(dataDir, rel), { recursive: true });
  writeFileSync(join(dataDir, rel, 'apollia.toml'), 'x');
}

/** A state naming `dirs` as installed packages' folders. */
function stateNaming(dataDir: string, dirs: string[]): void {
  const state = emptyState();
  for (const dir of dirs) {
    const name = dir.split('/')[1] as string;
    state.packages[name] = {
      name,
      version: '1.0.0',
      publisher: 'p',
      description: '',
      sha256: 'a'.repeat(64),
      installedAt: '2026-12-01T10:00:00.000Z',
      updatedAt: null,
      dir,
      manifest: {} as never,
    };
  }
  writeFileSync(join(dataDir, 'state.json'), JSON.stringify(state));
}

const touch = (store: Store) => store.update(() => ({ result: null, write: false }));
const logged = () => {
  const lines: string[] = [];
  return { lines, log: (message: string) => lines.push(message) };
};

describe('the open-time recovery of an interrupted change', () => {
  it('an install killed after placing its folder, before its commit: the folder no state names is removed', async () => {
    const dataDir = tempDir();
    place(dataDir, 'packages/invoices/1.2.0');
    const { lines, log } = logged();
    await touch(opened(dataDir, { log }));
    expect(existsSync(join(dataDir, 'packages'))).toBe(false);
    expect(lines.join('\n')).toContain('packages/invoices/1.2.0');
  });

  it('an update killed before removing the version it replaced: the old version goes, the named one stays', async () => {
    const dataDir = tempDir();
    place(dataDir, 'packages/invoices/1.0.0');
    place(dataDir, 'packages/invoices/1.1.0');
    place(dataDir, 'packages/ledger/2.0.0');
    stateNaming(dataDir, ['packages/invoices/1.1.0', 'packages/ledger/2.0.0']);
    await touch(opened(dataDir, { log: () => undefined }));
    expect(existsSync(join(dataDir, 'packages/invoices/1.0.0'))).toBe(false);
    expect(existsSync(join(dataDir, 'packages/invoices/1.1.0/apollia.toml'))).toBe(true);
    expect(existsSync(join(dataDir, 'packages/ledger/2.0.0/apollia.toml'))).toBe(true);
  });

  it('a state naming a whole package folder (an older layout) keeps everything in it', async () => {
    const dataDir = tempDir();
    place(dataDir, 'packages/invoices/tools');
    stateNaming(dataDir, ['packages/invoices']);
    await touch(opened(dataDir, { log: () => undefined }));
    expect(existsSync(join(dataDir, 'packages/invoices/tools/apollia.toml'))).toBe(true);
  });

  it('an uninstall killed after its commit, before deleting the folder: the deletion is finished', async () => {
    const dataDir = tempDir();
    place(dataDir, 'packages/invoices/1.2.0');
    stateNaming(dataDir, []);
    await touch(opened(dataDir, { log: () => undefined }));
    expect(existsSync(join(dataDir, 'packages/invoices'))).toBe(false);
  });

  it('an apply killed after placing its agent folder, before its commit: the folder is removed', async () => {
    const dataDir = tempDir();
    place(dataDir, 'agents/abc');
    await touch(opened(dataDir, { log: () => undefined }));
    expect(existsSync(join(dataDir, 'agents/abc'))).toBe(false);
  });

  it('staging and temp files of a dead process are removed; a live process’s are left alone', async () => {
    const dataDir = tempDir();
    const dead = deadPid();
    place(dataDir, `staging/${dead}-1111`);
    place(dataDir, `staging/${process.pid}-2222`);
    writeFileSync(join(dataDir, `.state.json.tmp-${dead}-3333`), '{');
    writeFileSync(join(dataDir, `.state.json.tmp-${process.pid}-4444`), '{');
    await touch(opened(dataDir, { log: () => undefined }));
    expect(existsSync(join(dataDir, `staging/${dead}-1111`))).toBe(false);
    expect(existsSync(join(dataDir, `staging/${process.pid}-2222`))).toBe(true);
    expect(existsSync(join(dataDir, `.state.json.tmp-${dead}-3333`))).toBe(false);
    expect(existsSync(join(dataDir, `.state.json.tmp-${process.pid}-4444`))).toBe(true);
  });

  it('a change killed after its commit, before its record was appended: the next open appends the outbox', async () => {
    const dataDir = tempDir();
    const store = opened(dataDir);
    await store.update(
      (state) => {
        state.settings.deniedTools = ['shell'];
        return { result: null };
      },
      () => [{ kind: 'grant', outcome: 'ok', detail: 'first' }],
    );
    const decisions = join(dataDir, 'activity', 'decisions.jsonl');
    const before = readFileSync(decisions, 'utf8');
    await store.update(
      (state) => {
        state.settings.deniedTools = ['shell', 'web'];
        return { result: null };
      },
      () => [
        { kind: 'revoke', outcome: 'ok', detail: 'second' },
        { kind: 'revoke', outcome: 'ok', detail: 'third' },
      ],
    );
    const whole = readFileSync(decisions, 'utf8');
    const state = JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
    expect(state.record.outbox).toHaveLength(2);
    expect(state.record.head.count).toBe(whole.split('\n').filter(Boolean).length);
    // Killed before the append: the record lacks the change; verify (which completes it first) and a read both heal it.
    writeFileSync(decisions, before);
    expect((await opened(dataDir).read()).settings.deniedTools).toEqual(['shell', 'web']);
    expect(readFileSync(decisions, 'utf8')).toBe(whole);
    // Killed in the middle of the append: the torn line is cut and the outbox's lines written whole.
    writeFileSync(decisions, whole.slice(0, before.length + 40));
    const report = await new ActivityLog(dataDir).verify();
    expect(readFileSync(decisions, 'utf8')).toBe(whole);
    expect(report.intact).toBe(true);
    expect(report.decisions.headSource).toBe('committed');
  });

  it('the record cut deeper than the outbox reaches is not patched over: verify names the cut against the committed head', async () => {
    const dataDir = tempDir();
    const store = opened(dataDir);
    for (const detail of ['one', 'two', 'three'])
      await store.update(
        () => ({ result: null }),
        () => [{ kind: 'grant', outcome: 'ok', detail }],
      );
    const decisions = join(dataDir, 'activity', 'decisions.jsonl');
    const lines = readFileSync(decisions, 'utf8').split('\n').filter(Boolean);
    writeFileSync(decisions, `${lines.slice(0, -2).join('\n')}\n`);
    await opened(dataDir).read();
    expect(readFileSync(decisions, 'utf8').split('\n').filter(Boolean)).toHaveLength(lines.length - 2);
    const report = await new ActivityLog(dataDir).verify();
    expect(report.decisions.broken?.kind).toBe('cut');
    // The next change records the break before its own entry.
    await store.update(
      () => ({ result: null }),
      () => [{ kind: 'grant', outcome: 'ok', detail: 'four' }],
    );
    expect(readFileSync(decisions, 'utf8')).toContain('decisions were missing at the end (the committed head counted');
  });

  it('a committed head edited without the key is named: its seal fails', async () => {
    const dataDir = tempDir();
    const store = opened(dataDir);
    await store.update(
      () => ({ result: null }),
      () => [{ kind: 'grant', outcome: 'ok', detail: 'one' }],
    );
    const path = join(dataDir, 'state.json');
    const state = JSON.parse(readFileSync(path, 'utf8'));
    state.record.head.count = 0;
    state.record.outbox = [];
    writeFileSync(path, JSON.stringify(state));
    const report = await new ActivityLog(dataDir).verify();
    expect(report.decisions.broken).toMatchObject({ kind: 'head', file: 'state.json' });
  });
});
