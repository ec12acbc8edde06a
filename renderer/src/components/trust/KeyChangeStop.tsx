import { ShieldAlert, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import type { KeyChange } from '../../../../shared/api';
import type { KeyPin } from '../../../../shared/trust';

function pinWords(pin: KeyPin): string {
  return pin.kind === 'key' ? `key ID ${pin.keyId}` : 'no key (unsigned)';
}

/**
 * An update signed by another key than the one pinned at first install (issue 14 point 4): a stop,
 * not a footnote. The update goes ahead only after the user ticks that they understand and presses
 * a separate button; the install then carries `acceptKeyChange`, and the change is recorded.
 */
export function KeyChangeStop({ change, packageName, onAccept, onCancel }: { change: KeyChange; packageName: string; onAccept: () => void; onCancel: () => void }) {
  const [understood, setUnderstood] = useState(false);
  return (
    <div className="screen">
      <section className="panel panel-error" role="alert" aria-labelledby="key-change-heading">
        <h1 id="key-change-heading">
          <ShieldAlert aria-hidden="true" size={24} /> Stop: this update is signed by a different key
        </h1>
        <p className="refusal">
          {packageName} was installed signed by {pinWords(change.before)}; this update is signed by {pinWords(change.now)}.
        </p>
        <p>A real publisher rarely changes their key. This is what an update made by someone else looks like: someone who took over the name, or who changed the file. Nothing has been installed or changed. Go ahead only if the publisher told you, through a channel you trust, that they changed their key.</p>
        <label className="checkbox-row">
          <input type="checkbox" checked={understood} onChange={(e) => setUnderstood(e.target.checked)} /> I understand that this update is not signed by the key {packageName} was installed with, and I accept the new key.
        </label>
        <div className="button-row">
          <button type="button" className="button button-primary" onClick={onCancel}>
            Don't update
          </button>
          <button type="button" className="button button-danger" disabled={!understood} onClick={onAccept}>
            Accept the new key and review the update
          </button>
        </div>
      </section>
    </div>
  );
}

/** An unsigned package now signed (allowed, issue 14 point 4): said plainly on the update's form. */
export function FirstSignedNote({ change }: { change: KeyChange }) {
  return (
    <p className="panel" data-testid="first-signed-note">
      <ShieldCheck aria-hidden="true" size={16} /> The installed version was unsigned; this update is signed by {pinWords(change.now)}. From now on, updates must be signed by this key.
    </p>
  );
}

/** Shown once an accepted key change is on its way: the user confirmed it on the stop before. */
export function KeyChangeAcceptedNote({ change }: { change: KeyChange }) {
  return (
    <p className="panel panel-warning" data-testid="key-change-accepted-note">
      <ShieldAlert aria-hidden="true" size={16} /> You accepted a new signing key ({pinWords(change.now)}, was {pinWords(change.before)}). Installing records it in the activity log, and later updates must be signed by the new key.
    </p>
  );
}
