/**
 * The dashboard as opened (Api `dashboard`, DESIGN.md "Trust after install"): opening it re-checks
 * the installed files and notices a policy change before the view is built, so what it shows is
 * what holds now.
 */
import { dashboardUnderPolicy, noticePolicyChange } from '../policy/policy-effects';
import { exportViewOf } from './activity-record-view';
import { type ApiContext, policyOf, recordActivity } from './context';
import { verifyInstalled } from './publisher-trust';
import { dashboardOf } from './views';

/**
 * The dashboard, after checking installed files and the organization's policy.
 * The checks record what they find in the activity log, so the dashboard never shows a stale verdict.
 */
export async function openDashboard(ctx: ApiContext) {
  // Opening the dashboard re-checks the installed files, and notices a policy change.
  await verifyInstalled(ctx);
  const state = await ctx.store.read();
  const policy = policyOf(ctx);
  await noticePolicyChange(ctx.deps.dataDir, state, policy, (events) => recordActivity(ctx, events));
  const view = dashboardUnderPolicy(dashboardOf(state, ctx.deps.now()), state, policy);
  // The record's export, as the trigger host last said it: the first screen warns while it fails.
  const exported = await exportViewOf(ctx, state);
  return exported === null ? view : { ...view, activityExport: exported };
}
