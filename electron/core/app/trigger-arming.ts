/**
 * Arming, disarming and rotating the secret of a trigger (DESIGN.md "Triggers"): what the
 * dashboard's trigger switches do. A file_watch trigger is armed with a folder the user picked; a
 * webhook is armed with a signing secret sealed in the store: made here and shown once, or
 * the one its sender gave, checked by `checkWebhookSecret` and never answered back.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ApiRequest, ApiResponse, TriggerView } from '../../../shared/contract/api';
import { checkWebhookSecret, type WebhookSecretChoice } from '../../../shared/triggers/webhook-secret';
import { type ApiContext, policyOf, seal } from './context';
import { own } from '../../../shared/base/own';
import { POLICY_REFUSAL, triggerKindAllowed, triggerKindWords } from '../../../shared/policy/policy';
import { usablePolicy } from '../policy/index';
import { refuseArming } from './arming-checks';
import { CoreError } from '../errors/index';
import { disarmTrigger as disarm, type SealedWebhookSecret, setWebhookSecret } from '../store/records';
import type { StoreState, TriggerRecord } from '../store/state';
import { triggerView } from './views';
import { pickedWatchFolder } from '../triggers/watchable-folder';

/** A fresh webhook signing secret: 32 random bytes, in the Standard Webhooks `whsec_` form. */
export function makeWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** A webhook secret ready to record, and the made secret to show once (null for a given one). */
export interface WebhookSecretToKeep {
  kept: SealedWebhookSecret;
  shown: string | null;
  /** The sender's secret, in memory only, to compare with the other triggers' ({@link sharedSecretWarning}). */
  given: string | null;
}

const secretDigest = (secret: string) => createHash('sha256').update(secret, 'utf8').digest();

/**
 * One signing secret on two triggers: the warning for a secret just set on `triggerId` when other webhook triggers
 * hold the same one, naming them; null when none does. Compared here, on the unsealed values (never answered, never
 * kept in clear); a secret that cannot be opened (a locked keychain) is passed over. A secret made here is 32 random
 * bytes: only a given one is compared.
 */
export async function sharedSecretWarning(ctx: ApiContext, triggerId: string, secret: string): Promise<string | null> {
  const state = await ctx.store.read();
  const wanted = secretDigest(secret);
  const others: TriggerRecord[] = [];
  for (const trigger of Object.values(state.triggers)) {
    if (trigger.id === triggerId || trigger.type !== 'webhook' || trigger.secretRef === null) continue;
    const sealed = own(state.webhookSecrets, trigger.secretRef);
    if (sealed === undefined) continue;
    const opened = await ctx.deps.secretBox.decrypt(Buffer.from(sealed, 'base64')).catch(() => null);
    if (opened !== null && timingSafeEqual(secretDigest(opened), wanted)) others.push(trigger);
  }
  return sharedSecretWords(others.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
}

/**
 * The form's question while a secret is typed: is it already set on another trigger? A secret the check refuses gets
 * no warning (the form says what is wrong with it); nothing is kept or recorded.
 */
export async function webhookSecretShared(
  ctx: ApiContext,
  request: ApiRequest<'webhookSecretShared'>,
): Promise<ApiResponse<'webhookSecretShared'>> {
  const checked = checkWebhookSecret(request.secret);
  if (!checked.ok) return { warning: null };
  return { warning: await sharedSecretWarning(ctx, request.triggerId, checked.secret) };
}

/**
 * What one secret on several triggers does, as the Api answers it and the CLI prints it: the listener verifies a
 * delivery with the secret of the address it reaches (the signature does not cover the address), and the replay store
 * is keyed by the secret, so each delivery is taken once over all of them.
 */
export function sharedSecretWords(others: readonly TriggerRecord[]): string | null {
  if (others.length === 0) return null;
  const named = others.map(
    (t) =>
      `trigger \`${t.id}\`${t.agentId ? ` of agent \`${t.agentId}\`` : t.packageName ? ` of package \`${t.packageName}\`` : ''}`,
  );
  const list = named.length === 1 ? named[0] : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
  const them = others.length === 1 ? 'the other' : 'the others';
  return `This secret is also set on ${list}: a delivery signed for one is accepted by ${them} too (the signature does not cover the address), and each delivery only once over all of them, since replays are refused per secret. Give each trigger its own secret.`;
}

/**
 * The secret a webhook is armed with: made here when `choice` is absent or `make`, else
 * the sender's, checked first (a refusal names what is wrong, never the secret; nothing is sealed
 * or written). Sealed before any store write, exactly as a made one.
 */
export async function webhookSecretFor(
  ctx: ApiContext,
  choice: WebhookSecretChoice | undefined,
  path?: string,
): Promise<WebhookSecretToKeep> {
  const setAt = ctx.deps.now().toISOString();
  if (choice?.kind === 'given') {
    const checked = checkWebhookSecret(choice.secret);
    if (!checked.ok)
      throw new CoreError(
        checked.code,
        `The secret your sender gave was not kept: ${checked.message}`,
        path === undefined ? {} : { path },
      );
    return {
      kept: { sealed: await seal(ctx, checked.secret), origin: 'given', setAt },
      shown: null,
      given: checked.secret,
    };
  }
  const secret = makeWebhookSecret();
  return { kept: { sealed: await seal(ctx, secret), origin: 'made', setAt }, shown: secret, given: null };
}

/** The trigger with this id, or `trigger.unknown`; `agent.archived` when its agent is archived. */
export function triggerIn(state: StoreState, triggerId: string): TriggerRecord {
  const trigger = own(state.triggers, triggerId);
  if (!trigger) throw new CoreError('trigger.unknown', `There is no trigger \`${triggerId}\` on this computer.`);
  if (trigger.agentId && own(state.agents, trigger.agentId)?.archived)
    throw new CoreError('agent.archived', `The agent of trigger \`${triggerId}\` is archived.`);
  return trigger;
}

