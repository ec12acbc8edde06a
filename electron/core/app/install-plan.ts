/**
 * What an install (or update, downgrade, reinstall) writes, decided apart from writing it (STYLE.md "decide, then
 * do"): `planInstall` is pure — from the store's state, the manifest and the decisions it answers the records, the
 * pin, the armed triggers, the receipt and the activity events — and `applyInstallPlan` writes a plan in the one
 * store update. What the person decided comes only from the decision function (`shared/decisions/decisions.ts`), through
 * `decideFromStore`; the plan only carries it out.
 */
import { compareNames } from '../../../shared/words/name-comparison';
import { toolShortName } from '../../../shared/words/words';
import type { InstallReceipt, KeyChange, WebhookSecretGiven, WebhookSecretOnce } from '../../../shared/contract/api';
import type { ApolliaManifest, TriggerEntry } from '../../../shared/manifests/apollia-manifest';
import { accessFamilies, firstByName } from '../../../shared/decisions/consent';
import { type Decisions, permissionsOf } from '../../../shared/decisions/decisions';
import type { TriggerDecided } from '../../../shared/decisions/trigger-decisions';
import type { SignatureSummary } from '../../../shared/manifests/inspection';
import { own } from '../../../shared/base/own';
import { signatureVerdictOf, signatureVerdictWords } from '../../../shared/trust/signature-verdict';
import type { ActivityInput } from '../activity/activity-log';
import { CoreError } from '../errors/index';
import {
  agentIdOf,
  packageAgentRecord,
  packageRecord,
  packageTriggerRecord,
  type SealedWebhookSecret,
  setWebhookSecret,
} from '../store/records';
import type { PackageAgentRecord, PackageRecord, PackageTrustRecord, StoreState, TriggerRecord } from '../store/state';
import type { FileDigests } from '../trust/index';
import { installedTrust, keyChangeOf, pinOfSummary } from './publisher-trust';
import { armedWords } from './trigger-arming';
import { identityRelation, relationOf } from './package-identity';

export { identityRelation, relationOf } from './package-identity';

/** What install made ready before the store's lock, keyed by the manifest's trigger id. */
export interface InstallPrepared {
  /** The real path of the folder picked for each armed watched-folder trigger. */
  folders: ReadonlyMap<string, string>;
  /** The sealed webhook secret made or given for each trigger armed with a new one. */
  sealed: ReadonlyMap<string, SealedWebhookSecret>;
  /** Secrets made here, shown once in the receipt. */
  webhookSecrets: WebhookSecretOnce[];
  /** Triggers armed with the secret their sender gave (never the value). */
  webhookSecretsGiven: WebhookSecretGiven[];
}

/** Everything a plan is made from, beside the store's state. */
export interface InstallPlanInput {
  manifest: ApolliaManifest;
  /** What `decideFromStore` decided over the same state. */
  decisions: Decisions;
  sha256: string;
  /** Where the package's files are placed, relative to the data folder. */
  dir: string;
  signature: SignatureSummary;
  /** The SHA-256 of every file placed. */
  files: FileDigests;
  prepared: InstallPrepared;
  /** The person confirmed a key change (`acceptKeyChange`). */
  acceptKeyChange: boolean;
  /** The time of the install (ISO 8601). */
  at: string;
}

/** A trigger armed by an install, for its activity event. */
export interface ArmedTrigger {
  id: string;
  agentId: string | null;
  type: string;
  folder: string | null;
  /** Armed before the update and still: the person armed it then, not now. */
  kept: boolean;
}

/** A trigger an update turned off without the person, and why. */
export interface TurnedOffTrigger {
  id: string;
  agentId: string | null;
  why: string;
}

/** What one install writes to the store, and what it tells. */
export interface InstallPlan {
  name: string;
  /** Store ids of the installed version's agents and triggers, replaced by the plan's. */
  removedAgents: string[];
  removedTriggers: string[];
  agents: PackageAgentRecord[];
  /** Every trigger of the manifest; one armed with a new secret has it in `newSecrets`, set when applied. */
  triggers: TriggerRecord[];
  newSecrets: { triggerId: string; secret: SealedWebhookSecret }[];
  /** Sealed secrets of the installed version's triggers that no trigger keeps. */
  droppedSecrets: string[];
  pkg: PackageRecord;
  /** The pin is the key that signed what is now installed (the same, a first signature, or an accepted change). */
  trust: PackageTrustRecord;
  receipt: InstallReceipt;
  armedTriggers: ArmedTrigger[];
  turnedOff: TurnedOffTrigger[];
  /** The installed version's folder, removed once the new one is in place (null on a first install). */
  oldDir: string | null;
  /** What the activity record gets once the plan is written. */
  events: ActivityInput[];
}

