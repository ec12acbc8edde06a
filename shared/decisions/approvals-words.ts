/**
 * The words for a template agent's approvals (template spec, agent.md `approvals`: `ask`, the
 * default, "the agent asks its person before a tool runs"; `never`, "it runs unattended"; "deny
 * settings and pins hold either way"). One home for them: the apply form, its review, the
 * dashboard and the CLI say the same thing.
 */
import type { Approvals } from './apply-context';

/** One choice of the apply form: its label and what it means. */
export interface ApprovalsChoice {
  value: Approvals;
  label: string;
  detail: string;
}

/** The two choices, `ask` first (the spec's default). */
export const APPROVALS_CHOICES: readonly ApprovalsChoice[] = [
  {
    value: 'ask',
    label: approvalsLabel('ask'),
    detail: 'Each time the agent wants to use a tool, it waits for your yes.',
  },
  {
    value: 'never',
    label: approvalsLabel('never'),
    detail: 'The tools it is given run without asking you; a pinned tool runs only as pinned.',
  },
];

/** The label of a choice, as the apply form shows it. */
export function approvalsLabel(approvals: Approvals): string {
  return approvals === 'never' ? 'Run unattended' : 'Ask me before a tool runs';
}

/** What holds whichever is chosen (spec: "Deny settings and pins hold either way"). */
export const APPROVALS_ALWAYS = 'Tools you never allow and pins hold either way.';

/** The approvals in a few words, for the dashboard and the CLI. */
export function approvalsSummary(approvals: Approvals): string {
  return approvals === 'never'
    ? 'runs unattended: the tools it is given run without asking'
    : 'asks you before a tool runs';
}

/** How the built-in tools the agent is given (or one of them: `it`) behave under these approvals. */
export function builtinToolUse(approvals: Approvals, tools: 'them' | 'it' = 'them'): string {
  return approvals === 'never' ? `it may use ${tools} without asking` : 'it asks you before each use';
}
