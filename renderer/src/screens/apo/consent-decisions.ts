/**
 * The consent form's side of the one decision function (`shared/decisions/decisions.ts`): the answers the
 * form sends are only what the person touched, and every step shows `decide`'s decisions for them,
 * so what the form shows is what the core does (it decides again, with what the store holds).
 */
import { useMemo } from 'react';
import type { SourceInspection } from '../../../../shared/contract/api';
import { type DecisionContext, decisionContext, decisionTrust } from '../../../../shared/decisions/decision-input';
import type { Decisions } from '../../../../shared/decisions/decisions';
import type { ApoInspection } from '../../../../shared/manifests/inspection';
import { useSettings } from '../../../api/hooks';
import { useConsentDraft } from '../../stores/consent-store';
import { formDecisions } from './form-answers';

export { answersFromDraft, formDecisions } from './form-answers';

/**
 * The decision context of the form's inspection: built once per inspection and owner settings (a tick decides only its
 * own agent).
 */
export function useDecisionContext(
  inspection: ApoInspection & Partial<Pick<SourceInspection, 'installedDecisions' | 'policy'>>,
): DecisionContext | null {
  const denied = useSettings().data?.deniedTools;
  const manifest = inspection.details?.manifest;
  const installed = inspection.installedDecisions ?? null;
  const signature = inspection.summary?.signature;
  // The organization's policy as the core evaluated it at inspection: what it blocks is shown locked.
  const policy = inspection.policy?.effective ?? null;
  return useMemo(
    () =>
      manifest
        ? decisionContext({ manifest, installed, trust: decisionTrust(signature), deniedTools: denied ?? [], policy })
        : null,
    [manifest, installed, signature, denied, policy],
  );
}

/** The decisions the form shows for a source, recomputed when an answer changes. */
export function useFormDecisions(
  inspection: ApoInspection & Partial<Pick<SourceInspection, 'installedDecisions' | 'policy'>>,
  sourceId: string,
): Decisions | null {
  const draft = useConsentDraft(sourceId);
  const denied = useSettings().data?.deniedTools;
  return useMemo(() => formDecisions(inspection, draft, denied ?? []), [inspection, draft, denied]);
}