/**
 * Refuses a key change the request did not accept: `signature.key_changed` naming the key before and now; nothing is
 * changed. Answers the change (or null) otherwise.
 */
export function checkKeyChange(name: string, change: KeyChange | null, accepted: boolean): KeyChange | null {
  if (change?.kind === 'changed' && !accepted) {
    throw new CoreError(
      'signature.key_changed',
      `${name}: ${change.message}. Nothing was changed: installing it needs your explicit confirmation that you accept the new key (acceptKeyChange; the CLI's --accept-key-change).`,
    );
  }
  return change;
}

/**
 * Plans installing `input.manifest` over `state` (pure: `state` is only read). Refuses the same version again unless
 * its files changed on this computer (`install.already_installed`), and a key change the person did not accept
 * (`signature.key_changed`).
 */
export function planInstall(state: Readonly<StoreState>, input: InstallPlanInput): InstallPlan {
  const { manifest, at } = input;
  const { name, version } = manifest.package;
  const current = own(state.packages, name);
  // The same package again (same version, same bytes); the same version with other bytes is an update.
  const sameAgain = current !== undefined && identityRelation(current, version, input.sha256) === 'same';
  if (sameAgain && own(state.packageTrust, name)?.integrity.state !== 'changed')
    throw new CoreError('install.already_installed', `${name} ${version} is already installed`);
  const keyChange = checkKeyChange(name, keyChangeOf(state, name, input.signature), input.acceptKeyChange);
  const oldAgents = Object.values(state.agents).filter((a) => a.origin === 'package' && a.packageName === name);
  const oldTriggers = Object.values(state.triggers).filter((t) => t.packageName === name);
  const triggers = planTriggers(oldTriggers, input);
  const pkg = packageRecord(manifest, input.sha256, input.dir, current?.installedAt ?? at, current ? at : null);
  const outcome: InstallReceipt['outcome'] = !current
    ? 'installed'
    : sameAgain
      ? 'reinstalled'
      : relationOf(current.version, version) !== 'older'
        ? 'updated'
        : 'downgraded';
  const receipt: InstallReceipt = {
    name,
    version,
    publisher: pkg.publisher,
    outcome,
    previousVersion: current?.version ?? null,
    installedAt: pkg.installedAt,
    armed: triggers.armed.map((t) => t.id),
    webhookSecrets: input.prepared.webhookSecrets,
    webhookSecretsGiven: input.prepared.webhookSecretsGiven,
    keyChange,
  };
  const agents = planAgents(oldAgents, input);
  return {
    name,
    removedAgents: oldAgents.map((a) => a.id),
    removedTriggers: oldTriggers.map((t) => t.id),
    agents,
    triggers: triggers.records,
    newSecrets: triggers.newSecrets,
    droppedSecrets: oldTriggers.flatMap((t) =>
      t.secretRef && !triggers.keptSecrets.has(t.secretRef) ? [t.secretRef] : [],
    ),
    pkg,
    trust: installedTrust(pinOfSummary(input.signature), input.signature, input.files, at),
    receipt,
    armedTriggers: triggers.armed,
    turnedOff: triggers.turnedOff,
    oldDir: current?.dir ?? null,
    events: [
      ...installEvents(receipt, input.signature, triggers.armed, triggers.turnedOff, current?.publisher ?? null),
      ...accessEvents(receipt, agents),
    ],
  };
}

/** Writes `plan` into `state` (the store update's draft): the installed version's records replaced by the plan's. */
export function applyInstallPlan(state: StoreState, plan: InstallPlan): void {
  for (const id of plan.removedAgents) delete state.agents[id];
  for (const id of plan.removedTriggers) delete state.triggers[id];
  for (const ref of plan.droppedSecrets) delete state.webhookSecrets[ref];
  for (const agent of plan.agents) state.agents[agent.id] = structuredClone(agent);
  const secretOf = new Map(plan.newSecrets.map((s) => [s.triggerId, s.secret]));
  for (const planned of plan.triggers) {
    const trigger = structuredClone(planned);
    const secret = secretOf.get(trigger.id);
    if (secret) setWebhookSecret(state, trigger, secret);
    state.triggers[trigger.id] = trigger;
  }
  state.packages[plan.name] = structuredClone(plan.pkg);
  state.packageTrust[plan.name] = structuredClone(plan.trust);
}

