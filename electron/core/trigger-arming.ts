/**
 * Arming, disarming and rotating the secret of a trigger (DESIGN.md "Triggers"): what the
 * dashboard's trigger switches do. A file_watch trigger is armed with a folder the user picked; a
 * webhook is armed with a fresh signing secret, sealed in the store and shown once.
 */
import { randomBytes } from 'node:crypto';
import type { ApiRequest, ApiResponse, TriggerView } from '../../shared/api';
import { type ApiContext, own, seal } from './api-context';
import { CoreError } from './errors';
import { disarmTrigger as disarm, setWebhookSecret } from './store/records';
import type { StoreState, TriggerRecord } from './store/state';
import { triggerView } from './store/views';
import { pickedWatchFolder } from './watch-folder';

/** A fresh webhook signing secret: 32 random bytes, in the Standard Webhooks `whsec_` form. */
export function makeWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
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
  let secret: string | null = null;
  let sealedSecret: string | null = null;
  if (current.type === 'webhook') {
    secret = makeWebhookSecret();
    sealedSecret = await seal(ctx, secret);
  }
  return store.update((state) => {
    const trigger = triggerIn(state, request.triggerId);
    if (trigger.type === 'file_watch' && path === null) throw new CoreError('trigger.needs_folder', `trigger \`${trigger.name}\` watches a folder: pick one to arm it`);
    if (trigger.type !== 'file_watch' && path !== null) throw new CoreError('trigger.folder_not_needed', `trigger \`${trigger.name}\` is not a file_watch trigger: it watches no folder`);
    if (trigger.type === 'at' && trigger.at && Date.parse(trigger.at) <= deps.now().getTime()) throw new CoreError('trigger.past', `trigger \`${trigger.name}\` was for ${trigger.at}, which has passed`);
    setWebhookSecret(state, trigger, sealedSecret);
    trigger.armed = true;
    trigger.armedAt = deps.now().toISOString();
    trigger.folder = path;
    return { result: { trigger: triggerView(trigger, deps.now()), webhookSecret: secret } };
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

/** Replaces an armed webhook's secret with a new one, answered once. */
export async function rotateWebhookSecret(ctx: ApiContext, request: ApiRequest<'rotateWebhookSecret'>): Promise<ApiResponse<'armTrigger'>> {
  const { deps, store } = ctx;
  const current = triggerIn(await store.read(), request.triggerId);
  if (current.type !== 'webhook') throw new CoreError('trigger.not_webhook', `trigger \`${current.name}\` is not a webhook: it has no secret`);
  if (!current.armed) throw new CoreError('trigger.not_armed', `trigger \`${current.name}\` is not armed: arm it to make its secret`);
  const secret = makeWebhookSecret();
  const sealedSecret = await seal(ctx, secret);
  return store.update((state) => {
    const trigger = triggerIn(state, request.triggerId);
    if (!trigger.armed) throw new CoreError('trigger.not_armed', `trigger \`${trigger.name}\` is not armed: arm it to make its secret`);
    setWebhookSecret(state, trigger, sealedSecret);
    return { result: { trigger: triggerView(trigger, deps.now()), webhookSecret: secret } };
  });
}
