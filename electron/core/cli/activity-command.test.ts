import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ActivityLog } from '../activity/activity-log';
import { verifyStream } from '../activity/record-verify';
import { join } from 'node:path';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { tempDir, testApi } from '../../../test/helpers/test-api';
import type { CliIo } from './cli-io';
import { runCli } from './dispatcher';

async function cli(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    cwd: process.cwd(),
    env: { HOME: '/home/someone' },
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

describe('activity (CLI)', () => {
  it('prints one line per entry whatever it holds: a newline or an escape in a hand-edited file is shown, never obeyed', async () => {
    const dataDir = tempDir('apollia-cli-activity-');
    const log = new ActivityLog(dataDir);
    await log.record({ kind: 'install', package: 'invoices', outcome: 'ok', detail: 'installed invoices 1.2.0' });
    // A line written by an earlier version, or by hand, with raw control characters in it.
    const raw = JSON.stringify({
      at: '2026-12-01T10:00:00.000Z',
      kind: 'delivery_refused',
      trigger: 'x\n2026-12-01T10:00:00.000Z  key_change_accepted ok      invoices  forged\u001b[2J',
      outcome: 'refused',
      detail: 'd',
    });
    writeFileSync(log.trafficPath(), `${raw}\n`);
    const { code, stdout } = await cli(['--data-dir', dataDir, 'activity']);
    expect(code).toBe(0);
    expect(stdout.split('\n').filter(Boolean)).toHaveLength(2);
    expect(stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(stdout).toContain('x⟨U+000A⟩2026-12-01T10:00:00.000Z  key_change_accepted');
    expect((await cli(['--data-dir', dataDir, 'activity', '--decisions'])).stdout).toMatch(
      /^\S+Z {2}Installed · Done · invoices: installed invoices 1\.2\.0\n$/,
    );
  });

  it('activity verify: intact (exit 0) with the last hash; a changed line is named by file and line (exit 1)', async () => {
    const dataDir = tempDir('apollia-cli-activity-');
    const log = new ActivityLog(dataDir);
    for (const detail of ['one', 'two', 'three'])
      await log.record({ kind: 'grant', package: 'p', outcome: 'ok', detail });
    await log.record({ kind: 'host_started', outcome: 'ok', detail: 'up' });
    const intact = await cli(['--data-dir', dataDir, 'activity', 'verify']);
    expect(intact.code).toBe(0);
    expect(intact.stdout).toMatch(
      /^decisions: intact: 3 decisions from the first \(\d{4}-\d\d-\d\d \d\d:\d\d\) to the last \(\d{4}-\d\d-\d\d \d\d:\d\d\), head as sealed\ntraffic: intact: 1 traffic entries from the first \(.*\) to the last \(.*\), head as sealed\nThe activity record is intact: intact: 3 decisions from the first .*, head as sealed\.\n$/,
    );
    const text = readFileSync(log.decisionsPath, 'utf8');
    writeFileSync(log.decisionsPath, text.replace('"two"', '"TWO"'));
    const broken = await cli(['--data-dir', dataDir, 'activity', 'verify']);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(
      'decisions: BROKEN (a line was changed, removed or inserted) at activity/decisions.jsonl line 3: it does not follow line 2: that line was changed, or a line removed or inserted',
    );
    expect(JSON.parse((await cli(['--data-dir', dataDir, 'activity', 'verify', '--json'])).stdout)).toMatchObject({
      intact: false,
      decisions: { broken: { kind: 'changed', file: 'activity/decisions.jsonl', line: 3 } },
      traffic: { intact: true },
      verdict: { intact: false, breakKind: 'changed', summary: expect.stringContaining('decisions: BROKEN') },
    });
    expect((await cli(['--data-dir', dataDir, 'activity', 'verify', '--nope'])).code).toBe(2);
  });
});

describe('activity --agent (CLI)', () => {
  it('covers every entry naming the agent, its package’s install included; an unknown id is said to be unknown', async () => {
    const { api, dataDir } = testApi();
    const path = join(tempDir('apollia-apo-'), 'invoices.apo');
    writeFileSync(path, packFolder(INVOICES_DIR));
    const handle = await api.registerSource(path, 'open-file');
    if (!handle.ok) throw new Error(handle.error.message);
    await api.inspect({ sourceId: handle.value.id });
    const installed = await api.install({ sourceId: handle.value.id, decisions: { agents: {}, triggers: {} } });
    if (!installed.ok) throw new Error(installed.error.message);
    const mine = await cli(['--data-dir', dataDir, 'activity', '--agent', 'invoices/invoice-clerk']);
    expect(mine.code).toBe(0);
    expect(mine.stdout).toMatch(/ {2}Installed · Done · invoices: /);
    const unknown = await cli(['--data-dir', dataDir, 'activity', '--agent', 'invoices/nobody']);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('no agent `invoices/nobody` is known');
    // An agent the record names (removed since) is known: its entries are shown.
    await new ActivityLog(dataDir).record({
      kind: 'grant',
      package: 'gone',
      agent: 'gone/helper',
      outcome: 'ok',
      detail: 'file_read',
    });
    expect((await cli(['--data-dir', dataDir, 'activity', '--agent', 'gone/helper'])).stdout).toContain(
      'Allowed a tool',
    );
  });
});

describe('activity export (CLI)', () => {
  it('writes JSON Lines with the chain fields; read back, they verify under the record key and match the head', async () => {
    const dataDir = tempDir('apollia-cli-export-');
    let tick = 0;
    const log = new ActivityLog(dataDir, { now: () => new Date(Date.UTC(2026, 10, 30, 14, 2, tick++)) });
    for (const detail of ['file_read', 'shell', 'web_fetch'])
      await log.record({ kind: 'grant', package: 'p', agent: 'p/a', outcome: 'ok', detail });
    await log.record({ kind: 'run_queued', trigger: 'p/a/t', outcome: 'ok', detail: 'run 1' });
    const out = await cli(['--data-dir', dataDir, 'activity', 'export', '--json']);
    expect(out.code).toBe(0);
    const lines = out.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(4);
    const rows = lines.map((l) => JSON.parse(l));
    expect(rows.map((r) => [r.kind, r.seq])).toEqual([
      ['grant', 1],
      ['grant', 2],
      ['grant', 3],
      ['run_queued', 1],
    ]);
    // A collector holding the key verifies what it received, and its head is the record's.
    const key = readFileSync(join(dataDir, 'record.key'));
    const decisions = lines
      .filter((l) => JSON.parse(l).kind === 'grant')
      .map((text, i) => ({ file: 'export', line: i + 1, text }));
    const checked = verifyStream({
      stream: 'decisions',
      key,
      lines: decisions,
      head: null,
      headSource: 'none',
      expectRecord: false,
      dir: 'export',
    });
    expect(checked.broken?.kind).toBe('head'); // no head given: it cannot tell a cut from the export alone…
    const head = (await log.heads()).decisions;
    expect(
      verifyStream({
        stream: 'decisions',
        key,
        lines: decisions,
        head,
        headSource: 'committed',
        expectRecord: true,
        dir: 'export',
      }),
    ).toMatchObject({ intact: true, head });
    // …and a tampered export does not verify.
    const forged = decisions.map((l, i) => (i === 1 ? { ...l, text: l.text.replace('shell', 'nothing') } : l));
    expect(
      verifyStream({
        stream: 'decisions',
        key,
        lines: forged,
        head,
        headSource: 'committed',
        expectRecord: true,
        dir: 'export',
      }).broken?.kind,
    ).toBe('changed');
    // --since and --decisions narrow it; a bad time is refused naming it.
    const since = await cli([
      '--data-dir',
      dataDir,
      'activity',
      'export',
      '--json',
      '--decisions',
      '--since',
      '2026-11-30T14:02:01Z',
    ]);
    expect(
      since.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).seq),
    ).toEqual([2, 3]);
    const bad = await cli(['--data-dir', dataDir, 'activity', 'export', '--since', 'yesterday']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since needs a time (ISO 8601, e.g. 2026-11-30T14:02:00Z), not `yesterday`');
    expect((await cli(['--data-dir', dataDir, 'activity', 'export'])).stdout).toMatch(
      /^2026-11-30T14:02:00\.000Z {2}Allowed a tool · Done · p\/a: file_read\n/,
    );
  });
});
