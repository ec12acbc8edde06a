/**
 * Installing, updating and uninstalling an `.apo` package (DESIGN.md "Consent, install, apply").
 * Install extracts only the bytes inspection verified, into staging, and records the user's
 * answers (never the package's defaults) in one store write; an update keeps what the user decided
 * before for what did not change (`diffUpdate`).
 */
import { join } from 'node:path';
import valid from 'semver/functions/valid.js';
import type {
  ApiRequest,
  InstallReceipt,
  UninstallReceipt,
  WebhookSecretGiven,
  WebhookSecretOnce,
} from '../../../shared/contract/api';
import type { InstalledRelation } from '../../../shared/contract/api';
import type { ApolliaManifest } from '../../../shared/manifests/apollia-manifest';
import type { Decisions, InstalledDecisions } from '../../../shared/decisions/decisions';
import type { ApoDetails, SignatureSummary } from '../../../shared/manifests/inspection';
import { own } from '../../../shared/base/own';
import { diffUpdate, type UpdateDiff } from '../../../shared/decisions/update-diff';
import type { ActivityInput } from '../activity/activity-log';
import { extractVerifiedArchive } from '../archive';
import { CoreError } from '../errors/index';
import { packagePolicyProblems, refuse, usablePolicy, verificationKeys } from '../policy/index';
import { installedDecisions, removePackageRecords, type SealedWebhookSecret, triggerIdOf } from '../store/records';
import { placeFromStaging, removeAndPrune, removeThroughStaging } from '../store/staging';
import type { StoreState } from '../store/state';
import { versionFolderName } from '../store/version-folder';
import type { FileDigests } from '../trust/index';
import { trustedKeysOf } from '../trust/stored-keys';
import { pickedWatchFolder } from '../triggers/watchable-folder';
import { type ApiContext, policyOf, recordActivity } from './context';
import { decideFromStore, trustOf } from './decide-from-store';
import { applyInstallPlan, checkKeyChange, identityRelation, type InstallPrepared, planInstall } from './install-plan';
import { digestsOf, keyChangeOf } from './publisher-trust';
import { sweepKeptArchives } from './feed-archives';
import { discardStaged, dropKeptArchive, keepFeedArchive, recordFeedInstall } from './feed-sources';
import { sharedSecretWarning, webhookSecretFor } from './trigger-arming';

export { identityRelation, relationOf } from './install-plan';

/**
 * For an inspected manifest: the installed version of the same package and, for another version, what the update
 * changes.
 */
export function installedComparison(
  state: StoreState,
  manifest: ApolliaManifest,
  sha256: string,
): {
  installed: InstalledRelation | null;
  updateDiff: UpdateDiff | null;
  installedDecisions: InstalledDecisions | null;
} {
  const none = { installed: null, updateDiff: null, installedDecisions: null };
  if (!valid(manifest.package.version)) return none;
  const installed = own(state.packages, manifest.package.name);
  if (!installed) return none;
  const relation = identityRelation(installed, manifest.package.version, sha256);
  return {
    installed: { version: installed.version, sha256: installed.sha256, relation },
    updateDiff: relation === 'same' ? null : diffUpdate(installed.manifest, manifest),
    installedDecisions: installedDecisions(state, installed.name),
  };
}

/**
 * Installs (or updates, or with `allowDowngrade` downgrades) the inspected `.apo` of
 * `request.sourceId`, and records it in the activity log: `install` or `update`, one `arm` per
 * trigger armed by it, or one `install` refused with the refusal's code.
 */
export async function installPackage(ctx: ApiContext, request: ApiRequest<'install'>): Promise<InstallReceipt> {
  let installed: { receipt: InstallReceipt; events: ActivityInput[] };
  try {
    installed = await installOnce(ctx, request);
  } catch (error) {
    const { name, shown } = refusedSubject(ctx, request.sourceId);
    // A request naming no opened package (an unknown id) is not an install that was refused: only those are recorded.
    if (error instanceof CoreError && shown !== null) {
      const kind = error.code === 'signature.key_changed' ? 'key_change_refused' : 'install';
      // Best effort: the refusal is what the person must hear, not a record that could not be written.
      await recordActivity(ctx, [
        {
          kind,
          ...(name ? { package: name } : {}),
          outcome: 'refused',
          detail: `${error.code}: ${shown} was not installed: ${error.message}`,
        },
      ]).catch((problem: unknown) =>
        (ctx.deps.log ?? ((m: string, e?: unknown) => console.error(m, e)))(
          'apollia: the refused install could not be recorded',
          problem,
        ),
      );
    }
    throw error;
  }
  return installed.receipt;
}

/** The package name (when its manifest could be read) and the shown name of a refused install's source. */
function refusedSubject(ctx: ApiContext, sourceId: string): { name: string | undefined; shown: string | null } {
  try {
    const src = ctx.sources.get(sourceId);
    return {
      name: (src.shownApo?.details as ApoDetails | null | undefined)?.manifest.package.name,
      shown: src.handle.displayName,
    };
  } catch {
    return { name: undefined, shown: null };
  }
}

