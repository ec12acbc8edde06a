import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from 'react';

/** The controls of `dialog` a Tab reaches, in order. */
function tabbable(dialog: HTMLElement): HTMLElement[] {
  return [...dialog.querySelectorAll<HTMLElement>('button, [href], input, select, textarea, [tabindex]')].filter(
    (element) => !element.hasAttribute('disabled') && element.tabIndex >= 0,
  );
}

/**
 * Tab and Shift+Tab go round the dialog's own controls: a modal dialog makes the page behind it inert, but past its
 * last control the browser would move the focus out of the page.
 */
function trapTab(event: KeyboardEvent<HTMLDialogElement>): void {
  if (event.key !== 'Tab') return;
  const controls = tabbable(event.currentTarget);
  const first = controls[0];
  const last = controls.at(-1);
  if (!first || !last) return;
  const active = event.currentTarget.ownerDocument.activeElement;
  if (event.shiftKey && (active === first || !event.currentTarget.contains(active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !event.currentTarget.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * A modal confirmation (native <dialog>: focus is trapped, Escape cancels, and closing it gives the focus back to the
 * control that opened it). Cancel has the focus first, so Enter never confirms by accident.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
  busy,
  secondary,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  /** A gentler way out offered beside Cancel (e.g. "Pause instead"): its label and what it does. */
  secondary?: { label: string; onClick: () => void };
}) {
  const ref = useRef<HTMLDialogElement>(null);
  // One id per dialog: a screen holds several (one per row), each named by its own title.
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      onKeyDown={trapTab}
    >
      <h2 id={titleId}>{title}</h2>
      <div>{children}</div>
      <div className="button-row">
        <button type="button" className="button" onClick={onCancel} autoFocus>
          Cancel
        </button>
        {secondary ? (
          <button type="button" className="button" onClick={secondary.onClick} disabled={busy}>
            {secondary.label}
          </button>
        ) : null}
        <button type="button" className="button button-danger" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
