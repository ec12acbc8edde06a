/**
 * Every way the app ends stops its trigger host first, so the host lock is released by the store's
 * lock code (`TriggerHost.stop` → `store/pid-lock.ts` `releaseLock`) and its last status written:
 * a quit (`will-quit`), a system shutdown or reboot (`powerMonitor` `shutdown`, Linux and macOS,
 * which may be delayed for it), and a Windows log-off or shutdown (the window's `session-end`:
 * `will-quit` is not emitted then, and the session ends whether or not the stop finished). A lock
 * left anyway (power loss, a kill) is the lock code's to recognise as stale. No `electron` import:
 * tested with a faked host.
 */

/** The part of the trigger host stopped here. */
export interface StoppableHost {
  stop(): Promise<void>;
}

/** Stops the app's trigger host once, whichever way the app ends. */
export class HostShutdown {
  constructor(
    private readonly slot: { current: StoppableHost | null },
    private readonly log: (error: unknown) => void,
  ) {}

  /**
   * Stops the running host, then calls `then` (stopped or not). False when no host runs (nothing
   * to wait for: the caller goes on at once); true when the caller must wait (`preventDefault`).
   */
  stopThen(then: () => void): boolean {
    const host = this.slot.current;
    if (!host) return false;
    this.slot.current = null;
    host.stop().catch(this.log).finally(then);
    return true;
  }
}
