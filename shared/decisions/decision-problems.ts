/**
 * The problems a decision finds with the person's answers: an answer that cannot be carried out is refused with one of
 * these, never dropped, and the core refuses the request as a whole (its codes are the Api's error codes).
 */

/** A problem with an answer: the answer cannot be carried out (the core refuses it as a whole). */
export interface DecisionProblem {
  code: DecisionProblemCode;
  message: string;
  path: string;
}

/**
 * What kind of problem an answer has.
 *
 * The Api names its refusals by these codes (`shared/contract/api-errors.ts`), so a caller can tell them apart.
 */
export type DecisionProblemCode =
  | 'install.unknown_agent'
  | 'install.unknown_access'
  | 'install.denied_tool'
  | 'install.cannot_allow'
  | 'install.unknown_trigger'
  | 'trigger.secret_not_needed'
  | 'trigger.folder_not_needed'
  | 'trigger.needs_folder'
  | 'policy.blocked_tool'
  | 'policy.unattended'
  | 'policy.trigger_kind';
