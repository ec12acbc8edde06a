/**
 * What the organization's policy would do to an inspected source, told before the person installs or applies it
 * (DESIGN.md "Managed policy"), from the evaluations install and apply make themselves, never a copy of their rules:
 *
 * - refused as a whole: {@link inspectionRefusals} (what the consent form's inspection adds and install refuses
 *   with), and for a template the policy's blockers of the apply preview (`previewApply`) at its recommended answers;
 *   an unreadable policy refuses everything ({@link usablePolicy}: fail closed);
 * - withheld rather than refused: for an `.apo`, the one decision function (`decide`) with the policy, as install
 *   decides when no answer is given (a tool it blocks is not granted, a tool asks first where "runs without asking"
 *   is not allowed, a trigger kind it does not allow cannot be armed); for a template, the apply preview's tools the
 *   policy denies and its triggers of a kind the policy does not allow (apply refuses arming them).
 *
 * A plugin manifest is neither installed nor applied, and an input the spec refuses is refused on its own: the policy
 * adds nothing to them (`outcome` null).
 */
import type { InstalledDecisions } from '../../../shared/decisions/decisions';
import type { ApoDetails, ApoSummary, Inspection } from '../../../shared/manifests/inspection';
import { ownRecord } from '../../../shared/base/own-data';
import {
  type EffectivePolicy,
  type PolicyView,
  toolBlockedBy,
  triggerKindAllowed,
  triggerKindWords,
} from '../../../shared/policy/policy';
import type { TemplateDetails } from '../../../shared/manifests/template-manifest';
import type { TrustedKey } from '../../../shared/trust/trust';
import { CoreError } from '../errors/index';
import { inspectionRefusals, usablePolicy } from './index';

/**
 * One thing the policy withholds rather than refuses: a tool not granted (`withheld`) or asking before each call
 * (`asks_first`), or a trigger that cannot be armed (`cannot_arm`); `agent` is the agent offered the tool (an `.apo`).
 */
export interface PolicyWithheld {
  kind: 'tool' | 'trigger';
  name: string;
  agent: string | null;
  effect: 'withheld' | 'asks_first' | 'cannot_arm';
  why: string;
}

/** What the policy in force would do to an inspected source (`inspect` prints it; `--json` as its `policy` key). */
export interface InspectionPolicy {
  state: PolicyView['state'];
  /** For an unreadable policy: the file and what is wrong with it. */
  problem: { path: string; message: string } | null;
  /**
   * Whether install (an `.apo`) or apply (a template) would be refused by the policy; null when it says nothing of
   * this source (no policy, a plugin manifest, an input the spec refuses).
   */
  outcome: 'allowed' | 'refused' | null;
  /** Each refusal with its `policy.*` code, the one install or apply refuses with first. */
  refusals: { code: string; message: string }[];
  withheld: PolicyWithheld[];
}

/** What the evaluation needs besides the policy and the inspection. */
export interface InspectionPolicyInput {
  /** The keys the signature was verified against (`verificationKeys`): the allowlist's identity needs them. */
  keys: readonly TrustedKey[];
  /** A template the app ships. */
  builtin: boolean;
  /** What the store holds of the installed package of the same name (an update keeps it), or null. */
  installed: InstalledDecisions | null;
  now: Date;
}

/**
 * What `view` would do to `inspection`: its refusals, what it would withhold, or nothing. The decision function and the
 * apply preview are loaded only when a policy applies (`inspect` without one starts as fast as before).
 */
