/**
 * The kinds of the activity record and what a person reads for each (DESIGN.md "Triggers at run
 * time", the activity record's one list). One home for both sides: the core files an entry under
 * its kind's stream, the Activity screen and the CLI say it in words; a kind without words is a
 * type error here, not a raw code on screen.
 */

/**
 * What the person decided, and what changed it without them: kept in their own file, never
 * evicted by traffic. Whoever adds a decision adds its kind here (and to DESIGN.md's list).
 */
export const DECISION_KINDS = [
  'install',
  'update',
  'uninstall',
  'apply',
  'grant',
  'revoke',
  'arm',
  'disarm',
  'pause',
  'resume',
  'approvals_changed',
  'secret_rotated',
  'mcp_server_saved',
  'mcp_server_removed',
  'collector_set',
  'collector_removed',
  'key_trusted',
  'key_removed',
  'key_change_accepted',
  'key_change_refused',
  'runs_discarded',
  'integrity_changed',
  'policy_applied',
  'policy_changed',
  'policy_unreadable',
  'record_keyed',
  'record_broken',
  'traffic_rotated',
  'update_mode_changed',
] as const;

/** What happens to triggers and runs: deliveries, fires, runs, the host. Rotated in bounded files. */
export const TRAFFIC_KINDS = [
  'trigger_fired',
  'delivery_accepted',
  'delivery_refused',
  'run_queued',
  'run_skipped',
  'trigger_problem',
  'host_started',
  'host_stopped',
  'feed_checked',
] as const;

/** A decision's kind. */
export type DecisionKind = (typeof DECISION_KINDS)[number];
/** A traffic entry's kind. */
export type TrafficKind = (typeof TRAFFIC_KINDS)[number];
/** Every kind of entry. */
export type ActivityKind = DecisionKind | TrafficKind;
/** Every kind, for validation of lines read back. */
export const ACTIVITY_KINDS: readonly ActivityKind[] = [...DECISION_KINDS, ...TRAFFIC_KINDS];

/** How it ended: done, refused by a check, skipped by a limit, or failed. */
export type ActivityOutcome = 'ok' | 'refused' | 'skipped' | 'failed';

/** One entry as it is shown (`activity --json`) and as the record stores it. */
export interface ActivityEvent {
  /** ISO 8601 time it was recorded. */
  at: string;
  kind: ActivityKind;
  package?: string;
  agent?: string;
  trigger?: string;
  outcome: ActivityOutcome;
  /** One short line; never a secret or a payload body. */
  detail: string;
}

/** An entry as a writer gives it: `at` defaults to the clock's. */
export type ActivityInput = Omit<ActivityEvent, 'at'> & { at?: string };

/** Whether entries of `kind` are decisions (kept apart, never evicted). */
export function isDecisionKind(kind: string): kind is DecisionKind {
  return (DECISION_KINDS as readonly string[]).includes(kind);
}

/** Each kind in plain words, as the Activity screen and `activity` show it. */
export const ACTIVITY_KIND_WORDS: Record<ActivityKind, string> = {
  install: 'Installed',
  update: 'Updated',
  uninstall: 'Removed',
  apply: 'Made from a template',
  grant: 'Allowed a tool',
  revoke: 'Withdrew a tool',
  arm: 'Armed a trigger',
  disarm: 'Disarmed a trigger',
  pause: 'Paused a trigger',
  resume: 'Resumed a trigger',
  approvals_changed: 'Changed how an agent asks',
  secret_rotated: 'Replaced a webhook secret',
  mcp_server_saved: 'Saved an MCP server',
  mcp_server_removed: 'Removed an MCP server',
  collector_set: 'Named a collector for the activity record',
  collector_removed: 'Removed the collector for the activity record',
  key_trusted: 'Trusted a publisher key',
  key_removed: 'Stopped trusting a publisher key',
  key_change_accepted: 'Accepted a new signing key',
  key_change_refused: "Didn't update: the signing key changed",
  runs_discarded: 'Discarded waiting runs',
  integrity_changed: 'Files changed on disk',
  policy_applied: "Your organization's policy applied",
  policy_changed: "Your organization's policy changed",
  policy_unreadable: "Your organization's policy could not be read",
  record_keyed: 'The activity record was keyed',
  record_broken: 'The activity record was found broken',
  traffic_rotated: 'Older traffic was set aside',
  update_mode_changed: 'Changed how a package updates',
  trigger_fired: 'Trigger fired',
  delivery_accepted: 'Webhook delivery accepted',
  delivery_refused: 'Webhook delivery refused',
  run_queued: 'Run queued',
  run_skipped: 'Run skipped',
  trigger_problem: 'Trigger problem',
  host_started: 'Triggers went live',
  host_stopped: 'Triggers stopped',
  feed_checked: 'Checked a publisher’s feed',
};

/**
 * Entries whose `ok` means a run was queued: a schedule's or a folder's run, and an accepted webhook
 * delivery (recorded once, with the run it queued).
 */
const QUEUES_A_RUN: ReadonlySet<string> = new Set(['run_queued', 'delivery_accepted']);

/** Whether an entry says that a run was queued and waits (nothing has taken it). */
export function runWaits(kind: string, outcome: ActivityOutcome): boolean {
  return outcome === 'ok' && QUEUES_A_RUN.has(kind);
}

/**
 * The outcome in words for an entry of `kind`: "Done" where something was done; a queued run is
 * "Waiting" (nothing has taken it: this app contains no agent runtime).
 */
export function activityOutcomeWords(kind: string, outcome: ActivityOutcome): string {
  if (runWaits(kind, outcome)) return 'Waiting';
  return { ok: 'Done', refused: 'Refused', skipped: 'Skipped', failed: 'Failed' }[outcome] ?? outcome;
}
