/**
 * A webhook signing secret as a request carries it, once with TypeBox: made here or the sender's. `webhook-secret.ts`
 * checks the sender's and re-exports the type; loaded only by tests and tools.
 */
import { type Static, Type } from 'typebox';
import { MAX_WEBHOOK_SECRET_TEXT } from '../base/limits';
import { closed, exactly } from '../base/schema-kit';

/**
 * A webhook signing secret: make a new one here (the default when absent) or use the sender's,
 * checked by `checkWebhookSecret` (shared/triggers/webhook-secret.ts) before anything is sealed.
 */
export const WebhookSecretChoiceSchema = Type.Unsafe<{ kind: 'make' } | { kind: 'given'; secret: string }>({
  oneOf: [
    closed({ kind: exactly('make') }),
    closed({ kind: exactly('given'), secret: Type.String({ minLength: 1, maxLength: MAX_WEBHOOK_SECRET_TEXT }) }),
  ],
});
export type WebhookSecretChoice = Static<typeof WebhookSecretChoiceSchema>;
