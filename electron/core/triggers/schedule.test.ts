import { afterEach, describe, expect, it } from 'vitest';
import { nextCronTimes, nextIntervalTimes } from '../../../shared/triggers/cron';
import { createFileKeySecretBox } from '../secrets/secret-box';
import { Store } from '../store/store';
import { tempDir } from '../../../test/helpers/test-api';
import {
  activity,
  changeTrigger,
  FakeClock,
  putTriggers,
  runRequests,
  triggerRecord,
} from '../../../test/helpers/trigger-host';
import { TriggerHost } from './trigger-host';

const hosts: TriggerHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
});

async function hostAt(dataDir: string, clock: FakeClock, lines: string[] = []): Promise<TriggerHost> {
  const host = new TriggerHost({
    dataDir,
    secretBox: createFileKeySecretBox(dataDir),
    port: 0,
    watchStore: false,
    clock,
    onLine: (l) => lines.push(l),
  });
  await host.start();
  hosts.push(host);
  return host;
}

const causes = (dataDir: string) => runRequests(dataDir).map((r) => [r.trigger, r.fired_at, r.cause]);

describe('schedules under a fake clock', () => {
  it('fires a .apo cron (AND day rule) at the times the consent form shows, once per time', async () => {
    const dataDir = tempDir('apollia-sched-');
    // The first Monday of the month at 08:00 UTC: under the AND rule, 7 December 2026.
    const cron = triggerRecord({
      id: 'invoices/first-monday',
      type: 'cron',
      schedule: '0 8 1-7 * MON',
      dayRule: 'and',
      armedAt: '2026-12-01T00:00:00.000Z',
    });
    await putTriggers(dataDir, [cron]);
    const clock = new FakeClock(Date.parse('2026-12-01T10:00:00Z'));
    const lines: string[] = [];
    const host = await hostAt(dataDir, clock, lines);
    const shown = nextCronTimes('0 8 1-7 * MON', { dayRule: 'and', timezone: 'UTC' }, clock.now(), 2).map((d) =>
      d.toISOString(),
    );
    expect(shown).toEqual(['2026-12-07T08:00:00.000Z', '2027-01-04T08:00:00.000Z']);
    expect(lines).toContain('scheduled invoices/first-monday next 2026-12-07T08:00:00.000Z');

    clock.advanceTo('2026-12-07T07:59:59Z');
    await host.settled();
    expect(causes(dataDir)).toEqual([]);
    clock.advanceTo('2027-01-10T00:00:00Z');
    await host.settled();
    expect(causes(dataDir)).toEqual([
      ['invoices/first-monday', '2026-12-07T08:00:00.000Z', 'schedule'],
      ['invoices/first-monday', '2027-01-04T08:00:00.000Z', 'schedule'],
    ]);
    expect(host.status().triggers['invoices/first-monday']?.next).toBe('2027-02-01T08:00:00.000Z');
    const kinds = (await activity(dataDir)).map((e) => e.kind);
    expect(kinds.filter((k) => k === 'run_queued')).toHaveLength(2);
  });

  it('fires a template schedule in its time zone with the standard (OR) day rule', async () => {
    const dataDir = tempDir('apollia-sched-');
    await putTriggers(dataDir, [
      triggerRecord({
        id: 'agent-1/morning',
        type: 'schedule',
        schedule: '30 9 * * *',
        timezone: 'Europe/Paris',
        dayRule: 'or',
        packageName: null,
        agentId: 'agent-1',
        target: 'agent-1',
        armedAt: '2026-12-01T09:59:00.000Z',
      }),
    ]);
    const clock = new FakeClock(Date.parse('2026-12-01T10:00:00Z'));
    const host = await hostAt(dataDir, clock);
    const shown = nextCronTimes(
      '30 9 * * *',
      { dayRule: 'or', timezone: 'Europe/Paris' },
      clock.now(),
      1,
    )[0]?.toISOString();
    expect(host.status().triggers['agent-1/morning']?.next).toBe(shown);
    expect(shown).toBe('2026-12-02T08:30:00.000Z');
    clock.advanceTo('2026-12-02T09:00:00Z');
    await host.settled();
    expect(causes(dataDir)).toEqual([['agent-1/morning', '2026-12-02T08:30:00.000Z', 'schedule']]);
    expect(runRequests(dataDir)[0]).toMatchObject({ target: 'agent-1', input: { text: 'Do the thing' } });
  });

  it('fires an interval counted from arming, as the form shows; a sleep through many times fires once on wake', async () => {
    const dataDir = tempDir('apollia-sched-');
    await putTriggers(dataDir, [
      triggerRecord({ id: 'feeds/poll', type: 'interval', every: '30m', armedAt: '2026-12-01T10:10:00.000Z' }),
    ]);
    const clock = new FakeClock(Date.parse('2026-12-01T10:20:00Z'));
    const host = await hostAt(dataDir, clock);
    expect(host.status().triggers['feeds/poll']?.next).toBe(
      nextIntervalTimes('30m', clock.now(), 1, new Date('2026-12-01T10:10:00Z'))[0]?.toISOString(),
    );
    clock.advanceTo('2026-12-01T11:15:00Z');
    await host.settled();
    expect(causes(dataDir)).toEqual([
      ['feeds/poll', '2026-12-01T10:40:00.000Z', 'schedule'],
      ['feeds/poll', '2026-12-01T11:10:00.000Z', 'schedule'],
    ]);
    // The laptop sleeps for a day: the monotonic clock stands still, the wall clock does not.
    clock.setWall('2026-12-02T11:15:00Z');
    clock.advance(60_000);
    await host.settled();
    const after = causes(dataDir);
    expect(after.slice(2)).toEqual([['feeds/poll', '2026-12-02T11:16:00.000Z', 'missed']]);
    expect(host.status().triggers['feeds/poll']?.next).toBe('2026-12-02T11:40:00.000Z');
  });

  it('fires an `at` trigger once and disarms it; a restart does not fire it again', async () => {
    const dataDir = tempDir('apollia-sched-');
    await putTriggers(dataDir, [
      triggerRecord({
        id: 'agent-2/launch',
        type: 'at',
        at: '2026-12-01T12:00:00Z',
        dayRule: 'or',
        packageName: null,
        agentId: 'agent-2',
      }),
    ]);
    const clock = new FakeClock(Date.parse('2026-12-01T10:00:00Z'));
    const host = await hostAt(dataDir, clock);
    clock.advanceTo('2026-12-03T00:00:00Z');
    await host.settled();
    expect(causes(dataDir)).toEqual([['agent-2/launch', '2026-12-01T12:00:00.000Z', 'at']]);
    const stored = (await new Store(dataDir).read()).triggers['agent-2/launch'];
    expect([stored?.armed, stored?.armedAt]).toEqual([false, null]);
    expect((await activity(dataDir)).filter((e) => e.kind === 'disarm').map((e) => [e.agent, e.detail])).toEqual([
      ['agent-2', 'fired once at 2026-12-01T12:00:00Z; done'],
    ]);
    await host.stop();
    hosts.splice(0);
    await changeTrigger(dataDir, 'agent-2/launch', (t) => {
      t.armed = true; // as if the store change had been lost: the host's own record of the fire still holds
      t.armedAt = '2026-12-01T00:00:00.000Z';
    });
    const again = await hostAt(dataDir, clock);
    clock.advance(120_000);
    await again.settled();
    expect(causes(dataDir)).toHaveLength(1);
    expect(again.status().triggers['agent-2/launch']?.state).toBe('done');
  });

  it('fires a schedule missed while the host was stopped once on start, and recounts after the clock is set back', async () => {
    const dataDir = tempDir('apollia-sched-');
    await putTriggers(dataDir, [
      triggerRecord({ id: 'reports/daily', type: 'cron', schedule: '0 6 * * *', armedAt: '2026-11-20T00:00:00.000Z' }),
    ]);
    const clock = new FakeClock(Date.parse('2026-12-01T10:00:00Z'));
    const host = await hostAt(dataDir, clock);
    clock.advance(0);
    await host.settled();
    // Armed on 20 November, never run: eleven 06:00s passed, one run.
    expect(causes(dataDir)).toEqual([['reports/daily', '2026-12-01T10:00:00.000Z', 'missed']]);
    expect(host.status().triggers['reports/daily']?.next).toBe('2026-12-02T06:00:00.000Z');

    // The clock is set back three days: the next time is counted from the new now.
    clock.setWall('2026-11-28T10:00:00Z');
    clock.advance(60_000);
    await host.settled();
    expect(host.status().triggers['reports/daily']?.next).toBe('2026-11-29T06:00:00.000Z');
    expect(causes(dataDir)).toHaveLength(1);
  });

  it('a disarm takes effect at once: nothing fires after it', async () => {
    const dataDir = tempDir('apollia-sched-');
    await putTriggers(dataDir, [
      triggerRecord({ id: 'feeds/poll', type: 'interval', every: '1m', armedAt: '2026-12-01T10:00:00.000Z' }),
    ]);
    const clock = new FakeClock(Date.parse('2026-12-01T10:00:30Z'));
    const lines: string[] = [];
    const host = await hostAt(dataDir, clock, lines);
    await changeTrigger(dataDir, 'feeds/poll', (t) => {
      t.armed = false;
    });
    await host.reload();
    clock.advance(10 * 60_000);
    await host.settled();
    expect(runRequests(dataDir)).toEqual([]);
    expect(lines).toContain('stopped feeds/poll');
    expect(host.status().triggers).toEqual({});
  });
});
