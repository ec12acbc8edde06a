/**
 * What one `agents[].defaults.access` entry is, and whether a call to it asks first.
 *
 * The rule this form implements (spec `[[mcp_servers]]`: "whether a call to one of its tools asks
 * first is decided on the action family of that tool"; "Every family except read makes the access
 * sensitive"): a tool whose family is `read` runs without asking; a sensitive family asks first;
 * and a tool whose family this app cannot know before it runs (an MCP tool, an unknown name, another
 * agent) asks first too, because nothing proves it only reads.
 */
import type {
  ActionFamily,
  AgentEntry,
  ApolliaManifest,
  ToolEntry,
  WorkflowEntry,
} from '../manifests/apollia-manifest';
import { apolliaNativeTool, reachesOutside, templateTool } from '../manifests/catalogues';
import { mcpToolWords, UNKNOWN_TOOL_WORDS } from '../words/words';
import { accessFamilies, asksFirst, firstByName } from './consent';
import type { UpdateDiff } from './update-diff';

export interface AccessRow {
  entry: string;
  kind: 'native' | 'mcp' | 'pkg' | 'agent' | 'workflow' | 'unknown';
  /** What the entry lets an agent do, in words: the row's first line (its name is the second). */
  what: string;
  family: ActionFamily | 'unknown';
  asks: boolean;
  /** A built-in tool that reads but sends what it looks up outside (`shared/manifests/catalogues.ts` reachesOutside). */
  outward: boolean;
}

/**
 * A classifier of `manifest`'s access entries, its lookups built once (a manifest may describe
 * thousands of tools; a scan per entry is quadratic). Each family comes from the store's own
 * `accessFamilies`, so the form and the store agree.
 */
export function accessClassifier(manifest: ApolliaManifest): (entry: string) => AccessRow {
  const tools = firstByName<ToolEntry>(manifest.tools, (t) => t.name);
  const workflows = firstByName<WorkflowEntry>(manifest.workflows, (w) => w.name);
  const agents = firstByName<AgentEntry>(manifest.agents, (a) => a.id);
  const familyOf = accessFamilies(manifest);
  const own = (pkg: string) => pkg === manifest.package.name;

  return (entry: string): AccessRow => {
    let what: string;
    let kind: AccessRow['kind'];
    if (entry.startsWith('mcp:')) {
      kind = 'mcp';
      what = mcpToolWords(entry);
    } else if (entry.startsWith('pkg:')) {
      const [pkg = '', name = ''] = entry.slice(4).split('/');
      const tool = own(pkg) ? tools.get(name) : undefined;
      kind = 'pkg';
      what = tool ? tool.description : `Use the tool “${name}” of another package, ${pkg}`;
    } else if (entry.startsWith('agent:')) {
      const id = entry.slice(6);
      kind = 'agent';
      what = `Hand work to the agent ${agents.get(id)?.name ?? id}`;
    } else if (entry.startsWith('workflow:')) {
      const [pkg = '', name = ''] = entry.slice(9).split('/');
      const workflow = own(pkg) ? workflows.get(name) : undefined;
      kind = 'workflow';
      what = workflow
        ? `Start a workflow: ${workflow.description}`
        : `Start the workflow “${name}” of another package, ${pkg}`;
    } else {
      const native = apolliaNativeTool(entry);
      kind = native ? 'native' : 'unknown';
      what = native ? native.description : UNKNOWN_TOOL_WORDS;
    }
    const family = familyOf(entry);
    return {
      entry,
      kind,
      what,
      family: family ?? 'unknown',
      asks: asksFirst(family),
      outward: kind === 'native' && reachesOutside(entry),
    };
  };
}

/** Classifies one default access entry of `manifest` (one entry; for many, use {@link accessClassifier}). */
export function accessRow(entry: string, manifest: ApolliaManifest): AccessRow {
  return accessClassifier(manifest)(entry);
}

/** How an update's access entry differs from the installed version: new, its family changed, or asked again. */
export type AccessMark =
  | { kind: 'new' }
  | { kind: 'changed'; from: ActionFamily; to: ActionFamily }
  | { kind: 'again' };

/**
 * The update marks of an agent's access entries (agent id → entry → mark), from the diff the store keeps
 * (`shared/decisions/update-diff.ts`): every entry in `proposedAccess` is re-asked; it is new when the
 * installed version did not offer it (or the agent is new), changed when the tool or workflow it
 * names now has another family, else asked again (the installed version had no answer for it).
 */
export function accessMarker(diff: UpdateDiff | null): (agentId: string) => Map<string, AccessMark> {
  if (!diff) return () => new Map();
  // Built once per diff, not per agent: an update may add or change thousands of agents and tools.
  const newAgents = new Set(diff.agents.added);
  const addedAccess = new Map<string, Set<string>>();
  for (const change of diff.agents.access)
    if (!addedAccess.has(change.agentId)) addedAccess.set(change.agentId, new Set(change.added));
  const toolChanges = new Map(diff.tools.familyChanged.map((c) => [c.name, c]));
  const workflowChanges = new Map(diff.workflows.familyChanged.map((c) => [c.name, c]));
  return (agentId) => {
    const marks = new Map<string, AccessMark>();
    const agentIsNew = newAgents.has(agentId);
    const added = addedAccess.get(agentId);
    for (const entry of diff.proposedAccess[agentId] ?? []) {
      if (agentIsNew || added?.has(entry)) {
        marks.set(entry, { kind: 'new' });
        continue;
      }
      const pkg = /^pkg:[^/]+\/(.+)$/.exec(entry);
      const workflow = /^workflow:[^/]+\/(.+)$/.exec(entry);
      const change = pkg
        ? toolChanges.get(pkg[1] ?? '')
        : workflow
          ? workflowChanges.get(workflow[1] ?? '')
          : undefined;
      marks.set(entry, change ? { kind: 'changed', from: change.from, to: change.to } : { kind: 'again' });
    }
    return marks;
  };
}

/**
 * What one tool of a template's agent lets it do, in words (plain words lead, the name follows): a
 * built-in tool by the catalogue's description, an MCP tool (`mcp:server/tool`) as a tool of that program.
 */
export function templateToolWhat(tool: string): string {
  if (tool.startsWith('mcp:')) return mcpToolWords(tool);
  return templateTool(tool)?.description ?? UNKNOWN_TOOL_WORDS;
}

/**
 * Whether an agent is granted any entry of a sensitive family (or one whose family is unknown), as decided: such an
 * agent's access is never shown collapsed, in the Access step or in Review, so a risky tool ticked by default cannot
 * hide in a closed card (DESIGN.md "Consent, install, apply": the form shows everything the manifest lets it do).
 */
export function grantsSensitive(
  decided: Readonly<Record<string, { permission: 'allow' | 'ask' | 'deny' }>>,
  classify: (entry: string) => AccessRow,
): boolean {
  return Object.entries(decided).some(([entry, { permission }]) => {
    if (permission === 'deny') return false;
    return classify(entry).family !== 'read';
  });
}
