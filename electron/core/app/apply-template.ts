/**
 * Previewing and applying a template (template spec "Apply"): the folder is read and checked again
 * now, and apply makes an agent only from the bytes the user was shown (their digest), with the
 * parameters and grants the preview was computed from. The agent's files are written through
 * staging and recorded in one store write; a repeated request id answers the first receipt, and an apply asked
 * `once` answers the live agent that already holds what it would make (`apply-sameness.ts`).
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ApiRequest, ApplyReceipt } from '../../../shared/contract/api';
import type { ApplyMachine } from '../../../shared/decisions/apply-context';
import { type ApplyPreview, previewApply } from '../../../shared/decisions/apply-preview';
import type { TemplateDetails } from '../../../shared/manifests/template-manifest';
import { type ApiContext, policyOf } from './context';
import { own } from '../../../shared/base/own';
import { organizationServers, refuse, templateProblem, usablePolicy } from '../policy/index';
import { CoreError } from '../errors/index';
import { type Source, templateDigest } from './sources';
import { placeFromStaging } from '../store/staging';
import { applyApplyPlan, planApply } from './apply-plan';
import { alreadyApplied } from './apply-sameness';
import type { StoreState } from '../store/state';
import { checkTemplateFolder } from '../bounded';
import { planAgentFiles } from '../template/agent-files';

/** A template source read and checked now, with the bytes that were checked and their digest. */
interface CheckedTemplate {
  src: Source;
  details: TemplateDetails;
  files: ReadonlyMap<string, Uint8Array>;
  digest: string;
}

async function templateOf(ctx: ApiContext, sourceId: string): Promise<CheckedTemplate> {
  const src = ctx.sources.get(sourceId);
  if (src.kind !== 'template')
    throw new CoreError(
      'apply.not_a_template',
      `${src.handle.displayName} is not a template folder: only templates are applied (a package is installed).`,
    );
  const { inspection, files } = await checkTemplateFolder(src.path);
  if (!inspection.ok || !inspection.details) {
    throw new CoreError(
      'apply.refused',
      `${src.handle.displayName} was refused: ${inspection.errors[0]?.message ?? 'it could not be read'}`,
      { problems: inspection.errors },
    );
  }
  return { src, details: inspection.details, files, digest: templateDigest(files) };
}

/** What the machine holds for an apply preview; the owner's denied tools stay denied (spec "Apply" step 2). */
function machineOf(ctx: ApiContext, state: StoreState): ApplyMachine {
  const policy = policyOf(ctx).effective;
  return {
    savedMcpServers: [...new Set([...Object.keys(state.settings.mcpServers), ...organizationServers(policy)])],
    savedSecrets: Object.keys(state.settings.secrets),
    canKeepSecrets: ctx.deps.secretBox.backend() !== 'unavailable',
    now: ctx.deps.now(),
    deniedTools: [...state.settings.deniedTools],
    policy,
  };
}

async function previewOf(
  ctx: ApiContext,
  template: CheckedTemplate,
  request: ApiRequest<'previewApply'>,
): Promise<ApplyPreview> {
  const state = await ctx.store.read();
  // The request is the apply form's answer as it stands (parameters, grants, withhold, approvals).
  return previewApply(template.details, request, machineOf(ctx, state));
}

/** What applying the template of `request.sourceId` would make; the bytes read are then the ones shown. */
export async function previewTemplate(ctx: ApiContext, request: ApiRequest<'previewApply'>): Promise<ApplyPreview> {
  const template = await templateOf(ctx, request.sourceId);
  const previewed = await previewOf(ctx, template, request);
  template.src.shownDigest = template.digest;
  return previewed;
}

/**
 * The agent's files, all from the bytes the check read (spec "Apply" step 2: "its skills and rules
 * as its skill files"; "agent.md" `output`: the schema "ships beside each SKILL.md, as a rule
 * does"): `instructions.md` (the body, filled), and the files `agent-files.ts` plans, the same plan
 * by which the check refused any clash of paths; a clash reaching apply still refuses.
 */
function agentFiles(template: CheckedTemplate, previewed: ApplyPreview): Map<string, Uint8Array> {
  const { details, files: checked } = template;
  const { plan, clashes } = planAgentFiles(
    checked,
    details.skills.map((skill) => skill.name),
    details.rules.map((rule) => rule.file),
    details.manifest.output?.schema,
  );
  const clash = clashes[0];
  if (clash) {
    throw new CoreError(
      'apply.file_collision',
      `${details.manifest.name}: \`${clash.from}\` and \`${clash.other}\` would both be the agent's \`${clash.target}\`: rename one`,
      { path: clash.from },
    );
  }
  const files = new Map<string, Uint8Array>([['instructions.md', Buffer.from(previewed.instructions, 'utf8')]]);
  for (const [target, from] of plan) {
    const bytes = checked.get(from);
    if (!bytes) throw new Error(`${from} was checked but its bytes were not kept`);
    files.set(target, bytes);
  }
  return files;
}

