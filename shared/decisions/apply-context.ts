/**
 * What the parts of a template apply's preview are computed from (`apply-preview.ts`): the owner's answers on the
 * apply form, the machine's state passed in, and the context every part adds its problems to.
 */
import { type EffectivePolicy, toolBlockedBy } from '../policy/policy';
import type { TemplateDetails } from '../manifests/template-manifest';
import type { ApplyPreview, PreviewProblem } from './apply-preview-schema';

/** What the owner answered on the apply form. */
export interface ApplyRequest {
  /** Values by parameter name; one left out (or empty text) takes its default. */
  parameters: Record<string, unknown>;
  /** Gate names (`mcp:<server>/<tool>`) the owner allows; only these become `allow`. */
  grants: string[];
  /**
   * Built-in tools of the template (its `tools`) the owner unticked ("a template's
   * built-in tools can be unticked like any other"). Each is recorded as `deny` on the agent, so the
   * dashboard shows it and the owner can allow it later; a name that is not one of them is refused.
   */
  withhold?: string[];
  /**
   * The owner's choice for the agent's approvals (spec agent.md `approvals`: the template's value is
   * "the package's recommendation, shown as `approvals_default` for the apply screen"). Absent: `ask`,
   * whatever the template recommends: unattended is only ever the person's choice.
   */
  approvals?: Approvals;
}

/** Spec agent.md `approvals`: `ask` (the agent asks its person before a tool runs) or `never` (it runs unattended). */
export type Approvals = 'ask' | 'never';

/** What the machine holds, passed in so the preview stays pure. */
export interface ApplyMachine {
  savedMcpServers: string[];
  savedSecrets: string[];
  /** Whether a webhook trigger's secret can be kept (the OS keychain works). */
  canKeepSecrets: boolean;
  now: Date;
  /** Gate names the owner denies on this machine: they stay denied, whatever the grants say. */
  deniedTools?: string[];
  /** The organization's policy in force: the tools it blocks stay denied, as the owner's do (`policy.ts`). */
  policy?: EffectivePolicy | null;
}

/** A tool's setting in the agent's tool settings. */
export type ToolSetting = 'allow' | 'ask' | 'deny';

/** What the parts of one preview share: the template, the request, the machine, and the problems found so far. */
export interface PreviewContext {
  manifest: TemplateDetails['manifest'];
  request: ApplyRequest;
  machine: ApplyMachine;
  warnings: PreviewProblem[];
  blockers: ApplyPreview['blockers'];
  /** Whether a tool stays denied (the owner never allows it, or the organization's policy blocks it), and where. */
  denied: (tool: string) => boolean;
  deniedWhere: (tool: string) => string;
}

/** The context of one preview, its problems still empty; a tool is denied by the owner's list or the policy. */
export function previewContext(
  template: TemplateDetails,
  request: ApplyRequest,
  machine: ApplyMachine,
): PreviewContext {
  const ownerDenied = new Set(machine.deniedTools ?? []);
  const policy = machine.policy ?? null;
  return {
    manifest: template.manifest,
    request,
    machine,
    warnings: [],
    blockers: [],
    // A tool the organization's policy blocks is denied like one the owner never allows, whatever the grants say.
    denied: (tool) => ownerDenied.has(tool) || toolBlockedBy(policy, tool, null) !== null,
    deniedWhere: (tool) =>
      ownerDenied.has(tool)
        ? 'on your list of tools you never allow (Settings → Tools you never allow)'
        : `blocked by your organization's policy (${toolBlockedBy(policy, tool, null)})`,
  };
}
