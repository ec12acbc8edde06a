/** The kinds of trigger a policy allows or not: one list the policy's schema and its evaluation share. */

/**
 * The kinds of trigger a policy allows or not: `schedule` covers package cron and interval, and template schedules and
 * dates.
 */
export const POLICY_TRIGGER_KINDS = ['schedule', 'file_watch', 'webhook'] as const;
export type PolicyTriggerKind = (typeof POLICY_TRIGGER_KINDS)[number];
