/**
 * Store records built from what was consented to, and the changes to them that more than one Api
 * method makes (disarming a trigger, reading back an installed package's decisions). The Api's
 * modules decide whether a change is allowed; the shape of what is stored lives here, beside
 * `state.ts`.
 */
import { randomUUID } from 'node:crypto';
import type {
  ActionFamily,
  AgentEntry,
  ApolliaManifest,
  TriggerEntry,
} from '../../../shared/manifests/apollia-manifest';
import type { ApplyPreview } from '../../../shared/decisions/apply-preview';
import { templateTool } from '../../../shared/manifests/catalogues';
import { accessFamilies, type Permission } from '../../../shared/decisions/consent';
import type { InstalledDecisions } from '../../../shared/decisions/decisions';
import { ownRecord } from '../../../shared/base/own-data';
import type { TemplateManifest } from '../../../shared/manifests/template-manifest';
import type { WebhookSecretOrigin } from '../../../shared/triggers/webhook-secret';
import type {
  PackageAgentRecord,
  PackageRecord,
  StoreState,
  TemplateAgentRecord,
  ToolSettingRecord,
  TriggerRecord,
} from './state';

/** An installed package's agent id: `<package>/<agent>`. */
export const agentIdOf = (pkg: string, agent: string) => `${pkg}/${agent}`;
/** A trigger's id: `<package>/<trigger id>` or `<agent id>/<trigger name>`. */
export const triggerIdOf = (owner: string, name: string) => `${owner}/${name}`;

/** A package trigger as first recorded: disarmed, no folder, no secret (the user arms it). */
export function packageTriggerRecord(pkg: string, manifest: ApolliaManifest, entry: TriggerEntry): TriggerRecord {
  const targetsAgent = (manifest.agents ?? []).some((a) => a.id === entry.target);
  const s = entry.source;
  return {
    id: triggerIdOf(pkg, entry.id),
    name: entry.id,
    packageName: pkg,
    agentId: targetsAgent ? agentIdOf(pkg, entry.target) : null,
    target: entry.target,
    input: entry.input ?? null,
    type: s.type,
    schedule: s.type === 'cron' ? s.schedule : null,
    every: s.type === 'interval' ? s.every : null,
    timezone: null,
    at: null,
    recursive: s.type === 'file_watch' ? (s.recursive ?? false) : null,
    events: null,
    maxConcurrent: null,
    dayRule: 'and',
    armed: false,
    armedAt: null,
    folder: null,
    secretRef: null,
    secretOrigin: null,
    secretSetAt: null,
    pausedAt: null,
  };
}

/**
 * A package's agent with the permissions decided for it (`shared/decisions/decisions.ts`; an entry left out
 * is not allowed); its offered access is exactly `defaults.access` (spec: "Nothing the list does
 * not name is offered"). `familyOf`: the manifest's {@link accessFamilies}, built once by a caller
 * recording every agent (a package may have thousands of tools and agents).
 */
export function packageAgentRecord(
  name: string,
  agent: AgentEntry,
  permissions: Record<string, Permission>,
  createdAt: string,
  familyOf: (entry: string) => ActionFamily | null,
): PackageAgentRecord {
  return {
    origin: 'package',
    id: agentIdOf(name, agent.id),
    packageName: name,
    agentId: agent.id,
    displayName: agent.name,
    description: agent.mission,
    access: (agent.defaults?.access ?? []).map((entry) => {
      const permission: Permission = Object.hasOwn(permissions, entry) ? (permissions[entry] as Permission) : 'deny';
      return { entry, family: familyOf(entry), granted: permission !== 'deny', permission };
    }),
    model: agent.defaults?.model?.model ?? null,
    createdAt,
    archived: false,
  };
}

/** An installed package's own record. */
export function packageRecord(
  manifest: ApolliaManifest,
  sha256: string,
  dir: string,
  installedAt: string,
  updatedAt: string | null,
): PackageRecord {
  const { name, version, publisher, description } = manifest.package;
  return { name, version, publisher, description: description ?? '', sha256, installedAt, updatedAt, dir, manifest };
}

/**
 * The tool settings an apply makes (spec "Apply" step 2): the granted tools allowed, and for each
 * saved MCP server its tools at the preview's setting and pin; a server not saved is skipped,
 * nothing of it granted. A tool pinned to a parameter that was not given stays denied.
 */
export function templateToolSettings(previewed: ApplyPreview): Record<string, ToolSettingRecord> {
  const toolSettings = ownRecord<ToolSettingRecord>();
  for (const tool of previewed.tools)
    toolSettings[tool] = { family: templateTool(tool)?.family ?? null, setting: 'allow', pin: null, pinMissing: false };
  // Unticked by the owner: kept as `deny`, so the dashboard shows it and it can be allowed later.
  for (const tool of previewed.withheld)
    toolSettings[tool] = { family: templateTool(tool)?.family ?? null, setting: 'deny', pin: null, pinMissing: false };
  for (const server of previewed.mcp) {
    if (!server.saved) continue;
    for (const tool of server.tools) {
      toolSettings[tool.gateName] = {
        family: null,
        setting: tool.setting,
        pin: tool.pin,
        pinMissing: tool.pin === null && tool.pinnedBy !== undefined && tool.setting === 'deny',
      };
    }
  }
  return toolSettings;
}

