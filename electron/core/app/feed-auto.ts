/**
 * Mode auto (DESIGN.md "Feeds, updates and install links"): an update is applied without asking
 * only when `decide` finds that it asks nothing new — no new or widened access, no changed trigger,
 * no key change — and then through the same inspection and install as any update (the person's
 * earlier answers kept). Anything else waits, as notify, with a notice saying why. Run by the
 * process that holds the trigger host (the app or `serve`), at its feed checks.
 */
import { CoreError } from '../errors/index';
import type { FeedFetch } from '../feeds';
import { type ApiContext, recordActivity } from './context';
import { asksNothingNew, modeOf, openUpdate } from './feed-updates';
import { discardStaged } from './feed-sources';
import { installPackage } from './install-package';
import { whenSandboxed } from './sandbox-refusal';
import { inspectForConsent } from './source-inspection';

/** What mode auto did for one package: applied, or waiting with why. */
export interface AutoUpdateOutcome {
  name: string;
  from: string;
  to: string | null;
  outcome: 'applied' | 'waiting' | 'refused';
  /** Why it waits or was refused, in words; null when applied. */
  notice: string | null;
}

async function autoUpdateOne(
  ctx: ApiContext,
  fetch: FeedFetch,
  name: string,
  from: string,
): Promise<AutoUpdateOutcome | null> {
  let opened: Awaited<ReturnType<typeof openUpdate>>;
  try {
    opened = await openUpdate(ctx, fetch, name);
  } catch (error) {
    if (error instanceof CoreError && error.code === 'update.none') return null;
    if (error instanceof CoreError) return { name, from, to: null, outcome: 'refused', notice: error.message };
    throw error;
  }
  const to = opened.origin.version.version;
  const inspection = await inspectForConsent(ctx, { sourceId: opened.handle.id });
  if (!inspection.ok || inspection.keyChange || !asksNothingNew(inspection.updateDiff))
    await discardStaged(ctx, opened.handle.id);
  if (!inspection.ok)
    return { name, from, to, outcome: 'refused', notice: inspection.errors[0]?.message ?? 'the update was refused' };
  if (inspection.keyChange || !asksNothingNew(inspection.updateDiff))
    return {
      name,
      from,
      to,
      outcome: 'waiting',
      notice: inspection.keyChange
        ? `${name} ${to} is signed by another key: it waits for you`
        : `${name} ${to} asks for more than ${from} (${inspection.updateDiff?.changes.join('; ') || 'its triggers changed'}): it waits for you`,
    };
  try {
    await whenSandboxed(ctx, installPackage)({ sourceId: opened.handle.id, decisions: { agents: {}, triggers: {} } });
  } catch (error) {
    if (error instanceof CoreError) return { name, from, to, outcome: 'refused', notice: error.message };
    throw error;
  } finally {
    await discardStaged(ctx, opened.handle.id);
  }
  return { name, from, to, outcome: 'applied', notice: null };
}

/** Applies every mode-auto package's update that asks nothing new; the others wait, with a notice each. */
export async function applyAutoUpdates(ctx: ApiContext, fetch: FeedFetch): Promise<AutoUpdateOutcome[]> {
  const state = await ctx.store.read();
  const outcomes: AutoUpdateOutcome[] = [];
  for (const name of Object.keys(state.packageUpdates).sort()) {
    if (modeOf(ctx, state, name) !== 'auto') continue;
    const from = state.packages[name]?.version ?? '';
    const outcome = await autoUpdateOne(ctx, fetch, name, from);
    if (outcome) outcomes.push(outcome);
  }
  // What waits for the person, and why, is said in the record (what was applied is recorded by its install).
  await recordActivity(
    ctx,
    outcomes
      .filter((outcome) => outcome.outcome !== 'applied')
      .map((outcome) => ({
        kind: 'feed_checked' as const,
        package: outcome.name,
        outcome: outcome.outcome === 'waiting' ? ('skipped' as const) : ('refused' as const),
        detail: `automatic update of ${outcome.name} not applied: ${outcome.notice ?? 'refused'}`,
      })),
  );
  return outcomes;
}
