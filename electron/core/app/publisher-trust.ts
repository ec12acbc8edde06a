/**
 * Trust in the Api (DESIGN.md "Trust after install"): the user's trusted keys, the key
 * pinned per package at first install and the explicit acceptance a key change needs, and the
 * integrity of installed files, checked on app start, on opening the dashboard and by the CLI's
 * `verify`. The checks themselves live in `trust/`; this module ties them to the store and the
 * activity log.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { KeyChange, KeyPreview, TrustedKeyView, VerifiedPackage } from '../../../shared/contract/api';
import type { SignatureSummary } from '../../../shared/manifests/inspection';
import { type KeyPin, UNSIGNED } from '../../../shared/trust/trust';
import type { SignatureUpdate } from '../../../shared/trust/signature-verdict';
import type { ActivityInput } from '../activity/activity-log';
import { type ApiContext, recordActivity } from './context';
import { own } from '../../../shared/base/own';
import type { ApiErrorCode } from '../../../shared/contract/api-errors';
import { CoreError } from '../errors/index';
import {
  armedTriggersOf,
  integrityChangedEvent,
  integrityDetail,
  type IntegrityFinding,
  markChanged,
} from '../triggers/integrity-pause';
import { integrityView } from './views';
import type { PackageTrustRecord, StoreState } from '../store/state';
import {
  addTrustedKey,
  checkIntegrity,
  computeFileDigests,
  keyFingerprint,
  keyPinOfSummary,
  MAX_PUBLIC_KEY_TEXT_BYTES,
  previewTrustedKey,
  removeTrustedKey,
  type FileDigests,
  type TrustedKey,
} from '../trust/index';
import { installedPinOf, signatureUpdateOf, trustedKeysOf } from '../trust/stored-keys';

/** `2 changed, 1 missing: tools/extract.py, …` for the activity log and the CLI. */
export { integrityDetail };

function refusal(problem: { code: string; message: string }): CoreError {
  return new CoreError(problem.code as ApiErrorCode, problem.message);
}

/** Installed packages pinned to `key` (its whole key), sorted. */
function pinnedTo(state: StoreState, key: TrustedKey): string[] {
  return Object.entries(state.packageTrust)
    .filter(
      ([name, record]) =>
        own(state.packages, name) && record.pin.kind === 'key' && record.pin.publicKey === key.publicKey,
    )
    .map(([name]) => name)
    .sort();
}

function keyViews(state: StoreState, keys: readonly TrustedKey[]): TrustedKeyView[] {
  return keys.map((key) => ({
    keyId: key.keyId,
    name: key.name,
    publicKey: key.publicKey,
    fingerprint: keyFingerprint(key.publicKey),
    addedAt: key.addedAt,
    pinnedPackages: pinnedTo(state, key),
  }));
}

/** `trustedKeys`: the list, in the order added, each with the installed packages pinned to it. */
export async function listTrustedKeys(ctx: ApiContext): Promise<TrustedKeyView[]> {
  const state = await ctx.store.read();
  return keyViews(state, trustedKeysOf(state));
}

/**
 * `trustKey`: adds a pasted public key (the `.pub` file's text or its base64 line) under `name`; recorded in the
 * activity log.
 */
export async function trustKey(
  ctx: ApiContext,
  request: { publicKey: string; name: string },
): Promise<TrustedKeyView[]> {
  const { views } = await ctx.store.update(
    (state) => {
      const added = addTrustedKey(trustedKeysOf(state), request.publicKey, request.name, ctx.deps.now());
      if (!added.ok) throw refusal(added.error);
      state.trustedKeys = added.keys;
      return { result: { views: keyViews(state, added.keys), key: added.key } };
    },
    ({ key }) => [{ kind: 'key_trusted', outcome: 'ok', detail: `trusted key ${key.keyId} as “${key.name}”` }],
  );
  return views;
}

/**
 * `previewKey`: a pasted key read without trusting it (nothing is written), so its key id and fingerprint are shown
 * before the person names it.
 */
export async function previewKey(ctx: ApiContext, request: { publicKey: string }): Promise<KeyPreview> {
  const read = previewTrustedKey(trustedKeysOf(await ctx.store.read()), request.publicKey);
  if (!read.ok) throw refusal(read.error);
  return read.preview;
}