/** The inspected, readable `.apo` an install request names: refused when it is not one. */
function inspectedPackage(ctx: ApiContext, sourceId: string) {
  const src = ctx.sources.get(sourceId);
  if (src.handle.kind !== 'apo')
    throw new CoreError(
      'install.not_a_package',
      `${src.handle.displayName} is not an .apo package: only packages are installed (a template is applied).`,
    );
  const inspection = src.shownApo;
  if (!inspection)
    throw new CoreError(
      'install.not_inspected',
      `${src.handle.displayName} was not inspected: look at what it asks before installing it`,
    );
  const details = inspection.details as ApoDetails | null;
  if (!inspection.ok || !details || !inspection.summary) {
    const first = inspection.errors[0];
    throw new CoreError(
      'install.refused',
      `${src.handle.displayName} was refused: ${first?.message ?? 'it could not be read'}`,
      { problems: inspection.errors },
    );
  }
  return { src, inspection, manifest: details.manifest, sha256: inspection.summary.sha256 };
}

/**
 * Refuses, before anything is written, what the store already tells: the same version again (unless its files
 * changed on this computer: then it is put back), a signature that could not be checked, a key change not accepted,
 * a downgrade not confirmed. Answers the checked signature.
 */
function refuseFromStore(
  state: StoreState,
  source: ReturnType<typeof inspectedPackage>,
  request: ApiRequest<'install'>,
): SignatureSummary {
  const { src, inspection, manifest } = source;
  const { name, version } = manifest.package;
  const existing = own(state.packages, name);
  // The same name and version with other bytes is another package: installed as an update (DESIGN.md "Trust after
  // install"), never as the installed one put back.
  const relation = existing ? identityRelation(existing, version, source.sha256) : null;
  // The same package again is refused, unless its files changed on this computer: then it is put back.
  const reinstall = relation === 'same' && own(state.packageTrust, name)?.integrity.state === 'changed';
  if (relation === 'same' && !reinstall)
    throw new CoreError('install.already_installed', `${name} ${version} is already installed`);
  const signature = inspection.summary?.signature;
  if (!signature)
    throw new CoreError(
      'install.refused',
      `${src.handle.displayName} was refused: its signature could not be checked`,
      {
        problems: inspection.errors,
      },
    );
  checkKeyChange(name, keyChangeOf(state, name, signature), request.acceptKeyChange === true);
  if (relation === 'older' && request.allowDowngrade !== true) {
    throw new CoreError(
      'install.downgrade',
      `${name} ${existing?.version} is installed; installing the older ${version} needs your confirmation (allowDowngrade)`,
    );
  }
  return signature;
}

/**
 * What armed triggers need before the store's lock: the real path of each folder picked, and each webhook secret
 * made here (shown once) or given by the sender (checked, never answered back), sealed either way; a given one is
 * also held in memory (`given`), to compare with the other triggers' once installed.
 */
async function prepareTriggers(
  ctx: ApiContext,
  name: string,
  decisions: Decisions,
): Promise<InstallPrepared & { given: ReadonlyMap<string, string> }> {
  const prepared = {
    folders: new Map<string, string>(),
    sealed: new Map<string, SealedWebhookSecret>(),
    webhookSecrets: [] as WebhookSecretOnce[],
    webhookSecretsGiven: [] as WebhookSecretGiven[],
    given: new Map<string, string>(),
  };
  for (const [triggerId, decided] of Object.entries(decisions.triggers)) {
    if (!decided.armed) continue;
    if (decided.folder?.kind === 'picked')
      prepared.folders.set(
        triggerId,
        await pickedWatchFolder(ctx.sources.folder(decided.folder.folderId), ctx.deps.dataDir),
      );
    if (decided.secret?.kind === 'new') {
      const secret = await webhookSecretFor(
        ctx,
        decided.secret.choice,
        `decisions.triggers.${triggerId}.webhookSecret`,
      );
      prepared.sealed.set(triggerId, secret.kept);
      if (secret.shown !== null)
        prepared.webhookSecrets.push({ triggerId: triggerIdOf(name, triggerId), secret: secret.shown });
      else {
        prepared.webhookSecretsGiven.push({
          triggerId: triggerIdOf(name, triggerId),
          given: true,
          sharedWarning: null,
        });
        if (secret.given !== null) prepared.given.set(triggerIdOf(name, triggerId), secret.given);
      }
    }
  }
  return prepared;
}

