/**
 * The one wrapper every IPC handler goes through (STYLE.md "one contract for the boundary"): it
 * checks the sender, hands the request to the core Api (which validates it), and turns a throw
 * into an error value. No `electron` import: unit-tested with a fake event.
 */
import type { ApiResult } from '../../shared/contract/api';
import { isTrustedSender, type AppLocation, type SenderFrame } from './app-location';

/** The part of Electron's `IpcMainInvokeEvent` the wrapper reads. */
export interface InvokeEventLike {
  senderFrame: SenderFrame | null;
}

/** The answer to a message from anything but the app's own page. */
export const FORBIDDEN_SENDER: ApiResult<never> = {
  ok: false,
  error: {
    code: 'ipc.forbidden_sender',
    message: 'This request did not come from the Apollia Desktop window, so it was refused.',
  },
};

/**
 * Runs `call` only when the sender is the app's own top-level page; a throw (a bug in core) comes
 * back as `ipc.internal` with its message, never as a rejected promise the renderer must catch.
 */
export async function handleInvoke(
  event: InvokeEventLike,
  app: AppLocation,
  call: () => Promise<ApiResult<unknown>> | ApiResult<unknown>,
): Promise<ApiResult<unknown>> {
  let frame: SenderFrame | null;
  try {
    // Reading `senderFrame` of a navigated-away or destroyed frame can throw or give null.
    frame = event.senderFrame;
  } catch {
    frame = null;
  }
  if (!isTrustedSender(frame, app)) return FORBIDDEN_SENDER;
  try {
    return await call();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: { code: 'ipc.internal', message: `Something went wrong inside the app: ${message}` } };
  }
}
