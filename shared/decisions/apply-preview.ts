/**
 * What applying a template would make, computed without making anything (spec:
 * agentrun-template-packages.md "Apply"; DESIGN.md "Consent, install, apply").
 *
 * One pure function, so the apply screen shows exactly what the store's apply records: the same
 * object is rendered, then recorded. Nothing here reads the disk, the clock or the network: the
 * machine's state (saved MCP servers, saved secrets, whether secrets can be kept, now) is passed in.
 */
import { approvalsOf, approvalsProblem } from './approvals-decision';
import { AGENT_BODY_LIMIT, agentBodyBytes, agentRecord, agentTooLargeMessage } from '../manifests/agent-body';
import { fillText, type TemplateDetails } from '../manifests/template-manifest';
import { type ApplyMachine, type ApplyRequest, type Approvals, previewContext } from './apply-context';
import { previewParameters } from './apply-parameters';
import { agentToolSettings, checkedGrants, pinTextBytes, previewMcpServer, previewNativeTools } from './apply-tools';
import { previewTriggers } from './apply-triggers';
// The preview's shape is defined once with its schema (shared/contract/api-replies.ts): the Api answers it, a test checks it.
export type {
  PreviewTrigger,
  PreviewProblem,
  PreviewParameter,
  PreviewMcpTool,
  PreviewMcpServer,
  ApplyPreview,
} from './apply-preview-schema';
import type { ApplyPreview } from './apply-preview-schema';

/**
 * Computes what applying `template` with `request` on `machine` would make (spec: "Apply" steps 1
 * and 2), without making anything. Blockers are the spec's `422`/`409` answers, each naming its
 * field (`parameters.<name>`, `grants[i]`, `secrets[i]`, `mcp[i]`, `triggers.<i>`); warnings are
 * its `mcp.<server>`, `pins.mcp:<server>/<tool>` and `grants.<tool>` warnings.
 */
export function previewApply(template: TemplateDetails, request: ApplyRequest, machine: ApplyMachine): ApplyPreview {
  const ctx = previewContext(template, request, machine);
  const { manifest, warnings, blockers } = ctx;
  // 1. Parameters, per field; grants, by gate name; the secrets the server must hold.
  const { parameters, values, textValues } = previewParameters(ctx);
  const grants = checkedGrants(ctx);
  const secrets = (manifest.secrets ?? []).map((name) => ({ name, saved: machine.savedSecrets.includes(name) }));
  secrets.forEach((secret, i) => {
    if (!secret.saved)
      blockers.push({
        code: 'apply.secret_missing',
        path: `secrets[${i}]`,
        message: `${manifest.name} needs the secret \`${secret.name}\`: save it in Settings first`,
      });
  });
  // A pin's text is filled only when all of it, filled, fits in the agent's 1 MiB body: a long
  // value named many times in a pin is counted first, never built ("without unbounded work").
  const pinBytes = pinTextBytes(manifest, values);
  const pinsTooLarge = pinBytes > AGENT_BODY_LIMIT;
  // 2. MCP servers and their tools, at the owner's setting; only grants become allow.
  const mcp = (manifest.mcp ?? []).map((entry, i) => previewMcpServer(ctx, entry, i, { grants, values, pinsTooLarge }));
  const { tools, withheld } = previewNativeTools(ctx);
  const recommended: Approvals = manifest.approvals ?? 'ask';
  // How the agent's built-in tools run is the person's choice: asked before each use unless they choose `never`.
  // The template's `approvals` is only its recommendation, shown beside the choice.
  const approvals = approvalsOf(request.approvals);
  const approvalsRefused = approvalsProblem(machine.policy, approvals);
  if (approvalsRefused !== null) blockers.push(approvalsRefused);
  const triggers = previewTriggers(ctx, textValues);
  // 2. The agent's body, held to POST /v2/agents' 1 MiB limit (413), measured before the
  // instructions are filled: an apply over it makes nothing, and its instructions are never built.
  const displayName = fillText(manifest.display_name ?? manifest.name, textValues);
  const bodyBytes =
    agentBodyBytes({
      record: agentRecord({
        name: displayName,
        description: manifest.description,
        model: manifest.model,
        effort: manifest.effort,
        budgetPerRunUsd: manifest.budget?.per_run_usd,
        learning: manifest.learning,
        approvals,
        tools,
        toolSettings: agentToolSettings(mcp, withheld),
      }),
      body: template.body,
      values: textValues,
      filesJsonBytes: template.agentFilesJsonBytes ?? 0,
    }) + (pinsTooLarge ? pinBytes : 0);
  const tooLarge = bodyBytes > AGENT_BODY_LIMIT;
  if (tooLarge) {
    blockers.push({
      code: 'apply.agent_too_large',
      path: 'body',
      message: `${manifest.name}: ${agentTooLargeMessage(bodyBytes, 'this apply makes')}: give shorter parameters`,
    });
  }
  return {
    displayName,
    instructions: tooLarge ? '' : fillText(template.body, textValues),
    parameters,
    tools,
    withheld,
    approvals: { chosen: approvals, recommended },
    mcp,
    triggers,
    secrets,
    warnings,
    blockers,
    canApply: blockers.length === 0,
  };
}
