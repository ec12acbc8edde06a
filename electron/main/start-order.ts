/**
 * The order the window app starts in: the window first, the keychain in parallel. Probing the
 * keychain can wait on an unlock prompt, or forever on a hung D-Bus call; awaited before the
 * window, that prompt had no window behind it, or there was no window at all. So the box is made
 * in the background, the Api gets a box that waits for it (`backend()` is `pending`, Settings says
 * so, and whatever needs a secret waits), and everything else goes on. No `electron` import:
 * tested with fakes; `index.ts` passes the real steps.
 */
import { deferredSecretBox, type SecretBox } from '../core/secrets/secret-box';

/** The steps of a start, as `index.ts` does them. */
export interface StartSteps {
  /** Probes the keychain and makes the box (may take long, or never end). */
  makeSecretBox(): Promise<SecretBox>;
  /** Builds the Api over `box` and binds it (IPC, menu). */
  wire(box: SecretBox): void;
  /** Opens the window. */
  openWindow(): void;
  /** What runs once the window is on its way: the trigger host, the installed-files check, re-sealing. */
  afterWindow(box: SecretBox): void;
  /** Told when the box could not be made (the app then keeps no secrets). */
  onBoxError(error: unknown): void;
}

/** Starts the window app, never waiting on the keychain first; the box the Api uses. */
export function startWindowFirst(steps: StartSteps): SecretBox {
  const box = deferredSecretBox(steps.makeSecretBox(), (error) => steps.onBoxError(error));
  steps.wire(box);
  steps.openWindow();
  steps.afterWindow(box);
  return box;
}
