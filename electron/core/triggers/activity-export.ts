/**
 * The activity export a trigger host runs (one host per data folder, so one shipper): started with
 * the host, stopped with it, shipping to the address the organization's policy names
 * (`activityExport.otlp`, DESIGN.md "Managed policy"), read again at most once a minute.
 */
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
): void {
  if (running.has(host)) return;
  // The policy is read again at most once a minute, as the host notices a change (on Windows a read starts `reg.exe`).
  let endpoint: { url: string | null; at: number } | null = null;
  const shipper = new ActivityShipper({
    dataDir: options.dataDir,
    endpoint: () => {
      if (endpoint === null || Date.now() - endpoint.at >= POLICY_LOOK_MS)
        endpoint = { url: readHostPolicy(options.policy).view.effective?.activityExportOtlp ?? null, at: Date.now() };
      return endpoint.url;
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
