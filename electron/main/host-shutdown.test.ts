import { describe, expect, it } from 'vitest';
import { HostShutdown, type StoppableHost } from './host-shutdown';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the app ends: its trigger host is stopped first, once', () => {
  it('stops the host, then goes on; a second ending (the quit that follows) finds nothing to wait for', async () => {
    const calls: string[] = [];
    const host: StoppableHost = { stop: async () => void calls.push('stop') };
    const slot = { current: host as StoppableHost | null };
    const shutdown = new HostShutdown(slot, () => calls.push('logged'));
    expect(shutdown.stopThen(() => calls.push('quit'))).toBe(true);
    expect(slot.current).toBeNull();
    await settle();
    expect(calls).toEqual(['stop', 'quit']);
    expect(shutdown.stopThen(() => calls.push('quit again'))).toBe(false);
    await settle();
    expect(calls).toEqual(['stop', 'quit']);
  });

  it('goes on even when the stop fails, and says why', async () => {
    const calls: string[] = [];
    const slot = { current: { stop: () => Promise.reject(new Error('EIO')) } as StoppableHost | null };
    const shutdown = new HostShutdown(slot, (error) => calls.push(`logged ${(error as Error).message}`));
    expect(shutdown.stopThen(() => calls.push('quit'))).toBe(true);
    await settle();
    expect(calls).toEqual(['logged EIO', 'quit']);
  });

  it('has nothing to wait for when no host runs (serve holds the triggers, or none is armed)', () => {
    const shutdown = new HostShutdown({ current: null }, () => {});
    expect(shutdown.stopThen(() => {})).toBe(false);
  });
});
