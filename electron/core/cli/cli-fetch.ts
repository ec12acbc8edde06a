/**
 * How the command line fetches feeds and their archives (DESIGN.md "Feeds, updates and install
 * links": "the CLI with Node's fetch (proxy from the environment)"): undici's `fetch` through its
 * `EnvHttpProxyAgent`, so `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` (or their lower-case forms) are
 * honoured as curl and npm honour them. They are read from the run's own environment (`io.env`), never
 * from another: a test or a wrapper that gives the command its environment gives it its proxy. The
 * feed's checks (https only, same-origin redirects, limits) are the same whatever carries the bytes.
 */
import type { EnvHttpProxyAgent } from 'undici';
import type { FeedFetch } from '../feeds';

/** The first of `names` set (non-empty) in `env`, else '' (no proxy: `process.env` is not consulted). */
function envValue(env: NodeJS.ProcessEnv, names: readonly string[]): string {
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
  }
  return '';
}

/** The proxy settings of `env`, as `EnvHttpProxyAgent` takes them. */
export function proxySettings(env: NodeJS.ProcessEnv): { httpProxy: string; httpsProxy: string; noProxy: string } {
  return {
    httpProxy: envValue(env, ['http_proxy', 'HTTP_PROXY']),
    httpsProxy: envValue(env, ['https_proxy', 'HTTPS_PROXY']),
    noProxy: envValue(env, ['no_proxy', 'NO_PROXY']),
  };
}

/**
 * The CLI's fetch for feeds: undici's, through the proxy `env` names (none when it names none). undici is loaded at the
 * first fetch, so the commands that fetch nothing do not pay for it.
 */
export function cliFetch(env: NodeJS.ProcessEnv): FeedFetch {
  let ready: Promise<{ dispatcher: EnvHttpProxyAgent; fetch: typeof import('undici').fetch }> | null = null;
  return async (url, init) => {
    ready ??= import('undici').then((undici) => ({
      dispatcher: new undici.EnvHttpProxyAgent(proxySettings(env)),
      fetch: undici.fetch,
    }));
    const { dispatcher, fetch } = await ready;
    const answer = await fetch(url, { ...init, dispatcher });
    return answer as unknown as Response;
  };
}
