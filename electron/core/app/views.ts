/**
 * What the renderer is shown of the store: the views of `shared/contract/api.ts` (`Dashboard`, `AgentView`,
 * `TriggerView`, `SettingsView`) built from records. Pure: the time and the secret backend are
 * passed in, so a view is a function of the state.
 */
import {
  type AccessView,
  type AgentView,
  type Dashboard,
  DEFAULT_WEBHOOK_PORT,
  type InstalledPackageView,
  type PackageIntegrityView,
  type SecretBackend,
  type SettingsView,
  type TriggerView,
  type WaitingServerView,
} from '../../../shared/contract/api';
import type { PreviewMcpTool } from '../../../shared/decisions/apply-preview';
import type { SignatureSummary } from '../../../shared/manifests/inspection';
import { own } from '../../../shared/base/own';
import { UNSIGNED } from '../../../shared/trust/trust';
import { CONNECTION_TYPES, SECRET_NAMES } from '../../../shared/manifests/catalogues';
import { type AccessRow, accessClassifier, templateToolWhat } from '../../../shared/decisions/access-rows';
import { describeInterval, nextCronTimes, nextIntervalTimes } from '../../../shared/triggers/cron';
import { describeCron } from '../../../shared/words/cron-words';
import { maskedServer } from '../secrets/mcp-credentials';
import { waitingLimit } from '../triggers/host-config';
import { pausedByIntegrityWords } from '../triggers/integrity-pause';
import type { AgentRecord, PackageRecord, StoreState, TemplateAgentRecord, TriggerRecord } from '../store/state';

/** A trigger as shown: its schedule in words and, when armed, its next three times after `now`. */
export function triggerView(trigger: TriggerRecord, now: Date): TriggerView {
  let words = '';
  let next: string[] = [];
  // Paused by the person, it has no next fire: it fires only once resumed.
  const firing = trigger.armed && trigger.pausedAt === null;
  if (trigger.type === 'cron' || trigger.type === 'schedule') {
    const options = { dayRule: trigger.dayRule, timezone: trigger.timezone ?? 'UTC' };
    words = describeCron(trigger.schedule ?? '', options);
    if (firing) next = nextCronTimes(trigger.schedule ?? '', options, now, 3).map((d) => d.toISOString());
  } else if (trigger.type === 'interval') {
    words = describeInterval(trigger.every ?? '');
    if (firing)
      next = nextIntervalTimes(
        trigger.every ?? '',
        now,
        3,
        trigger.armedAt ? new Date(trigger.armedAt) : undefined,
      ).map((d) => d.toISOString());
  } else if (trigger.type === 'file_watch') {
    words = `When ${trigger.folder ?? 'a folder you pick'} changes${trigger.recursive ? ' (subfolders too)' : ''}`;
  } else if (trigger.type === 'webhook') {
    words = `On a signed HTTP call${trigger.events ? ` (${trigger.events.join(', ')})` : ''}`;
  } else {
    words = `Once, at ${trigger.at ?? ''}`;
    if (firing && trigger.at && Date.parse(trigger.at) > now.getTime())
      next = [new Date(Date.parse(trigger.at)).toISOString()];
  }
  return {
    id: trigger.id,
    name: trigger.name,
    type: trigger.type,
    agentId: trigger.agentId,
    target: trigger.target,
    words,
    next,
    // A schedule's times are read in its own zone, as its words are (a Paris schedule's next run in Paris time).
    timezone:
      trigger.type === 'cron' || trigger.type === 'schedule' || trigger.type === 'at'
        ? (trigger.timezone ?? 'UTC')
        : null,
    armed: trigger.armed,
    folder: trigger.folder,
    webhookSecretSet: trigger.secretRef !== null,
    webhookSecretOrigin: trigger.secretRef !== null ? trigger.secretOrigin : null,
    webhookSecretSetAt: trigger.secretRef !== null ? trigger.secretSetAt : null,
    waitLimit: waitingLimit(trigger),
    pausedAt: trigger.pausedAt,
  };
}

/**
 * A trigger as shown with its store: one whose package is marked changed is paused by integrity (armed, folder and
 * secret kept; DESIGN.md "Triggers at run time"), said with who paused it.
 */
export function triggerViewIn(state: StoreState, trigger: TriggerRecord, now: Date): TriggerView {
  const view = triggerView(trigger, now);
  const name = trigger.packageName;
  const trust = name !== null && Object.hasOwn(state.packageTrust, name) ? state.packageTrust[name] : undefined;
  if (name === null || !trigger.armed || trust?.integrity.state !== 'changed') return view;
  return { ...view, integrity: pausedByIntegrityWords(name, trust.integrity) };
}

