import { FileKey, Lock, ShieldCheck, Trash2 } from 'lucide-react';
import { UserKeysLocked, useUserKeysLocked } from './user-keys-lock';
import { useState, type FormEvent } from 'react';
import { usePreviewKey, usePreviewKeyFile, useTrustedKeys, useTrustKey, useUntrustKey } from '../../../api/hooks';
import type { KeyPreview, TrustedKeyView } from '../../../../shared/contract/api';
import { PackageText } from '../PackageText';
import { ErrorPanel, Loading } from '../Status';

/** A key's ID and fingerprint, as the person compares them with what the publisher gave them. */
function KeyFacts({ keyId, fingerprint }: { keyId: string; fingerprint: string }) {
  return (
    <dl className="facts" aria-label="Key ID and fingerprint">
      <dt>Key ID</dt>
      <dd>
        <code>{keyId}</code>
      </dd>
      <dt>Fingerprint (SHA-256 of the whole key)</dt>
      <dd>
        <code className="fingerprint">{fingerprint}</code>
      </dd>
    </dl>
  );
}

/** The first step of trusting a key: the key, pasted or picked as a file, read without trusting it. */
function KeyEntry({
  idPrefix,
  expectedKeyId,
  onRead,
}: {
  idPrefix: string;
  expectedKeyId?: string;
  onRead: (preview: KeyPreview) => void;
}) {
  const preview = usePreviewKey();
  const fromFile = usePreviewKeyFile();
  const [publicKey, setPublicKey] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (publicKey.trim() === '') return;
    preview.mutate({ publicKey }, { onSuccess: onRead });
  };
  return (
    <form onSubmit={submit} className="form" aria-label="Trust a publisher's key">
      <div className="field">
        <label htmlFor={`${idPrefix}-key`}>Public key (paste the .pub file or its line starting with RW)</label>
        <textarea
          id={`${idPrefix}-key`}
          value={publicKey}
          onChange={(e) => {
            setPublicKey(e.target.value);
            preview.reset();
          }}
          rows={2}
          spellCheck={false}
          autoComplete="off"
        />
        <p className="hint">
          Get the key from the publisher through a channel you already trust (their website, in person)
          {expectedKeyId ? `: its key ID must be ${expectedKeyId}` : ''}. Next you see its fingerprint, to compare with
          theirs, before you name it.
        </p>
      </div>
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={preview.isPending || publicKey.trim() === ''}>
          <ShieldCheck aria-hidden="true" size={16} /> Check this key
        </button>
        <button
          type="button"
          className="button"
          disabled={fromFile.isPending}
          onClick={() => fromFile.mutate(undefined, { onSuccess: (read) => read && onRead(read) })}
        >
          <FileKey aria-hidden="true" size={16} /> Choose a key file…
        </button>
      </div>
      {preview.isError ? <ErrorPanel error={preview.error} title="This is not a key that can be trusted" /> : null}
      {fromFile.isError ? <ErrorPanel error={fromFile.error} title="The key file could not be read" /> : null}
    </form>
  );
}

/**
 * The second step: the key's ID and fingerprint shown first, then the name the person gives it. A key whose ID is not
 * the one the package names is said to be another key; a key already trusted is said so, with its name.
 */
