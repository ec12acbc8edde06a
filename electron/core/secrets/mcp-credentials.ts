/**
 * Credentials in a saved MCP server's url or arguments ("credentials in an MCP
 * server's args or URL are stored sealed and never shown back").
 *
 * A person often pastes a server's command line or url with its token in it
 * (`https://mcp.example.com/?token=…`, `--api-key sk-…`). Settings keeps the server in two parts:
 * the masked form (each credential replaced by `••••`), which is all that is stored in clear and
 * all that is ever shown, and the real url and arguments sealed by the secret box, opened only by
 * {@link mcpServerForRun} for the runtime that starts the server.
 *
 * What counts as a credential (pragmatic, documented in the root README):
 * - in a url: the userinfo (`user:pass@`, or a token alone before `@`); the value of a query
 *   parameter whose name names a credential (`token`, `key`, `api_key`, `apikey`, `access_token`,
 *   `secret`, `client_secret`, `password`, `pwd`, `sig`, `signature`, `auth`, `code`…); and a path
 *   segment that looks like a key ({@link looksLikeKey});
 * - in the arguments: the value after a flag that names a credential (`--token X`, `--api-key=X`,
 *   `-p X` is not: only spelled-out names), `NAME=value` when `NAME` looks secret
 *   ({@link secretVariableName}: `*PASSWORD*`, `*TOKEN*`, `*SECRET*`, `*KEY*`), the userinfo of a URL
 *   of any scheme anywhere in an argument (`postgresql://admin:PW@db`, `DATABASE_URL=postgres://…`),
 *   whatever follows `Bearer ` / `Basic `, the value of a header whose name names a credential
 *   (`X-API-Key: …`, `Authorization: token …`), an http(s) url as above, and any
 *   argument that looks like a key on its own.
 */
import type { SavedMcpServer } from '../../../shared/contract/api';
import type { SecretBox } from './secret-box';
import type { StoredMcpServer, StoreState } from '../store/state';

/** What a credential is shown as. */
export const MASK = '••••';

/**
 * A name (of a flag, a query parameter, a variable) that says its value is a credential (ends with one of these words).
 */
export const CREDENTIAL_NAME =
  /(^|[_-])(token|access[_-]?token|refresh[_-]?token|id[_-]?token|key|api[_-]?key|apikey|private[_-]?key|secret|client[_-]?secret|password|passwd|pass|pwd|sig|signature|auth|authorization|credentials?|session|cookie|bearer)$/i;

/**
 * A variable's name that says its value is secret: it contains `PASSWORD`, `PASSWD`, `TOKEN`,
 * `SECRET` or `KEY` (any case: `DB_PASSWORD`, `GITHUB_TOKEN`, `apiKey`), or ends as
 * {@link CREDENTIAL_NAME} says. Over-masking a harmless value is the safe way to be wrong.
 */
export function secretVariableName(name: string): boolean {
  return /password|passwd|token|secret|key/i.test(name) || CREDENTIAL_NAME.test(name);
}

/**
 * `text` with the userinfo of every URL in it masked, whatever the scheme (`postgresql://admin:••••@db`,
 * `redis://:••••@cache`, `mongodb+srv://u:••••@c`); a userinfo without a password (a token alone) is
 * masked whole. Pure.
 */
export function maskUserinfo(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@]*)@/gi, (_match, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    return `${scheme}${colon >= 0 ? `${userinfo.slice(0, colon)}:${MASK}` : MASK}@`;
  });
}

/** Known key prefixes of common services. */
const KEY_PREFIX =
  /^(sk-|sk_|pk_live_|rk_live_|ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|glpat-|xox[abposr]-|AKIA|AIza|ya29\.|whsec_|shpat_|npm_|hf_|eyJ)[A-Za-z0-9._~+/=-]{8,}$/;

/**
 * Whether a bare string looks like a key: a known service prefix, or at least 24 characters of
 * letters and digits (and `-_.+/=`) mixing upper case, lower case and digits with no word-like run.
 * Pure; false for paths, file names and ordinary words.
 */
export function looksLikeKey(text: string): boolean {
  if (KEY_PREFIX.test(text)) return true;
  if (text.length < 24 || !/^[A-Za-z0-9_\-.+/=]+$/.test(text) || text.includes('/')) return false;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/].filter((re) => re.test(text)).length;
  return classes === 3 || (/^[0-9a-f]{32,}$/i.test(text) && /[0-9]/.test(text) && /[a-f]/i.test(text));
}

