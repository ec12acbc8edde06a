import { ArrowLeft, X } from 'lucide-react';
import { useEffect, useId, useRef, type ReactNode } from 'react';

/** The progress indicator of a wizard: an ordered list, the current step marked `aria-current="step"`. */
export function StepList({ steps, current, label }: { steps: readonly string[]; current: number; label: string }) {
  return (
    <ol className="steps" aria-label={label}>
      {steps.map((step, i) => (
        <li
          key={step}
          className={i === current ? 'step step-current' : i < current ? 'step step-done' : 'step'}
          aria-current={i === current ? 'step' : undefined}
        >
          <span className="step-number" aria-hidden="true">
            {i + 1}
          </span>{' '}
          {step}
          {i < current ? <span className="visually-hidden"> (done)</span> : null}
        </li>
      ))}
    </ol>
  );
}

/** A step's heading; it takes focus when the step changes so keyboard and screen-reader users follow. */
export function StepHeading({ children, stepKey }: { children: ReactNode; stepKey: string | number }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    ref.current?.focus();
  }, [stepKey]);
  return (
    <h2 ref={ref} tabIndex={-1} className="step-heading">
      {children}
    </h2>
  );
}

/**
 * The current step of a guided form: the progress list, then a section headed "Step N of M: …"
 * (the heading takes focus when the step changes), holding the step's content.
 */
export function WizardStep({
  steps,
  current,
  label,
  heading,
  children,
}: {
  steps: readonly string[];
  current: number;
  label: string;
  heading: ReactNode;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <>
      <StepList steps={steps} current={current} label={label} />
      <section className="wizard-step" aria-labelledby={headingId}>
        <StepHeading stepKey={current}>
          <span id={headingId}>
            Step {current + 1} of {steps.length}: {heading}
          </span>
        </StepHeading>
        {children}
      </section>
    </>
  );
}

/**
 * The first two actions of a guided form's step bar: Back (not on the first step) and Cancel, both
 * disabled while the form's action is under way. The caller adds what goes forward.
 */
export function BackAndCancel({
  step,
  busy,
  onStep,
  onCancel,
}: {
  step: number;
  busy: boolean;
  onStep: (step: number) => void;
  onCancel: () => void;
}) {
  return (
    <>
      <button type="button" className="button" disabled={step === 0 || busy} onClick={() => onStep(step - 1)}>
        <ArrowLeft aria-hidden="true" size={16} /> Back
      </button>
      <button type="button" className="button wizard-cancel" disabled={busy} onClick={onCancel}>
        <X aria-hidden="true" size={16} /> Cancel
      </button>
    </>
  );
}
