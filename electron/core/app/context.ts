/**
 * What every Api module works with: the host's deps, the store, the registry of opened sources, and
 * the few helpers more than one module needs (sealing a secret, reading an own property). Built once
 * by `createApi` and handed to each module, so the modules never import the dispatcher.
 */
import type { ActivityEvent, ActivityInput, ActivityLog } from '../activity/activity-log';
import type { SecretBox } from '../secrets/secret-box';
import type { AtomicWriteFaults } from '../store/atomic-file';
import type { Store } from '../store/store';
import type { SourceRegistry } from './sources';
import type { FeedFetch } from '../feeds';
import { CoreError } from '../errors/index';
import { appendFile } from 'node:fs/promises';
import type { PolicyView } from '../../../shared/policy/policy';
import { type PolicyLocations, policyLocations, readPolicy } from '../policy/read-policy';

/** What the Api needs from its host (Electron main, the e2e harness, the CLI, a test). */
export interface ApiDeps {
  /** The app's data folder (`app.getPath('userData')`); the store lives here. */
  dataDir: string;
  /** The app's resources (`resources/`): built-in templates live in `templates/`. */
  resourcesDir: string;
  /** Main-process dialogs; `openKeyFile` picks a minisign `.pub` file (Settings → Trusted publishers). */
  dialogs: {
    openFile(): Promise<string | null>;
    openFolder(): Promise<string | null>;
    openKeyFile?(): Promise<string | null>;
  };
  secretBox: SecretBox;
  now: () => Date;
  log?: (message: string, error?: unknown) => void;
  /** Test hooks: faults injected into the state writer and into apply's trigger step. */
  faults?: AtomicWriteFaults & { applyTrigger?: (name: string) => void };
  /** How long a write waits for another process's lock before `store.busy`. */
  lockTimeoutMs?: number;
  /**
   * Moves a file to the system's Trash (Electron: `shell.trashItem`; the e2e harness: a `trash/`
   * folder). Absent (the CLI), `trashSource` answers `trash.unavailable`.
   */
  trash?: (path: string) => Promise<void>;
  /**
   * Opens an https address in the person's browser (Electron: `shell.openExternal`; the e2e harness:
   * a file the specs read). Core passes only the app's own download page (`shared/base/app-links.ts`).
   * Absent (the CLI), `openDownloadPage` answers `link.unavailable`.
   */
  openExternal?: (url: string) => Promise<void>;
  /** What `appInfo` tells of the host: its command line (`AppInfo.cliProgram`); absent, `apollia-desktop`. */
  cliProgram?: string | null;
  /** The host runs without Chromium's sandbox (`--no-sandbox`): install and apply are refused (`app.sandbox_off`). */
  sandboxOff?: boolean;
  /**
   * The OS's "start at login" for the app (Electron: login items, an XDG autostart entry); absent where the host has
   * none.
   */
  loginItem?: { get(): Promise<boolean>; set(on: boolean): Promise<void> };
  /**
   * Where the organization's policy files are; absent, this machine's location and `APOLLIA_POLICY_FILE`
   * (policy/read-policy.ts).
   */
  policy?: PolicyLocations;
  /**
   * How feeds and their archives are fetched (DESIGN.md "Feeds"): Electron's `net.fetch` in the app
   * (the system's proxy and certificates), Node's `fetch` in the CLI; absent, the runtime's `fetch`.
   */
  fetch?: FeedFetch;
}

/** The deps, the store and the sources, shared by the Api's modules. */
export interface ApiContext {
  readonly deps: ApiDeps;
  readonly store: Store;
  readonly sources: SourceRegistry;
  /** The data folder's activity log, for reading: written only through the store's commit (`Store.update`). */
  readonly activity: ActivityLog;
}

/**
 * Records decisions that change nothing in the store (a refused install, the policy noticed):
 * through the store's one commit all the same (`Store.update` with its record), so the entries and
 * the record's head are committed in the state before they are appended. A change of the store
 * records its entries in its own `update` (its second argument), never after it.
 */
export async function recordActivity(ctx: ApiContext, events: readonly ActivityInput[]): Promise<void> {
  if (events.length === 0) return;
  await ctx.store.update(
    () => ({ result: undefined, write: false }),
    () => events,
  );
}

/**
 * The policy's `activityExport`: the entries a commit recorded are also appended there (cleaned as
 * the record keeps them), one JSON line each, for the organization's log shipper. The store calls
 * it after each commit (`StoreOptions.onRecorded`); a failure is reported, the change stands.
 */
export async function exportRecorded(ctx: ApiContext, events: readonly ActivityEvent[]): Promise<void> {
  const exportTo = events.length > 0 ? policyOf(ctx).effective?.activityExport : null;
  if (!exportTo) return;
  for (const stored of events) {
    try {
      await appendFile(exportTo, `${JSON.stringify(stored)}\n`, { mode: 0o600 });
    } catch (error) {
      (ctx.deps.log ?? ((message: string, e?: unknown) => console.error(message, e)))(
        `apollia: the policy's activity export ${exportTo} could not be written (${stored.kind})`,
        error,
      );
    }
  }
}

/** The organization's policy in force now, read from its files (policy/read-policy.ts). */
export function policyOf(ctx: ApiContext): PolicyView {
  return readPolicy(ctx.deps.policy ?? policyLocations());
}

/**
 * `secret` sealed by the host's secret box, in base64. The store is read first: it must be usable
 * before anything is sealed (a file-key box makes its key on first use, and a refused write, a
 * state file from a newer app say, must leave the data folder as it was).
 */
export async function seal(ctx: ApiContext, secret: string): Promise<string> {
  await ctx.store.read();
  // Just after start the keychain may not have answered yet: wait for it, then say what it is.
  await ctx.deps.secretBox.ready?.();
  if (ctx.deps.secretBox.backend() === 'unavailable')
    throw new CoreError(
      'secret.unavailable',
      'This computer has no way to keep secrets (no keychain): a webhook or a saved secret cannot be set up here.',
    );
  return Buffer.from(await ctx.deps.secretBox.encrypt(secret)).toString('base64');
}
