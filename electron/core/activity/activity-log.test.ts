import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { ActivityLog, cleanDetail, DETAIL_MAX } from './activity-log';

describe('activity log', () => {
  it('lists newest first, filters by agent, limits, and passes over a torn line', async () => {
    const dataDir = join(tempDir('apollia-activity-'), 'data');
    let tick = 0;
    const log = new ActivityLog(dataDir, { now: () => new Date(Date.UTC(2026, 11, 1, 10, 0, tick++)) });
    expect(await log.list()).toEqual([]);
    await log.record({ kind: 'install', package: 'invoices', outcome: 'ok', detail: 'installed invoices 1.2.0' });
    await log.record({ kind: 'grant', package: 'invoices', agent: 'invoices/clerk', outcome: 'ok', detail: 'file_read' });
    await log.record({ kind: 'arm', agent: 'other/agent', trigger: 'other/agent/t', outcome: 'ok', detail: 'armed' });
    appendFileSync(log.path, '{"at":"2026-12-01T10:00:09.000Z","kind":"gra');
    expect((await log.list()).map((e) => e.kind)).toEqual(['arm', 'grant', 'install']);
    expect(await log.list({ agent: 'invoices/clerk' })).toEqual([{ at: '2026-12-01T10:00:01.000Z', kind: 'grant', package: 'invoices', agent: 'invoices/clerk', outcome: 'ok', detail: 'file_read' }]);
    expect((await log.list({ limit: 1 })).map((e) => e.kind)).toEqual(['arm']);
  });

  it('never keeps a webhook secret, a control character or a long body in a detail', async () => {
    const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    expect(cleanDetail(`rotated to ${secret}\nnext\u001b[31m`)).toBe('rotated to whsec_[hidden] next [31m');
    const long = cleanDetail('x'.repeat(5000));
    expect(long).toHaveLength(DETAIL_MAX);
    expect(long.endsWith('…')).toBe(true);
    const dataDir = tempDir('apollia-activity-');
    const log = new ActivityLog(dataDir);
    await log.record({ kind: 'secret_rotated', trigger: 'a/b', outcome: 'ok', detail: `secret ${secret}` });
    expect(readFileSync(log.path, 'utf8')).not.toContain(secret.slice(6));
  });

  it('stays bounded: the oldest events are dropped first', async () => {
    const dataDir = tempDir('apollia-activity-');
    const log = new ActivityLog(dataDir, { maxBytes: 4096 });
    for (let i = 0; i < 200; i++) await log.record({ kind: 'trigger_fired', trigger: 't/x', outcome: 'ok', detail: `fire ${i}` });
    expect(statSync(log.path).size).toBeLessThanOrEqual(4096);
    const events = await log.list();
    expect(events[0]?.detail).toBe('fire 199');
    const numbers = events.map((e) => Number(e.detail.slice(5)));
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    expect(numbers.at(-1)).toBe(200 - events.length);
  });
});
