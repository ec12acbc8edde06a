/**
 * The owner's settings (Settings screen): saved MCP servers, saved secrets, and the tools the owner
 * never allows. Secrets are sealed by the host's secret box and never shown again; a server's name
 * follows `shared/manifests/mcp-server-name.ts`, its url `shared/base/http-url.ts`.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ApiRequest, SavedMcpServer, SettingsView } from '../../../shared/contract/api';
import { own } from '../../../shared/base/own';
import { SECRET_NAMES } from '../../../shared/manifests/catalogues';
import { isHttpUrl } from '../../../shared/base/http-url';
import { deniedToolProblem, MAX_DENIED_TOOLS } from '../../../shared/manifests/owner-tools';
import { type ApiContext, seal } from './context';
import { CoreError } from '../errors/index';
import { credentialParts, maskedServer } from '../secrets/mcp-credentials';
import type { StoreState } from '../store/state';
import { settingsOf } from './views';
import { knownTools } from './known-tools';

function view(ctx: ApiContext, state: StoreState): SettingsView {
  return settingsOf(state, ctx.deps.secretBox.backend());
}

/** `shown` with the tools the "never allow" picker offers, from the state as it is now. */
async function withKnownTools(ctx: ApiContext, shown: Promise<SettingsView>): Promise<SettingsView> {
  const settings = await shown;
  return { ...settings, knownTools: await knownTools(ctx, await ctx.store.read()) };
}

/** The settings as shown. */
export async function readSettings(ctx: ApiContext): Promise<SettingsView> {
  return withKnownTools(
    ctx,
    ctx.store.read().then((state) => view(ctx, state)),
  );
}

/**
 * Saves an MCP server: a stdio command line (with its environment variables), or an http(s) url for the network
 * transports. A credential found in its url or arguments (`mcp-credentials.ts`), and its whole environment, are
 * sealed, never stored in clear: `secret.unavailable` when this computer cannot seal. The same server in clear
 * saved again (a rerun) writes and records nothing.
 */
export async function saveMcpServer(ctx: ApiContext, request: ApiRequest<'saveMcpServer'>): Promise<SettingsView> {
  const network = request.transport !== 'stdio';
  if (!network && (request.command === undefined || request.url !== undefined)) {
    throw new CoreError(
      'mcp.invalid',
      `MCP server \`${request.name}\`: a stdio server is a command line (command and args), with no url`,
    );
  }
  if (
    network &&
    (request.url === undefined ||
      !isHttpUrl(request.url) ||
      request.command !== undefined ||
      request.args !== undefined ||
      request.env !== undefined)
  ) {
    throw new CoreError(
      'mcp.invalid',
      `MCP server \`${request.name}\`: a ${request.transport} server is an http(s) url, with no command`,
    );
  }
  const server: SavedMcpServer = network
    ? { name: request.name, transport: request.transport, url: request.url as string }
    : {
        name: request.name,
        transport: 'stdio',
        command: request.command as string,
        args: request.args ?? [],
        ...(request.env && Object.keys(request.env).length > 0 ? { env: request.env } : {}),
      };
  // A credential in the url or the arguments is kept sealed and stored (and shown) as `••••`.
  const { masked, hasCredentials } = maskedServer(server);
  const sealed = hasCredentials ? await seal(ctx, credentialParts(server)) : null;
  const shown = network ? (masked.url as string) : [masked.command, ...(masked.args ?? [])].join(' ');
  const envNames = Object.keys(server.env ?? {});
  const envWords =
    envNames.length > 0
      ? `, with ${envNames.length === 1 ? '1 environment variable' : `${envNames.length} environment variables`}`
      : '';
  const saved = await withKnownTools(
    ctx,
    ctx.store
      .update(
        (state) => {
          // The same server saved again, in clear as it is stored: nothing to change and nothing to record (a rerun).
          const kept = own(state.settings.mcpServers, request.name);
          if (sealed === null && kept !== undefined && isDeepStrictEqual(kept, { ...masked, sealed }))
            return { result: { shown: view(ctx, state), unchanged: true }, write: false };
          state.settings.mcpServers[request.name] = { ...masked, sealed };
          return { result: { shown: view(ctx, state), unchanged: false } };
        },
        ({ unchanged }) =>
          unchanged
            ? []
            : [
                {
                  kind: 'mcp_server_saved',
                  outcome: 'ok',
                  detail: `${request.name} (${request.transport}): ${shown}${envWords}${hasCredentials ? '; its credentials are kept sealed' : ''}`,
                },
              ],
      )
      .then(({ shown }) => shown),
  );
  return saved;
}

