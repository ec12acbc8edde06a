/**
 * `apollia-desktop mcp add|list|remove`: the MCP servers of Settings, headless, through the Api's
 * own `saveMcpServer`, `settings` and `removeMcpServer`. A template's `mcp:<server>/<tool>` grant
 * needs a server saved under that name. A credential in the url or the arguments is sealed by the
 * use case and shown back only as `••••`.
 *
 * The saved server is a command line or a url; its environment (`--env KEY=VALUE`, `--env-file`, `--env-stdin`)
 * is sealed whole with it, as Settings saves it: neither names nor values are kept or shown in clear.
 */
import { transportWords } from '../../../shared/words/words';
import type { SavedMcpServer, SavedMcpServerView } from '../../../shared/contract/api';
import { MCP_TRANSPORTS } from '../../../shared/manifests/apollia-manifest';
import { refused } from './cli-data';
import { type CliIo, EXIT } from './cli-io';
import { cliApi } from './install-command';
import { ENV_KEY, readEnvSources } from './mcp-env';
import { terminalJson } from './terminal-text';
import { PROGRAM, usageError } from './usage';

/** Usage of `mcp`. */
export const MCP_USAGE = [
  `Usage: ${PROGRAM} [--data-dir DIR] mcp add NAME --command CMD [--arg ARG ...] [--env-file FILE] [--env-stdin]`,
  '         [--env KEY=VALUE ...]',
  `       ${PROGRAM} [--data-dir DIR] mcp add NAME --url URL [--transport T]`,
  `       ${PROGRAM} [--data-dir DIR] mcp list [--json]`,
  `       ${PROGRAM} [--data-dir DIR] mcp remove NAME`,
  '',
  'The MCP servers a template can use: `--grant mcp:NAME/TOOL` needs one saved as NAME.',
  '  --command CMD      A server started as a command line (stdio)',
  '  --arg ARG          One argument of that command (repeat it, in order)',
  '  --env-file FILE    Its environment from a file, one KEY=VALUE a line (as .env): the way for a credential',
  '  --env-stdin        Its environment from standard input, one KEY=VALUE a line',
  '  --env KEY=VALUE    An environment variable for it (repeat it); not for a credential: the process list shows it',
  '                     All are kept encrypted with the server, never shown',
  '  --url URL          A server reached over the network, at an http(s) url',
  '  --transport T      For --url: streamable-http (the default) or sse',
  '  --json             (list) Print the servers as JSON',
  'A credential in a url or an argument (a token, a key) is kept encrypted and shown as ••••.',
  '',
].join('\n');

/** A server's command line or url as shown (credentials already masked by the use case). */
export function serverWords(server: SavedMcpServerView): string {
  const where =
    server.transport === 'stdio'
      ? [server.command ?? '', ...(server.args ?? [])].map(shellWord).join(' ')
      : `${server.url ?? ''}, ${transportWords(server.transport)} (${server.transport})`;
  return `${server.name}: ${where}${server.credentialsSealed ? '  [credentials kept encrypted]' : ''}`;
}

