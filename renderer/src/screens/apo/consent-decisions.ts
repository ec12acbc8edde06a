/**
 * The consent form's side of the one decision function (`shared/decisions.ts`): the answers the
 * form sends are only what the person touched, and every step shows `decide`'s decisions for them,
 * so what the form shows is what the core does (it decides again, with what the store holds).
 */
import { useMemo } from 'react';
import type { SourceInspection } from '../../../../shared/api';
import { type ConsentAnswers, type DecisionContext, type Decisions, decide, decisionContext, decisionTrust, type TriggerAnswer } from '../../../../shared/decisions';
import type { ApoInspection } from '../../../../shared/inspection';
import { ownRecord } from '../../../../shared/own-data';
import { useSettings } from '../../../api/hooks';
import { webhookSecretRequest } from '../../components/WebhookSecretChoice';
import { type ConsentDraft, useConsentDraft } from '../../stores/consent-store';

/** The answers the form sends: what the person touched, nothing else (an untouched answer means "keep"). */
export function answersFromDraft(draft: Pick<ConsentDraft, 'access' | 'triggers'>): ConsentAnswers {
  const agents: ConsentAnswers['agents'] = ownRecord();
  for (const [agentId, access] of Object.entries(draft.access)) {
    if (Object.keys(access).length > 0) agents[agentId] = { access: ownRecord(Object.entries(access)) };
  }
  const triggers: ConsentAnswers['triggers'] = ownRecord();
  for (const [id, trigger] of Object.entries(draft.triggers)) {
    const answer: TriggerAnswer = { armed: trigger.arm };
    if (trigger.arm && trigger.folderId) answer.folderId = trigger.folderId;
    // "Keep" is no request at all: a secret is replaced only when the person chose a new one.
    const secret = trigger.arm && trigger.webhookSecret?.kind !== 'keep' ? webhookSecretRequest(trigger.webhookSecret) : undefined;
    if (secret) answer.webhookSecret = secret;
    triggers[id] = answer;
  }
  return { agents, triggers };
}

/** The form's decisions for an inspection and a draft: the one function, with the inputs the core uses. */
export function formDecisions(inspection: ApoInspection & Partial<Pick<SourceInspection, 'installedDecisions'>>, draft: Pick<ConsentDraft, 'access' | 'triggers'>, deniedTools: readonly string[]): Decisions | null {
  const manifest = inspection.details?.manifest;
  if (!manifest) return null;
  return decide({
    manifest,
    installed: inspection.installedDecisions ?? null,
    trust: decisionTrust(inspection.summary?.signature),
    deniedTools,
    answers: answersFromDraft(draft),
  });
}

/** The decision context of the form's inspection: built once per inspection and owner settings (a tick decides only its own agent). */
export function useDecisionContext(inspection: ApoInspection & Partial<Pick<SourceInspection, 'installedDecisions'>>): DecisionContext | null {
  const denied = useSettings().data?.deniedTools;
  const manifest = inspection.details?.manifest;
  const installed = inspection.installedDecisions ?? null;
  const signature = inspection.summary?.signature;
  return useMemo(() => (manifest ? decisionContext({ manifest, installed, trust: decisionTrust(signature), deniedTools: denied ?? [] }) : null), [manifest, installed, signature, denied]);
}

/** The decisions the form shows for a source, recomputed when an answer changes. */
export function useFormDecisions(inspection: ApoInspection & Partial<Pick<SourceInspection, 'installedDecisions'>>, sourceId: string): Decisions | null {
  const draft = useConsentDraft(sourceId);
  const denied = useSettings().data?.deniedTools;
  return useMemo(() => formDecisions(inspection, draft, denied ?? []), [inspection, draft, denied]);
}