async function installOnce(ctx: ApiContext, request: ApiRequest<'install'>) {
  const { deps, store } = ctx;
  const source = inspectedPackage(ctx, request.sourceId);
  const { src, manifest, sha256 } = source;
  const { name, version } = manifest.package;
  const before = await store.read();
  const trust = trustOf(source.inspection.summary?.signature);
  // The organization's policy, read now (it may have changed since inspection): unreadable refuses everything; a
  // package it refuses is refused as a whole.
  const policy = usablePolicy(policyOf(ctx), `${src.handle.displayName} was not installed`);
  const policyProblem = packagePolicyProblems(
    policy,
    manifest,
    source.inspection.summary?.signature ?? null,
    sha256,
    verificationKeys(policy, trustedKeysOf(before)),
    // `installSources: "feeds"` refuses a local file, never a download a verified feed brought.
    src.feed ? 'feed' : 'file',
  )[0];
  if (policyProblem) refuse(policyProblem);
  // The one decision function, over what the store holds: refuses an answer it cannot carry out before anything is read
  // or written.
  const decided = decideFromStore(before, manifest, trust, request.decisions, policy);
  const signature = refuseFromStore(before, source, request);
  const prepared = await prepareTriggers(ctx, name, decided);

  const dir = `packages/${name}/${versionFolderName(version)}`;
  // From a feed: its archive kept beside the store before the commit, so this version can be put back.
  const kept = src.feed ? await keepFeedArchive(deps.dataDir, src.path, src.feed) : null;
  let dropped: string | null = null;
  let files: FileDigests = {};
  const plan = await placeFromStaging({
    dataDir: deps.dataDir,
    finalDir: join(deps.dataDir, dir),
    fill: async (staging) => {
      const extracted = await extractVerifiedArchive(src.path, sha256, staging);
      if (!extracted.ok)
        throw new CoreError(
          'install.refused',
          `${src.handle.displayName} was refused while installing: ${extracted.error.message}`,
          { problems: [extracted.error] },
        );
      // The SHA-256 of every file install writes, re-checked later.
      files = await digestsOf(staging);
    },
    record: (place) =>
      store.update(
        async (state) => {
          await place();
          // Decided and planned again under the store's lock, from what the store holds now: another change (an
          // install, a new pin, a never-allowed tool) may have landed meanwhile.
          const decisions = decideFromStore(state, manifest, trust, request.decisions, policy);
          const planned = planInstall(state, {
            manifest,
            decisions,
            sha256,
            dir,
            signature,
            files,
            prepared,
            acceptKeyChange: request.acceptKeyChange === true,
            at: deps.now().toISOString(),
          });
          applyInstallPlan(state, planned);
          if (src.feed && kept) dropped = recordFeedInstall(state, src.feed, kept, deps.now().toISOString());
          return { result: planned };
        },
        (planned) => planned.events,
      ),
  });
  if (plan.oldDir && plan.oldDir !== dir) await removeAndPrune(join(deps.dataDir, plan.oldDir), deps.dataDir);
  await dropKeptArchive(deps.dataDir, dropped);
  if (src.feed) await sweepKeptArchives(deps.dataDir, await store.read());
  // A feed's download was kept with the package (`archives/`): its staging copy goes.
  if (src.feed) await discardStaged(ctx, request.sourceId);
  // One secret on two triggers (another package's, or two of this one's): said with the receipt.
  for (const kept of plan.receipt.webhookSecretsGiven) {
    const secret = prepared.given.get(kept.triggerId);
    if (secret !== undefined) kept.sharedWarning = await sharedSecretWarning(ctx, kept.triggerId, secret);
  }
  return { receipt: plan.receipt, events: plan.events };
}

/**
 * Uninstalls a package: its records removed in one write, then its files moved aside and deleted (a failed write
 * leaves the files where they were).
 */
export async function uninstallPackage(
  ctx: ApiContext,
  request: ApiRequest<'uninstallPackage'>,
): Promise<UninstallReceipt> {
  const { deps, store } = ctx;
  const pkg = own((await store.read()).packages, request.name);
  if (!pkg) throw new CoreError('package.unknown', `No package called \`${request.name}\` is installed.`);
  const receipt = await removeThroughStaging(deps.dataDir, join(deps.dataDir, 'packages', pkg.name), () =>
    store.update(
      (state) => {
        const current = own(state.packages, request.name);
        if (!current) throw new CoreError('package.unknown', `No package called \`${request.name}\` is installed.`);
        const removed = removePackageRecords(state, request.name);
        return { result: { name: current.name, version: current.version, ...removed } };
      },
      (receipt) => {
        const parts = [`uninstalled ${receipt.name} ${receipt.version}`];
        if (receipt.removedAgents.length > 0) parts.push(`${receipt.removedAgents.length} agent(s) removed`);
        if (receipt.removedTriggers.length > 0) parts.push(`${receipt.removedTriggers.length} trigger(s) removed`);
        return [{ kind: 'uninstall', package: receipt.name, outcome: 'ok', detail: parts.join('; ') }];
      },
    ),
  );
  // Its archives kept for roll back go with it (after the commit that forgot them).
  await sweepKeptArchives(deps.dataDir, await store.read());
  return receipt;
}
