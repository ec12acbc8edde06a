import { ShieldOff } from 'lucide-react';
import { useAppInfo } from '../../api/hooks';

/**
 * Shown above every screen when the app was started with Chromium's sandbox off (`--no-sandbox`,
 * which an AppImage's launcher can add on its own): the window shows text from untrusted packages,
 * so the person must know, and nothing is installed until the app is started properly (the core
 * refuses with `app.sandbox_off`).
 */
export function SandboxWarning() {
  const info = useAppInfo();
  if (info.data?.sandboxOff !== true) return null;
  return (
    <section className="panel panel-warning sandbox-warning" role="alert" aria-labelledby="sandbox-warning-heading">
      <h2 id="sandbox-warning-heading">
        <ShieldOff aria-hidden="true" size={18} /> Apollia Desktop is running without its sandbox
      </h2>
      <p>
        It was started with --no-sandbox, so the text of the packages it shows is not kept away from the rest of your
        computer. You can look at packages, but nothing will be installed or applied until you quit the app and start it
        again from its menu entry or icon, without --no-sandbox.
      </p>
    </section>
  );
}
