/**
 * The Api's `inspect`: a source inspected for the consent form and the CLI, with what the store and the policy say of
 * it — the installed version and what an update changes (`installedComparison`), the one signature verdict every
 * screen renders, a key change, the policy's refusals, and whether the installed files changed on this computer.
 */
import type { ApiRequest, SourceInspection } from '../../../shared/contract/api';
import type { ApoDetails, ApoSummary } from '../../../shared/manifests/inspection';
import { own } from '../../../shared/base/own';
import { signatureVerdictOf } from '../../../shared/trust/signature-verdict';
import { inspectionRefusals, verificationKeys } from '../policy/index';
import { withSignatureState } from '../trust/signature-state';
import { pinnedKeysOf, signatureUpdateOf, trustedKeysOf } from '../trust/stored-keys';
import { type ApiContext, policyOf } from './context';
import { installedComparison } from './install-package';
import { keyChangeOfUpdate } from './publisher-trust';
import { inspectSource } from './sources';
import { keyFingerprint } from '../trust/trusted-keys';

/** Inspects the source of `request.sourceId` under the policy in force (any policy, an unreadable one included). */
export async function inspectForConsent(ctx: ApiContext, request: ApiRequest<'inspect'>): Promise<SourceInspection> {
  const { store } = ctx;
  const src = ctx.sources.get(request.sourceId);
  const state = await store.read();
  // Inspection works under any policy, an unreadable one included: only what it would refuse is added.
  const policy = policyOf(ctx);
  const trusted = verificationKeys(policy.effective, trustedKeysOf(state));
  const inspection = await inspectSource(src, trusted, pinnedKeysOf(state, trusted));
  const manifest = src.kind === 'apo' ? (inspection.details as ApoDetails | null)?.manifest : undefined;
  const comparison = manifest
    ? installedComparison(state, manifest, (inspection.summary as ApoSummary | null)?.sha256 ?? '')
    : { installed: null, updateDiff: null, installedDecisions: null };
  const summary = src.kind === 'apo' ? (inspection.summary as ApoSummary | null) : null;
  // The one signature verdict of this inspection: every screen renders it, none recomputes it.
  const signatureVerdict = summary
    ? signatureVerdictOf(
        summary.signature,
        summary.publisher,
        manifest ? signatureUpdateOf(state, manifest.package.name, summary.signature) : null,
      )
    : null;
  const keyChange = keyChangeOfUpdate(signatureVerdict?.update ?? null);
  const shown = withSignatureState(inspection, src.handle.origin === 'builtin');
  // What the policy refuses of it as a whole: the one evaluation `inspect` prints too.
  const refused = inspectionRefusals(policy.effective, inspection, trusted, src.handle.origin === 'builtin');
  const result: SourceInspection = {
    ...shown,
    ...(refused.length > 0 ? { ok: false, errors: [...shown.errors, ...refused] } : {}),
    ...comparison,
    keyChange,
    signatureVerdict,
    signerFingerprint:
      summary?.signature.state === 'verified' && summary.signature.public_key
        ? keyFingerprint(summary.signature.public_key)
        : null,
    installedChanged: manifest ? own(state.packageTrust, manifest.package.name)?.integrity.state === 'changed' : false,
    policy,
  };
  return result;
}
