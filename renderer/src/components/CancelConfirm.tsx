import { useEffect, useRef } from 'react';

/**
 * The question a guided flow asks when Cancel is pressed after something was chosen:
 * keep going, or close and forget the answers. "Keep going" takes the focus when it
 * appears, so Enter or Escape-then-Tab never closes by accident.
 */
export function CancelConfirm({
  question,
  closeLabel,
  onKeepGoing,
  onClose,
}: {
  question: string;
  closeLabel: string;
  onKeepGoing: () => void;
  onClose: () => void;
}) {
  const keepGoing = useRef<HTMLButtonElement>(null);
  useEffect(() => keepGoing.current?.focus(), []);
  return (
    <div className="panel panel-warning cancel-confirm" role="group" aria-labelledby="cancel-question">
      <p id="cancel-question">{question}</p>
      <div className="button-row">
        <button ref={keepGoing} type="button" className="button" onClick={onKeepGoing}>
          Keep going
        </button>
        <button type="button" className="button button-danger-soft" onClick={onClose}>
          {closeLabel}
        </button>
      </div>
    </div>
  );
}