/** An argument quoted for a POSIX shell when it needs to be, so the line shown is the line run. */
function shellWord(word: string): string {
  return word !== '' && /^[\w@%+=:,./•-]+$/u.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** `KEY=VALUE` pairs as one environment (a later KEY wins), with no prototype to poison. */
function envObject(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return { ...out };
}

async function add(args: string[], io: CliIo): Promise<number> {
  const names: string[] = [];
  let command: string | undefined;
  let url: string | undefined;
  let transport: string | undefined;
  const extra: string[] = [];
  const env: string[] = [];
  const envFiles: string[] = [];
  let envStdin = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--env-stdin') envStdin = true;
    else if (arg === '--env-file') {
      const value = args[++i];
      if (value === undefined || value === '') return usageError(io, '--env-file needs a FILE', MCP_USAGE);
      envFiles.push(value);
    } else if (arg === '--command' || arg === '--arg' || arg === '--env' || arg === '--url' || arg === '--transport') {
      const value = args[++i];
      if (value === undefined || (value === '' && arg !== '--arg'))
        return usageError(io, `${arg} needs a value`, MCP_USAGE);
      if (arg === '--arg') extra.push(value);
      else if (arg === '--env') {
        const eq = value.indexOf('=');
        if (eq <= 0 || !ENV_KEY.test(value.slice(0, eq)))
          return usageError(
            io,
            `--env takes KEY=VALUE (KEY of letters, digits and _), got \`${value.slice(0, Math.max(eq, 0)) || value}\``,
            MCP_USAGE,
          );
        env.push(value);
      } else if (
        (arg === '--command' && command !== undefined) ||
        (arg === '--url' && url !== undefined) ||
        (arg === '--transport' && transport !== undefined)
      )
        return usageError(io, `${arg} is given once`, MCP_USAGE);
      else if (arg === '--command') command = value;
      else if (arg === '--url') url = value;
      else transport = value;
    } else if (arg.startsWith('-')) return usageError(io, `unknown option \`${arg}\` for mcp add`, MCP_USAGE);
    else names.push(arg);
  }
  if (names.length !== 1)
    return usageError(
      io,
      names.length === 0 ? 'mcp add needs a NAME' : `mcp add takes one NAME, got ${names.length}`,
      MCP_USAGE,
    );
  if ((command === undefined) === (url === undefined))
    return usageError(io, 'mcp add takes either --command CMD or --url URL', MCP_USAGE);
  if (url !== undefined && (extra.length > 0 || env.length > 0 || envFiles.length > 0 || envStdin))
    return usageError(io, '--arg and --env go with --command, not --url', MCP_USAGE);
  const read = await readEnvSources(io, envFiles, envStdin);
  if ('problem' in read) return usageError(io, read.problem, MCP_USAGE);
  if (env.length > 0)
    io.stderr(
      `${PROGRAM}: note: a value given with --env shows in the process list and your shell history; --env-file FILE or --env-stdin keep a credential off the command line\n`,
    );
  env.push(...read.env);
  if (command !== undefined && transport !== undefined)
    return usageError(io, '--transport goes with --url (a --command server is stdio)', MCP_USAGE);
  if (transport !== undefined && (transport === 'stdio' || !(MCP_TRANSPORTS as readonly string[]).includes(transport)))
    return usageError(io, `--transport takes streamable-http or sse, got \`${transport}\``, MCP_USAGE);
  const name = names[0] as string;
  const server: SavedMcpServer =
    command !== undefined
      ? {
          name,
          transport: 'stdio',
          command,
          args: extra,
          // The environment sealed whole, as Settings saves it (never a clear `env KEY=VALUE` prefix of the command).
          ...(env.length > 0 ? { env: envObject(env) } : {}),
        }
      : { name, transport: (transport ?? 'streamable-http') as SavedMcpServer['transport'], url: url as string };
  const api = cliApi(io);
  const before = await api.settings();
  const replaced = before.ok && before.value.mcpServers.some((s) => s.name === name);
  const kept = before.ok ? before.value.mcpServers.find((s) => s.name === name && !s.managed) : undefined;
  if (kept && sameClearServer(kept, server)) {
    io.stdout(`MCP server ${serverWords(kept)} is already saved as given: nothing to do\n`);
    return EXIT.accepted;
  }
  const result = await api.saveMcpServer(server);
  if (!result.ok) return refused(io, result.error);
  const saved = result.value.mcpServers.find((s) => s.name === name);
  io.stdout(`${replaced ? 'Replaced' : 'Saved'} MCP server ${saved ? serverWords(saved) : name}\n`);
  return EXIT.accepted;
}

/**
 * Whether `kept` (as Settings shows it) is `server` saved in clear: the same transport, command line or url, and
 * nothing sealed on either side (an environment, a credential in the url or the arguments is sealed, so it cannot be
 * compared, and is saved again).
 */
function sameClearServer(kept: SavedMcpServerView, server: SavedMcpServer): boolean {
  if (kept.credentialsSealed || server.env !== undefined) return false;
  if (kept.transport !== server.transport || kept.command !== server.command || kept.url !== server.url) return false;
  return JSON.stringify(kept.args ?? []) === JSON.stringify(server.args ?? []);
}

async function list(args: string[], io: CliIo): Promise<number> {
  let json = false;
  for (const arg of args) {
    if (arg === '--json') json = true;
    else
      return usageError(
        io,
        arg.startsWith('-') ? `unknown option \`${arg}\` for mcp list` : 'mcp list takes no argument',
        MCP_USAGE,
      );
  }
  const result = await cliApi(io).settings();
  if (!result.ok) return refused(io, result.error);
  const servers = result.value.mcpServers;
  if (json) {
    io.stdout(`${terminalJson({ servers })}\n`);
    return EXIT.accepted;
  }
  io.stdout(servers.length === 0 ? 'No MCP server saved.\n' : 'MCP servers:\n');
  for (const server of servers) io.stdout(`  ${serverWords(server)}\n`);
  return EXIT.accepted;
}

async function remove(args: string[], io: CliIo): Promise<number> {
  const option = args.find((a) => a.startsWith('-'));
  if (option !== undefined) return usageError(io, `unknown option \`${option}\` for mcp remove`, MCP_USAGE);
  if (args.length !== 1)
    return usageError(
      io,
      args.length === 0 ? 'mcp remove needs a NAME' : `mcp remove takes one NAME, got ${args.length}`,
      MCP_USAGE,
    );
  const result = await cliApi(io).removeMcpServer({ name: args[0] as string });
  if (!result.ok) return refused(io, result.error);
  io.stdout(`Removed MCP server ${args[0]}.\n`);
  return EXIT.accepted;
}

/** Runs `mcp` with the arguments after the command name. */
export async function run(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined) return usageError(io, 'mcp needs add, list or remove', MCP_USAGE);
  if (sub === '-h' || sub === '--help' || rest.includes('-h') || rest.includes('--help')) {
    io.stdout(MCP_USAGE);
    return EXIT.accepted;
  }
  if (sub === 'add') return add(rest, io);
  if (sub === 'list') return list(rest, io);
  if (sub === 'remove') return remove(rest, io);
  return usageError(io, `unknown mcp command \`${sub}\` (add, list or remove)`, MCP_USAGE);
}
