/**
 * The OpenTelemetry collector the activity record is shipped to (DESIGN.md "Activity record": "to an OpenTelemetry
 * collector named by the person or the policy"): the organization's policy `activityExport.otlp` wins; else the
 * address the person named in Settings (`settings.activityCollector`); else none. The one rule the trigger host's
 * shipper, the Activity screen, the dashboard's banner, Settings and the CLI all follow.
 */

/** Who named the collector in effect: the organization's policy, or the person. */
export type CollectorOrigin = 'organization' | 'person';

/** The collector in effect and who named it. */
export interface CollectorInEffect {
  url: string;
  origin: CollectorOrigin;
}

/**
 * The collector address in effect: the policy's (`effective.activityExportOtlp`) when it names one, else the
 * person's, else null.
 */
export function collectorInEffect(
  effective: { activityExportOtlp: string | null } | null | undefined,
  person: string | null | undefined,
): CollectorInEffect | null {
  const organization = effective?.activityExportOtlp ?? null;
  if (organization !== null) return { url: organization, origin: 'organization' };
  return person ? { url: person, origin: 'person' } : null;
}

/** Who set the collector, in words ("set by your organization", "set by you"). */
export function collectorOriginWords(origin: CollectorOrigin): string {
  return origin === 'organization' ? 'set by your organization' : 'set by you';
}
