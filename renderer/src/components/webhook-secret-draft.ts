/**
 * A webhook secret as the form holds it, and the request it becomes (pure: the form's answers use it without React).
 */
import type { WebhookSecretChoice as WebhookSecretRequest } from '../../../shared/triggers/webhook-secret';

/**
 * How the user sets one webhook secret: make a new one here, or paste the one the sender
 * gave. `touched` is set when the field is left or submitted: an untouched field is not an error.
 */
export type WebhookSecretDraft =
  | { kind: 'keep' }
  | { kind: 'make' }
  | { kind: 'given'; secret: string; touched: boolean };

/** The request the Api takes for a draft (absent or "keep": none, so nothing is replaced). */
export function webhookSecretRequest(draft: WebhookSecretDraft | undefined): WebhookSecretRequest | undefined {
  if (draft?.kind === 'given') return { kind: 'given', secret: draft.secret };
  return draft?.kind === 'make' ? { kind: 'make' } : undefined;
}
