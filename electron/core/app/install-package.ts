/**
 * Installing, updating and uninstalling an `.apo` package (DESIGN.md "Consent, install, apply").
 * Install extracts only the bytes inspection verified, into staging, and records the user's
 * answers (never the package's defaults) in one store write; an update keeps what the user decided
 * before for what did not change (`diffUpdate`).
 */
import { versionFolderName } from '../store/version-folder';
import { join } from 'node:path';
import compare from 'semver/functions/compare.js';
import valid from 'semver/functions/valid.js';
import type {
  ApiRequest,
  InstallReceipt,
  KeyChange,
  UninstallReceipt,
  WebhookSecretGiven,
  WebhookSecretOnce,
} from '../../../shared/api';
import { digestsOf, installedTrust, keyChangeOf, pinOfSummary } from './publisher-trust';
import type { FileDigests } from '../trust/index';
import type { ApolliaManifest } from '../../../shared/apollia-manifest';
import { accessFamilies, firstByName } from '../../../shared/consent';
import { type InstalledDecisions, permissionsOf } from '../../../shared/decisions';
import { decideFromStore, trustOf } from './decide-from-store';
import type { ApoDetails } from '../../../shared/inspection';
import { diffUpdate, type UpdateDiff } from '../../../shared/update-diff';
import type { ActivityInput } from '../activity/activity-log';
import { type ApiContext, policyOf, recordActivity } from './context';
import { own } from '../../../shared/own';
import { packagePolicyProblems, refuse, usablePolicy, verificationKeys } from '../policy/index';
import { trustedKeysOf } from '../trust/stored-keys';
import { extractVerifiedArchive } from '../archive';
import { CoreError } from '../errors/index';
import { armedWords, webhookSecretFor } from './trigger-arming';
import { placeFromStaging, removeAndPrune, removeThroughStaging } from '../store/staging';
import {
  agentIdOf,
  installedDecisions,
  packageAgentRecord,
  packageRecord,
  packageTriggerRecord,
  removePackageRecords,
  type SealedWebhookSecret,
  setWebhookSecret,
  triggerIdOf,
} from '../store/records';
import type { StoreState } from '../store/state';
import { pickedWatchFolder } from '../triggers/watchable-folder';

/** How a candidate version stands to the installed one. */
export function relationOf(installed: string, candidate: string): 'same' | 'newer' | 'older' {
  const order = compare(candidate, installed);
  return order === 0 ? 'same' : order > 0 ? 'newer' : 'older';
}

/**
 * For an inspected manifest: the installed version of the same package and, for another version, what the update
 * changes.
 */
