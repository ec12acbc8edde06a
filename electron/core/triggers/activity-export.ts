/**
 * The activity export a trigger host runs (one host per data folder, so one shipper): started with
 * the host, stopped with it, shipping to the collector in effect (`collectorInEffect`): the address the
 * organization's policy names (`activityExport.otlp`, DESIGN.md "Managed policy"), read again at most once a
 * minute, else the one the person named in Settings (`settings.activityCollector`, as the host last read the store).
 */
import { collectorInEffect } from '../../../shared/activity/collector';
import { readHostPolicy } from '../policy/policy-effects';
import type { PolicyLocations } from '../policy/read-policy';
import { ActivityShipper } from '../activity/activity-shipper';

const running = new WeakMap<object, ActivityShipper>();

/** How long the collector's address, once read from the policy, is used before the policy is read again (ms). */
export const POLICY_LOOK_MS = 60_000;

/** Starts shipping the record of `options.dataDir` for `host` (its lifetime's key). */
export function startActivityExport(
  host: object,
  options: { dataDir: string; policy?: PolicyLocations; onLine?: (line: string) => void },
  /** The collector the person named, as the host last read the store (null: none). */
  personCollector: () => string | null = () => null,
): void {
  if (running.has(host)) return;
  // The policy is read again at most once a minute, as the host notices a change (on Windows a read starts `reg.exe`).
  let policy: { effective: { activityExportOtlp: string | null } | null; at: number } | null = null;
  const shipper = new ActivityShipper({
    dataDir: options.dataDir,
    endpoint: () => {
      if (policy === null || Date.now() - policy.at >= POLICY_LOOK_MS)
        policy = { effective: readHostPolicy(options.policy).view.effective, at: Date.now() };
      return collectorInEffect(policy.effective, personCollector())?.url ?? null;
    },
    line: (text) => options.onLine?.(text),
  });
  running.set(host, shipper);
  shipper.start();
}

/** Stops `host`'s shipper: what is queued is sent (within the exporter's timeout), the counts written. */
export async function stopActivityExport(host: object): Promise<void> {
  const shipper = running.get(host);
  running.delete(host);
  await shipper?.stop();
}