/** The apply body without its request id, in a canonical form (keys sorted), hashed. */
function applyFingerprint(request: ApiRequest<'apply'>): string {
  const parameters = Object.fromEntries(
    Object.entries(request.parameters).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  const arm = [...new Set(request.arm ?? [])].sort();
  const withhold = [...new Set(request.withhold ?? [])].sort();
  // `arm`, `withhold` and `approvals` join the body only when given, so a receipt recorded before they existed keeps
  // its fingerprint.
  const body = JSON.stringify({
    sourceId: request.sourceId,
    parameters,
    grants: [...request.grants].sort(),
    ...(arm.length > 0 ? { arm } : {}),
    ...(withhold.length > 0 ? { withhold } : {}),
    ...(request.approvals ? { approvals: request.approvals } : {}),
  });
  return createHash('sha256').update(body).digest('hex');
}

/** The receipt of an earlier apply with this request id, if its body was the same; a different body is refused. */
function earlierApply(state: StoreState, request: ApiRequest<'apply'>, fingerprint: string): ApplyReceipt | undefined {
  const earlier = own(state.applies, request.requestId);
  if (!earlier) return undefined;
  if (earlier.fingerprint !== undefined && earlier.fingerprint !== fingerprint) {
    throw new CoreError(
      'apply.request_reused',
      'This apply request id was already used with other parameters or grants: nothing was made. Start the apply again.',
    );
  }
  const { fingerprint: _kept, ...receipt } = earlier;
  return receipt;
}

/**
 * Applies the previewed template of `request.sourceId`: one new agent, its files and its triggers, armed only as
 * ticked.
 */
export async function applyTemplate(ctx: ApiContext, request: ApiRequest<'apply'>): Promise<ApplyReceipt> {
  const { deps, store } = ctx;
  const fingerprint = applyFingerprint(request);
  const first = earlierApply(await store.read(), request, fingerprint);
  if (first) return first;
  // Apply copies from bytes checked now, and only if they are the ones the user was shown.
  const template = await templateOf(ctx, request.sourceId);
  const { src, details } = template;
  // The organization's policy: unreadable, nothing is applied; it may allow no templates, or only the app's own.
  const policy = usablePolicy(policyOf(ctx), `${details.manifest.name} was not applied`);
  const templateRefusal = templateProblem(policy, src.handle.origin === 'builtin');
  if (templateRefusal) refuse(templateRefusal);
  if (src.shownDigest === undefined) {
    throw new CoreError(
      'apply.not_previewed',
      `${details.manifest.name} was not previewed: look at what it would make before applying it`,
    );
  }
  if (src.shownDigest !== template.digest) {
    throw new CoreError(
      'apply.changed',
      `${src.handle.displayName} changed on disk since it was previewed: look at it again before applying; nothing was made`,
    );
  }
  const previewed = await previewOf(ctx, template, request);
  const agentId = randomUUID();
  const finalDir = join(deps.dataDir, 'agents', agentId);
  const files = agentFiles(template, previewed);
  const plan = planApply({
    manifest: details.manifest,
    previewed,
    arm: request.arm ?? [],
    policy,
    agentId,
    files: [...files.keys()],
    requestId: request.requestId,
    fingerprint,
    at: deps.now().toISOString(),
  });
  // Asked once (the CLI, unless `--another`): a live agent already holding what this would make is the answer, and
  // nothing is written; looked at again under the lock, so two reruns at once make one agent.
  const asked = { agent: plan.agent, files, arm: request.arm ?? [] };
  const same = request.once ? await alreadyApplied(deps.dataDir, await store.read(), asked) : undefined;
  if (same) return same;
  const outcome = await placeFromStaging({
    dataDir: deps.dataDir,
    finalDir,
    fill: async (staging) => {
      for (const [rel, body] of files) {
        // The agent's files are the data folder's own: its owner's alone, whatever the umask (DESIGN.md "Consent, …").
        await mkdir(dirname(join(staging, rel)), { recursive: true, mode: 0o700 });
        await writeFile(join(staging, rel), body, { mode: 0o600 });
      }
    },
    record: (place) =>
      store.update(
        async (state) => {
          const earlier =
            earlierApply(state, request, fingerprint) ??
            (request.once ? await alreadyApplied(deps.dataDir, state, asked) : undefined);
          if (earlier) return { result: { receipt: earlier, duplicate: true }, write: false };
          await place();
          for (const trigger of previewed.triggers) deps.faults?.applyTrigger?.(trigger.name);
          applyApplyPlan(state, plan, request.requestId);
          return { result: { receipt: plan.receipt, duplicate: false } };
        },
        ({ duplicate }) => (duplicate ? [] : plan.events),
      ),
  });
  return outcome.receipt;
}