export function installedComparison(
  state: StoreState,
  manifest: ApolliaManifest,
): {
  installed: { version: string; relation: 'same' | 'newer' | 'older' } | null;
  updateDiff: UpdateDiff | null;
  installedDecisions: InstalledDecisions | null;
} {
  const none = { installed: null, updateDiff: null, installedDecisions: null };
  if (!valid(manifest.package.version)) return none;
  const installed = own(state.packages, manifest.package.name);
  if (!installed) return none;
  const relation = relationOf(installed.version, manifest.package.version);
  return {
    installed: { version: installed.version, relation },
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
  let receipt: {
    receipt: InstallReceipt;
    armedTriggers: { id: string; agentId: string | null; type: string; folder: string | null; kept: boolean }[];
    turnedOff: { id: string; agentId: string | null; why: string }[];
  };
  try {
    receipt = await installOnce(ctx, request);
  } catch (error) {
    const { name, shown } = refusedSubject(ctx, request.sourceId);
    // A request naming no opened package (an unknown id) is not an install that was refused: only those are recorded.
    if (error instanceof CoreError && shown !== null) {
      const kind = error.code === 'signature.key_changed' ? 'key_change_refused' : 'install';
      await recordActivity(ctx, [
        {
          kind,
          ...(name ? { package: name } : {}),
          outcome: 'refused',
          detail: `${error.code}: ${shown} was not installed: ${error.message}`,
        },
      ]);
    }
    throw error;
  }
  const r = receipt.receipt;
  const words =
    r.outcome === 'installed'
      ? `installed ${r.name} ${r.version} from ${r.publisher}`
      : `${r.outcome} ${r.name} from ${r.previousVersion} to ${r.version}`;
  const events: ActivityInput[] = [
    { kind: r.outcome === 'installed' ? 'install' : 'update', package: r.name, outcome: 'ok', detail: words },
  ];
  // A trigger the update kept armed was armed by the person before: only what was armed now is an `arm`.
  for (const t of receipt.armedTriggers)
    if (!t.kept)
      events.push({
        kind: 'arm',
        package: r.name,
        ...(t.agentId ? { agent: t.agentId } : {}),
        trigger: t.id,
        outcome: 'ok',
        detail: armedWords(
          t.type,
          t.folder,
          r.webhookSecretsGiven.some((g) => g.triggerId === t.id) ? 'given' : 'made',
        ),
      });
  // What changed a decision without the person (DESIGN.md, the activity record's one list): a trigger turned off by an
  // update.
  for (const t of receipt.turnedOff)
    events.push({
      kind: 'disarm',
      package: r.name,
      ...(t.agentId ? { agent: t.agentId } : {}),
      trigger: t.id,
      outcome: 'ok',
      detail: `turned off by the ${r.outcome === 'downgraded' ? 'downgrade' : 'update'} to ${r.version}: ${t.why}`,
    });
  await recordActivity(ctx, events);
  return r;
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

async function installOnce(ctx: ApiContext, request: ApiRequest<'install'>) {
  const { deps, store } = ctx;
  const src = ctx.sources.get(request.sourceId);
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
  const manifest = details.manifest;
  const { name, version } = manifest.package;
  const sha256 = inspection.summary.sha256;
  const before = await store.read();
  const trust = trustOf(inspection.summary.signature);
  // The organization's policy, read now (it may have changed since inspection): unreadable refuses everything; a
  // package it refuses is refused as a whole.
  const policy = usablePolicy(policyOf(ctx), `${src.handle.displayName} was not installed`);
  const policyProblem = packagePolicyProblems(
    policy,
    manifest,
    inspection.summary.signature,
    sha256,
    verificationKeys(policy, trustedKeysOf(before)),
  )[0];
  if (policyProblem) refuse(policyProblem);
  // The one decision function, over what the store holds: refuses an answer it cannot carry out before anything is read
  // or written.
  const planned = decideFromStore(before, manifest, trust, request.decisions, policy);
  const armedFolders = new Map<string, string>();
  for (const [triggerId, decided] of Object.entries(planned.triggers)) {
    if (decided.armed && decided.folder?.kind === 'picked')
      armedFolders.set(triggerId, await pickedWatchFolder(ctx.sources.folder(decided.folder.folderId), deps.dataDir));
  }

  const existing = own(before.packages, name);
  const relation = existing ? relationOf(existing.version, version) : null;
  // The same version again is refused, unless its files changed on this computer: then it is put back.
  const reinstall = relation === 'same' && own(before.packageTrust, name)?.integrity.state === 'changed';
  if (relation === 'same' && !reinstall)
    throw new CoreError('install.already_installed', `${name} ${version} is already installed`);
  const signature = inspection.summary.signature;
  if (!signature)
    throw new CoreError(
      'install.refused',
      `${src.handle.displayName} was refused: its signature could not be checked`,
      { problems: inspection.errors },
    );
  checkKeyChange(name, keyChangeOf(before, name, signature), request);
  if (relation === 'older' && request.allowDowngrade !== true) {
    throw new CoreError(
      'install.downgrade',
      `${name} ${existing?.version} is installed; installing the older ${version} needs your confirmation (allowDowngrade)`,
    );
  }

  // Webhook secrets for triggers armed now, before anything is written: made here (shown once) or
  // given by the sender (checked, never answered back); sealed either way.
  const webhookSecrets: WebhookSecretOnce[] = [];
  const webhookSecretsGiven: WebhookSecretGiven[] = [];
  const sealed = new Map<string, SealedWebhookSecret>();
  for (const [triggerId, decided] of Object.entries(planned.triggers)) {
    if (decided.armed && decided.secret?.kind === 'new') {
      const secret = await webhookSecretFor(
        ctx,
        decided.secret.choice,
        `decisions.triggers.${triggerId}.webhookSecret`,
      );
      sealed.set(triggerId, secret.kept);
      if (secret.shown !== null) webhookSecrets.push({ triggerId: triggerIdOf(name, triggerId), secret: secret.shown });
      else webhookSecretsGiven.push({ triggerId: triggerIdOf(name, triggerId), given: true });
    }
  }

  const finalRel = `packages/${name}/${versionFolderName(version)}`;
  let files: FileDigests = {};
  const placed = await placeFromStaging({
    dataDir: deps.dataDir,
    finalDir: join(deps.dataDir, finalRel),
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
    record: () =>
      store.update((state) => {
        const at = deps.now().toISOString();
        const current = own(state.packages, name);
        const sameAgain = current !== undefined && current.version === version;
        if (sameAgain && own(state.packageTrust, name)?.integrity.state !== 'changed')
          throw new CoreError('install.already_installed', `${name} ${version} is already installed`);
        // Checked again under the store's lock: another install may have changed the pin meanwhile.
        const keyChange = checkKeyChange(name, keyChangeOf(state, name, signature), request);
        // Decided again under the store's lock, from what the store holds now: another change may have landed
        // meanwhile.
        const decisions = decideFromStore(state, manifest, trust, request.decisions, policy);
        const oldTriggers = Object.values(state.triggers).filter((t) => t.packageName === name);
        const createdAt = new Map<string, string>();
        for (const agent of Object.values(state.agents)) {
          if (agent.origin !== 'package' || agent.packageName !== name) continue;
          createdAt.set(agent.id, agent.createdAt);
          delete state.agents[agent.id];
        }
        for (const trigger of oldTriggers) delete state.triggers[trigger.id];
        const keptSecrets = new Set<string>();
        const familyOf = accessFamilies(manifest);
        const permissions = permissionsOf(decisions);
        for (const agent of manifest.agents ?? []) {
          const record = packageAgentRecord(
            name,
            agent,
            own(permissions, agent.id) ?? {},
            createdAt.get(agentIdOf(name, agent.id)) ?? at,
            familyOf,
          );
          state.agents[record.id] = record;
        }
        const armed: string[] = [];
        const armedTriggers: {
          id: string;
          agentId: string | null;
          type: string;
          folder: string | null;
          kept: boolean;
        }[] = [];
        const turnedOff: { id: string; agentId: string | null; why: string }[] = [];
        const oldByName = firstByName(oldTriggers, (t) => t.name);
        for (const entry of manifest.triggers ?? []) {
          const record = packageTriggerRecord(name, manifest, entry);
          const decided = own(decisions.triggers, entry.id);
          const old = oldByName.get(entry.id);
          // A trigger the policy holds off stays armed in the store, with its folder and secret: the host does not make
          // it live while the policy blocks it.
          // Armed before and still, with its folder and secret: it keeps the time it was armed (an interval counts from
          // it).
          const keptArmed =
            old?.armed === true &&
            (decided?.armed || decided?.held) === true &&
            decided?.folder?.kind !== 'picked' &&
            decided?.secret?.kind !== 'new';
          if (decided?.armed || decided?.held) {
            record.armed = true;
            record.armedAt = keptArmed ? (old?.armedAt ?? at) : at;
            record.folder =
              decided.folder?.kind === 'picked'
                ? (armedFolders.get(entry.id) ?? null)
                : decided.folder?.kind === 'keep'
                  ? (old?.folder ?? null)
                  : null;
            if (decided.secret?.kind === 'new') {
              const secret = sealed.get(entry.id);
              if (!secret)
                throw new CoreError(
                  'store.changed',
                  `${name} changed on this computer while it was being installed: nothing was installed; try again.`,
                );
              setWebhookSecret(state, record, secret);
            } else if (decided.secret?.kind === 'keep' && old?.secretRef) {
              // The sender's (or the made) secret is kept as it is: never replaced unless the person asked.
              record.secretRef = old.secretRef;
              record.secretOrigin = old.secretOrigin;
              record.secretSetAt = old.secretSetAt;
              keptSecrets.add(old.secretRef);
            }
          }
          if (decided?.turnedOff) turnedOff.push({ id: record.id, agentId: record.agentId, why: decided.turnedOff });
          if (record.armed && !decided?.held) {
            armed.push(record.id);
            armedTriggers.push({
              id: record.id,
              agentId: record.agentId,
              type: record.type,
              folder: record.folder,
              kept: keptArmed,
            });
          }
          state.triggers[record.id] = record;
        }
        for (const trigger of oldTriggers)
          if (trigger.secretRef && !keptSecrets.has(trigger.secretRef)) delete state.webhookSecrets[trigger.secretRef];
        const pkg = packageRecord(manifest, sha256, finalRel, current?.installedAt ?? at, current ? at : null);
        state.packages[name] = pkg;
        // Trust: the pin is the key that signed what is now installed (the same, a first signature, or an accepted
        // change).
        state.packageTrust[name] = installedTrust(pinOfSummary(signature), signature, files, at);
        const outcome: InstallReceipt['outcome'] = !current
          ? 'installed'
          : sameAgain
            ? 'reinstalled'
            : relationOf(current.version, version) === 'newer'
              ? 'updated'
              : 'downgraded';
        return {
          result: {
            receipt: {
              name,
              version,
              publisher: pkg.publisher,
              outcome,
              previousVersion: current?.version ?? null,
              installedAt: pkg.installedAt,
              armed,
              webhookSecrets,
              webhookSecretsGiven,
              keyChange,
            },
            armedTriggers,
            turnedOff,
            oldDir: current?.dir ?? null,
          },
        };
      }),
  });
  if (placed.oldDir && placed.oldDir !== finalRel)
    await removeAndPrune(join(deps.dataDir, placed.oldDir), deps.dataDir);
  const change = placed.receipt.keyChange;
  if (change) {
    if (change.kind === 'changed')
      await recordActivity(ctx, [
        {
          kind: 'key_change_accepted',
          package: name,
          outcome: 'ok',
          detail: `${version} installed after you confirmed the key change: ${change.message}`,
        },
      ]);
    else
      await recordActivity(ctx, [
        { kind: 'update', package: name, outcome: 'ok', detail: `${version}: ${change.message}` },
      ]);
  }
  return { receipt: placed.receipt, armedTriggers: placed.armedTriggers, turnedOff: placed.turnedOff };
}

/**
 * Refuses a key change the request did not accept: `signature.key_changed`
 * naming the key before and now; nothing is changed. Answers the change (or null) otherwise.
 */
function checkKeyChange(name: string, change: KeyChange | null, request: ApiRequest<'install'>): KeyChange | null {
  if (change?.kind === 'changed' && request.acceptKeyChange !== true) {
    throw new CoreError(
      'signature.key_changed',
      `${name}: ${change.message}. Nothing was changed: installing it needs your explicit confirmation that you accept the new key (acceptKeyChange; the CLI's --accept-key-change).`,
    );
  }
  return change;
}

/**
 * Uninstalls a package: its files moved aside, then its records removed in one write; a failed write puts the files
 * back.
 */
export async function uninstallPackage(
  ctx: ApiContext,
  request: ApiRequest<'uninstallPackage'>,
): Promise<UninstallReceipt> {
  const { deps, store } = ctx;
  const pkg = own((await store.read()).packages, request.name);
  if (!pkg) throw new CoreError('package.unknown', `No package called \`${request.name}\` is installed.`);
  const receipt = await removeThroughStaging(deps.dataDir, join(deps.dataDir, 'packages', pkg.name), () =>
    store.update((state) => {
      const current = own(state.packages, request.name);
      if (!current) throw new CoreError('package.unknown', `No package called \`${request.name}\` is installed.`);
      const removed = removePackageRecords(state, request.name);
      return { result: { name: current.name, version: current.version, ...removed } };
    }),
  );
  const parts = [`uninstalled ${receipt.name} ${receipt.version}`];
  if (receipt.removedAgents.length > 0) parts.push(`${receipt.removedAgents.length} agent(s) removed`);
  if (receipt.removedTriggers.length > 0) parts.push(`${receipt.removedTriggers.length} trigger(s) removed`);
  await recordActivity(ctx, [{ kind: 'uninstall', package: receipt.name, outcome: 'ok', detail: parts.join('; ') }]);
  return receipt;
}
