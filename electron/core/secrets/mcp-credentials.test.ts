import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testApi, treeHash } from '../../../test/helpers/test-api';
import { createFileKeySecretBox, unavailableSecretBox } from './secret-box';
import { looksLikeKey, MASK, maskArgs, maskUrl, mcpServerForRun } from './mcp-credentials';
import { STATE_VERSION } from '../store/state';
import { Store } from '../store/store';

const KEY = 'sk-live-4f9aQ2xZ7bK1mN8pR3tV6wY0';

describe('maskUrl (pure)', () => {
  it.each([
    ['https://mcp.example.com/?token=abc123', `https://mcp.example.com/?token=${MASK}`],
    ['https://mcp.example.com/mcp?api_key=abc&region=eu', `https://mcp.example.com/mcp?api_key=${MASK}&region=eu`],
    [
      'https://mcp.example.com/mcp?Access_Token=a&KEY=b&sig=c&password=d&secret=e',
      `https://mcp.example.com/mcp?Access_Token=${MASK}&KEY=${MASK}&sig=${MASK}&password=${MASK}&secret=${MASK}`,
    ],
    ['https://ann:hunter2@mcp.example.com/mcp', `https://ann:${MASK}@mcp.example.com/mcp`],
    ['https://ghp_abcdefghijklmnopqrstuvwx@mcp.example.com/', `https://${MASK}@mcp.example.com/`],
    [`https://mcp.example.com/v1/${KEY}/sse`, `https://mcp.example.com/v1/${MASK}/sse`],
    ['https://mcp.example.com/mcp?region=eu&page=2#top', 'https://mcp.example.com/mcp?region=eu&page=2#top'],
    ['https://mcp.example.com/mcp?token=', 'https://mcp.example.com/mcp?token='],
    ['http://127.0.0.1:8080/mcp', 'http://127.0.0.1:8080/mcp'],
  ])('%s → %s', (url, masked) => {
    expect(maskUrl(url)).toBe(masked);
    expect(maskUrl(masked)).toBe(masked);
  });
});

describe('maskArgs (pure)', () => {
  it.each([
    [
      ['--token', 'abc'],
      ['--token', MASK],
    ],
    [
      ['--api-key=abc', '--verbose'],
      [`--api-key=${MASK}`, '--verbose'],
    ],
    [
      ['--github-token', 'x', '--port', '8080'],
      ['--github-token', MASK, '--port', '8080'],
    ],
    [
      ['--auth', '--quiet'],
      ['--auth', '--quiet'],
    ],
    [
      ['-y', '@modelcontextprotocol/server-github'],
      ['-y', '@modelcontextprotocol/server-github'],
    ],
    [
      ['GITHUB_TOKEN=abc', 'DEBUG=1'],
      [`GITHUB_TOKEN=${MASK}`, 'DEBUG=1'],
    ],
    [
      ['--header', 'Authorization: Bearer abc.def'],
      ['--header', `Authorization: Bearer ${MASK}`],
    ],
    [
      ['-H', 'X-API-Key: abc'],
      ['-H', `X-API-Key: ${MASK}`],
    ],
    [
      ['--url', 'https://x.example/?key=abc'],
      ['--url', `https://x.example/?key=${MASK}`],
    ],
    [[KEY], [MASK]],
    [
      ['/home/ann/Documents/notes', 'server.py', 'README.md'],
      ['/home/ann/Documents/notes', 'server.py', 'README.md'],
    ],
  ])('%j → %j', (args, masked) => {
    expect(maskArgs(args)).toEqual(masked);
  });

  it('tells a key from words and names', () => {
    expect(looksLikeKey('ghp_16C7e42F292c6912E7710c838347Ae178B4a')).toBe(true);
    expect(looksLikeKey('0123456789abcdef0123456789abcdef')).toBe(true);
    expect(looksLikeKey('modelcontextprotocol-server-filesystem')).toBe(false);
    expect(looksLikeKey('@modelcontextprotocol/server-github')).toBe(false);
    expect(looksLikeKey('short1A')).toBe(false);
  });
});

