/**
 * What the trigger host asks before a trigger is made live and before each fire (DESIGN.md "Managed policy": the
 * policy is evaluated for every door, the trigger host before each fire; "Trust after install" and "Triggers at run
 * time": integrity re-hashed at the host's start and periodically, and before a fire the package files' size and mtime
 * compared with what was hashed, a change meaning a re-hash):
 *
 * - the person's pause (`pausedAt`): armed, folder and secret kept, not firing until resumed;
 * - the policy, read afresh: an unreadable one, a trigger kind it does not allow, or the trigger's package withheld
 *   whole (`policy/installed-policy.ts`) pause it (armed, folder and secret kept);
 * - integrity: a package whose files differ from what install recorded is marked changed in the store, by the one
 *   path `verify` takes too (`integrity-pause.ts`: arming and granting it are refused), and its triggers are paused by
 *   integrity, recorded once (`integrity_changed`) by whoever marked it; a mark the app's check set pauses them here as
 *   well; reinstalling the installed bytes or removing the package lifts the pause.
 */
import { statSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { PolicyView } from '../../../shared/policy/policy';
import type { ActivityInput } from '../activity/activity-log';
import { withheldPackages } from '../policy/installed-policy';
import { triggerHeldByPolicy } from '../policy/policy-effects';
import { type PolicyLocations, policyLocations, readPolicy } from '../policy/read-policy';
import type { StoreState, TriggerRecord } from '../store/state';
import type { Store } from '../store/store';
import { checkIntegrity } from '../trust/integrity';
import { integrityChangedEvent, markChanged, pausedByIntegrityWords } from './integrity-pause';

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

/** What the policy files are now (see `FireGate.policyNow`), or null where the policy is not in files alone. */
function policyStamp(locations: PolicyLocations): string | null {
  if (locations.registry || locations.managedPreferences) return null;
  const stampOfFile = (path: string | null) => {
    if (path === null) return '-';
    try {
      const stat = statSync(path, { bigint: true, throwIfNoEntry: false });
      return stat ? `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}:${stat.mode}` : 'none';
    } catch (error) {
      return `error:${(error as NodeJS.ErrnoException).code}`;
    }
  };
  return `${stampOfFile(locations.machine)} ${stampOfFile(locations.env)}`;
}

/** The policy and integrity gate of one trigger host. */
export class FireGate {
  private state: StoreState | null = null;
  private readonly hashed = new Map<string, Hashed>();
  /** When every package was last re-hashed (ms since the epoch). */
  lastHash = 0;
  /** The policy read in this turn of the event loop (forgotten at its end, see {@link policyNow}). */
  private turnPolicy: PolicyView | null = null;
  /** The last policy read, and the stamp of its files then (see {@link policyNow}). */
  private lastPolicy: { view: PolicyView; stamp: string } | null = null;

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

  /**
   * Why `trigger` may not fire now (the policy read now, the integrity known: what this host hashed, or the store's
   * mark `changed` whoever set it), or null; no file is read.
   */
  heldNow(view: PolicyView, trigger: TriggerRecord): string | null {
    // Paused by the person: armed, its folder and secret kept, not firing until they resume it.
    if (trigger.pausedAt !== null) return 'paused by you: still armed, it fires when you resume it';
    const state = this.state;
    const policy = state ? triggerHeldByPolicy(view, trigger, withheldPackages(state, view)) : null;
    if (policy !== null) return policy;
    const name = trigger.packageName;
    if (name === null) return null;
    const hashed = this.hashed.get(name)?.changed ?? null;
    if (hashed !== null) return hashed;
    const trust = state && Object.hasOwn(state.packageTrust, name) ? state.packageTrust[name] : undefined;
    return trust?.integrity.state === 'changed' ? pausedByIntegrityWords(name, trust.integrity) : null;
  }

  /**
   * Before a fire: the policy read afresh, then the package's files' size and mtime against what was hashed (a
   * difference means a re-hash, and a changed package pauses the trigger).
   */
  async held(trigger: TriggerRecord): Promise<string | null> {
    const view = this.policyNow();
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

  /**
   * The policy as it is now, once per turn of the event loop: the fires of one turn (a burst of deliveries) are
   * decided against one look, each turn looks afresh. A look is a `stat` of each policy file (no error made when one
   * is missing): when every file's inode, size, mtime and ctime are what they were at the last read, what it read
   * stands (a write, a replacement, a permission change all move the ctime); else the files are read again. Where
   * the policy is also in the registry or managed preferences (Windows, macOS), each turn reads it all. Its
   * fingerprint (a SHA-256) is the reload's business, not each fire's.
   */
  private policyNow(): PolicyView {
    if (this.turnPolicy !== null) return this.turnPolicy;
    const locations = this.host.policy ?? policyLocations();
    const stamp = policyStamp(locations);
    const last = this.lastPolicy;
    const view = stamp !== null && last?.stamp === stamp ? last.view : readPolicy(locations);
    this.lastPolicy = stamp === null ? null : { view, stamp };
    this.turnPolicy = view;
    setImmediate(() => {
      this.turnPolicy = null;
    });
    return view;
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
    const marked = state.packageTrust[name]?.integrity;
    const finding = report.state !== 'ok' ? report : marked?.state === 'changed' ? marked : null;
    const before = this.hashed.get(name);
    this.hashed.set(name, {
      sha256: pkg.sha256,
      stamps,
      changed: finding ? pausedByIntegrityWords(name, finding) : null,
    });
    if (!finding || marked?.state === 'changed' || before?.changed) return;
    const at = new Date().toISOString();
    const names = [...report.changed, ...report.missing, ...report.added];
    this.host.line(
      `paused ${name}: its files changed (${names.length > 0 ? names.slice(0, 5).join(', ') : 'its folder cannot be checked'})`,
    );
    // The one path (`integrity-pause.ts`): marked under the store's lock unless the app's check marked it first, and
    // recorded only by whoever marked it, in the same commit (DESIGN.md "Commit points").
    await this.host.store
      .update(
        (s) => {
          const now = markChanged(s, name, report, at, pkg.sha256);
          return { result: now, write: now !== null };
        },
        (paused) => (paused === null ? [] : [integrityChangedEvent(name, report, paused)]),
      )
      .catch((error: unknown) => {
        this.host.line(`problem ${name} could not be marked changed: ${String(error)}`);
      });
  }
}