/**
 * `previewKeyFile`: the user picks a `.pub` file in a main-process dialog (the renderer never sends a path), read
 * under the key size cap and previewed as {@link previewKey}; null when they cancel. The renderer then trusts the
 * previewed key line with `trustKey`.
 */
export async function previewKeyFile(ctx: ApiContext): Promise<KeyPreview | null> {
  const pick = ctx.deps.dialogs.openKeyFile;
  if (!pick) throw new CoreError('key.unreadable', 'This app cannot show a file dialog here: paste the key instead.');
  const path = await pick();
  if (path === null) return null;
  return previewKey(ctx, { publicKey: await readKeyFile(path) });
}

/**
 * Reads a public key file: a regular file of at most {@link MAX_PUBLIC_KEY_TEXT_BYTES} bytes (`key.malformed` past
 * that), else `key.unreadable`.
 */
export async function readKeyFile(path: string): Promise<string> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw new CoreError(
      'key.unreadable',
      `The key file ${path} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  try {
    if (!(await handle.stat()).isFile())
      throw new CoreError('key.unreadable', `The key file ${path} is not a regular file.`);
    const buffer = Buffer.alloc(MAX_PUBLIC_KEY_TEXT_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > MAX_PUBLIC_KEY_TEXT_BYTES)
      throw new CoreError(
        'key.malformed',
        `The key file ${path} is over ${MAX_PUBLIC_KEY_TEXT_BYTES} bytes: a minisign public key is two short lines.`,
      );
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * `untrustKey`: removes the key with this id (1–16 hex digits, any case); recorded in the activity
 * log. Packages pinned to it stay pinned to the whole key: an update is still checked against it.
 */
export async function untrustKey(ctx: ApiContext, request: { keyId: string }): Promise<TrustedKeyView[]> {
  const { views } = await ctx.store.update(
    (state) => {
      const removed = removeTrustedKey(trustedKeysOf(state), request.keyId);
      if (!removed.ok) throw refusal(removed.error);
      const pinned = pinnedTo(state, removed.key);
      state.trustedKeys = removed.keys;
      return { result: { views: keyViews(state, removed.keys), key: removed.key, pinned } };
    },
    ({ key, pinned }) => {
      const kept =
        pinned.length === 0 ? 'no installed package was pinned to it' : `still pinned to it: ${pinned.join(', ')}`;
      return [
        {
          kind: 'key_removed',
          outcome: 'ok',
          detail: `removed key ${key.keyId} (“${key.name}”) from your trusted publishers; ${kept}`,
        },
      ];
    },
  );
  return views;
}

/** The pin a signature state records. */
export function pinOfSummary(signature: SignatureSummary): KeyPin {
  return keyPinOfSummary(signature);
}

/** The pin of an installed package (unsigned for one installed before pins were kept). */
export function pinOf(state: StoreState, name: string): KeyPin | null {
  return installedPinOf(state, name);
}

/**
 * What installing a package signed as `signature` would do to the pin of the installed `name`:
 * null for a first install or the same key; `first_signed` (allowed) or `changed` (refused unless
 * accepted: another key, a signature dropped, or a pin that cannot be matched).
 */
export function keyChangeOf(state: StoreState, name: string, signature: SignatureSummary): KeyChange | null {
  return keyChangeOfUpdate(signatureUpdateOf(state, name, signature));
}

/** The {@link KeyChange} of an update's signature story: null when the key is kept. */
export function keyChangeOfUpdate(update: SignatureUpdate | null): KeyChange | null {
  if (update === null || update.change === 'kept') return null;
  return { ...update, kind: update.change === 'first_signed' ? 'first_signed' : 'changed', change: update.change };
}

/** `refuseKeyChange`: the person answered "Don't update" on a key-change stop; recorded in the activity log. */
export async function refuseKeyChange(
  ctx: ApiContext,
  change: KeyChange,
  name: string,
  version: string,
): Promise<void> {
  await recordActivity(ctx, [
    {
      kind: 'key_change_refused',
      package: name,
      outcome: 'refused',
      detail: `${version} not installed: you refused the key change (${change.message})`,
    },
  ]);
}

/** The trust record of a fresh install: its pin, signature and file digests; integrity `ok`. */
export function installedTrust(
  pin: KeyPin,
  signature: SignatureSummary,
  files: FileDigests,
  at: string,
): PackageTrustRecord {
  return { pin, signature, files, integrity: { state: 'ok', checkedAt: at, changed: [], missing: [], added: [] } };
}

/**
 * Digests of the folder install is about to place; a folder install wrote that cannot be walked is a bug, answered
 * `internal`.
 */
export async function digestsOf(folder: string): Promise<FileDigests> {
  const computed = await computeFileDigests(folder);
  if (!computed.ok) throw new Error(`the installed files could not be recorded: ${computed.error.message}`);
  return computed.files;
}

/**
 * Re-checks every installed package's files against the digests install recorded.
 * A changed, missing or added file marks the package `changed` ("changed on this computer since
 * you installed it"): its triggers are paused by integrity (still armed, their folder and secret kept; the trigger host
 * neither makes them live nor fires them), recorded once in the activity log, by whoever marked it first (this check or
 * the trigger host: `triggers/integrity-pause.ts`, the one path). The mark stays until the package is reinstalled from
 * the installed bytes (its triggers resume) or uninstalled: putting a file back does not clear it (a package once
 * changed is not trusted again silently). A package installed before format 3 has its files recorded by its first
 * check. Writes only when something is new.
 */
export async function verifyInstalled(ctx: ApiContext): Promise<VerifiedPackage[]> {
  const { deps, store } = ctx;
  const state = await store.read();
  const found = new Map<
    string,
    { dir: string; version: string; report: IntegrityFinding | 'ok' | null; files: FileDigests | null }
  >();
  for (const pkg of Object.values(state.packages)) {
    const record = own(state.packageTrust, pkg.name);
    const folder = join(deps.dataDir, pkg.dir);
    if (!record?.files) {
      const computed = await computeFileDigests(folder);
      found.set(pkg.name, {
        dir: pkg.dir,
        version: pkg.version,
        report: null,
        files: computed.ok ? computed.files : null,
      });
      continue;
    }
    const report = await checkIntegrity(folder, record.files);
    // A folder that cannot be listed any more is a change to the package too: it can no longer be vouched for.
    found.set(pkg.name, {
      dir: pkg.dir,
      version: pkg.version,
      report: report.state === 'ok' ? 'ok' : report,
      files: null,
    });
  }
  const at = deps.now().toISOString();
  const newly: ActivityInput[] = [];
  const results = await store.update(
    (current) => {
      let write = false;
      const out: VerifiedPackage[] = [];
      for (const [name, seen] of found) {
        const pkg = own(current.packages, name);
        if (!pkg || pkg.dir !== seen.dir || pkg.version !== seen.version) continue; // changed by an install meanwhile: the next check sees it
        if (!own(current.packageTrust, name)?.files) {
          if (!seen.files) continue;
          const record = own(current.packageTrust, name);
          current.packageTrust[name] = installedTrust(
            record?.pin ?? { kind: 'unsigned' },
            record?.signature ?? UNSIGNED,
            seen.files,
            at,
          );
          write = true;
        }
        const paused =
          seen.report !== null && seen.report !== 'ok' ? markChanged(current, name, seen.report, at) : null;
        if (paused !== null && seen.report !== null && seen.report !== 'ok') {
          write = true;
          newly.push(integrityChangedEvent(name, seen.report, paused));
        }
        const integrity = integrityView(current, name).integrity;
        out.push({
          name,
          version: pkg.version,
          integrity,
          newlyChanged: paused !== null,
          paused: integrity.state === 'changed' ? armedTriggersOf(current, name) : [],
        });
      }
      return { result: out, write };
    },
    // The pause and its entry in one commit (DESIGN.md "Commit points"), recorded once: by whoever set the mark.
    () => newly,
  );
  return results.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Refuses `what` on a package the integrity check marked changed (DESIGN.md "Trust after install": arming or granting
 * it is refused until it is reinstalled or removed), saying how to lift it; `packageName` null (a template's agent or
 * trigger) is never refused here.
 */
export function refuseIfChanged(state: StoreState, packageName: string | null, what: string): void {
  if (packageName === null) return;
  const trust = own(state.packageTrust, packageName);
  if (trust?.integrity.state !== 'changed') return;
  throw new CoreError(
    'package.changed',
    `${what}: the files of ${packageName} changed on this computer since install (${integrityDetail(trust.integrity)}); reinstall it from its .apo (\`reinstall PATH\`, or open the .apo again) or remove it first`,
  );
}