/**
 * What the views look up per agent and per package, grouped once per state: a package may bring
 * thousands of agents and triggers, and filtering every trigger for every agent (or rebuilding a
 * package's lookups for each of its agents) made the dashboard quadratic (DESIGN.md: linear).
 */
export interface ViewIndex {
  /** The triggers of an agent, in the store's order. */
  agentTriggers(agentId: string): TriggerRecord[];
  /** A package's triggers that start no agent, in the store's order. */
  packageTriggers(packageName: string): TriggerRecord[];
  /** The ids of a package's agents, in the store's order. */
  packageAgents(packageName: string): string[];
  /** The access classifier of an installed package's manifest, built on first use; null when it is not installed. */
  classifier(packageName: string): ((entry: string) => AccessRow) | null;
}

/** Groups `state` for the views ({@link ViewIndex}). */
export function viewIndex(state: StoreState): ViewIndex {
  const byAgent = new Map<string, TriggerRecord[]>();
  const unattached = new Map<string, TriggerRecord[]>();
  for (const trigger of Object.values(state.triggers)) {
    const [map, key] = trigger.agentId !== null ? [byAgent, trigger.agentId] : [unattached, trigger.packageName];
    if (key === null) continue;
    const list = map.get(key);
    if (list) list.push(trigger);
    else map.set(key, [trigger]);
  }
  const agentsOf = new Map<string, string[]>();
  for (const agent of Object.values(state.agents)) {
    if (agent.origin !== 'package') continue;
    const list = agentsOf.get(agent.packageName);
    if (list) list.push(agent.id);
    else agentsOf.set(agent.packageName, [agent.id]);
  }
  const classifiers = new Map<string, ((entry: string) => AccessRow) | null>();
  return {
    agentTriggers: (agentId) => byAgent.get(agentId) ?? [],
    packageTriggers: (packageName) => unattached.get(packageName) ?? [],
    packageAgents: (packageName) => agentsOf.get(packageName) ?? [],
    classifier: (packageName) => {
      if (!classifiers.has(packageName))
        classifiers.set(
          packageName,
          Object.hasOwn(state.packages, packageName)
            ? accessClassifier((state.packages[packageName] as PackageRecord).manifest)
            : null,
        );
      return classifiers.get(packageName) ?? null;
    },
  };
}

/** An agent as shown, with its access and its triggers (`index`: the state's, when showing many agents). */
export function agentView(
  state: StoreState,
  agent: AgentRecord,
  now: Date,
  index: ViewIndex = viewIndex(state),
): AgentView {
  const triggers = index.agentTriggers(agent.id).map((t) => triggerViewIn(state, t, now));
  if (agent.origin === 'package') {
    const pkg = Object.hasOwn(state.packages, agent.packageName) ? state.packages[agent.packageName] : undefined;
    const classify = index.classifier(agent.packageName);
    const access: AccessView[] = agent.access.map((a) => ({
      tool: a.entry,
      what: classify ? classify(a.entry).what : a.entry,
      family: a.family,
      permission: a.permission,
      granted: a.granted,
      pin: null,
    }));
    return {
      id: agent.id,
      origin: 'package',
      from: agent.packageName,
      fromVersion: pkg?.version ?? '',
      displayName: agent.displayName,
      description: agent.description,
      archived: agent.archived,
      createdAt: agent.createdAt,
      access,
      triggers,
      model: agent.model,
      budgetPerRunUsd: null,
      approvals: null,
      waitingServers: [],
    };
  }
  // Template spec, agent.md `approvals`: under `ask` the agent asks its person before any tool runs,
  // granted or not; only under `never` does a granted (allowed) tool run unasked. Deny holds either way.
  const access: AccessView[] = Object.entries(agent.toolSettings).map(([tool, setting]) => ({
    tool,
    what: templateToolWhat(tool),
    family: setting.family,
    permission: setting.setting === 'allow' && agent.approvals !== 'never' ? 'ask' : setting.setting,
    granted: setting.setting === 'allow',
    pin: setting.pin,
  }));
  return {
    id: agent.id,
    origin: 'template',
    from: agent.templateName,
    fromVersion: agent.templateVersion,
    displayName: agent.displayName,
    description: agent.description,
    archived: agent.archived,
    createdAt: agent.createdAt,
    access,
    triggers,
    model: agent.model ? (agent.model.prefer ?? agent.model.tier) : null,
    budgetPerRunUsd: agent.budgetPerRunUsd,
    approvals: agent.approvals,
    waitingServers: waitingServers(state, agent),
  };
}

