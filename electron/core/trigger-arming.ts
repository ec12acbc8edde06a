/**
 * Arming, disarming and rotating the secret of a trigger (DESIGN.md "Triggers"): what the
 * dashboard's trigger switches do. A file_watch trigger is armed with a folder the user picked; a
 * webhook is armed with a signing secret sealed in the store: made here and shown once, or (issue
 * 18) the one its sender gave, checked by `checkWebhookSecret` and never answered back.
 */
import { randomBytes } from 'node:crypto';
import type { ApiRequest, ApiResponse, TriggerView } from '../../shared/api';
import { checkWebhookSecret, type WebhookSecretChoice } from '../../shared/webhook-secret';
import { type ApiContext, own, seal } from './api-context';
import { CoreError } from './errors';
import { disarmTrigger as disarm, type SealedWebhookSecret, setWebhookSecret } from './store/records';
import type { StoreState, TriggerRecord } from './store/state';
import { triggerView } from './store/views';
import { pickedWatchFolder } from './watch-folder';

/** A fresh webhook signing secret: 32 random bytes, in the Standard Webhooks `whsec_` form. */
export function makeWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** A webhook secret ready to record, and the made secret to show once (null for a given one). */
export interface WebhookSecretToKeep {
  kept: SealedWebhookSecret;
  shown: string | null;
}

/**
 * The secret a webhook is armed with (issue 18): made here when `choice` is absent or `make`, else
 * the sender's, checked first (a refusal names what is wrong, never the secret; nothing is sealed
 * or written). Sealed before any store write, exactly as a made one.
 */
export async function webhookSecretFor(ctx: ApiContext, choice: WebhookSecretChoice | undefined, path?: string): Promise<WebhookSecretToKeep> {
  const setAt = ctx.deps.now().toISOString();
  if (choice?.kind === 'given') {
    const checked = checkWebhookSecret(choice.secret);
    if (!checked.ok) throw new CoreError(checked.code, `The secret your sender gave was not kept: ${checked.message}`, path === undefined ? {} : { path });
    return { kept: { sealed: await seal(ctx, checked.secret), origin: 'given', setAt }, shown: null };
  }
  const secret = makeWebhookSecret();
  return { kept: { sealed: await seal(ctx, secret), origin: 'made', setAt }, shown: secret };
}

/** The trigger with this id, or `trigger.unknown`; `agent.archived` when its agent is archived. */
export function triggerIn(state: StoreState, triggerId: string): TriggerRecord {
  const trigger = own(state.triggers, triggerId);
  if (!trigger) throw new CoreError('trigger.unknown', `There is no trigger \`${triggerId}\` on this computer.`);
  if (trigger.agentId && own(state.agents, trigger.agentId)?.archived) throw new CoreError('agent.archived', `The agent of trigger \`${triggerId}\` is archived.`);
  return trigger;
}

/** Arms a trigger: a file_watch with the picked folder, a webhook with a new secret (answered once). */
export async function armTrigger(ctx: ApiContext, request: ApiRequest<'armTrigger'>): Promise<ApiResponse<'armTrigger'>> {
  const { deps, store } = ctx;
  const path = request.folderId !== undefined ? await pickedWatchFolder(ctx.sources.folder(request.folderId), deps.dataDir) : null;
  const current = triggerIn(await store.read(), request.triggerId);
  if (current.type !== 'webhook' && request.webhookSecret !== undefined) throw new CoreError('trigger.secret_not_needed', `trigger \`${current.name}\` is not a webhook: it takes no secret`, { path: 'webhookSecret' });
  const secret = current.type === 'webhook' ? await webhookSecretFor(ctx, request.webhookSecret, 'webhookSecret') : null;
  return store.update((state) => {
    const trigger = triggerIn(state, request.triggerId);
    if (trigger.type === 'file_watch' && path === null) throw new CoreError('trigger.needs_folder', `trigger \`${trigger.name}\` watches a folder: pick one to arm it`);
    if (trigger.type !== 'file_watch' && path !== null) throw new CoreError('trigger.folder_not_needed', `trigger \`${trigger.name}\` is not a file_watch trigger: it watches no folder`);
    if (trigger.type === 'at' && trigger.at && Date.parse(trigger.at) <= deps.now().getTime()) throw new CoreError('trigger.past', `trigger \`${trigger.name}\` was for ${trigger.at}, which has passed`);
    if (trigger.type !== 'webhook' && secret !== null) throw new CoreError('trigger.secret_not_needed', `trigger \`${trigger.name}\` is not a webhook: it takes no secret`, { path: 'webhookSecret' });
    setWebhookSecret(state, trigger, secret?.kept ?? null);
    trigger.armed = true;
    trigger.armedAt = deps.now().toISOString();
    trigger.folder = path;
    return { result: { trigger: triggerView(trigger, deps.now()), webhookSecret: secret?.shown ?? null, webhookSecretGiven: secret?.kept.origin === 'given' } };
  });
}

/** Disarms a trigger; a webhook's secret is deleted. */
export function disarmTrigger(ctx: ApiContext, request: ApiRequest<'disarmTrigger'>): Promise<TriggerView> {
  return ctx.store.update((state) => {
    const trigger = triggerIn(state, request.triggerId);
    disarm(state, trigger);
    return { result: triggerView(trigger, ctx.deps.now()) };
  });
}

/** Replaces an armed webhook's secret with a new one: made here (answered once) or given by the sender (never answered). */
export async function rotateWebhookSecret(ctx: ApiContext, request: ApiRequest<'rotateWebhookSecret'>): Promise<ApiResponse<'armTrigger'>> {
  const { deps, store } = ctx;
  const current = triggerIn(await store.read(), request.triggerId);
  if (current.type !== 'webhook') throw new CoreError('trigger.not_webhook', `trigger \`${current.name}\` is not a webhook: it has no secret`);
  if (!current.armed) throw new CoreError('trigger.not_armed', `trigger \`${current.name}\` is not armed: arm it to make its secret`);
  const secret = await webhookSecretFor(ctx, request.webhookSecret, 'webhookSecret');
  return store.update((state) => {
    const trigger = triggerIn(state, request.triggerId);
    if (!trigger.armed) throw new CoreError('trigger.not_armed', `trigger \`${trigger.name}\` is not armed: arm it to make its secret`);
    setWebhookSecret(state, trigger, secret.kept);
    return { result: { trigger: triggerView(trigger, deps.now()), webhookSecret: secret.shown, webhookSecretGiven: secret.kept.origin === 'given' } };
  });
}
