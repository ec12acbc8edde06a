import { Lock } from 'lucide-react';
import type { Approvals } from '../../../../shared/decisions/apply-context';
import { APPROVALS_ALWAYS, APPROVALS_CHOICES } from '../../../../shared/decisions/approvals-words';

/**
 * How the agent asks (template spec agent.md `approvals`): the template's value is its
 * recommendation, marked beside its choice and never stated as a fact; the choice starts at `ask` (unattended is
 * only ever the person's choice).
 * A radio group: arrow keys move between the two choices.
 */
export function ApprovalsChoiceField({
  recommended,
  chosen,
  hasTriggers,
  lockedNever = null,
  onChoose,
}: {
  recommended: Approvals;
  chosen: Approvals;
  hasTriggers: boolean;
  /** The organization whose policy forbids running unattended: `never` is locked, with its reason. */
  lockedNever?: string | null;
  onChoose: (value: Approvals) => void;
}) {
  return (
    <fieldset className="panel choice-group">
      <legend>
        <strong>How it asks</strong>
      </legend>
      {APPROVALS_CHOICES.map((choice) => {
        const id = `approvals-${choice.value}`;
        return (
          <div key={choice.value} className="choice-row">
            <input
              id={id}
              type="radio"
              name="approvals"
              value={choice.value}
              checked={chosen === choice.value}
              disabled={choice.value === 'never' && lockedNever !== null}
              onChange={() => onChoose(choice.value)}
              aria-describedby={`${id}-detail${choice.value === 'never' && lockedNever !== null ? ` ${id}-locked` : ''}`}
            />
            <label htmlFor={id}>
              {choice.label}
              {choice.value === recommended ? (
                <span className="badge badge-neutral">Recommended by the template</span>
              ) : null}
            </label>
            <p id={`${id}-detail`} className="small muted">
              {choice.detail}
            </p>
            {choice.value === 'never' && lockedNever !== null ? (
              <p id={`${id}-locked`} className="small row-note">
                <Lock aria-hidden="true" size={12} /> Locked by your organization ({lockedNever}): its policy does not
                allow an agent to run without asking.
              </p>
            ) : null}
          </div>
        );
      })}
      <p className="small">{APPROVALS_ALWAYS}</p>
      {chosen === 'ask' && hasTriggers ? (
        <p className="small text-warning">
          Its triggers start runs while you may be away: each run waits for your yes before a tool runs.
        </p>
      ) : null}
    </fieldset>
  );
}