/**
 * What an `arm` event says: the folder watched, or where a webhook's secret came from (made here, or given by its
 * sender).
 */
export function armedWords(type: string, folder: string | null, secret: 'made' | 'given' = 'made'): string {
  if (type === 'file_watch') return `armed: watches ${folder ?? 'a folder'}`;
  if (type === 'webhook')
    return secret === 'given'
      ? 'armed: webhook, with the signing secret its sender gave'
      : 'armed: webhook, a new signing secret was made';
  if (type === 'at') return 'armed: runs once, at its date';
  return 'armed: runs on its schedule';
}

/** Who an activity event of this trigger is about. */
function whoOf(trigger: TriggerRecord): { package?: string; agent?: string; trigger: string } {
  return {
    ...(trigger.packageName ? { package: trigger.packageName } : {}),
    ...(trigger.agentId ? { agent: trigger.agentId } : {}),
    trigger: trigger.id,
  };
}

/**
 * Arms a trigger: a file_watch with the picked folder, a webhook with a new secret (answered once); recorded as `arm`.
 */
export async function armTrigger(
  ctx: ApiContext,
  request: ApiRequest<'armTrigger'>,
): Promise<ApiResponse<'armTrigger'>> {
  const { deps, store } = ctx;
  // The organization's policy: unreadable, nothing is armed; a kind of trigger it does not allow is refused.
  const policy = usablePolicy(policyOf(ctx), `trigger \`${request.triggerId}\` was not armed`);
  const kind = triggerIn(await store.read(), request.triggerId).type;
  if (!triggerKindAllowed(policy, kind))
    throw new CoreError(
      'policy.trigger_kind',
      `trigger \`${request.triggerId}\` cannot be armed: your organization does not allow ${triggerKindWords(kind)} triggers; ${POLICY_REFUSAL}.`,
    );
  const path =
    request.folderId !== undefined ? await pickedWatchFolder(ctx.sources.folder(request.folderId), deps.dataDir) : null;
  const current = triggerIn(await store.read(), request.triggerId);
  if (current.type !== 'webhook' && request.webhookSecret !== undefined)
    throw new CoreError(
      'trigger.secret_not_needed',
      `trigger \`${current.name}\` is not a webhook: it takes no secret`,
      { path: 'webhookSecret' },
    );
  const secret =
    current.type === 'webhook' ? await webhookSecretFor(ctx, request.webhookSecret, 'webhookSecret') : null;
  const { answer } = await store.update(
    (state) => {
      const trigger = triggerIn(state, request.triggerId);
      // Arming's checks, the ones Resume makes too: a changed package, one the policy withholds, a date passed.
      refuseArming(state, policy, trigger, `trigger \`${trigger.name}\` was not armed`, deps.now());
      if (trigger.type === 'file_watch' && path === null)
        throw new CoreError('trigger.needs_folder', `trigger \`${trigger.name}\` watches a folder: pick one to arm it`);
      if (trigger.type !== 'file_watch' && path !== null)
        throw new CoreError(
          'trigger.folder_not_needed',
          `trigger \`${trigger.name}\` is not a file_watch trigger: it watches no folder`,
        );
      if (trigger.type !== 'webhook' && secret !== null)
        throw new CoreError(
          'trigger.secret_not_needed',
          `trigger \`${trigger.name}\` is not a webhook: it takes no secret`,
          { path: 'webhookSecret' },
        );
      setWebhookSecret(state, trigger, secret?.kept ?? null);
      trigger.armed = true;
      trigger.armedAt = deps.now().toISOString();
      // Arming again lifts the person's own pause: what they armed now fires.
      trigger.pausedAt = null;
      trigger.folder = path;
      return {
        result: {
          answer: {
            trigger: triggerView(trigger, deps.now()),
            webhookSecret: secret?.shown ?? null,
            webhookSecretGiven: secret?.kept.origin === 'given',
            webhookSecretSharedWarning: null as string | null,
          },
          who: whoOf(trigger),
        },
      };
    },
    ({ answer, who }) => [
      {
        kind: 'arm',
        ...who,
        outcome: 'ok',
        detail: armedWords(answer.trigger.type, path, secret?.kept.origin ?? 'made'),
      },
    ],
  );
  if (secret?.given)
    answer.webhookSecretSharedWarning = await sharedSecretWarning(ctx, request.triggerId, secret.given);
  return answer;
}