describe('saving an MCP server with a credential (Api)', () => {
  it('stores the credential sealed, shows it masked, and gives the runtime the real one', async () => {
    const { api, dataDir, deps } = testApi();
    const saved = await api.saveMcpServer({
      name: 'github',
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github', '--token', KEY],
    });
    if (!saved.ok) throw new Error(saved.error.message);
    expect(saved.value.mcpServers).toEqual([
      {
        name: 'github',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-github', '--token', MASK],
        credentialsSealed: true,
      },
    ]);
    const network = await api.saveMcpServer({
      name: 'notes',
      transport: 'streamable-http',
      url: 'https://ann:hunter2@mcp.example.com/mcp?token=abc123&region=eu',
    });
    if (!network.ok) throw new Error(network.error.message);
    expect(network.value.mcpServers.find((s) => s.name === 'notes')).toEqual({
      name: 'notes',
      transport: 'streamable-http',
      url: `https://ann:${MASK}@mcp.example.com/mcp?token=${MASK}&region=eu`,
      credentialsSealed: true,
    });

    const text = readFileSync(join(dataDir, 'state.json'), 'utf8');
    for (const secret of [KEY, 'hunter2', 'abc123']) expect(text).not.toContain(secret);
    const read = await api.settings();
    expect(JSON.stringify(read)).not.toContain(KEY);

    const state = await new Store(dataDir).read();
    expect(await mcpServerForRun(state, 'github', deps.secretBox)).toEqual({
      name: 'github',
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github', '--token', KEY],
    });
    expect(await mcpServerForRun(state, 'notes', deps.secretBox)).toEqual({
      name: 'notes',
      transport: 'streamable-http',
      url: 'https://ann:hunter2@mcp.example.com/mcp?token=abc123&region=eu',
    });
    expect(await mcpServerForRun(state, 'constructor', deps.secretBox)).toBeNull();
  });

  it('seals the password of a URL of any scheme and the value of a secret-looking variable; the renderer never receives them', async () => {
    const { api, dataDir, deps } = testApi();
    const args = [
      'postgresql://admin:PgPw1@db/prod',
      'redis://:RedisPw2@cache:6379/0',
      '--mongo=mongodb+srv://u:MongoPw3@cluster0.example.net/app',
      'mysql://root:MyPw4@localhost/db',
      'DATABASE_URL=postgres://app:UrlPw5@db:5432/app',
      'DB_PASSWORD=PlainPw6',
      'SLACK_BOT_TOKEN=PlainTok7',
      'MY_SECRET_THING=PlainSec8',
      'apiKey=PlainKey9',
      'postgresql://admin@db/prod',
      '--verbose',
      'LOG_LEVEL=debug',
    ];
    const saved = await api.saveMcpServer({ name: 'db', transport: 'stdio', command: 'db-mcp', args });
    if (!saved.ok) throw new Error(saved.error.message);
    expect(saved.value.mcpServers).toEqual([
      {
        name: 'db',
        transport: 'stdio',
        command: 'db-mcp',
        args: [
          `postgresql://admin:${MASK}@db/prod`,
          `redis://:${MASK}@cache:6379/0`,
          `--mongo=mongodb+srv://u:${MASK}@cluster0.example.net/app`,
          `mysql://root:${MASK}@localhost/db`,
          `DATABASE_URL=postgres://app:${MASK}@db:5432/app`,
          `DB_PASSWORD=${MASK}`,
          `SLACK_BOT_TOKEN=${MASK}`,
          `MY_SECRET_THING=${MASK}`,
          `apiKey=${MASK}`,
          `postgresql://${MASK}@db/prod`,
          '--verbose',
          'LOG_LEVEL=debug',
        ],
        credentialsSealed: true,
      },
    ]);
    const secrets = [
      'PgPw1',
      'RedisPw2',
      'MongoPw3',
      'MyPw4',
      'UrlPw5',
      'PlainPw6',
      'PlainTok7',
      'PlainSec8',
      'PlainKey9',
    ];
    const stored = readFileSync(join(dataDir, 'state.json'), 'utf8');
    const shown = JSON.stringify(await api.settings());
    for (const secret of secrets) {
      expect(stored).not.toContain(secret);
      expect(shown).not.toContain(secret);
    }
    expect((await mcpServerForRun(await new Store(dataDir).read(), 'db', deps.secretBox))?.args).toEqual(args);
  });

  it('seals a stdio server’s environment whole: neither its names nor its values are stored or shown; the runtime gets it', async () => {
    const { api, dataDir, deps } = testApi();
    const TOKEN = 'lin_api_Qm7Zp2Xk9Rt4Vw8Ny3Bc6Df1';
    const saved = await api.saveMcpServer({
      name: 'linear',
      transport: 'stdio',
      command: 'npx',
      args: ['-y', 'linear-mcp'],
      env: { LINEAR_API_KEY: TOKEN, LOG_LEVEL: 'debug' },
    });
    if (!saved.ok) throw new Error(saved.error.message);
    expect(saved.value.mcpServers).toEqual([
      { name: 'linear', transport: 'stdio', command: 'npx', args: ['-y', 'linear-mcp'], credentialsSealed: true },
    ]);
    const text = readFileSync(join(dataDir, 'state.json'), 'utf8');
    for (const hidden of [TOKEN, 'LINEAR_API_KEY', 'LOG_LEVEL']) expect(text).not.toContain(hidden);
    expect(JSON.stringify(await api.settings())).not.toContain(TOKEN);
    expect(await mcpServerForRun(await new Store(dataDir).read(), 'linear', deps.secretBox)).toEqual({
      name: 'linear',
      transport: 'stdio',
      command: 'npx',
      args: ['-y', 'linear-mcp'],
      env: { LINEAR_API_KEY: TOKEN, LOG_LEVEL: 'debug' },
    });
    const activity = await api.activity();
    expect(activity.ok && activity.value.events.map((e) => e.detail).join('\n')).toContain(
      'linear (stdio): npx -y linear-mcp, with 2 environment variables; its credentials are kept sealed',
    );
  });

  it('refuses an environment on a network server, and a variable name a shell cannot set; nothing written', async () => {
    const { api, dataDir } = testApi();
    const before = treeHash(dataDir);
    const network = await api.saveMcpServer({
      name: 'notes',
      transport: 'streamable-http',
      url: 'https://mcp.example.com/mcp',
      env: { TOKEN: 'x' },
    });
    expect(!network.ok && network.error.code).toBe('mcp.invalid');
    const badName = await api.saveMcpServer({
      name: 'notes',
      transport: 'stdio',
      command: 'notes-mcp',
      env: { 'BAD-NAME': 'x' },
    });
    expect(badName.ok).toBe(false);
    expect(treeHash(dataDir)).toBe(before);
  });

  it('stores a server without a credential in clear, with nothing sealed', async () => {
    const { api, dataDir, deps } = testApi();
    const saved = await api.saveMcpServer({
      name: 'files',
      transport: 'stdio',
      command: 'mcp-files',
      args: ['/home/ann/Documents'],
    });
    expect(saved.ok && saved.value.mcpServers).toEqual([
      {
        name: 'files',
        transport: 'stdio',
        command: 'mcp-files',
        args: ['/home/ann/Documents'],
        credentialsSealed: false,
      },
    ]);
    expect(JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8')).settings.mcpServers.files.sealed).toBeNull();
    expect(await mcpServerForRun(await new Store(dataDir).read(), 'files', deps.secretBox)).toEqual({
      name: 'files',
      transport: 'stdio',
      command: 'mcp-files',
      args: ['/home/ann/Documents'],
    });
  });

  it('refuses a server with a credential where nothing can be sealed (secret.unavailable); nothing written', async () => {
    const { api, dataDir } = testApi({ secretBox: unavailableSecretBox });
    await api.saveMcpServer({ name: 'files', transport: 'stdio', command: 'mcp-files', args: [] });
    const before = treeHash(dataDir);
    const refused = await api.saveMcpServer({
      name: 'notes',
      transport: 'sse',
      url: 'https://mcp.example.com/?token=abc123',
    });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'secret.unavailable',
        message:
          'This computer has no way to keep secrets (no keychain): a webhook or a saved secret cannot be set up here.',
      },
    });
    expect(treeHash(dataDir)).toBe(before);
  });

  it('reads a format-2 file: every server gets nothing sealed, and a credential saved in clear is still shown masked', async () => {
    const { api, dataDir } = testApi();
    const format2 = {
      version: 2,
      packages: {},
      agents: {},
      triggers: {},
      settings: {
        mcpServers: { notes: { name: 'notes', transport: 'sse', url: 'https://mcp.example.com/?token=abc123' } },
        secrets: {},
        deniedTools: [],
      },
      webhookSecrets: {},
      applies: {},
      damage: [],
    };
    writeFileSync(join(dataDir, 'state.json'), JSON.stringify(format2));
    const read = await api.settings();
    expect(read.ok && read.value.mcpServers).toEqual([
      { name: 'notes', transport: 'sse', url: `https://mcp.example.com/?token=${MASK}`, credentialsSealed: false },
    ]);
    expect(read.ok && read.value.secretBackend).toBe('file_key');
    const state = await new Store(dataDir).read();
    expect(state.version).toBe(STATE_VERSION);
    expect(await mcpServerForRun(state, 'notes', createFileKeySecretBox(dataDir))).toEqual({
      name: 'notes',
      transport: 'sse',
      url: 'https://mcp.example.com/?token=abc123',
    });
  });

  it('seals, at start, a credential a format-2 file kept in clear: stored masked, the real one opened for a run', async () => {
    const { api, dataDir, deps } = testApi();
    const format2 = {
      version: 2,
      packages: {},
      agents: {},
      triggers: {},
      settings: {
        mcpServers: {
          notes: { name: 'notes', transport: 'sse', url: 'https://mcp.example.com/?token=abc123' },
          files: { name: 'files', transport: 'stdio', command: 'mcp-files', args: ['/home/ann'] },
        },
        secrets: {},
        deniedTools: [],
      },
      webhookSecrets: {},
      applies: {},
      damage: [],
    };
    writeFileSync(join(dataDir, 'state.json'), JSON.stringify(format2));
    expect(await api.sealClearMcpCredentials()).toEqual(['notes']);
    const text = readFileSync(join(dataDir, 'state.json'), 'utf8');
    expect(text).not.toContain('abc123');
    const stored = JSON.parse(text).settings.mcpServers;
    expect([stored.notes.url, typeof stored.notes.sealed, stored.files.sealed]).toEqual([
      `https://mcp.example.com/?token=${MASK}`,
      'string',
      null,
    ]);
    expect(await mcpServerForRun(await new Store(dataDir).read(), 'notes', deps.secretBox)).toEqual({
      name: 'notes',
      transport: 'sse',
      url: 'https://mcp.example.com/?token=abc123',
    });
    const shown = await api.settings();
    expect(shown.ok && shown.value.mcpServers.find((server) => server.name === 'notes')?.credentialsSealed).toBe(true);
    // Once sealed, a second start has nothing to do and writes nothing.
    const before = treeHash(dataDir);
    expect(await api.sealClearMcpCredentials()).toEqual([]);
    expect(treeHash(dataDir)).toBe(before);
  });

  it('leaves a clear credential as it is where nothing can be sealed, losing nothing', async () => {
    const { api, dataDir } = testApi({ secretBox: unavailableSecretBox });
    const format2 = {
      version: 2,
      packages: {},
      agents: {},
      triggers: {},
      settings: {
        mcpServers: { notes: { name: 'notes', transport: 'sse', url: 'https://mcp.example.com/?token=abc123' } },
        secrets: {},
        deniedTools: [],
      },
      webhookSecrets: {},
      applies: {},
      damage: [],
    };
    writeFileSync(join(dataDir, 'state.json'), JSON.stringify(format2));
    const before = treeHash(dataDir);
    expect(await api.sealClearMcpCredentials()).toEqual([]);
    expect(treeHash(dataDir)).toBe(before);
  });
});
