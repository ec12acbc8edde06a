import { ShieldAlert, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import type { KeyChange, SignatureVerdict } from '../../../../shared/contract/api';
import type { KeyPin } from '../../../../shared/trust/trust';
import type { UpdateDiff } from '../../../../shared/decisions/update-diff';
import { signatureVerdictWords } from '../../../../shared/trust/signature-verdict';
import { UpdateChanges } from '../../screens/apo/UpdateChanges';
import { PackageText } from '../PackageText';

/** A pinned or new key as the person knows it: the name they gave it, else its id. */
function keyWords(pin: KeyPin, name: string | null, trusted: boolean): string {
  if (pin.kind === 'unsigned') return 'no key (unsigned)';
  if (name !== null) return `the key you ${trusted ? 'trust' : 'trusted'} as “${name}” (key ID ${pin.keyId})`;
  return pin.kind === 'claimed_key' ? `a key you don't know (key ID ${pin.keyId})` : `key ID ${pin.keyId}`;
}

const HEADINGS: Record<KeyChange['change'], string> = {
  other_key: 'Stop: this update is signed by a different key',
  dropped: 'Stop: this update is not signed, but the version you have was',
  unverifiable_pin: 'Stop: this update’s key cannot be matched with the one you installed',
  first_signed: 'This update is signed for the first time',
};

/**
 * An update whose signature does not keep the key pinned at first install (another key, a
 * signature dropped, or a pin that cannot be matched): a stop, not a footnote (DESIGN.md "Trust
 * after install"). One screen holds everything the update changes — the keys by the names the
 * person gave them, the publisher-name change, new access and changed triggers — before any accept
 * button. "Don't update" and "accept" are both recorded.
 */
export function KeyChangeStop({
  change,
  verdict,
  packageName,
  diff,
  installedVersion,
  onAccept,
  onCancel,
}: {
  change: KeyChange;
  verdict: SignatureVerdict | null;
  packageName: string;
  diff: UpdateDiff | null;
  installedVersion: string | null;
  onAccept: () => void;
  onCancel: () => void;
}) {
  const [understood, setUnderstood] = useState(false);
  const words = verdict ? signatureVerdictWords(verdict) : null;
  const accept =
    change.change === 'dropped'
      ? 'I understand that this update is not signed, and I accept installing it without a signature.'
      : `I understand that this update is not signed by the key ${packageName} was installed with, and I accept the new key.`;
  return (
    <div className="screen">
      <section className="panel panel-error" role="alert" aria-labelledby="key-change-heading">
        <h1 id="key-change-heading">
          <ShieldAlert aria-hidden="true" size={24} /> {HEADINGS[change.change]}
        </h1>
        <dl className="facts" aria-label="Signing keys">
          <dt>The version you have was signed by</dt>
          <dd>
            <strong>
              <PackageText text={keyWords(change.before, change.beforeName, change.beforeTrusted)} />
            </strong>
            {change.beforeName !== null && !change.beforeTrusted
              ? ' — you have since removed it from your trusted publishers'
              : ''}
          </dd>
          <dt>This update is signed by</dt>
          <dd>
            <strong>
              <PackageText text={keyWords(change.now, change.nowName, true)} />
            </strong>
          </dd>
        </dl>
        {words?.updateNote ? (
          <p data-signature-update={change.change}>
            <PackageText text={words.updateNote} />
          </p>
        ) : null}
        {words ? (
          <p className="small">
            <span className="badge badge-warning-soft" data-publisher-state={words.state}>
              <PackageText text={words.label} />
            </span>{' '}
            <PackageText text={words.explanation} />
          </p>
        ) : null}
        {words?.namesNote ? (
          <p className="panel panel-warning">
            <PackageText text={words.namesNote} />
          </p>
        ) : null}
        <p>
          A real publisher rarely changes their key or stops signing. This is what an update made by someone else looks
          like: someone who took over the name, or who changed the file. Nothing has been installed or changed. Go ahead
          only if the publisher told you, through a channel you trust, why.
        </p>
      </section>
      {diff && installedVersion ? (
        <section aria-labelledby="key-change-what-changes">
          <h2 id="key-change-what-changes">What else this update changes</h2>
          <UpdateChanges
            diff={diff}
            installedVersion={installedVersion}
            decisions={null}
            signed={verdict?.signature.state === 'verified'}
          />
        </section>
      ) : null}
      <section className="panel panel-error" aria-label="Your answer">
        <label className="checkbox-row">
          <input type="checkbox" checked={understood} onChange={(e) => setUnderstood(e.target.checked)} /> {accept}
        </label>
        <div className="button-row">
          <button type="button" className="button button-primary" onClick={onCancel}>
            Don't update
          </button>
          <button type="button" className="button button-danger" disabled={!understood} onClick={onAccept}>
            {change.change === 'dropped'
              ? 'Accept the unsigned update and review it'
              : 'Accept the new key and review the update'}
          </button>
        </div>
      </section>
    </div>
  );
}

/** An unsigned package now signed (allowed): said plainly on the update's form. */
export function FirstSignedNote({ change }: { change: KeyChange }) {
  return (
    <p className="panel" data-testid="first-signed-note">
      <ShieldCheck aria-hidden="true" size={16} /> The installed version was unsigned; this update is signed by{' '}
      <PackageText text={keyWords(change.now, change.nowName, true)} />. From now on, updates must be signed by this
      key.
    </p>
  );
}

/** Shown once an accepted key change is on its way: the user confirmed it on the stop before. */
export function KeyChangeAcceptedNote({ change }: { change: KeyChange }) {
  const what =
    change.change === 'dropped'
      ? 'an update without a signature'
      : `a new signing key (${keyWords(change.now, change.nowName, true)}, was ${keyWords(change.before, change.beforeName, change.beforeTrusted)})`;
  return (
    <p className="panel panel-warning" data-testid="key-change-accepted-note">
      <ShieldAlert aria-hidden="true" size={16} /> You accepted <PackageText text={what} />. Installing records it in
      the activity log{change.change === 'dropped' ? '.' : ', and later updates must be signed by the new key.'}
    </p>
  );
}
