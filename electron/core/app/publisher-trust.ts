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
import { type ApiContext, recordActivity } from './context';
import { own } from '../../../shared/base/own';
import type { ApiErrorCode } from '../../../shared/contract/api-errors';
import { CoreError } from '../errors/index';
import { disarmTrigger } from '../store/records';
import { integrityView } from './views';
import type { DisarmedByCheck, PackageTrustRecord, StoreState } from '../store/state';
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
 * you installed it"), disarms its triggers and records both in the store and the activity log. The
 * mark stays until the package is reinstalled or uninstalled: putting a file back does not clear
 * it (a package once changed is not trusted again silently). A package installed before format 3
 * has its files recorded by its first check. Writes only when something is new.
 */
export async function verifyInstalled(ctx: ApiContext): Promise<VerifiedPackage[]> {
  const { deps, store } = ctx;
  const state = await store.read();
  const found = new Map<
    string,
    {
      dir: string;
      version: string;
      report: { state: 'ok' | 'changed'; changed: string[]; missing: string[]; added: string[] } | null;
      files: FileDigests | null;
    }
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
    const changed = report.state !== 'ok';
    found.set(pkg.name, {
      dir: pkg.dir,
      version: pkg.version,
      report: {
        state: changed ? 'changed' : 'ok',
        changed: report.changed,
        missing: report.missing,
        added: report.added,
      },
      files: null,
    });
  }
  const at = deps.now().toISOString();
  const newly: { name: string; disarmed: string[]; detail: string }[] = [];
  const results = await store.update(
    (current) => {
      let write = false;
      const out: VerifiedPackage[] = [];
      for (const [name, seen] of found) {
        const pkg = own(current.packages, name);
        if (!pkg || pkg.dir !== seen.dir || pkg.version !== seen.version) continue; // changed by an install meanwhile: the next check sees it
        let record = own(current.packageTrust, name);
        if (!record?.files) {
          if (!seen.files) continue;
          record = installedTrust(record?.pin ?? { kind: 'unsigned' }, record?.signature ?? UNSIGNED, seen.files, at);
          current.packageTrust[name] = record;
          write = true;
        }
        let newlyChanged = false;
        const disarmed: string[] = [];
        // A package the trigger host already marked changed (it pauses, keeping the triggers armed) is disarmed here all
        // the same: the app's check decides, and what it disarms is kept with the mark whoever saw the change first.
        const firstSeen = record.integrity.state === 'ok';
        const stillArmed = Object.values(current.triggers).some((t) => t.packageName === name && t.armed);
        if (seen.report?.state === 'changed' && (firstSeen || stillArmed)) {
          // What was armed is kept with the mark, so that putting the same version back arms it again.
          const kept: DisarmedByCheck[] =
            !firstSeen && record.integrity.state === 'changed' ? [...(record.integrity.disarmed ?? [])] : [];
          for (const trigger of Object.values(current.triggers)) {
            if (trigger.packageName === name && trigger.armed) {
              kept.push({ trigger: trigger.id, folder: trigger.folder });
              disarmTrigger(current, trigger);
              disarmed.push(trigger.id);
            }
          }
          record.integrity = {
            state: 'changed',
            checkedAt: at,
            changed: seen.report.changed,
            missing: seen.report.missing,
            added: seen.report.added,
            disarmed: kept,
          };
          newlyChanged = true;
          write = true;
          newly.push({ name, disarmed, detail: integrityDetail(seen.report) });
        }
        out.push({
          name,
          version: pkg.version,
          integrity: integrityView(current, name).integrity,
          newlyChanged,
          disarmed,
        });
      }
      return { result: out, write };
    },
    () =>
      newly.map((change) => ({
        kind: 'integrity_changed' as const,
        package: change.name,
        outcome: 'refused' as const,
        detail: `changed on this computer since it was installed (${change.detail}); ${change.disarmed.length === 0 ? 'no trigger was armed' : `triggers disarmed: ${change.disarmed.join(', ')}`}`,
      })),
  );
  return results.sort((a, b) => a.name.localeCompare(b.name));
}

/** `2 changed, 1 missing: tools/extract.py, …` for the activity log and the CLI. */
export function integrityDetail(report: { changed: string[]; missing: string[]; added: string[] }): string {
  const parts = [
    report.changed.length > 0 ? `${report.changed.length} changed` : '',
    report.missing.length > 0 ? `${report.missing.length} missing` : '',
    report.added.length > 0 ? `${report.added.length} added` : '',
  ].filter(Boolean);
  const names = [...report.changed, ...report.missing, ...report.added];
  const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? `, and ${names.length - 5} more` : '');
  return `${parts.join(', ') || 'the folder cannot be read'}${shown ? `: ${shown}` : ''}`;
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