/** `url` with its credentials masked (userinfo, credential query values, key-like path segments). Pure. */
export function maskUrl(url: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/i.exec(url);
  if (!match) return url;
  const [, scheme = '', authority = '', path = '', query = '', fragment = ''] = match;
  const at = authority.lastIndexOf('@');
  let host = authority;
  if (at >= 0) {
    const userinfo = authority.slice(0, at);
    const colon = userinfo.indexOf(':');
    host = `${colon >= 0 ? `${userinfo.slice(0, colon)}:${MASK}` : MASK}@${authority.slice(at + 1)}`;
  }
  const maskedPath = path
    .split('/')
    .map((segment) => (looksLikeKey(safeDecode(segment)) ? MASK : segment))
    .join('/');
  const maskedQuery = query
    ? `?${query
        .slice(1)
        .split('&')
        .map((pair) => {
          const eq = pair.indexOf('=');
          if (eq < 0) return looksLikeKey(safeDecode(pair)) ? MASK : pair;
          const name = safeDecode(pair.slice(0, eq));
          const value = safeDecode(pair.slice(eq + 1));
          return value !== '' && (CREDENTIAL_NAME.test(name) || looksLikeKey(value))
            ? `${pair.slice(0, eq)}=${MASK}`
            : pair;
        })
        .join('&')}`
    : '';
  return `${scheme}${host}${maskedPath}${maskedQuery}${fragment}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** A flag spelled out that names a credential: `--token`, `--api-key`, `--github-token`… */
function credentialFlag(arg: string): boolean {
  return /^--?[A-Za-z][A-Za-z0-9_-]*$/.test(arg) && CREDENTIAL_NAME.test(arg.replace(/^-+/, ''));
}

/** One argument with its credentials masked, for arguments not following a credential flag. Pure. */
function maskArg(arg: string): string {
  const flagValue = /^(--?[A-Za-z][A-Za-z0-9_-]*)=(.+)$/s.exec(arg);
  if (flagValue?.[1] && credentialFlag(flagValue[1])) return `${flagValue[1]}=${MASK}`;
  const variable = /^([A-Za-z_][A-Za-z0-9_]*)=(.+)$/s.exec(arg);
  if (variable?.[1] && secretVariableName(variable[1])) return `${variable[1]}=${MASK}`;
  if (/^https?:\/\//i.test(arg)) return maskUrl(arg);
  // A URL with a password in it, of any scheme, anywhere in the argument (`DATABASE_URL=postgres://u:pw@…`,
  // `--db=redis://:pw@…`).
  const withoutUserinfo = maskUserinfo(arg);
  if (withoutUserinfo !== arg) return withoutUserinfo;
  const header = arg
    .replace(/\b(Bearer|Basic)\s+[^\s"',;]+/g, `$1 ${MASK}`)
    .replace(
      /^([A-Za-z-]*(?:key|token|secret|auth)[A-Za-z-]*\s*:\s*)(?!\s*(?:Bearer|Basic|Token)\b)(\S.*)$/i,
      `$1${MASK}`,
    );
  if (header !== arg) return header;
  return looksLikeKey(arg) ? MASK : arg;
}

/**
 * The arguments with their credentials masked (a value after a credential flag, and each argument by `maskArg`). Pure.
 */
export function maskArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const previous = i > 0 ? (args[i - 1] as string) : null;
    if (previous !== null && credentialFlag(previous) && !arg.startsWith('-')) out.push(MASK);
    else out.push(maskArg(arg));
  }
  return out;
}

/**
 * A server as stored in clear: masked, without its environment; and whether anything was masked or left out (then
 * the real one is sealed). A server's environment variables are its tokens, most often: sealed whole, never kept in
 * clear, not even their names.
 */
export function maskedServer(server: SavedMcpServer): { masked: Omit<SavedMcpServer, 'env'>; hasCredentials: boolean } {
  const { env, ...masked } = server;
  if (server.url !== undefined) masked.url = maskUrl(server.url);
  if (server.args !== undefined) masked.args = maskArgs(server.args);
  const hasCredentials =
    masked.url !== server.url ||
    JSON.stringify(masked.args) !== JSON.stringify(server.args) ||
    Object.keys(env ?? {}).length > 0;
  return { masked, hasCredentials };
}

/** The parts of a server that may hold a credential, as sealed in a stored record's `sealed`. */
export function credentialParts(server: SavedMcpServer): string {
  return JSON.stringify({
    ...(server.url !== undefined ? { url: server.url } : {}),
    ...(server.args !== undefined ? { args: server.args } : {}),
    ...(server.env !== undefined && Object.keys(server.env).length > 0 ? { env: server.env } : {}),
  });
}

/** A sealed environment read back: an object of text values, or nothing. */
function sealedEnv(value: unknown): Record<string, string> | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const entries = Object.entries(value);
  return entries.every(([, v]) => typeof v === 'string') ? Object.fromEntries(entries as [string, string][]) : null;
}

/**
 * The saved server `name` as the runtime must start it: with its real url and arguments, unsealed
 * by `box`; null when no server of that name is saved. The only place a saved credential is
 * opened: views show the masked record.
 */
export async function mcpServerForRun(state: StoreState, name: string, box: SecretBox): Promise<SavedMcpServer | null> {
  if (!Object.hasOwn(state.settings.mcpServers, name)) return null;
  const { sealed, ...server } = state.settings.mcpServers[name] as StoredMcpServer;
  if (sealed === null) return server;
  const real = JSON.parse(await box.decrypt(Buffer.from(sealed, 'base64'))) as {
    url?: unknown;
    args?: unknown;
    env?: unknown;
  };
  const env = sealedEnv(real.env);
  return {
    ...server,
    ...(env ? { env } : {}),
    ...(typeof real.url === 'string' ? { url: real.url } : {}),
    ...(Array.isArray(real.args) && real.args.every((a) => typeof a === 'string')
      ? { args: real.args as string[] }
      : {}),
  };
}