/** Removes a saved MCP server, or `mcp.unknown`. */
export async function removeMcpServer(ctx: ApiContext, request: ApiRequest<'removeMcpServer'>): Promise<SettingsView> {
  const removed = await withKnownTools(
    ctx,
    ctx.store.update(
      (state) => {
        if (!Object.hasOwn(state.settings.mcpServers, request.name))
          throw new CoreError('mcp.unknown', `No MCP server \`${request.name}\` is saved.`);
        delete state.settings.mcpServers[request.name];
        return { result: view(ctx, state) };
      },
      () => [{ kind: 'mcp_server_removed', outcome: 'ok', detail: `${request.name} was removed` }],
    ),
  );
  return removed;
}

/** Seals and saves a secret under one of the names the app knows (`SECRET_NAMES`). */
export async function saveSecret(ctx: ApiContext, request: ApiRequest<'saveSecret'>): Promise<SettingsView> {
  if (!SECRET_NAMES.some((s) => s.name === request.name))
    throw new CoreError(
      'secret.unknown_name',
      `\`${request.name}\` is not a secret this app can keep (see Settings for the names it knows).`,
    );
  const sealedValue = await seal(ctx, request.value);
  return withKnownTools(
    ctx,
    ctx.store.update((state) => {
      state.settings.secrets[request.name] = { sealed: sealedValue, savedAt: ctx.deps.now().toISOString() };
      return { result: view(ctx, state) };
    }),
  );
}

/** Removes a saved secret, or `secret.unknown`. */
export function removeSecret(ctx: ApiContext, request: ApiRequest<'removeSecret'>): Promise<SettingsView> {
  return withKnownTools(
    ctx,
    ctx.store.update((state) => {
      if (!Object.hasOwn(state.settings.secrets, request.name))
        throw new CoreError('secret.unknown', `No secret \`${request.name}\` is saved.`);
      delete state.settings.secrets[request.name];
      return { result: view(ctx, state) };
    }),
  );
}

/** Adds a tool to the owner's "never allow" list; denying it twice writes nothing. */
export function denyTool(ctx: ApiContext, request: ApiRequest<'denyTool'>): Promise<SettingsView> {
  const problem = deniedToolProblem(request.tool);
  if (problem !== null) throw new CoreError('tool.invalid', problem, { path: 'tool' });
  return withKnownTools(
    ctx,
    ctx.store.update((state) => {
      const denied = state.settings.deniedTools;
      if (denied.includes(request.tool)) return { result: view(ctx, state), write: false };
      if (denied.length >= MAX_DENIED_TOOLS)
        throw new CoreError(
          'tool.too_many',
          `At most ${MAX_DENIED_TOOLS} tools can be on the list of tools you never allow: remove one first.`,
        );
      state.settings.deniedTools = [...denied, request.tool].sort();
      return { result: view(ctx, state) };
    }),
  );
}

/** Takes a tool off the "never allow" list, or `tool.not_denied`. */
export function removeDeniedTool(ctx: ApiContext, request: ApiRequest<'removeDeniedTool'>): Promise<SettingsView> {
  return withKnownTools(
    ctx,
    ctx.store.update((state) => {
      const denied = state.settings.deniedTools;
      if (!denied.includes(request.tool))
        throw new CoreError('tool.not_denied', `\`${request.tool}\` is not on the list of tools you never allow.`);
      state.settings.deniedTools = denied.filter((tool) => tool !== request.tool);
      return { result: view(ctx, state) };
    }),
  );
}

/**
 * Seals the credentials of MCP servers saved in clear: a store from before format 3 kept a token in
 * a server's url or arguments as typed (the 2→3 migration runs without the secret box, so it could
 * only mark them `sealed: null`). Run by the host at start (DESIGN.md "Security of the app itself":
 * secrets are kept encrypted): each such server is stored masked, its real parts sealed, and the
 * names are returned. Nothing is done, and nothing is lost, when this computer cannot keep secrets;
 * a server changed meanwhile is left for the next start.
 */
export async function sealClearMcpCredentials(ctx: ApiContext): Promise<string[]> {
  if (ctx.deps.secretBox.backend() === 'unavailable') return [];
  const state = await ctx.store.read();
  const clear = Object.entries(state.settings.mcpServers).filter(
    ([, server]) => server.sealed === null && maskedServer(server).hasCredentials,
  );
  if (clear.length === 0) return [];
  const sealed = new Map<string, { parts: string; sealed: string }>();
  for (const [name, { sealed: _none, ...server }] of clear) {
    const parts = credentialParts(server);
    sealed.set(name, { parts, sealed: await seal(ctx, parts) });
  }
  return ctx.store.update((fresh) => {
    const done: string[] = [];
    for (const [name, { parts, sealed: box }] of sealed) {
      const now = fresh.settings.mcpServers[name];
      if (!now || now.sealed !== null) continue;
      const { sealed: _none, ...server } = now;
      if (credentialParts(server) !== parts) continue;
      fresh.settings.mcpServers[name] = { ...maskedServer(server).masked, sealed: box };
      done.push(name);
    }
    return done.length > 0 ? { result: done } : { result: done, write: false };
  });
}
