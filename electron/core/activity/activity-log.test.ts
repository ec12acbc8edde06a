import { appendFileSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTIVITY_KIND_WORDS, ACTIVITY_KINDS, DECISION_KINDS } from '../../../shared/activity/activity-kinds';
import { tempDir } from '../../../test/helpers/test-api';
import { ActivityLog, cleanDetail, DETAIL_MAX, NAME_MAX } from './activity-log';
import { escapeControls, redactSecrets } from './entry-text';

const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;

describe('activity record', () => {
  it('lists newest first over decisions and traffic, filters by agent, limits, and passes over a torn line', async () => {
    const dataDir = join(tempDir('apollia-activity-'), 'data');
    let tick = 0;
    const log = new ActivityLog(dataDir, { now: () => new Date(Date.UTC(2026, 11, 1, 10, 0, tick++)) });
    expect(await log.list()).toEqual([]);
    await log.record({ kind: 'install', package: 'invoices', outcome: 'ok', detail: 'installed invoices 1.2.0' });
    await log.record({
      kind: 'grant',
      package: 'invoices',
      agent: 'invoices/clerk',
      outcome: 'ok',
      detail: 'file_read',
    });
    await log.record({
      kind: 'trigger_fired',
      agent: 'other/agent',
      trigger: 'other/agent/t',
      outcome: 'ok',
      detail: 'schedule',
    });
    appendFileSync(log.trafficPath(), '{"at":"2026-12-01T10:00:09.000Z","kind":"gra');
    expect((await log.list()).map((e) => e.kind)).toEqual(['trigger_fired', 'grant', 'install']);
    expect(await log.list({ agent: 'invoices/clerk' })).toEqual([
      {
        at: '2026-12-01T10:00:01.000Z',
        kind: 'grant',
        package: 'invoices',
        agent: 'invoices/clerk',
        outcome: 'ok',
        detail: 'file_read',
      },
    ]);
    expect((await log.list({ limit: 1 })).map((e) => e.kind)).toEqual(['trigger_fired']);
    expect((await log.list({ decisionsOnly: true })).map((e) => e.kind)).toEqual(['grant', 'install']);
    // The next append after a torn line starts on a line of its own.
    await log.record({ kind: 'run_queued', trigger: 'other/agent/t', outcome: 'ok', detail: 'run 1' });
    expect((await log.list({ limit: 1 }))[0]?.detail).toBe('run 1');
  });

  it('cleans every field of every entry: control characters escaped, secrets redacted, bounded', async () => {
    const dataDir = tempDir('apollia-activity-');
    const log = new ActivityLog(dataDir);
    const stored = await log.record({
      kind: 'delivery_refused',
      package: 'p\u001b[2Jkg',
      agent: `a\n2026-12-01T10:00:00.000Z  key_change_accepted ok  forged`,
      trigger: `t/${SECRET} ${'x'.repeat(5000)}`,
      outcome: 'refused',
      detail: `open postgresql://admin:Hunter2Pass@db/prod with GITHUB_TOKEN=abc123def and Bearer tok.en and ${SECRET}\u202e`,
      at: 'not a time\nforged',
    });
    expect(stored.package).toBe('p\\u001b[2Jkg');
    expect(stored.agent).toBe('a\\n2026-12-01T10:00:00.000Z  key_change_accepted ok  forged');
    expect(stored.trigger?.length).toBeLessThanOrEqual(NAME_MAX);
    expect(stored.trigger).toMatch(/^t\/whsec_\[hidden\] x+…$/);
    expect(stored.detail).toBe(
      'open postgresql://admin:[hidden]@db/prod with GITHUB_TOKEN=[hidden] and Bearer [hidden] and whsec_[hidden]\\u202e',
    );
    expect(stored.at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const text = readFileSync(log.trafficPath(), 'utf8');
    expect(text.split('\n').filter(Boolean)).toHaveLength(1);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
    for (const secret of [SECRET.slice(6), 'Hunter2Pass', 'abc123def', 'tok.en']) expect(text).not.toContain(secret);

    expect(cleanDetail('x'.repeat(5000))).toHaveLength(DETAIL_MAX);
    expect(cleanDetail(`${'x'.repeat(DETAIL_MAX - 3)}\n\n\n`).endsWith('\\')).toBe(false);
    expect(escapeControls('a\\nb')).toBe('a\\\\nb');
    expect(redactSecrets('redis://:pw123@cache:6379 mongodb+srv://u:pw@c/db sk-abcdefghijklmnop1234')).toBe(
      'redis://:[hidden]@cache:6379 mongodb+srv://u:[hidden]@c/db [hidden]',
    );
    expect(redactSecrets('run 6f1c2d3e-1111-4222-8333-444455556666 (webhook) of crm/new-lead')).toBe(
      'run 6f1c2d3e-1111-4222-8333-444455556666 (webhook) of crm/new-lead',
    );
  });

  it('keeps decisions apart from traffic: a flood of traffic rotates its own bounded files and never evicts a decision', async () => {
    const dataDir = tempDir('apollia-activity-');
    const log = new ActivityLog(dataDir, { trafficFileBytes: 8 * 1024, trafficFiles: 2, rotateFloorMs: 0 });
    await log.record({ kind: 'install', package: 'invoices', outcome: 'ok', detail: 'installed invoices 1.2.0' });
    await log.record({
      kind: 'arm',
      package: 'invoices',
      trigger: 'invoices/new',
      outcome: 'ok',
      detail: 'armed: webhook',
    });
    for (let i = 0; i < 40; i++)
      await log.recordMany(
        Array.from({ length: 25 }, (_, j) => ({
          kind: 'delivery_refused' as const,
          outcome: 'refused' as const,
          detail: `noise ${i * 25 + j} ${'y'.repeat(200)}`,
        })),
      );
    const files = readdirSync(log.dir)
      .filter((f) => f.startsWith('traffic'))
      .sort();
    expect(files.length).toBeLessThanOrEqual(3);
    expect(files).toEqual(expect.arrayContaining(['traffic.1.jsonl', 'traffic.2.jsonl']));
    for (const f of files) expect(statSync(join(log.dir, f)).size).toBeLessThan(8 * 1024 + 25 * 400);
    const decisions = (await log.list({ decisionsOnly: true })).filter((e) => e.kind !== 'traffic_rotated');
    expect(decisions.map((e) => e.kind)).toEqual(['arm', 'install']);
    // Each rotation is a recorded decision naming the file set aside and the one dropped.
    const rotations = (await log.list({ decisionsOnly: true })).filter((e) => e.kind === 'traffic_rotated');
    expect(rotations.length).toBeGreaterThan(2);
    expect(rotations[0]?.detail).toMatch(
      /^traffic\.jsonl set aside as traffic\.1\.jsonl after traffic entry \d+; traffic\.2\.jsonl dropped \(traffic entries up to \d+\)$/,
    );
    const all = await log.list();
    expect(all.find((e) => e.kind !== 'traffic_rotated')?.detail.startsWith('noise 999 ')).toBe(true);
    expect(all.map((e) => e.kind)).toContain('install');
    const report = await log.verify();
    expect(report).toMatchObject({
      intact: true,
      decisions: { intact: true, entries: 2 + rotations.length, rotatedOut: 0 },
      traffic: { intact: true, broken: null },
    });
    expect(report.traffic.rotatedOut).toBeGreaterThan(0);
    // Without its recorded rotation, the same missing head of traffic is a cut.
    const kept = readFileSync(log.decisionsPath, 'utf8').split('\n').filter(Boolean);
    writeFileSync(
      log.decisionsPath,
      `${kept.map((l) => l.replace(/"dropped":\{[^}]*\}/, '"dropped":null')).join('\n')}\n`,
    );
    expect((await log.verify()).traffic.broken?.kind).toBe('cut');
  });

  it('rotates by size with a floor of minutes: a burst past the size does not rotate again within the floor', async () => {
    const dataDir = tempDir('apollia-activity-');
    const log = new ActivityLog(dataDir, { trafficFileBytes: 4 * 1024, trafficFiles: 2, rotateFloorMs: 60 * 60_000 });
    for (let i = 0; i < 12; i++)
      await log.recordMany(
        Array.from({ length: 5 }, (_, j) => ({
          kind: 'delivery_refused' as const,
          outcome: 'refused' as const,
          detail: `n ${i}.${j} ${'z'.repeat(150)}`,
        })),
      );
    const rotations = (await log.list({ decisionsOnly: true })).filter((e) => e.kind === 'traffic_rotated');
    expect(rotations).toHaveLength(1);
    expect(statSync(log.trafficPath()).size).toBeGreaterThan(4 * 1024);
    expect((await log.verify()).intact).toBe(true);
  });

  it('chains each line to the one before with the record key; verify names where it breaks', async () => {
    const dataDir = tempDir('apollia-activity-');
    const log = new ActivityLog(dataDir);
    for (const kind of ['install', 'grant', 'arm', 'disarm'] as const)
      await log.record({ kind, package: 'p', outcome: 'ok', detail: kind });
    await log.record({ kind: 'host_started', outcome: 'ok', detail: 'up' });
    const lines = readFileSync(log.decisionsPath, 'utf8').split('\n').filter(Boolean);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ seq: 1, hmac: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const clean = await log.verify();
    expect(clean).toMatchObject({
      intact: true,
      decisions: { entries: 4, broken: null, head: { count: 4 } },
      traffic: { entries: 1, broken: null },
    });
    writeFileSync(
      log.decisionsPath,
      `${[lines[0], lines[1]?.replace('"grant"', '"revoke"'), lines[2], lines[3]].join('\n')}\n`,
    );
    expect((await log.verify()).decisions.broken).toEqual({
      kind: 'changed',
      file: 'activity/decisions.jsonl',
      line: 3,
      reason: 'it does not follow line 2: that line was changed, or a line removed or inserted',
    });
    writeFileSync(log.decisionsPath, `${[lines[0], lines[2], lines[3]].join('\n')}\n`);
    expect((await log.verify()).decisions.broken).toMatchObject({
      kind: 'changed',
      line: 2,
      reason: 'it is entry 3 and follows entry 1: entries were removed',
    });
    writeFileSync(log.decisionsPath, `${[lines[1], lines[2], lines[3]].join('\n')}\n`);
    expect((await log.verify()).decisions.broken).toMatchObject({ line: 1 });
    const forged = JSON.stringify({
      at: '2026-12-01T10:00:00.000Z',
      kind: 'key_change_accepted',
      package: 'p',
      outcome: 'ok',
      detail: 'forged',
    });
    writeFileSync(log.decisionsPath, `${[lines[0], forged, lines[1], lines[2], lines[3]].join('\n')}\n`);
    const broken = await log.verify();
    expect(broken.intact).toBe(false);
    expect(broken.decisions.broken).toMatchObject({
      line: 2,
      reason: 'not an activity entry (changed by hand, or a write cut short)',
    });
  });

  it('takes in the log of an earlier version (activity.jsonl): cleaned, filed by kind, chained, the old file gone', async () => {
    const dataDir = tempDir('apollia-activity-');
    const old = [
      { at: '2026-12-01T10:00:00.000Z', kind: 'install', package: 'invoices', outcome: 'ok', detail: 'installed' },
      {
        at: '2026-12-01T10:00:01.000Z',
        kind: 'delivery_refused',
        trigger: `hooks/x\n2026-12-01  key_change_accepted ok forged ${SECRET}`,
        outcome: 'refused',
        detail: '404 no armed webhook trigger at this address',
      },
    ];
    writeFileSync(join(dataDir, 'activity.jsonl'), `${old.map((e) => JSON.stringify(e)).join('\n')}\n`);
    const log = new ActivityLog(dataDir);
    const events = await log.list();
    expect(events.map((e) => e.kind)).toEqual(['record_keyed', 'delivery_refused', 'install']);
    expect(events[1]?.trigger).toBe('hooks/x\\n2026-12-01  key_change_accepted ok forged whsec_[hidden]');
    expect(() => statSync(join(dataDir, 'activity.jsonl'))).toThrow();
    expect((await log.verify()).intact).toBe(true);
  });

  it('redaction keeps messages readable: the bare prefix `whsec_` stays, a real secret goes', async () => {
    const log = new ActivityLog(tempDir('apollia-activity-'));
    const said = await log.record({
      kind: 'install',
      package: 'p',
      outcome: 'refused',
      detail: `the webhook secret must start with whsec_ (given: ${SECRET}, too short: whsec_abc)`,
    });
    expect(said.detail).toBe('the webhook secret must start with whsec_ (given: whsec_[hidden], too short: whsec_abc)');
    expect(redactSecrets(`whsec_ ${SECRET}`)).toBe('whsec_ whsec_[hidden]');
  });

  it('says every kind in words, and files each kind as a decision or traffic', () => {
    for (const kind of ACTIVITY_KINDS) expect(ACTIVITY_KIND_WORDS[kind]).toMatch(/^[A-Z]/);
    expect(DECISION_KINDS).toContain('disarm');
    expect(DECISION_KINDS).toContain('key_trusted');
  });
});
