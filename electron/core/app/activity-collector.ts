/**
 * The person's collector for the activity record (Settings → Activity record, `activity collector`): the
 * OpenTelemetry address the trigger host ships the record to when the organization's policy names none (DESIGN.md
 * "Activity record": "to an OpenTelemetry collector named by the person or the policy"; `collectorInEffect`).
 * Setting and removing it go through the one store commit with their decision (`collector_set`, `collector_removed`);
 * the same address again, or a removal with none set, writes and records nothing. While the policy names
 * `activityExport.otlp` the person's setting is locked (`policy.collector_locked`), and an unreadable policy locks it too.
 */
import { POLICY_REFUSAL } from '../../../shared/policy/policy';
import type { ActivityCollectorView, ApiRequest } from '../../../shared/contract/api';
import { otlpEndpointProblem } from '../activity/otlp-export';
import { CoreError } from '../errors/index';
import { refuse, usablePolicy } from '../policy/index';
import type { StoreState } from '../store/state';
import { exportViewOf } from './activity-record-view';
import { type ApiContext, policyOf } from './context';

/** The collector in effect, with its status, and the person's own address. */
async function viewOf(ctx: ApiContext, state: StoreState, changed?: boolean): Promise<ActivityCollectorView> {
  const inEffect = await exportViewOf(ctx, state);
  return {
    inEffect,
    yours: state.settings.activityCollector,
    managed: inEffect?.origin === 'organization',
    ...(changed === undefined ? {} : { changed }),
  };
}

/** The collector in effect and the person's own (Api `activityCollector`). */
export async function readActivityCollector(ctx: ApiContext): Promise<ActivityCollectorView> {
  return viewOf(ctx, await ctx.store.read());
}

/** Refuses a change of the person's collector while the organization's policy names one (or cannot be read). */
function lockedByPolicy(ctx: ApiContext, url: string | null): void {
  const policy = usablePolicy(
    policyOf(ctx),
    url === null ? 'The collector for the activity record was not removed' : `The collector ${url} was not set`,
  );
  const organization = policy?.activityExportOtlp ?? null;
  if (organization !== null)
    refuse({
      code: 'policy.collector_locked',
      message: `The activity record is sent to ${organization}, the collector your organization names: yours cannot be set or removed here; ${POLICY_REFUSAL}.`,
    });
}

/**
 * Names the person's collector (`url`), or removes it (`url: null`). The address is checked first
 * (`otlpEndpointProblem`: https, or http to this computer's loopback, no user or password): a refused address, or a
 * policy that names its own, changes and records nothing.
 */
export async function setActivityCollector(
  ctx: ApiContext,
  request: ApiRequest<'setActivityCollector'>,
): Promise<ActivityCollectorView> {
  const { url } = request;
  if (url !== null) {
    const problem = otlpEndpointProblem(url);
    if (problem !== null)
      // The address is not repeated beside the problem: one refused for a user or password would show it.
      throw new CoreError('collector.invalid', `The collector was not set: ${problem}.`);
  }
  lockedByPolicy(ctx, url);
  const { state, changed } = await ctx.store.update(
    (draft) => {
      const before = draft.settings.activityCollector;
      // Already so: nothing to change and nothing to record.
      if (before === url) return { result: { state: draft, changed: false, before }, write: false };
      draft.settings.activityCollector = url;
      return { result: { state: draft, changed: true, before } };
    },
    ({ changed, before }) =>
      !changed
        ? []
        : url !== null
          ? [
              {
                kind: 'collector_set',
                outcome: 'ok',
                detail: `the activity record is sent to ${url}${before === null ? '' : ` (was ${before})`}`,
              },
            ]
          : [
              {
                kind: 'collector_removed',
                outcome: 'ok',
                detail: `the activity record is no longer sent to ${before}`,
              },
            ],
  );
  return viewOf(ctx, state, changed);
}
