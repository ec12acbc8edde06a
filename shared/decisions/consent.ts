/**
 * What an `.apo` access entry is (its action family) and how the store records the person's
 * decision for it. The decisions themselves are made in one place, `shared/decisions/decisions.ts`.
 *
 * DESIGN.md "Consent, install, apply": a package never grants itself anything. Its
 * `agents.defaults.access` is a proposal; the store records what the person decided, never the
 * package's defaults.
 */
import { apolliaNativeTool } from '../manifests/catalogues';
import { isSensitive, type ActionFamily, type ApolliaManifest } from '../manifests/apollia-manifest';

/** How a call to one access entry goes: runs without asking, asks the person first, or is not allowed. */
export type Permission = 'allow' | 'ask' | 'deny';

/**
 * One access entry as the store records it: the entry, its action family when known, and how it runs
 * (`shared/decisions/decisions.ts` decides it).
 */
export interface AccessDecision {
  entry: string;
  /** Null when the family is not known here (an MCP tool, another agent). */
  family: ActionFamily | null;
  /** Granted: `permission` is not `deny`. */
  granted: boolean;
  /** Runs without asking, asks first, or not allowed: decided once, at install or by the person, and kept. */
  permission: Permission;
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
    if (workflow)
      return workflow[1] === manifest.package.name ? (workflows.get(workflow[2] as string)?.action ?? null) : null;
    if (entry.includes(':')) return null;
    return apolliaNativeTool(entry)?.family ?? null;
  };
}

/**
 * Whether a call to an entry of this family asks first when nothing else is known of it (spec
 * `[[mcp_servers]]`: "whether a call to one of its tools asks first is decided on the action family
 * of that tool"; every family but `read` is sensitive). A family this machine cannot know before the
 * call (an MCP tool, another agent: null) asks too, because nothing proves it only reads. How a
 * granted entry of a package runs is decided by `shared/decisions/decisions.ts`, which starts from this.
 */
export function asksFirst(family: ActionFamily | null): boolean {
  return family === null || isSensitive(family);
}