function KeyNaming({
  idPrefix,
  read,
  expectedKeyId,
  onTrusted,
  onBack,
}: {
  idPrefix: string;
  read: KeyPreview;
  expectedKeyId?: string;
  onTrusted: () => void;
  onBack: () => void;
}) {
  const trust = useTrustKey();
  const [name, setName] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') return;
    trust.mutate({ publicKey: read.publicKey, name }, { onSuccess: onTrusted });
  };
  const otherKey = expectedKeyId !== undefined && expectedKeyId !== read.keyId;
  return (
    <form onSubmit={submit} className="form" aria-label="Name the publisher's key">
      <KeyFacts keyId={read.keyId} fingerprint={read.fingerprint} />
      <p className="hint">
        Compare the fingerprint with the one the publisher gave you (
        <code>tail -n 1 KEY.pub | base64 -d | sha256sum</code> prints the same digits). Anyone can make a key and call
        it anything: trust only a key you know is theirs.
      </p>
      {otherKey ? (
        <p className="panel panel-warning" role="alert">
          This is not the key that signed the package: that one has key ID <code>{expectedKeyId}</code>.
        </p>
      ) : null}
      {read.trustedAs !== null ? (
        <p className="panel" role="status">
          You already trust this key as “<PackageText text={read.trustedAs} />
          ”.
        </p>
      ) : (
        <div className="field">
          <label htmlFor={`${idPrefix}-name`}>Publisher name (what the key will be shown as)</label>
          <input
            id={`${idPrefix}-name`}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              trust.reset();
            }}
            autoComplete="off"
            maxLength={80}
          />
        </div>
      )}
      <div className="actions">
        {read.trustedAs === null ? (
          <button type="submit" className="button button-primary" disabled={trust.isPending || name.trim() === ''}>
            <ShieldCheck aria-hidden="true" size={16} /> Trust this key
          </button>
        ) : null}
        <button type="button" className="button" onClick={onBack}>
          Use another key
        </button>
      </div>
      {trust.isError ? <ErrorPanel error={trust.error} title="The key was not trusted" /> : null}
    </form>
  );
}

/**
 * Trusting a key, in two steps: the key (pasted, or picked as a file in a main-process dialog: the renderer never sends
 * a path) is read without trusting it; its ID and fingerprint are shown; then the person names it. `idPrefix` keeps
 * ids unique where the form appears twice (Settings, a package's Overview).
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
  const [read, setRead] = useState<KeyPreview | null>(null);
  return read === null ? (
    <KeyEntry idPrefix={idPrefix} onRead={setRead} {...(expectedKeyId ? { expectedKeyId } : {})} />
  ) : (
    <KeyNaming
      idPrefix={idPrefix}
      read={read}
      {...(expectedKeyId ? { expectedKeyId } : {})}
      onBack={() => setRead(null)}
      onTrusted={() => {
        setRead(null);
        onTrusted?.();
      }}
    />
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
        <KeyFacts keyId={trustedKey.keyId} fingerprint={trustedKey.fingerprint} />
        <p>Packages signed by it will show as signed by a key you don't know. Nothing installed is removed.</p>
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
  // A removal changes what the add form said (an error, a key "already trusted"): it starts again.
  const [removals, setRemovals] = useState(0);
  const asked = keys.data?.find((key) => key.keyId === confirming) ?? null;
  const userKeysLocked = useUserKeysLocked();
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
              key ID <code>{key.keyId}</code> · fingerprint <code className="fingerprint">{key.fingerprint}</code>
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
          onRemove={() =>
            untrust.mutate(
              { keyId: asked.keyId },
              {
                onSuccess: () => {
                  setConfirming(null);
                  setRemovals((n) => n + 1);
                },
              },
            )
          }
        />
      ) : null}
      {untrust.isError ? <ErrorPanel error={untrust.error} title="The key was not removed" /> : null}
      <h3>Add a key</h3>
      {userKeysLocked !== null ? (
        <UserKeysLocked reason={userKeysLocked} />
      ) : (
        <TrustKeyForm key={removals} idPrefix="settings-trust" />
      )}
    </section>
  );
}

/**
 * On a package signed by a key the user does not know: "Trust this publisher's key", a separate,
 * deliberate act. The signature holds only the key's ID, so the user must supply the key itself.
 */
export function TrustKeyOffer({ keyId }: { keyId: string }) {
  const [open, setOpen] = useState(false);
  const userKeysLocked = useUserKeysLocked();
  return (
    <div className="panel" data-testid="trust-key-offer">
      <p>
        This package is signed by key ID <code>{keyId}</code>, which you do not trust yet. The signature names only the
        key's ID: to check it, Apollia needs the publisher's public key itself, which you must get from them.
      </p>
      {userKeysLocked !== null ? (
        <UserKeysLocked reason={userKeysLocked} />
      ) : open ? (
        <TrustKeyForm idPrefix="offer-trust" expectedKeyId={keyId} onTrusted={() => setOpen(false)} />
      ) : (
        <button type="button" className="button" onClick={() => setOpen(true)}>
          <ShieldCheck aria-hidden="true" size={16} /> Trust this publisher's key…
        </button>
      )}
    </div>
  );
}
