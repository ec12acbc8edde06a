/**
 * What the user answers on an `.apo` consent form, and the form's starting proposal.
 *
 * DESIGN.md "Consent, install, apply": a package never grants itself anything. Its
 * `agents.defaults.access` is a proposal the form shows ticked; its triggers are proposals shown
 * unarmed. The store records the user's answers (these types), never the package's defaults.
 */
import type { WebhookSecretChoice } from './webhook-secret';
import { apolliaNativeTool } from './catalogues';
import { ownRecord } from './own-data';
import { isSensitive, type ActionFamily, type ApolliaManifest } from './apollia-manifest';

/** One agent's answers: each entry of its `defaults.access`, granted (true) or not (false). */
export interface AgentConsent {
  access: Record<string, boolean>;
}

/** Whether to arm one trigger; a file_watch trigger needs a folder picked with `pickWatchFolder`. */
export interface TriggerArming {
  armed: boolean;
  /** The id `pickWatchFolder` returned (the renderer never sends a path). */
  folderId?: string;
  /** Issue 18: for an armed webhook, make its secret here (the default) or use the sender's. */
  webhookSecret?: WebhookSecretChoice;
}

/**
 * The user's answers for one install, by agent id and trigger id. An agent or trigger the answers
 * leave out gets nothing: no access granted, not armed (for an update: its kept decision).
 */
export interface ConsentDecision {
  agents: Record<string, AgentConsent>;
  triggers: Record<string, TriggerArming>;
}

/** One access entry as the store records it: the entry, its action family when known, the answer. */
export interface AccessDecision {
  entry: string;
  /** Null when the family is not known here (an MCP tool, another agent). */
  family: ActionFamily | null;
  granted: boolean;
}

/** The first item of each name: what `Array.find` by name would answer, in one lookup. */
export function firstByName<T>(items: readonly T[] | undefined, key: (item: T) => string): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items ?? []) if (!map.has(key(item))) map.set(key(item), item);
  return map;
}

/**
 * The action family of an access entry of `manifest`, when this machine can tell it (spec:
 * "[agents.defaults] access"): a native tool from the catalogue, `pkg:<package>/<tool>` from the
 * package's tools, `workflow:<package>/<name>` from its workflows. MCP tools and `agent:<id>` are
 * not known before they run: null. For many entries of one manifest: its tools and workflows are
 * looked up by name, never searched per entry (a manifest may hold thousands of each, and no
 * package text may cost more than linear time; DESIGN.md).
 */
export function accessFamilies(manifest: ApolliaManifest): (entry: string) => ActionFamily | null {
  const tools = firstByName(manifest.tools, (tool) => tool.name);
  const workflows = firstByName(manifest.workflows, (workflow) => workflow.name);
  return (entry) => {
    const pkg = /^pkg:([^/]+)\/(.+)$/.exec(entry);
    if (pkg) return pkg[1] === manifest.package.name ? (tools.get(pkg[2] as string)?.action ?? null) : null;
    const workflow = /^workflow:([^/]+)\/(.+)$/.exec(entry);
    if (workflow) return workflow[1] === manifest.package.name ? (workflows.get(workflow[2] as string)?.action ?? null) : null;
    if (entry.includes(':')) return null;
    return apolliaNativeTool(entry)?.family ?? null;
  };
}

/**
 * Whether a call to a granted entry asks its person first (spec `[[mcp_servers]]`: "whether a call
 * to one of its tools asks first is decided on the action family of that tool"; every family but
 * `read` is sensitive). A family this machine cannot know before the call (an MCP tool, another
 * agent: null) asks too, because nothing proves it only reads.
 */
export function asksFirst(family: ActionFamily | null): boolean {
  return family === null || isSensitive(family);
}

/** The permission the store records for one access entry: not granted → deny; granted → ask or allow by {@link asksFirst}. */
export function grantedPermission(family: ActionFamily | null, granted: boolean): 'allow' | 'ask' | 'deny' {
  if (!granted) return 'deny';
  return asksFirst(family) ? 'ask' : 'allow';
}

/**
 * The consent form's starting point: every default access entry ticked (the package's proposal,
 * which the user may untick), and no trigger armed (spec: "installing it does not arm them on its own").
 */
export function proposedConsent(manifest: ApolliaManifest): ConsentDecision {
  const agents = ownRecord<AgentConsent>();
  for (const agent of manifest.agents ?? []) {
    agents[agent.id] = { access: ownRecord((agent.defaults?.access ?? []).map((entry) => [entry, true])) };
  }
  const triggers = ownRecord<TriggerArming>();
  for (const trigger of manifest.triggers ?? []) triggers[trigger.id] = { armed: false };
  return { agents, triggers };
}
