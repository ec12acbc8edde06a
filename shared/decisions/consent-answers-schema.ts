/**
 * What the person answered in a consent form (an install's, an update's), once with TypeBox: per access entry and
 * per trigger, only what they changed. The decision function reads these types; the Api's install request carries
 * them. Loaded only by tests and tools.
 */
import { type Static, Type } from 'typebox';
import { MAX_ACCESS_PER_AGENT, MAX_AGENTS, MAX_MANIFEST_BYTES, MAX_REQUEST_ID, MAX_TRIGGERS } from '../base/limits';
import { closed, mapOf, oneOf } from '../base/schema-kit';
import { WebhookSecretChoiceSchema } from '../triggers/webhook-secret-schema';

/** An id the main process handed out (a picked folder's). */
const id = Type.String({ minLength: 1, maxLength: MAX_REQUEST_ID });
/** A name a manifest gives (an agent or trigger id, an access entry): no longer than the manifest itself. */
const manifestName = { type: 'string', minLength: 1, maxLength: MAX_MANIFEST_BYTES } as const;

/**
 * The person's answer for one access entry: `true` grant it (the way `decide` says it runs),
 * `false` withhold it, or grant it and choose explicitly how it runs: `'ask'` before each call,
 * `'allow'` without asking (only for an entry that is not of a sensitive family).
 */
export const AccessAnswerSchema = oneOf([true, false, 'ask', 'allow']);
export type AccessAnswer = Static<typeof AccessAnswerSchema>;

/**
 * The person's answer for one trigger. `armed: false` turns it off. `armed: true` arms it; on a
 * trigger that keeps a folder or a secret, leaving `folderId` or `webhookSecret` out keeps them:
 * `folderId` is the id `pickWatchFolder` returned (the renderer never sends a path); for an armed
 * webhook, `webhookSecret` makes a new secret here or uses the sender's (left out, a kept secret is
 * kept, else one is made).
 */
export const TriggerAnswerSchema = closed({
  armed: Type.Boolean(),
  folderId: Type.Optional(id),
  webhookSecret: Type.Optional(WebhookSecretChoiceSchema),
});
export type TriggerAnswer = Static<typeof TriggerAnswerSchema>;

/**
 * What the person answered, by agent id and trigger id: only what they changed. Anything left out
 * is kept (an update) or takes its default (a first install). Capped by the manifest's own limits.
 */
export const ConsentAnswersSchema = closed({
  agents: mapOf(
    closed({ access: mapOf(AccessAnswerSchema, manifestName, { maxProperties: MAX_ACCESS_PER_AGENT }) }),
    manifestName,
    { maxProperties: MAX_AGENTS },
  ),
  triggers: mapOf(TriggerAnswerSchema, manifestName, { maxProperties: MAX_TRIGGERS }),
});
export type ConsentAnswers = Static<typeof ConsentAnswersSchema>;
