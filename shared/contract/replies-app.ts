/**
 * The Api's replies about the app and what it opened: an input's handle, where secrets go, the app's info, how an
 * inspected package stands to the installed one, a webhook secret made or given. Once each with TypeBox; loaded only
 * by tests and tools.
 */
import { type Static, Type } from 'typebox';
import { closed, exactly, oneOf, orNull } from '../base/schema-kit';

const str = Type.String();
const nstr = orNull('string');

/**
 * An input the main process opened for the renderer (dialog, double-click, drop, menu, built-in
 * template). The renderer only ever refers to it by `id`: it never sends a path. `kind` is what it
 * looks like from its content, before the full check; `displayName` its file or folder name and
 * `folders` the folders that hold it, outermost first (empty for a template shipped with the app),
 * both for display only: two files of the same name are told apart by the folders they are in.
 */
export const SourceHandleSchema = closed({
  id: str,
  kind: oneOf(['apo', 'template', 'plugin']),
  displayName: str,
  folders: Type.Array(str),
  origin: oneOf(['dialog', 'command-line', 'open-file', 'drop', 'menu', 'builtin']),
  /** Set for a package fetched from a publisher's feed (an install link, an update): where it came from. */
  feed: Type.Optional(
    closed({
      /** The feed's exact address, as the link or the installed package named it. */
      url: str,
      /** The publisher the signed feed names. */
      publisher: str,
      name: str,
      version: str,
      /** The SHA-256 the feed's key signed, which the download matched. */
      sha256: str,
      size: Type.Integer({ minimum: 0 }),
      /** The publisher withdrew this version: its reason; else null. */
      yanked: nstr,
      /** Opened by an install link (not by the Updates screen): the form says a link asked for it. */
      link: Type.Boolean(),
    }),
  ),
});
export type SourceHandle = Static<typeof SourceHandleSchema>;

/**
 * Where secrets go, told honestly (Settings words each): `keychain` (the OS keychain, through
 * Electron's safeStorage); `file_key` (encrypted with a random key kept in a file beside the data,
 * `secret-box.key`: what the command line and the browser harness use, as they cannot reach a
 * keychain; anyone who can read the data folder can read the secrets); `basic_text` (Electron's
 * Linux fallback with no keyring: obscured with a key built into the app, no real protection); or
 * `unavailable` (nothing can be kept: saving a secret fails); or `pending` (the app has just started
 * and the keychain has not answered yet: what needs a secret waits for it).
 */
export const SecretBackendSchema = oneOf(['keychain', 'file_key', 'basic_text', 'unavailable', 'pending']);
export type SecretBackend = Static<typeof SecretBackendSchema>;

/**
 * `appInfo`: what the About box and the Settings screen show. `sdkVersion`: the runtime SDK this app
 * serves (shared/manifests/sdk.ts). `cliProgram`: how a person runs this app's own command line in a terminal
 * here (`apollia-desktop` on PATH from the deb; the quoted binary inside the app bundle on macOS),
 * or null where the app binary cannot be a console command (Windows' GUI binary, an AppImage): the
 * screens that show a command then say so. Never `npx`: outside the repository it fetches whoever
 * owns the name. `sandboxOff`: the app was started with Chromium's sandbox turned off
 * (`--no-sandbox`): every screen says so, and installing or applying is refused until it is started
 * without it.
 */
export const AppInfoSchema = closed({
  version: str,
  sdkVersion: str,
  secretBackend: SecretBackendSchema,
  cliProgram: nstr,
  sandboxOff: Type.Boolean(),
});
export type AppInfo = Static<typeof AppInfoSchema>;

/**
 * How a package being inspected relates to the version installed here: the version installed on
 * this machine, the SHA-256 of its archive, and what the inspected source is compared to it (the
 * same package, the same name and version with other bytes: another package, installed as an
 * update — DESIGN.md "Trust after install": a package is its archive's SHA-256 —, a newer one: an
 * update, an older one: a downgrade).
 */
export const InstalledRelationSchema = closed({
  version: str,
  sha256: str,
  relation: oneOf(['same', 'other_bytes', 'newer', 'older']),
});
export type InstalledRelation = Static<typeof InstalledRelationSchema>;

/** A webhook secret made on this machine, shown ONCE (never returned again: rotate to see a new one). */
export const WebhookSecretOnceSchema = closed({ triggerId: str, secret: str });
export type WebhookSecretOnce = Static<typeof WebhookSecretOnceSchema>;

/**
 * A webhook secret given by the sender, as an answer says it was kept: never its value (it is
 * sealed and never returned by any method).
 */
export const WebhookSecretGivenSchema = closed({
  triggerId: str,
  given: exactly(true),
  /** The same secret is also set on other triggers: what that does, naming them (never the secret); else null. */
  sharedWarning: nstr,
});
export type WebhookSecretGiven = Static<typeof WebhookSecretGivenSchema>;
