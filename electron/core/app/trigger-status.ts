/**
 * What the dashboard shows of live triggers and the Activity view: the trigger
 * host's status as it last wrote it, checked against the host lock (a status file saying "running"
 * from a crashed host is not believed), the runs waiting counted from `runs/pending/` now, and the
 * activity log. Whichever process hosts the triggers (the app, `apollia-desktop serve`), these
 * read the same files.
 */
import type {
  ActivityView,
  ApiRequest,
  SettingsView,
  TriggerLiveView,
  TriggerStatusView,
} from '../../../shared/contract/api';
import { checkedVerdict, exportViewOf } from './activity-record-view';
import { type ApiContext } from './context';
import { own } from '../../../shared/base/own';
import { settingsOf } from './views';
import { hostLockHolder, pendingRuns, readHostStatusFile } from '../triggers';

/** Most events `activity` answers when no limit is asked. */
export const ACTIVITY_DEFAULT_LIMIT = 200;

/** The live status of the data folder's triggers: `running` only when the status's writer still holds the host lock. */
export async function triggerStatus(ctx: ApiContext): Promise<TriggerStatusView> {
  const { dataDir } = ctx.deps;
  const [status, holder, pending] = await Promise.all([
    readHostStatusFile(dataDir),
    hostLockHolder(dataDir),
    pendingRuns(dataDir),
  ]);
  const running = status !== null && status.running === true && holder !== null && holder === status.pid;
  const triggers: Record<string, TriggerLiveView> = Object.create(null);
  for (const [id, t] of Object.entries(status?.triggers ?? {})) {
    triggers[id] = {
      id,
      state: t.state,
      url: t.url,
      folder: t.folder,
      next: t.next,
      problem: t.problem,
      lastFire: t.lastFire ? { at: t.lastFire.at, cause: t.lastFire.cause, outcome: t.lastFire.outcome } : null,
      deliveries: (t.deliveries ?? []).map((d) => ({ at: d.at, status: d.status, reason: d.reason })),
      waiting: pending.byTrigger.get(id) ?? 0,
    };
  }
  // The host in this very process is the app's (or the harness's); any other pid is `serve` or another app.
  const host = running
    ? status.pid === process.pid
      ? { here: true as const }
      : { here: false as const, pid: status.pid }
    : null;
  return {
    running,
    origin: running ? status.origin : null,
    host,
    updatedAt: status?.updatedAt ?? null,
    pending: { total: pending.total, oldest: pending.oldest, byTrigger: Object.fromEntries(pending.byTrigger) },
    triggers,
  };
}

/** The activity log, newest first; for one agent, with its package's events that name no agent. */
export async function activityOf(ctx: ApiContext, request: ApiRequest<'activity'>): Promise<ActivityView> {
  const limit = request?.limit ?? ACTIVITY_DEFAULT_LIMIT;
  const decisionsOnly = request?.decisionsOnly === true;
  const state = await ctx.store.read();
  // The filter offers every agent the record names (removed ones too), and every agent there is now.
  const named = new Set(Object.keys(state.agents));
  for (const event of await ctx.activity.list({})) if (event.agent !== undefined) named.add(event.agent);
  const agents = [...named].sort();
  const verdict = await checkedVerdict(ctx, Object.keys(state.packages).length > 0);
  const exported = await exportViewOf(ctx, state);
  if (request?.agent === undefined)
    return { events: await ctx.activity.list({ limit, decisionsOnly }), agents, verdict, export: exported };
  const agent = own(state.agents, request.agent);
  const pkg = agent?.origin === 'package' ? agent.packageName : undefined;
  return {
    events: await ctx.activity.list({ agent: request.agent, ...(pkg ? { package: pkg } : {}), limit, decisionsOnly }),
    agents,
    verdict,
    export: exported,
  };
}

/** Sets the webhook listener's port (null: the default); a running host re-reads the store and rebinds. */
export async function setWebhookPort(ctx: ApiContext, request: ApiRequest<'setWebhookPort'>): Promise<SettingsView> {
  return ctx.store.update((state) => {
    const write = state.settings.webhookPort !== request.port;
    state.settings.webhookPort = request.port;
    return { result: settingsOf(state, ctx.deps.secretBox.backend()), write };
  });
}
