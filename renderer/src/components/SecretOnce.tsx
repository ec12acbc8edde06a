import { KeyRound } from 'lucide-react';
import { CopyButton } from './CopyButton';

/** A webhook secret shown ONCE: it is never shown again (rotating makes a new one). */
export function SecretOnce({ label, secret }: { label: string; secret: string }) {
  return (
    <div className="panel panel-secret" role="group" aria-label={`Secret for ${label}`}>
      <p>
        <KeyRound aria-hidden="true" size={16} /> <strong>Secret for {label}</strong> — copy it now: it will not be
        shown again. Give it to the program that calls this trigger, so its calls can be checked.
      </p>
      <p className="hash-row">
        <code className="hash" aria-label={`Webhook secret for ${label}`}>
          {secret}
        </code>
        <CopyButton value={secret} label={`Copy the secret for ${label}`} />
      </p>
    </div>
  );
}