export async function inspectionUnderPolicy(
  view: PolicyView,
  inspection: Inspection,
  input: InspectionPolicyInput,
): Promise<InspectionPolicy> {
  const base = { state: view.state, problem: view.problem, outcome: null, refusals: [], withheld: [] };
  const evaluated = inspection.ok && (inspection.kind === 'apo' || inspection.kind === 'template');
  if (view.state === 'none' || !evaluated) return base;
  let policy: EffectivePolicy | null;
  try {
    policy = usablePolicy(view, `${inspection.kind === 'apo' ? 'Installing' : 'Applying'} it is refused`);
  } catch (error) {
    if (!(error instanceof CoreError)) throw error;
    return { ...base, outcome: 'refused', refusals: [{ code: 'policy.unreadable', message: error.message }] };
  }
  const refusals = inspectionRefusals(policy, inspection, input.keys, input.builtin);
  const held =
    inspection.kind === 'apo'
      ? {
          refusals: [],
          withheld: apoWithheld(
            await import('../../../shared/decisions/decisions'),
            await import('../../../shared/decisions/decision-input'),
            policy,
            inspection,
            input.installed,
          ),
        }
      : templateUnderPolicy(
          (await import('../../../shared/decisions/apply-preview')).previewApply,
          policy,
          inspection.details as TemplateDetails,
          input.now,
        );
  const all = [...refusals, ...held.refusals];
  return { ...base, outcome: all.length > 0 ? 'refused' : 'allowed', refusals: all, withheld: held.withheld };
}

/** What install decides under the policy when no answer is given: each row the policy changes. */
function apoWithheld(
  { decide }: typeof import('../../../shared/decisions/decisions'),
  { decisionTrust }: typeof import('../../../shared/decisions/decision-input'),
  policy: EffectivePolicy | null,
  inspection: Inspection,
  installed: InstalledDecisions | null,
): PolicyWithheld[] {
  const manifest = (inspection.details as ApoDetails).manifest;
  const summary = inspection.summary as ApoSummary;
  const decided = decide({
    manifest,
    installed,
    trust: decisionTrust(summary.signature),
    deniedTools: [],
    policy,
    answers: { agents: ownRecord(), triggers: ownRecord() },
  });
  const withheld: PolicyWithheld[] = [];
  for (const [agent, entries] of Object.entries(decided.agents))
    for (const [name, d] of Object.entries(entries))
      if (d.reason === 'policy' && d.policy !== null)
        withheld.push({
          kind: 'tool',
          name,
          agent,
          effect: d.permission === 'deny' ? 'withheld' : 'asks_first',
          why: d.policy,
        });
  for (const [name, d] of Object.entries(decided.triggers))
    if (d.policy !== null) withheld.push({ kind: 'trigger', name, agent: null, effect: 'cannot_arm', why: d.policy });
  return withheld;
}

/**
 * What apply previews under the policy at the template's recommended answers (no parameter given, nothing granted,
 * nothing saved: only the policy's effects are read): its policy blockers, the tools it denies, the triggers whose
 * kind it does not allow.
 */
function templateUnderPolicy(
  previewApply: typeof import('../../../shared/decisions/apply-preview').previewApply,
  policy: EffectivePolicy | null,
  details: TemplateDetails,
  now: Date,
): { refusals: InspectionPolicy['refusals']; withheld: PolicyWithheld[] } {
  const preview = previewApply(
    details,
    { parameters: {}, grants: [] },
    { savedMcpServers: [], savedSecrets: [], canKeepSecrets: true, now, deniedTools: [], policy },
  );
  const refusals = preview.blockers
    .filter((b) => b.code.startsWith('policy.'))
    .map((b) => ({ code: b.code, message: b.message }));
  const tool = (name: string): PolicyWithheld => ({
    kind: 'tool',
    name,
    agent: null,
    effect: 'withheld',
    why: toolBlockedBy(policy, name, null) ?? "your organization's policy blocks it",
  });
  const kept = new Set([...preview.tools, ...preview.withheld]);
  const withheld = [
    ...(details.manifest.tools ?? []).filter((name) => !kept.has(name)).map(tool),
    ...preview.mcp.flatMap((server) => server.tools.filter((t) => t.ownerDenied).map((t) => tool(t.gateName))),
    ...preview.triggers
      .filter((t) => !triggerKindAllowed(policy, t.type))
      .map(
        (t): PolicyWithheld => ({
          kind: 'trigger',
          name: t.name,
          agent: null,
          effect: 'cannot_arm',
          why: `your organization does not allow ${triggerKindWords(t.type)} triggers`,
        }),
      ),
  ];
  return { refusals, withheld };
}
