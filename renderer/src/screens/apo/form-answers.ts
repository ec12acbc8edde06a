/**
 * The consent form's answers, pure (no React): what the form sends is only what the person touched
 * (an untouched answer means "keep"), and what it shows is the one decision function's decisions
 * (`shared/decisions/decisions.ts`) for them. The core decides again with what the store holds.
 */
import type { SourceInspection } from '../../../../shared/contract/api';
import {
  type ConsentAnswers,
  type Decisions,
  decide,
  type TriggerAnswer,
} from '../../../../shared/decisions/decisions';
import { decisionTrust } from '../../../../shared/decisions/decision-input';
import type { ApoInspection } from '../../../../shared/manifests/inspection';
import { ownRecord } from '../../../../shared/base/own-data';
import { webhookSecretRequest } from '../../components/webhook-secret-draft';
import type { ConsentDraft } from '../../stores/consent-store';

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
    const secret = trigger.arm ? webhookSecretRequest(trigger.webhookSecret) : undefined;
    if (secret) answer.webhookSecret = secret;
    triggers[id] = answer;
  }
  return { agents, triggers };
}

/** The form's decisions for an inspection and a draft: the one function, with the inputs the core uses. */
export function formDecisions(
  inspection: ApoInspection & Partial<Pick<SourceInspection, 'installedDecisions' | 'policy'>>,
  draft: Pick<ConsentDraft, 'access' | 'triggers'>,
  deniedTools: readonly string[],
): Decisions | null {
  const manifest = inspection.details?.manifest;
  if (!manifest) return null;
  return decide({
    manifest,
    installed: inspection.installedDecisions ?? null,
    trust: decisionTrust(inspection.summary?.signature),
    deniedTools,
    policy: inspection.policy?.effective ?? null,
    answers: answersFromDraft(draft),
  });
}