/** Disarms a trigger; a webhook's secret is deleted. Recorded as `disarm` when it was armed. */
export async function disarmTrigger(ctx: ApiContext, request: ApiRequest<'disarmTrigger'>): Promise<TriggerView> {
  const { view } = await ctx.store.update(
    (state) => {
      const trigger = triggerIn(state, request.triggerId);
      const was = trigger.armed;
      const who = whoOf(trigger);
      disarm(state, trigger);
      return { result: { view: triggerView(trigger, ctx.deps.now()), was, who } };
    },
    ({ view, was, who }) =>
      was
        ? [
            {
              kind: 'disarm',
              ...who,
              outcome: 'ok',
              detail: view.type === 'webhook' ? 'disarmed; its signing secret was deleted' : 'disarmed',
            },
          ]
        : [],
  );
  return view;
}

/**
 * Replaces an armed webhook's secret with a new one: made here (answered once) or given by the sender (never answered).
 */
export async function rotateWebhookSecret(
  ctx: ApiContext,
  request: ApiRequest<'rotateWebhookSecret'>,
): Promise<ApiResponse<'armTrigger'>> {
  const { deps, store } = ctx;
  const current = triggerIn(await store.read(), request.triggerId);
  if (current.type !== 'webhook')
    throw new CoreError('trigger.not_webhook', `trigger \`${current.name}\` is not a webhook: it has no secret`);
  if (!current.armed)
    throw new CoreError('trigger.not_armed', `trigger \`${current.name}\` is not armed: arm it to make its secret`);
  const secret = await webhookSecretFor(ctx, request.webhookSecret, 'webhookSecret');
  const words =
    secret.kept.origin === 'given'
      ? 'replaced by the signing secret its sender gave; the old one no longer signs'
      : 'a new signing secret was made; the old one no longer signs';
  const { answer } = await store.update(
    (state) => {
      const trigger = triggerIn(state, request.triggerId);
      if (!trigger.armed)
        throw new CoreError('trigger.not_armed', `trigger \`${trigger.name}\` is not armed: arm it to make its secret`);
      setWebhookSecret(state, trigger, secret.kept);
      return {
        result: {
          answer: {
            trigger: triggerView(trigger, deps.now()),
            webhookSecret: secret.shown,
            webhookSecretGiven: secret.kept.origin === 'given',
            webhookSecretSharedWarning: null as string | null,
          },
          who: whoOf(trigger),
        },
      };
    },
    ({ who }) => [{ kind: 'secret_rotated', ...who, outcome: 'ok', detail: words }],
  );
  if (secret.given) answer.webhookSecretSharedWarning = await sharedSecretWarning(ctx, request.triggerId, secret.given);
  return answer;
}
