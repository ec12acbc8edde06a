/**
 * Test support for the trigger host (not shipped code paths): trigger records written straight
 * into a temp store, a fake clock whose timers run only when a test moves time, and small readers
 * of what the host wrote (run requests, activity).
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ActivityLog, type ActivityEvent } from '../../electron/core/activity/activity-log';
import { createFileKeySecretBox, type SecretBox } from '../../electron/core/secrets/secret-box';
import type { TriggerRecord } from '../../electron/core/store/state';
import { Store } from '../../electron/core/store/store';
import { PENDING_DIR, type RunRequest } from '../../electron/core/triggers/run-requests';
import type { HostClock } from '../../electron/core/triggers/schedule';

/** A trigger record with every field defaulted (armed, a workflow target). */
export function triggerRecord(fields: Partial<TriggerRecord> & Pick<TriggerRecord, 'id' | 'type'>): TriggerRecord {
  const [owner = 'pkg', name = fields.id] = fields.id.split('/');
  return {
    name,
    packageName: owner,
    agentId: null,
    target: 'workflow',
    input: 'Do the thing',
    schedule: null,
    every: null,
    timezone: null,
    at: null,
    recursive: null,
    events: null,
    maxConcurrent: null,
    dayRule: 'and',
    armed: true,
    armedAt: '2026-12-01T00:00:00.000Z',
    folder: null,
    secretRef: null,
    secretOrigin: null,
    secretSetAt: null,
    pausedAt: null,
    ...fields,
  };
}

/** Writes `triggers` into the store of `dataDir`; a webhook trigger gets a fresh sealed secret, returned by id. */
export async function putTriggers(
  dataDir: string,
  triggers: TriggerRecord[],
  box: SecretBox = createFileKeySecretBox(dataDir),
): Promise<Map<string, string>> {
  const secrets = new Map<string, string>();
  const sealed = new Map<string, string>();
  for (const trigger of triggers) {
    if (trigger.type !== 'webhook' || !trigger.armed) continue;
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    secrets.set(trigger.id, secret);
    sealed.set(trigger.id, Buffer.from(await box.encrypt(secret)).toString('base64'));
  }
  await new Store(dataDir).update((state) => {
    for (const trigger of triggers) {
      const record = { ...trigger };
      const seal = sealed.get(trigger.id);
      if (seal) {
        record.secretRef = `ref-${trigger.id.replace(/\W/g, '-')}`;
        record.secretOrigin = 'made';
        record.secretSetAt = record.armedAt;
        state.webhookSecrets[record.secretRef] = seal;
      }
      state.triggers[trigger.id] = record;
    }
    return { result: undefined };
  });
  return secrets;
}

/** Changes one trigger in the store. */
export async function changeTrigger(
  dataDir: string,
  id: string,
  change: (trigger: TriggerRecord) => void,
): Promise<void> {
  await new Store(dataDir).update((state) => {
    const trigger = state.triggers[id];
    if (!trigger) throw new Error(`no trigger ${id}`);
    change(trigger);
    return { result: undefined };
  });
}

/** The run requests waiting in `runs/pending/`, oldest first. */
export function runRequests(dataDir: string): RunRequest[] {
  let names: string[] = [];
  try {
    names = readdirSync(join(dataDir, PENDING_DIR)).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  return names
    .map((n) => JSON.parse(readFileSync(join(dataDir, PENDING_DIR, n), 'utf8')) as RunRequest)
    .sort((a, b) => a.fired_at.localeCompare(b.fired_at));
}

/** The activity of `dataDir`, oldest first, as `kind outcome trigger: detail` strings when `short`. */
export async function activity(dataDir: string): Promise<ActivityEvent[]> {
  return (await new ActivityLog(dataDir).list()).reverse();
}

/**
 * A clock whose time moves only when the test says. Timers count in monotonic time, as Node's do:
 * `advance` moves both clocks and runs each timer due on the way; `setWall` moves only the wall
 * clock (a sleep, where the monotonic clock stands still, or the clock set by hand).
 */
export class FakeClock implements HostClock {
  private timers = new Map<number, { at: number; fn: () => void }>();
  private nextHandle = 1;
  private mono = 0;

  constructor(private wall: number) {}

  now(): Date {
    return new Date(this.wall);
  }

  setTimer(fn: () => void, ms: number): unknown {
    const handle = this.nextHandle++;
    this.timers.set(handle, { at: this.mono + ms, fn });
    return handle;
  }

  clearTimer(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Moves both clocks by `ms`, running each timer due on the way at its own time. */
  advance(ms: number): void {
    const target = this.mono + ms;
    for (;;) {
      const due = [...this.timers].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.wall += due[1].at - this.mono;
      this.mono = due[1].at;
      due[1].fn();
    }
    this.wall += target - this.mono;
    this.mono = target;
  }

  /** Moves both clocks until the wall clock reads `to`. */
  advanceTo(to: Date | string): void {
    this.advance(new Date(to).getTime() - this.wall);
  }

  /** Sets the wall clock alone. */
  setWall(to: Date | string): void {
    this.wall = new Date(to).getTime();
  }

  /** How many timers are waiting. */
  get waiting(): number {
    return this.timers.size;
  }
}

/** Polls `check` until it returns a value (not undefined/false), up to `ms`; for real-filesystem waits. */
export async function eventually<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 10_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value as T;
    if (Date.now() > deadline) throw new Error('the condition did not come true in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
