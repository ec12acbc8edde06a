import { FileKey, Lock, ShieldCheck, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTrustedKeys, useTrustKey, useTrustKeyFromFile, useUntrustKey } from '../../../api/hooks';
import type { TrustedKeyView } from '../../../../shared/api';
import { PackageText } from '../PackageText';
import { ErrorPanel, Loading } from '../Status';

/**
 * The form that adds a trusted key: a name, and the key pasted (the `.pub` file's text or its
 * `RWQ…` line) or picked as a file in a main-process dialog (the renderer never sends a path).
 * `idPrefix` keeps ids unique where the form appears twice (Settings, a package's Overview).
 */
export function TrustKeyForm({
  idPrefix,
  expectedKeyId,
  onTrusted,
}: {
  idPrefix: string;
  expectedKeyId?: string;
  onTrusted?: () => void;
}) {
  const trust = useTrustKey();
  const fromFile = useTrustKeyFromFile();
  const [name, setName] = useState('');
  const [publicKey, setPublicKey] = useState('');
  const done = () => {
    setName('');
    setPublicKey('');
    onTrusted?.();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '' || publicKey.trim() === '') return;
    trust.mutate({ publicKey, name }, { onSuccess: done });
  };
  return (
    <form onSubmit={submit} className="form" aria-label="Trust a publisher's key">
      <div className="field">
        <label htmlFor={`${idPrefix}-name`}>Publisher name (what the key will be shown as)</label>
        <input
          id={`${idPrefix}-name`}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            trust.reset();
            fromFile.reset();
          }}
          autoComplete="off"
          maxLength={80}
        />
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-key`}>Public key (paste the .pub file or its line starting with RW)</label>
        <textarea
          id={`${idPrefix}-key`}
          value={publicKey}
          onChange={(e) => {
            setPublicKey(e.target.value);
            trust.reset();
          }}
          rows={2}
          spellCheck={false}
          autoComplete="off"
        />
        <p className="hint">
          Get the key from the publisher through a channel you already trust (their website, in person)
          {expectedKeyId ? `: its key ID must be ${expectedKeyId}` : ''}. Anyone can make a key and call it anything:
          trust only a key you know is theirs.
        </p>
      </div>
      <div className="actions">
        <button
          type="submit"
          className="button button-primary"
          disabled={trust.isPending || name.trim() === '' || publicKey.trim() === ''}
        >
          <ShieldCheck aria-hidden="true" size={16} /> Trust this key
        </button>
        <button
          type="button"
          className="button"
          disabled={fromFile.isPending || name.trim() === ''}
          onClick={() => fromFile.mutate({ name }, { onSuccess: (keys) => keys && done() })}
        >
          <FileKey aria-hidden="true" size={16} /> Choose a key file…
        </button>
      </div>
      {trust.isError ? <ErrorPanel error={trust.error} title="The key was not trusted" /> : null}
      {fromFile.isError ? <ErrorPanel error={fromFile.error} title="The key was not trusted" /> : null}
    </form>
  );
}

/**
 * Removing a trusted key: asked first, naming the installed packages pinned to it (their pins stay:
 * DESIGN.md "Trust after install", removing a trusted key never weakens a pin).
 */
function RemoveKeyConfirm({
  trustedKey,
  pending,
  onRemove,
  onKeep,
}: {
  trustedKey: TrustedKeyView;
  pending: boolean;
  onRemove: () => void;
  onKeep: () => void;
}) {
  const pinned = trustedKey.pinnedPackages;
  return (
    <div
      className="panel panel-warning"
      role="alertdialog"
      aria-labelledby="remove-key-heading"
      aria-describedby="remove-key-what"
    >
      <h3 id="remove-key-heading">
        Remove the key you trust as “<PackageText text={trustedKey.name} />
        ”?
      </h3>
      <div id="remove-key-what">
        <p>
          Key ID <code>{trustedKey.keyId}</code>. Packages signed by it will show as signed by a key you don't know.
          Nothing installed is removed.
        </p>
        {pinned.length === 0 ? (
          <p>No installed package is pinned to this key.</p>
        ) : (
          <>
            <p>
              These installed packages are pinned to this key. They stay pinned: an update must still be signed by this
              very key, or you are asked to accept a key change.
            </p>
            <ul aria-label="Installed packages pinned to this key">
              {pinned.map((name) => (
                <li key={name}>
                  <PackageText text={name} />
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
      <div className="button-row">
        <button type="button" className="button" onClick={onKeep}>
          Keep the key
        </button>
        <button type="button" className="button button-danger" disabled={pending} onClick={onRemove}>
          <Trash2 aria-hidden="true" size={14} /> Remove the key
        </button>
      </div>
    </div>
  );
}

/** Settings → Trusted publishers: the keys whose signatures make a package verified. */
export function TrustedPublishersSection() {
  const keys = useTrustedKeys();
  const untrust = useUntrustKey();
  const [confirming, setConfirming] = useState<string | null>(null);
  const asked = keys.data?.find((key) => key.keyId === confirming) ?? null;
  return (
    <section aria-labelledby="trusted-publishers-heading">
      <h2 id="trusted-publishers-heading">
        <ShieldCheck aria-hidden="true" size={20} /> Trusted publishers
      </h2>
      <p className="muted">
        A package signed (with minisign) by one of these keys shows as verified, with the name you gave the key.
        Removing a key does not remove anything installed, and packages pinned to it stay pinned.
      </p>
      {keys.isPending ? <Loading label="Loading trusted keys…" /> : null}
      {keys.isError ? <ErrorPanel error={keys.error} title="The trusted keys could not be loaded" /> : null}
      {keys.data?.length === 0 ? <p className="muted">You trust no publisher key yet.</p> : null}
      <ul className="rows" aria-label="Trusted publisher keys">
        {keys.data?.map((key) => (
          <li key={key.keyId} className="row">
            <strong>
              <PackageText text={key.name} />
            </strong>{' '}
            <span className="small">
              key ID <code>{key.keyId}</code>
              {key.pinnedPackages.length > 0
                ? ` · pinned by ${key.pinnedPackages.length === 1 ? '1 installed package' : `${key.pinnedPackages.length} installed packages`}`
                : ''}
            </span>
            {key.managed ? (
              <span className="badge">
                <Lock aria-hidden="true" size={12} /> Trusted by your organization
              </span>
            ) : (
              <button
                type="button"
                className="button button-small button-danger-soft"
                disabled={untrust.isPending}
                aria-label={`Remove the key of ${key.name}`}
                onClick={() => {
                  untrust.reset();
                  setConfirming(key.keyId);
                }}
              >
                <Trash2 aria-hidden="true" size={14} /> Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      {asked ? (
        <RemoveKeyConfirm
          trustedKey={asked}
          pending={untrust.isPending}
          onKeep={() => setConfirming(null)}
          onRemove={() => untrust.mutate({ keyId: asked.keyId }, { onSuccess: () => setConfirming(null) })}
        />
      ) : null}
      {untrust.isError ? <ErrorPanel error={untrust.error} title="The key was not removed" /> : null}
      <h3>Add a key</h3>
      <TrustKeyForm idPrefix="settings-trust" />
    </section>
  );
}

/**
 * On a package signed by a key the user does not know: "Trust this publisher's key", a separate,
 * deliberate act. The signature holds only the key's ID, so the user must supply the key itself.
 */
export function TrustKeyOffer({ keyId }: { keyId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="panel" data-testid="trust-key-offer">
      <p>
        This package is signed by key ID <code>{keyId}</code>, which you do not trust yet. The signature names only the
        key's ID: to check it, Apollia needs the publisher's public key itself, which you must get from them.
      </p>
      {open ? (
        <TrustKeyForm idPrefix="offer-trust" expectedKeyId={keyId} onTrusted={() => setOpen(false)} />
      ) : (
        <button type="button" className="button" onClick={() => setOpen(true)}>
          <ShieldCheck aria-hidden="true" size={16} /> Trust this publisher's key…
        </button>
      )}
    </div>
  );
}
