/**
 * Starting the app at login, opt-in (Api `startAtLogin`, `setStartAtLogin`), through the host's
 * login item. A host without one (the command line, the harness) says so and names `serve`, the
 * way to keep triggers live there.
 */
import { CoreError } from '../errors/index';
import type { ApiContext } from './context';

/**
 * Whether the app starts at login, and whether it can.
 * Unavailable reads as off, so the switch is shown off and disabled rather than wrong.
 */
export async function startAtLogin(ctx: ApiContext) {
  const { loginItem } = ctx.deps;
  return loginItem ? { available: true, on: await loginItem.get() } : { available: false, on: false };
}

/**
 * Turns starting at login on or off, and answers what the OS now holds.
 * Read back after the change, so the switch shows what the OS kept, not what was asked.
 */
export async function setStartAtLogin(ctx: ApiContext, request: { on: boolean }) {
  const { loginItem } = ctx.deps;
  if (!loginItem)
    throw new CoreError(
      'login.unavailable',
      'This copy of Apollia Desktop cannot start itself at login: run `apollia-desktop serve` as a service instead.',
    );
  await loginItem.set(request.on);
  return { available: true, on: await loginItem.get() };
}