/**
 * A template agent's MCP servers that apply skipped (not saved then), each with the tools not given
 * to the agent since, and whether the server is saved now: then the card offers to grant them, so
 * saving the server in Settings is not a dead end. A tool whose pin could not be filled, or that the
 * owner never allows, is shown but not grantable.
 */
export function waitingServers(state: StoreState, agent: TemplateAgentRecord): WaitingServerView[] {
  const waiting: WaitingServerView[] = [];
  for (const server of agent.preview.mcp) {
    if (server.saved) continue;
    const tools = server.tools.filter((tool) => !Object.hasOwn(agent.toolSettings, tool.gateName));
    if (tools.length === 0) continue;
    waiting.push({
      server: server.server,
      saved: Object.hasOwn(state.settings.mcpServers, server.server),
      tools: tools.map((tool) => ({
        tool: tool.gateName,
        name: tool.name,
        pinText: tool.pinText ?? null,
        grantable: waitingToolGrantable(state, tool),
      })),
    });
  }
  return waiting;
}

/** Whether a waiting tool can be granted: its pin (if any) was filled at apply, and the owner does not deny it. */
export function waitingToolGrantable(state: StoreState, tool: PreviewMcpTool): boolean {
  const pinMissing = tool.pin === null && tool.pinnedBy !== undefined;
  return !pinMissing && !state.settings.deniedTools.includes(tool.gateName);
}

/** The dashboard: installed packages by name, agents by creation, and any damage the store set aside. */
export function dashboardOf(state: StoreState, now: Date): Dashboard {
  const index = viewIndex(state);
  const packages: InstalledPackageView[] = Object.values(state.packages)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((pkg) => ({
      name: pkg.name,
      version: pkg.version,
      publisher: pkg.publisher,
      description: pkg.description,
      installedAt: pkg.installedAt,
      updatedAt: pkg.updatedAt,
      agents: index.packageAgents(pkg.name),
      triggers: index.packageTriggers(pkg.name).map((t) => triggerViewIn(state, t, now)),
      ...integrityView(state, pkg.name),
    }));
  const agents = Object.values(state.agents)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
    .map((agent) => agentView(state, agent, now, index));
  return { packages, agents, damage: state.damage };
}

/**
 * Settings as shown: saved MCP servers by name, which secrets are saved (never their values), connections, denied
 * tools.
 */
export function settingsOf(state: StoreState, secretBackend: SecretBackend): SettingsView {
  // Masked again on the way out: a server saved by format 2 may hold a credential in clear.
  const servers = Object.values(state.settings.mcpServers)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(({ sealed, ...server }) => ({ ...maskedServer(server).masked, credentialsSealed: sealed !== null }));
  return {
    secretBackend,
    mcpServers: servers,
    secrets: SECRET_NAMES.map((s) => ({
      name: s.name,
      label: s.label,
      saved: Object.hasOwn(state.settings.secrets, s.name),
    })),
    connections: CONNECTION_TYPES.map((c) => ({
      type: c.type,
      label: c.label,
      available: Object.hasOwn(state.settings.mcpServers, c.type),
    })),
    deniedTools: [...state.settings.deniedTools],
    webhookPort: {
      port: state.settings.webhookPort ?? DEFAULT_WEBHOOK_PORT,
      chosen: state.settings.webhookPort !== null,
    },
    // Filled by `settings.ts` (known-tools.ts reads the built-in templates): not a view of the state alone.
    knownTools: [],
  };
}

/** The dashboard's and `list --json`'s view of a package's trust. */
export function integrityView(
  state: StoreState,
  name: string,
): { signature: SignatureSummary; integrity: PackageIntegrityView } {
  const record = own(state.packageTrust, name);
  const integrity = record?.integrity ?? { state: 'ok' as const, checkedAt: null, changed: [], missing: [], added: [] };
  return {
    signature: record?.signature ?? UNSIGNED,
    integrity: {
      state: integrity.state,
      checkedAt: integrity.checkedAt,
      changed: [...integrity.changed],
      missing: [...integrity.missing],
      added: [...integrity.added],
      disarmed: (integrity.disarmed ?? []).map((d) => ({ ...d })),
    },
  };
}
