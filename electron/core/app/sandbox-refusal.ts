/**
 * Nothing is installed or applied by an app started without Chromium's sandbox (`--no-sandbox`,
 * which an AppImage launcher adds on its own): its window shows text from untrusted packages, and
 * the person must know and restart it properly first (DESIGN.md "Security of the app itself").
 */
import { CoreError } from '../errors/index';
import type { ApiContext } from './context';

/**
 * Refuses with `app.sandbox_off` when the host runs without its sandbox.
 * Thrown before anything is read, so a refused install leaves nothing behind.
 */
export function refuseWithoutSandbox(deps: ApiContext['deps']): void {
  if (deps.sandboxOff === true) {
    throw new CoreError(
      'app.sandbox_off',
      'Apollia Desktop was started with its sandbox turned off (--no-sandbox), so it installs nothing: quit it and start it again from its menu entry or icon, without --no-sandbox. Nothing was installed.',
    );
  }
}

/**
 * A use case that writes what a package brings, run only when the sandbox is on.
 * Install and apply share this one door, so neither can forget the sandbox check.
 */
export function whenSandboxed<R, A>(
  ctx: ApiContext,
  work: (ctx: ApiContext, request: R) => Promise<A>,
): (request: R) => Promise<A> {
  return (request) => {
    refuseWithoutSandbox(ctx.deps);
    return work(ctx, request);
  };
}