/** The manifest's agents with the access decided; an agent installed before keeps the time it was made. */
function planAgents(oldAgents: StoreState['agents'][string][], input: InstallPlanInput): PackageAgentRecord[] {
  const { manifest, at } = input;
  const name = manifest.package.name;
  const createdAt = new Map(oldAgents.map((a) => [a.id, a.createdAt]));
  const familyOf = accessFamilies(manifest);
  const permissions = permissionsOf(input.decisions);
  return (manifest.agents ?? []).map((agent) =>
    packageAgentRecord(
      name,
      agent,
      own(permissions, agent.id) ?? {},
      createdAt.get(agentIdOf(name, agent.id)) ?? at,
      familyOf,
    ),
  );
}

interface PlannedTriggers {
  records: TriggerRecord[];
  newSecrets: InstallPlan['newSecrets'];
  keptSecrets: Set<string>;
  armed: ArmedTrigger[];
  turnedOff: TurnedOffTrigger[];
}

/** The manifest's triggers as decided: armed (or held by the policy) with their folder and secret, or off. */
function planTriggers(oldTriggers: TriggerRecord[], input: InstallPlanInput): PlannedTriggers {
  const planned: PlannedTriggers = { records: [], newSecrets: [], keptSecrets: new Set(), armed: [], turnedOff: [] };
  const oldByName = firstByName(oldTriggers, (t) => t.name);
  for (const entry of input.manifest.triggers ?? []) {
    const decided = own(input.decisions.triggers, entry.id);
    const old = oldByName.get(entry.id);
    const { record, keptArmed } = plannedTrigger(entry, decided, old, input, planned);
    if (decided?.turnedOff) planned.turnedOff.push({ id: record.id, agentId: record.agentId, why: decided.turnedOff });
    // A trigger the policy holds off stays armed in the store, with its folder and secret: the host does not make it
    // live while the policy blocks it, and it is not counted as armed now.
    if (record.armed && !decided?.held)
      planned.armed.push({
        id: record.id,
        agentId: record.agentId,
        type: record.type,
        folder: record.folder,
        kept: keptArmed,
      });
    planned.records.push(record);
  }
  return planned;
}

/** One trigger's record as decided; a new secret and a kept one are noted in `planned`. */
function plannedTrigger(
  entry: TriggerEntry,
  decided: TriggerDecided | undefined,
  old: TriggerRecord | undefined,
  input: InstallPlanInput,
  planned: PlannedTriggers,
): { record: TriggerRecord; keptArmed: boolean } {
  const { manifest, at } = input;
  const name = manifest.package.name;
  const record = packageTriggerRecord(name, manifest, entry);
  // Armed before and still, with its folder and secret: it keeps the time it was armed (an interval counts from it).
  const keptArmed =
    old?.armed === true &&
    (decided?.armed || decided?.held) === true &&
    decided?.folder?.kind !== 'picked' &&
    decided?.secret?.kind !== 'new';
  if (!decided || !(decided.armed || decided.held)) return { record, keptArmed };
  record.armed = true;
  record.armedAt = keptArmed ? (old?.armedAt ?? at) : at;
  // The person's pause is kept with what it kept (the folder, the secret); arming it anew lifts it.
  record.pausedAt = keptArmed ? (old?.pausedAt ?? null) : null;
  record.folder =
    decided.folder?.kind === 'picked'
      ? (input.prepared.folders.get(entry.id) ?? null)
      : decided.folder?.kind === 'keep'
        ? (old?.folder ?? null)
        : null;
  if (decided.secret?.kind === 'new') {
    const secret = input.prepared.sealed.get(entry.id);
    // Decided again under the store's lock: a secret asked for now that was not made before the lock means the
    // package changed meanwhile.
    if (!secret)
      throw new CoreError(
        'store.changed',
        `${name} changed on this computer while it was being installed: nothing was installed; try again.`,
      );
    planned.newSecrets.push({ triggerId: record.id, secret });
  } else if (decided.secret?.kind === 'keep' && old?.secretRef) {
    // The sender's (or the made) secret is kept as it is: never replaced unless the person asked.
    record.secretRef = old.secretRef;
    record.secretOrigin = old.secretOrigin;
    record.secretSetAt = old.secretSetAt;
    planned.keptSecrets.add(old.secretRef);
  }
  return { record, keptArmed };
}

