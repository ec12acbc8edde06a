import { Power } from 'lucide-react';
import { useSetStartAtLogin, useStartAtLogin } from '../../../api/hooks';
import { ErrorPanel } from '../../components/Status';

/**
 * Settings → Start at login: opt-in. On, the app starts when you log in, in its tray with no
 * window, so armed triggers run without anyone opening it. Where this copy cannot (the command
 * line's host, the browser harness) it says what to use instead.
 */
export function StartAtLoginSection() {
  const login = useStartAtLogin();
  const set = useSetStartAtLogin();
  if (!login.data) return null;
  return (
    <section aria-labelledby="start-at-login-heading">
      <h2 id="start-at-login-heading">
        <Power aria-hidden="true" size={20} /> Start at login
      </h2>
      {login.data.available ? (
        <div className="check-row">
          <input
            id="start-at-login"
            type="checkbox"
            checked={login.data.on}
            disabled={set.isPending}
            onChange={(event) => set.mutate({ on: event.target.checked })}
          />
          <label htmlFor="start-at-login">
            Start Apollia Desktop when I log in, in the tray without a window, so armed triggers run
          </label>
        </div>
      ) : (
        <p className="muted">
          This copy of Apollia Desktop cannot start itself at login. On a computer without a desktop session, run the
          command line’s serve as a service (see the README).
        </p>
      )}
      {set.isError ? <ErrorPanel error={set.error} title="Start at login was not changed" /> : null}
    </section>
  );
}
