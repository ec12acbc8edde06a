/**
 * Each attack on the record turns from "intact" into a named break (DESIGN.md "Triggers at run
 * time", the activity record). Every attack uses only what a process without `record.key` has:
 * the files, plain SHA-256, another folder's record, its own guesses.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { ActivityLog } from './activity-log';
import { mac, sha256 } from './record-chain';
import { HEAD_FILE } from './record-head';
import { RECORD_KEY_FILE } from './record-key';

const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean);
const write = (path: string, rows: readonly string[]) => writeFileSync(path, rows.length ? `${rows.join('\n')}\n` : '');

async function record(dataDir: string, details: readonly string[]): Promise<ActivityLog> {
  let tick = 0;
  const log = new ActivityLog(dataDir, { now: () => new Date(Date.UTC(2026, 10, 30, 14, 2, tick++)) });
  await log.record({ kind: 'install', package: 'invoices', outcome: 'ok', detail: 'installed invoices 1.2.0' });
  for (const detail of details)
    await log.record({ kind: 'grant', package: 'invoices', agent: 'invoices/invoice-clerk', outcome: 'ok', detail });
  await log.record({ kind: 'host_started', outcome: 'ok', detail: 'up' });
  for (const n of [1, 2, 3])
    await log.record({ kind: 'run_queued', trigger: 'invoices/invoice-clerk/t', outcome: 'ok', detail: `run ${n}` });
  return log;
}

describe('the keyed record against a process without record.key', () => {
  it('is intact as written: keyed lines, 0600 key of 32 bytes, a sealed head beside the store', async () => {
    const dataDir = tempDir('apollia-attack-');
    const log = await record(dataDir, ['file_read', 'shell', 'web_fetch']);
    const key = readFileSync(join(dataDir, RECORD_KEY_FILE));
    expect(key).toHaveLength(32);
    expect(statSync(join(dataDir, RECORD_KEY_FILE)).mode & 0o777).toBe(0o600);
    const rows = lines(log.decisionsPath).map((l) => JSON.parse(l));
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    expect(rows[1].hmac).toBe(mac(key, lines(log.decisionsPath)[0] as string));
    const report = await log.verify();
    expect(report).toMatchObject({ intact: true, decisions: { entries: 4, headSource: 'sealed', broken: null } });
    expect(report.traffic).toMatchObject({ entries: 4, broken: null });
  });

  it('a changed line: named "changed" at the line after it', async () => {
    const dataDir = tempDir('apollia-attack-');
    const log = await record(dataDir, ['file_read', 'shell', 'web_fetch']);
    const rows = lines(log.decisionsPath);
    rows[1] = (rows[1] as string).replace('file_read', 'nothing');
    write(log.decisionsPath, rows);
    expect((await log.verify()).decisions.broken).toMatchObject({
      kind: 'changed',
      file: 'activity/decisions.jsonl',
      line: 3,
    });
  });

  it('the last decisions cut off: named "cut" against the sealed head', async () => {
    const dataDir = tempDir('apollia-attack-');
    const log = await record(dataDir, ['file_read', 'shell', 'web_fetch']);
    write(log.decisionsPath, lines(log.decisionsPath).slice(0, 2));
    const report = await log.verify();
    expect(report.intact).toBe(false);
    expect(report.decisions.broken).toMatchObject({
      kind: 'cut',
      reason: expect.stringContaining('2 entries are missing at the end'),
    });
    // …and the next writer records the cut before it seals a new head: the break stays named.
    await log.record({ kind: 'revoke', package: 'invoices', outcome: 'ok', detail: 'shell' });
    const after = await log.verify();
    expect(after.recordedBreaks.map((e) => e.detail)).toEqual([
      expect.stringContaining('2 decisions entries were missing at the end'),
    ]);
  });

  it('the whole activity folder deleted (and the head too): named "deleted"; a fresh chain does not hide it', async () => {
    const dataDir = tempDir('apollia-attack-');
    const log = await record(dataDir, ['shell']);
    rmSync(log.dir, { recursive: true });
    expect((await log.verify()).decisions.broken).toMatchObject({ kind: 'deleted' });
    rmSync(join(dataDir, HEAD_FILE));
    expect((await log.verify()).decisions.broken).toMatchObject({ kind: 'deleted' });
    await log.record({ kind: 'grant', package: 'invoices', outcome: 'ok', detail: 'file_read' });
    const after = await log.verify();
    expect(after.recordedBreaks).toHaveLength(1);
    expect(after.recordedBreaks[0]?.detail).toContain('sealed head (activity-head.json) was gone');
  });

  it('"grant shell" removed and every hash after it recomputed without the key: named "recomputed"', async () => {
    const dataDir = tempDir('apollia-attack-');
    const log = await record(dataDir, ['file_read', 'shell', 'web_fetch', 'file_write']);
    const rows = lines(log.decisionsPath).map((l) => JSON.parse(l) as Record<string, unknown>);
    const kept = rows.filter((r) => r.detail !== 'shell');
    for (const guess of [(t: string) => sha256(t), (t: string) => mac(randomBytes(32), t)]) {
      const out: string[] = [];
      kept.forEach((row, i) => {
        const line =
          i < 2 ? JSON.stringify(row) : JSON.stringify({ ...row, seq: i + 1, hmac: guess(out[i - 1] as string) });
        out.push(line);
      });
      // The head is rewritten too, as the attacker would: its seal cannot be made without the key.
      const head = JSON.parse(readFileSync(join(dataDir, HEAD_FILE), 'utf8'));
      writeFileSync(
        join(dataDir, HEAD_FILE),
        JSON.stringify({ ...head, decisions: { count: out.length, last: guess(out.at(-1) as string) } }),
      );
      write(log.decisionsPath, out);
      const report = await log.verify();
      expect(report.intact).toBe(false);
      expect(report.decisions.broken).toMatchObject({ kind: 'recomputed', line: 3 });
    }
  });

  it('a record replaced by another folder’s (its own key and head): named "replaced"', async () => {
    const dataDir = tempDir('apollia-attack-');
    const other = tempDir('apollia-attack-other-');
    const log = await record(dataDir, ['file_read']);
    const theirs = await record(other, ['file_read', 'shell']);
    copyFileSync(theirs.decisionsPath, log.decisionsPath);
    expect((await log.verify()).decisions.broken).toMatchObject({ kind: 'replaced', line: 1 });
    copyFileSync(join(other, HEAD_FILE), join(dataDir, HEAD_FILE));
    expect((await log.verify()).decisions.broken).toMatchObject({ kind: 'replaced' });
  });

  it('a sealed head edited by hand: named "head"', async () => {
    const dataDir = tempDir('apollia-attack-');
    const log = await record(dataDir, ['file_read', 'shell']);
    write(log.decisionsPath, lines(log.decisionsPath).slice(0, 2));
    const head = JSON.parse(readFileSync(join(dataDir, HEAD_FILE), 'utf8'));
    writeFileSync(join(dataDir, HEAD_FILE), JSON.stringify({ ...head, decisions: { ...head.decisions, count: 2 } }));
    expect((await log.verify()).decisions.broken).toMatchObject({ kind: 'head' });
  });

  it('an activity.jsonl dropped into the data folder later is never imported', async () => {
    const dataDir = tempDir('apollia-attack-');
    const log = await record(dataDir, ['file_read']);
    const fake = {
      at: '2026-01-01T00:00:00.000Z',
      kind: 'key_change_accepted',
      package: 'invoices',
      outcome: 'ok',
      detail: 'forged',
    };
    writeFileSync(join(dataDir, 'activity.jsonl'), `${JSON.stringify(fake)}\n`);
    await log.record({ kind: 'revoke', package: 'invoices', outcome: 'ok', detail: 'file_read' });
    expect((await log.list()).map((e) => e.kind)).not.toContain('key_change_accepted');
    expect(readFileSync(join(dataDir, 'activity.jsonl'), 'utf8')).toContain('forged');
    expect((await log.verify()).intact).toBe(true);
  });

  it('the first lines of the only traffic file removed: named "cut" (no recorded rotation explains them)', async () => {
    const dataDir = tempDir('apollia-attack-');
    const log = await record(dataDir, []);
    write(log.trafficPath(), lines(log.trafficPath()).slice(2));
    expect((await log.verify()).traffic.broken).toMatchObject({
      kind: 'cut',
      line: 1,
      reason: expect.stringContaining('no recorded rotation'),
    });
  });

  it('record.key deleted: the keyed lines cannot be checked, named "replaced"', async () => {
    const dataDir = tempDir('apollia-attack-');
    const log = await record(dataDir, ['file_read']);
    rmSync(join(dataDir, RECORD_KEY_FILE));
    expect((await log.verify()).decisions.broken).toMatchObject({ kind: 'replaced' });
  });
});

describe('the move from a plain SHA-256 record (written by the version before the key)', () => {
  it('is one recorded migration saying from which entry on the chain is keyed; the plain part stays anchored', async () => {
    const dataDir = tempDir('apollia-migrate-');
    const fixtures = join(__dirname, 'fixtures', 'plain-record');
    mkdirSync(join(dataDir, 'activity'));
    for (const f of ['decisions.jsonl', 'traffic.jsonl']) copyFileSync(join(fixtures, f), join(dataDir, 'activity', f));
    const log = new ActivityLog(dataDir);
    // Before any write: read as it is, plain, not yet keyed.
    expect((await log.list()).map((e) => e.kind)).toEqual(['run_queued', 'trigger_fired', 'arm', 'grant', 'install']);
    await log.record({
      kind: 'revoke',
      package: 'invoices',
      agent: 'invoices/invoice-clerk',
      outcome: 'ok',
      detail: 'shell',
    });
    await log.record({ kind: 'run_queued', trigger: 'invoices/invoice-clerk/paid', outcome: 'ok', detail: 'run 2' });
    const rows = lines(log.decisionsPath).map((l) => JSON.parse(l));
    expect(rows.map((r) => r.kind)).toEqual(['install', 'grant', 'arm', 'record_keyed', 'revoke']);
    expect(rows.filter((r) => r.kind === 'record_keyed')).toHaveLength(1);
    expect(rows[3]).toMatchObject({ seq: 4 });
    expect(rows[3].detail).toMatch(
      /^From decision 4 on each line carries an HMAC .* the 3 decisions and 2 traffic entries before were chained with plain SHA-256 \(intact when keyed\)$/,
    );
    const report = await log.verify();
    expect(report).toMatchObject({
      intact: true,
      decisions: { entries: 5, keyedFrom: 4 },
      traffic: { entries: 3, keyedFrom: 3 },
    });
    // A plain line edited after the move breaks the link the migration entry carries.
    const text = readFileSync(log.decisionsPath, 'utf8');
    writeFileSync(
      log.decisionsPath,
      text.replace('"shell"', '"file_read"').replace(/"prev":"eb81[0-9a-f]+"/, `"prev":"${'1'.repeat(64)}"`),
    );
    expect((await log.verify()).decisions.broken?.kind).toBe('changed');
  });

  it('an earlier activity.jsonl is taken in once, when the record is keyed, and named in the migration entry', async () => {
    const dataDir = tempDir('apollia-migrate-');
    const old = [
      { at: '2026-11-30T14:00:00.000Z', kind: 'install', package: 'invoices', outcome: 'ok', detail: 'installed' },
    ];
    writeFileSync(join(dataDir, 'activity.jsonl'), `${old.map((e) => JSON.stringify(e)).join('\n')}\n`);
    const log = new ActivityLog(dataDir);
    expect((await log.list()).map((e) => e.kind)).toEqual(['record_keyed', 'install']);
    expect((await log.list())[0]?.detail).toContain('activity.jsonl (1 entries) taken in, never again');
    expect(() => statSync(join(dataDir, 'activity.jsonl'))).toThrow();
    expect((await log.verify()).intact).toBe(true);
  });
});
