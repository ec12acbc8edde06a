/**
 * Install links (DESIGN.md "Feeds, updates and install links"):
 * `apollia://install?feed=<https URL>&package=<name>[&version=<v>][&sha256=<hex>]`, read strictly.
 * A link names where to fetch a package and which one; it carries no command line, no grant and no
 * key, so anything else in it is refused rather than ignored (peers' link bugs hid what a link
 * carried: CVE-2025-54133, CVE-2026-41613). Pure: it fetches nothing, and what it answers only opens
 * the same consent form as a double-click.
 */
import { CoreError } from '../errors';
import { fetchableUrl } from './feed-fetch';

/** What an install link asks for: the feed, the package, and optionally an exact version and bytes. */
export interface InstallLink {
  feed: string;
  package: string;
  version: string | null;
  sha256: string | null;
}

/** The longest link read: an https address, a name, a version and a hash fit many times over. */
export const MAX_INSTALL_LINK_CHARS = 4096;

const PARAMS = ['feed', 'package', 'version', 'sha256'] as const;
const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const VERSION = /^[0-9A-Za-z.+-]{1,64}$/;
const SHA256 = /^[0-9a-fA-F]{64}$/;

function refuse(message: string): never {
  throw new CoreError('link.invalid', `This install link is refused: ${message}.`);
}

/** Whether `text` is meant as an install link (it starts with the app's scheme), to tell it from a path. */
export function looksLikeInstallLink(text: string): boolean {
  return /^apollia:/i.test(text);
}

/**
 * Reads an install link strictly: the scheme `apollia:`, the action `install`, no user, port, path
 * or fragment, each parameter at most once, `feed` (https, or http to loopback) and `package`
 * required, `version` and `sha256` optional, any other parameter refused (`link.invalid`).
 */
export function parseInstallLink(text: string): InstallLink {
  if (typeof text !== 'string' || text.length > MAX_INSTALL_LINK_CHARS)
    refuse(`it is longer than ${MAX_INSTALL_LINK_CHARS} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse('it is not a link');
  }
  if (url.protocol !== 'apollia:') refuse(`its scheme is \`${url.protocol}\`, not \`apollia:\``);
  if (url.hostname !== 'install')
    refuse(`it asks for \`${url.hostname || url.pathname}\`; the only action is \`install\``);
  if (url.username || url.password || url.port) refuse('it carries a user, a password or a port');
  if (url.pathname !== '' && url.pathname !== '/') refuse(`it has a path (\`${url.pathname}\`)`);
  if (url.hash) refuse('it has a fragment (`#…`)');
  const seen = new Map<string, string>();
  for (const [key, value] of url.searchParams) {
    if (!(PARAMS as readonly string[]).includes(key))
      refuse(
        `it carries \`${key}\`; a link names only feed, package, version and sha256 (never a command, a grant or a key)`,
      );
    if (seen.has(key)) refuse(`it gives \`${key}\` twice`);
    seen.set(key, value);
  }
  const feed = seen.get('feed');
  const name = seen.get('package');
  if (!feed) refuse('it names no `feed`');
  if (!name) refuse('it names no `package`');
  try {
    fetchableUrl(feed);
  } catch (error) {
    refuse(`its feed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!NAME.test(name)) refuse(`\`${name}\` is not a package name`);
  const version = seen.get('version') ?? null;
  if (version !== null && !VERSION.test(version)) refuse(`\`${version}\` is not a version`);
  const sha256 = seen.get('sha256') ?? null;
  if (sha256 !== null && !SHA256.test(sha256)) refuse('its `sha256` is not 64 hexadecimal digits');
  return { feed: new URL(feed).href, package: name, version, sha256: sha256?.toLowerCase() ?? null };
}
