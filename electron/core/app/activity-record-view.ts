/**
 * What the Activity view says of the record itself (DESIGN.md "Triggers at run time", the record's
 * paragraph): the verdict of its check — a break found here is recorded as a `record_broken`
 * decision, once per break, so it stays in the record whatever is written after it — and its export
 * to the collector in effect (the policy's `activityExport.otlp`, else the person's, `collectorInEffect`; shipped by
 * the trigger host), with the counts the host last wrote.
 */
import { collectorInEffect } from '../../../shared/activity/collector';
import type { ActivityExportView, ActivityVerdict } from '../../../shared/contract/api';
import type { StoreState } from '../store/state';
import { readExportStatus } from '../activity/activity-shipper';
import { otlpEndpointProblem } from '../activity/otlp-export';
import { recordVerdict } from '../activity/record-words';
import { type ApiContext, policyOf, recordActivity } from './context';

/** The words a break found by this check is recorded with. */
export const VIEW_BREAK_PREFIX = 'found by the Activity view’s check';

/**
 * The record checked now (`expectRecord`: the store holds packages, so an empty record was deleted).
 * A break not recorded yet by this check is recorded (after the check: the verdict is the record's
 * as it was found).
 */
export async function checkedVerdict(ctx: ApiContext, expectRecord: boolean): Promise<ActivityVerdict> {
  const report = await ctx.activity.verify({ expectRecord });
  const { intact, summary, breakKind, recordedBreaks } = recordVerdict(report);
  if (!intact) {
    const detail = ctx.activity.clean({
      kind: 'record_broken',
      outcome: 'failed',
      detail: `${VIEW_BREAK_PREFIX}: ${summary}`,
    }).detail;
    if (!report.recordedBreaks.some((e) => e.detail === detail))
      await recordActivity(ctx, [{ kind: 'record_broken', outcome: 'failed', detail }]);
  }
  return { intact, summary, breakKind, recordedBreaks };
}

/**
 * The export to the collector in effect (the policy's, else the one the person named in `state`), as the trigger host
 * last said it; null when none is named.
 */
export async function exportViewOf(ctx: ApiContext, state: StoreState): Promise<ActivityExportView | null> {
  const collector = collectorInEffect(policyOf(ctx).effective, state.settings.activityCollector);
  if (collector === null) return null;
  const { url, origin } = collector;
  const status = await readExportStatus(ctx.deps.dataDir);
  const same = status?.url === url ? status : null;
  return {
    url,
    origin,
    sent: same?.sent ?? 0,
    failed: same?.failed ?? 0,
    failedBatches: same?.failedBatches ?? 0,
    lastError: same?.lastError ?? null,
    lastFailureAt: same?.lastFailureAt ?? null,
    lastSentAt: same?.lastSentAt ?? null,
    problem: otlpEndpointProblem(url),
  };
}
