/**
 * What the trigger host asks before a trigger is made live and before each fire (DESIGN.md "Managed policy": the
 * policy is evaluated for every door, the trigger host before each fire; "Trust after install" and "Triggers at run
 * time": integrity re-hashed at the host's start and periodically, and before a fire the package files' size and mtime
 * compared with what was hashed, a change meaning a re-hash):
 *
 * - the policy, read afresh: an unreadable one, a trigger kind it does not allow, or the trigger's package withheld
 *   whole (`policy/installed-policy.ts`) pause it (armed, folder and secret kept);
 * - integrity: a package whose files differ from what install recorded is marked changed in the store (as `verify`
 *   marks it: arming and granting it are refused) and its triggers are paused by integrity, recorded once
 *   (`integrity_changed`); reinstalling or removing it lifts the pause.
 */
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { PolicyView } from '../../../shared/policy/policy';
import type { ActivityInput } from '../activity/activity-log';
import { withheldPackages } from '../policy/installed-policy';
import { readHostPolicy, triggerHeldByPolicy } from '../policy/policy-effects';
import type { PolicyLocations } from '../policy/read-policy';
import type { StoreState, TriggerRecord } from '../store/state';
import type { Store } from '../store/store';
import { checkIntegrity } from '../trust/integrity';

/** How often the host re-hashes every installed package's files, besides its start. */
export const INTEGRITY_INTERVAL_MS = 10 * 60_000;

/** What was hashed of one package: its folder, each recorded file's size and mtime then, and why it is paused. */
interface Hashed {
  sha256: string;
  stamps: Map<string, string>;
  changed: string | null;
}

/** What the gate needs of its host. */
export interface FireGateHost {
  dataDir: string;
  store: Store;
  policy: PolicyLocations | undefined;
  record(event: ActivityInput): void;
  line(text: string): void;
}

async function stampOf(path: string): Promise<string> {
  try {
    const stat = await lstat(path);
    return `${stat.size}:${stat.mtimeMs}:${stat.isFile() ? 'f' : 'o'}`;
  } catch {
    return 'missing';
  }
}

/** The policy and integrity gate of one trigger host. */
export class FireGate {
  private state: StoreState | null = null;
  private readonly hashed = new Map<string, Hashed>();
  /** When every package was last re-hashed (ms since the epoch). */
  lastHash = 0;

  constructor(private readonly host: FireGateHost) {}

  /**
   * Takes the store as the host now holds it and re-hashes what needs it: every package when `all` (start, the
   * periodic pass), else only a package installed, updated or reinstalled since it was last hashed.
   */
  async refresh(state: StoreState, all: boolean, now: number): Promise<boolean> {
    if (all) this.lastHash = now;
    const before = this.pausedKey();
    this.state = state;
    for (const name of [...this.hashed.keys()]) if (!Object.hasOwn(state.packages, name)) this.hashed.delete(name);
    for (const pkg of Object.values(state.packages)) {
      const known = this.hashed.get(pkg.name);
      // A reinstall of the same bytes clears the store's mark: the package is hashed again then too.
      const cleared = known?.changed != null && state.packageTrust[pkg.name]?.integrity.state !== 'changed';
      if (all || !known || known.sha256 !== pkg.sha256 || cleared) await this.hash(state, pkg.name);
    }
    return this.pausedKey() !== before;
  }

  /**
   * The periodic pass: when due, every package re-hashed against the store the host last read (nothing read but the
   * package files); answers whether what integrity pauses changed (the host then reloads its triggers).
   */
  async periodic(now: number): Promise<boolean> {
    if (!this.state || !this.due(now)) return false;
    return this.refresh(this.state, true, now);
  }

  private pausedKey(): string {
    return [...this.hashed].map(([name, h]) => `${name}:${h.changed !== null}`).join(',');
  }

  /** Whether the periodic re-hash of every package is due at `now`. */
  due(now: number): boolean {
    return now - this.lastHash >= INTEGRITY_INTERVAL_MS;
  }

  /** Why `trigger` may not fire now (the policy read now, the integrity known), or null; no file is read. */
  heldNow(view: PolicyView, trigger: TriggerRecord): string | null {
    const state = this.state;
    const policy = state ? triggerHeldByPolicy(view, trigger, withheldPackages(state, view)) : null;
    if (policy !== null) return policy;
    return trigger.packageName !== null ? (this.hashed.get(trigger.packageName)?.changed ?? null) : null;
  }

  /**
   * Before a fire: the policy read afresh, then the package's files' size and mtime against what was hashed (a
   * difference means a re-hash, and a changed package pauses the trigger).
   */
  async held(trigger: TriggerRecord): Promise<string | null> {
    const { view } = readHostPolicy(this.host.policy);
    const name = trigger.packageName;
    const known = name !== null ? this.hashed.get(name) : undefined;
    if (name !== null && known && known.changed === null && this.state) {
      const pkg = this.state.packages[name];
      for (const [path, stamp] of known.stamps) {
        if (pkg && (await stampOf(join(this.host.dataDir, pkg.dir, path))) !== stamp) {
          await this.hash(this.state, name);
          break;
        }
      }
    }
    return this.heldNow(view, trigger);
  }

  /** Hashes one package against what install recorded; a change is marked in the store and recorded, once. */
  private async hash(state: StoreState, name: string): Promise<void> {
    const pkg = state.packages[name];
    const files = state.packageTrust[name]?.files;
    if (!pkg || !files) return;
    const root = join(this.host.dataDir, pkg.dir);
    const stamps = new Map<string, string>();
    for (const path of Object.keys(files)) stamps.set(path, await stampOf(join(root, path)));
    const report = await checkIntegrity(root, files);
    const marked = state.packageTrust[name]?.integrity.state === 'changed';
    const differs = report.state !== 'ok' || marked;
    const names = [...report.changed, ...report.missing, ...report.added];
    const detail = names.length > 0 ? names.slice(0, 5).join(', ') : 'its folder cannot be checked';
    const changed = differs
      ? `paused by integrity: the files of ${name} changed on this computer since install (${detail}); still armed: reinstall it from its .apo, or remove it`
      : null;
    const before = this.hashed.get(name);
    this.hashed.set(name, { sha256: pkg.sha256, stamps, changed });
    if (!differs || marked || before?.changed) return;
    const at = new Date().toISOString();
    const armed = Object.values(state.triggers).filter((t) => t.packageName === name && t.armed);
    const entry = {
      kind: 'integrity_changed' as const,
      package: name,
      outcome: 'ok' as const,
      detail: `the files of ${name} changed on this computer since install (${detail}); ${armed.length} armed trigger(s) paused by integrity, still armed`,
    };
    // One commit (DESIGN.md "Commit points"): the mark and its entry together; a failed commit is still said.
    await this.host.store
      .update(
        (s) => {
          const trust = s.packageTrust[name];
          if (!trust || s.packages[name]?.sha256 !== pkg.sha256 || trust.integrity.state === 'changed')
            return { result: false, write: false };
          trust.integrity = {
            ...trust.integrity,
            state: 'changed',
            checkedAt: at,
            changed: report.changed,
            missing: report.missing,
            added: report.added,
          };
          return { result: true };
        },
        () => [entry],
      )
      .catch((error: unknown) => {
        this.host.line(`problem ${name} could not be marked changed: ${String(error)}`);
        this.host.record(entry);
      });
    this.host.line(`paused ${name}: its files changed (${detail})`);
  }
}