/** The agent an apply makes from a template, its files in `dir`. */
export function templateAgentRecord(
  agentId: string,
  manifest: TemplateManifest,
  previewed: ApplyPreview,
  dir: string,
  files: string[],
  requestId: string,
  createdAt: string,
): TemplateAgentRecord {
  return {
    origin: 'template',
    id: agentId,
    templateName: manifest.name,
    templateVersion: manifest.version,
    displayName: previewed.displayName,
    description: manifest.description,
    dir,
    files,
    toolSettings: templateToolSettings(previewed),
    model: manifest.model ?? null,
    effort: manifest.effort ?? null,
    budgetPerRunUsd: manifest.budget?.per_run_usd ?? null,
    learning: manifest.learning ?? null,
    approvals: previewed.approvals.chosen,
    preview: previewed,
    requestId,
    createdAt,
    archived: false,
  };
}

/**
 * A template agent's trigger as apply records it. A schedule or date the person ticked is armed by
 * apply (spec "Apply" step 3 makes them live; the tick comes first, as an `.apo`
 * does); one left unticked is made unarmed; a webhook waits for its secret (`armTrigger`).
 */
export function templateTriggerRecord(
  agentId: string,
  trigger: ApplyPreview['triggers'][number],
  at: string,
  armed: boolean,
): TriggerRecord {
  // Armed only when the person ticked it; a webhook waits for `armTrigger` and its secret.
  const live = armed && trigger.type !== 'webhook';
  return {
    id: triggerIdOf(agentId, trigger.name),
    name: trigger.name,
    packageName: null,
    agentId,
    target: agentId,
    input: trigger.input,
    type: trigger.type,
    schedule: trigger.cron ?? null,
    every: null,
    timezone: trigger.timezone ?? null,
    at: trigger.at ?? null,
    recursive: null,
    events: trigger.events ?? null,
    maxConcurrent: trigger.max_concurrent ?? null,
    dayRule: 'or',
    armed: live,
    armedAt: live ? at : null,
    folder: null,
    secretRef: null,
    secretOrigin: null,
    secretSetAt: null,
    pausedAt: null,
  };
}

/** Disarms a trigger: no folder, its webhook secret (if any) deleted, and no pause of the person's left. */
export function disarmTrigger(state: StoreState, trigger: TriggerRecord): void {
  trigger.armed = false;
  trigger.armedAt = null;
  trigger.pausedAt = null;
  trigger.folder = null;
  if (trigger.secretRef) delete state.webhookSecrets[trigger.secretRef];
  trigger.secretRef = null;
  trigger.secretOrigin = null;
  trigger.secretSetAt = null;
}

/** A webhook secret ready to keep: sealed (base64), where it came from, when it was set. */
export interface SealedWebhookSecret {
  sealed: string;
  origin: WebhookSecretOrigin;
  setAt: string;
}

/**
 * Keeps `secret` as the trigger's webhook secret (a fresh ref), replacing any earlier one; null
 * removes it. A made and a given secret are kept the same way: sealed, with their origin beside.
 */
export function setWebhookSecret(state: StoreState, trigger: TriggerRecord, secret: SealedWebhookSecret | null): void {
  if (trigger.secretRef) delete state.webhookSecrets[trigger.secretRef];
  trigger.secretRef = null;
  trigger.secretOrigin = null;
  trigger.secretSetAt = null;
  if (secret !== null) {
    trigger.secretRef = randomUUID();
    state.webhookSecrets[trigger.secretRef] = secret.sealed;
    trigger.secretOrigin = secret.origin;
    trigger.secretSetAt = secret.setAt;
  }
}

/**
 * What the store holds of the person's decisions for an installed package: what the decision
 * function (`shared/decisions/decisions.ts`) keeps on an update. Null when the package is not installed.
 */
export function installedDecisions(state: StoreState, name: string): InstalledDecisions | null {
  const pkg = Object.hasOwn(state.packages, name) ? state.packages[name] : undefined;
  if (!pkg) return null;
  const access = ownRecord<Record<string, Permission>>();
  for (const agent of Object.values(state.agents)) {
    if (agent.origin === 'package' && agent.packageName === name)
      access[agent.agentId] = ownRecord(agent.access.map((a) => [a.entry, a.permission]));
  }
  const triggers = ownRecord<InstalledDecisions['triggers'][string]>();
  for (const trigger of Object.values(state.triggers)) {
    if (trigger.packageName !== name) continue;
    const secret =
      trigger.secretRef !== null && Object.hasOwn(state.webhookSecrets, trigger.secretRef)
        ? (trigger.secretOrigin ?? 'made')
        : null;
    triggers[trigger.name] = { armed: trigger.armed, folder: trigger.folder, secret };
  }
  return { manifest: pkg.manifest, access, triggers };
}

/** Removes a package's records (agents, triggers, their secrets, the package); the ids removed. */
export function removePackageRecords(
  state: StoreState,
  name: string,
): { removedAgents: string[]; removedTriggers: string[] } {
  const removedAgents: string[] = [];
  const removedTriggers: string[] = [];
  // An uninstalled package no longer follows its feed for updates (the feed itself stays followed).
  delete state.packageUpdates[name];
  for (const agent of Object.values(state.agents)) {
    if (agent.origin === 'package' && agent.packageName === name) {
      delete state.agents[agent.id];
      removedAgents.push(agent.id);
    }
  }
  for (const trigger of Object.values(state.triggers)) {
    if (trigger.packageName === name) {
      disarmTrigger(state, trigger);
      delete state.triggers[trigger.id];
      removedTriggers.push(trigger.id);
    }
  }
  delete state.packages[name];
  // Trust: the pin goes with the package; a later install is a first install again.
  delete state.packageTrust[name];
  return { removedAgents, removedTriggers };
}