/**
 * The activity events of an install: a key change first (accepted, or a first signature), then `install` or
 * `update`, one `arm` per trigger armed now, and one `disarm` per trigger the update turned off.
 */
function installEvents(
  receipt: InstallReceipt,
  signature: SignatureSummary,
  armed: ArmedTrigger[],
  turnedOff: TurnedOffTrigger[],
  previousPublisher: string | null,
): ActivityInput[] {
  const { name, version, keyChange } = receipt;
  const events: ActivityInput[] = [];
  if (keyChange?.kind === 'changed')
    events.push({
      kind: 'key_change_accepted',
      package: name,
      outcome: 'ok',
      detail: `${version} installed after you confirmed the key change: ${keyChange.message}`,
    });
  else if (keyChange)
    events.push({ kind: 'update', package: name, outcome: 'ok', detail: `${version}: ${keyChange.message}` });
  // Who signed it, as the one signature verdict says it on every surface.
  const signed = ` — ${signatureVerdictWords(signatureVerdictOf(signature, receipt.publisher)).label}`;
  const words =
    receipt.outcome === 'installed'
      ? `installed ${name} ${version} from ${receipt.publisher}${signed}`
      : `${receipt.outcome} ${name} from ${receipt.previousVersion} to ${version}${signed}${
          previousPublisher !== null && previousPublisher !== receipt.publisher
            ? `; the publisher's name changed from "${previousPublisher}" to "${receipt.publisher}"${
                compareNames(previousPublisher, receipt.publisher) === 'lookalike'
                  ? ', a name that passes for the old one'
                  : ''
              }`
            : ''
        }`;
  // A reinstall of the installed bytes lifts the pause integrity put on the triggers still armed: said once, here.
  const resumed = armed
    .filter((t) => t.kept)
    .map((t) => t.id)
    .sort();
  const lifted =
    receipt.outcome !== 'reinstalled'
      ? ''
      : `; its files are the installed ones again${resumed.length > 0 ? `; the pause by integrity is lifted: ${resumed.join(', ')} resume` : ''}`;
  events.push({
    kind: receipt.outcome === 'installed' ? 'install' : 'update',
    package: name,
    outcome: 'ok',
    detail: words + lifted,
  });
  // A trigger the update kept armed was armed by the person before: only what was armed now is an `arm`.
  for (const t of armed)
    if (!t.kept)
      events.push({
        kind: 'arm',
        package: name,
        ...(t.agentId ? { agent: t.agentId } : {}),
        trigger: t.id,
        outcome: 'ok',
        detail: armedWords(
          t.type,
          t.folder,
          receipt.webhookSecretsGiven.some((g) => g.triggerId === t.id) ? 'given' : 'made',
        ),
      });
  // What changed a decision without the person (DESIGN.md, the activity record's one list): a trigger turned off by
  // an update.
  for (const t of turnedOff)
    events.push({
      kind: 'disarm',
      package: name,
      ...(t.agentId ? { agent: t.agentId } : {}),
      trigger: t.id,
      outcome: 'ok',
      detail: `turned off by the ${receipt.outcome === 'downgraded' ? 'downgrade' : 'update'} to ${version}: ${t.why}`,
    });
  return events;
}

/**
 * What an install or update decided for each agent (DESIGN.md "Triggers at run time": each decision
 * complete): one `grant` per agent naming what it may use now and what was withheld, or, when
 * nothing was allowed, a `revoke` saying so, each naming the agent so `activity --agent` finds it.
 */
function accessEvents(receipt: InstallReceipt, agents: readonly PackageAgentRecord[]): ActivityInput[] {
  const at = `at the ${receipt.outcome === 'installed' ? 'install' : receipt.outcome === 'reinstalled' ? 'reinstall' : 'update'} of ${receipt.version}`;
  return agents.flatMap((agent): ActivityInput[] => {
    const granted = agent.access.filter((a) => a.granted).map((a) => a.entry);
    const withheld = agent.access.filter((a) => !a.granted).map((a) => a.entry);
    if (granted.length + withheld.length === 0) return [];
    const list = (entries: string[]) => (entries.length > 0 ? entries.map(toolShortName).join(', ') : 'nothing');
    return [
      {
        kind: granted.length > 0 ? 'grant' : 'revoke',
        package: receipt.name,
        agent: agent.id,
        outcome: 'ok',
        detail: `${at}: allowed ${list(granted)}; withheld ${list(withheld)}`,
      },
    ];
  });
}
