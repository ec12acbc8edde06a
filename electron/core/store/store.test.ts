/**
 * The store's one-writer rule and its refusals (DESIGN.md "Consent, install, apply": one writer at
 * a time, versioned, a damaged file kept aside and reported, never silently reset).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { STATE_VERSION } from './state';
import { LOCK_FILE, STATE_FILE } from './store';
import { RECORD_FILES, tempDir, testApi, treeHash } from '../../../test/helpers/test-api';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

/** A pid that is certainly not running: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

/** A live process other than this one, stopped after the test. */
function livePid(): number {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  children.push(child);
  return child.pid as number;
}

describe('the lock file', () => {
  it('takes over a stale lock (a state.lock whose pid is dead) and writes', async () => {
    const { api, dataDir } = testApi();
    const pid = deadPid();
    writeFileSync(join(dataDir, LOCK_FILE), `${pid}\n`);
    const saved = await api.saveMcpServer({ name: 'ledger', transport: 'stdio', command: 'uvx' });
    expect(saved.ok && saved.value.mcpServers.map((s) => s.name)).toEqual(['ledger']);
    expect(JSON.parse(readFileSync(join(dataDir, STATE_FILE), 'utf8')).settings.mcpServers.ledger).toEqual({
      name: 'ledger',
      transport: 'stdio',
      command: 'uvx',
      args: [],
      sealed: null,
    });
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  });

  it('refuses with store.busy while a live process holds it, and writes nothing', async () => {
    const dataDir = tempDir();
    await testApi({ dataDir }).api.saveMcpServer({ name: 'ledger', transport: 'stdio', command: 'uvx' });
    const pid = livePid();
    writeFileSync(join(dataDir, LOCK_FILE), `${pid}\n`);
    const before = treeHash(dataDir);
    const { api } = testApi({ dataDir, lockTimeoutMs: 50 });
    expect(await api.saveMcpServer({ name: 'other', transport: 'stdio', command: 'x' })).toEqual({
      ok: false,
      error: {
        code: 'store.busy',
        message: `another Apollia Desktop process (pid ${pid}) is changing the data folder; try again in a moment`,
      },
    });
    expect(treeHash(dataDir)).toBe(before);
    expect(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).toBe(`${pid}\n`);
    // Reads take no lock: the dashboard still answers.
    const dashboard = await api.settings();
    expect(dashboard.ok && dashboard.value.mcpServers.map((s) => s.name)).toEqual(['ledger']);
  });
});

describe('a state file from a newer app', () => {
  it('is reported as store.future_version and left byte for byte, on read and on write', async () => {
    const { api, dataDir } = testApi();
    const future = `${JSON.stringify({ version: STATE_VERSION + 1, somethingNew: { packages: 3 } })}\n`;
    writeFileSync(join(dataDir, STATE_FILE), future);
    const before = treeHash(dataDir);
    const message = `state.json was written by a newer Apollia Desktop (format ${STATE_VERSION + 1}; this one reads ${STATE_VERSION}): update the app (https://apollia.app/download); the file was left as it is`;
    expect(await api.dashboard()).toEqual({ ok: false, error: { code: 'store.future_version', message } });
    expect(await api.saveMcpServer({ name: 'ledger', transport: 'stdio', command: 'uvx' })).toEqual({
      ok: false,
      error: { code: 'store.future_version', message },
    });
    // Sealing a secret would make the file box's key: refused first, so nothing appears.
    expect(await api.saveSecret({ name: 'OPENROUTER_API_KEY', value: 'sk-or-test' })).toEqual({
      ok: false,
      error: { code: 'store.future_version', message },
    });
    expect(treeHash(dataDir)).toBe(before);
    expect(readFileSync(join(dataDir, STATE_FILE), 'utf8')).toBe(future);
  });
});

describe('a state file of format 1 (before settings.deniedTools)', () => {
  /** A format-1 file as the app of that format wrote it: one MCP server saved, no deniedTools. */
  const formatOne = () =>
    `${JSON.stringify({
      version: 1,
      packages: {},
      agents: {},
      triggers: {},
      settings: {
        mcpServers: { ledger: { name: 'ledger', transport: 'stdio', command: 'uvx', args: [] } },
        secrets: {},
      },
      webhookSecrets: {},
      applies: {},
      damage: [],
    })}\n`;

  it('is read as having no denied tools, and a read leaves it byte for byte', async () => {
    const { api, dataDir } = testApi();
    writeFileSync(join(dataDir, STATE_FILE), formatOne());
    const before = treeHash(dataDir);
    const settings = await api.settings();
    expect(settings.ok && [settings.value.mcpServers.map((s) => s.name), settings.value.deniedTools]).toEqual([
      ['ledger'],
      [],
    ]);
    const dashboard = await api.dashboard();
    expect(dashboard.ok && dashboard.value.damage).toEqual([]);
    expect(treeHash(dataDir)).toBe(before);
  });

  it('is written in the current format by the next change, keeping what it held', async () => {
    const { api, dataDir } = testApi();
    writeFileSync(join(dataDir, STATE_FILE), formatOne());
    const denied = await api.denyTool({ tool: 'shell' });
    expect(denied.ok && denied.value.deniedTools).toEqual(['shell']);
    const written = JSON.parse(readFileSync(join(dataDir, STATE_FILE), 'utf8'));
    expect(written.version).toBe(STATE_VERSION);
    expect(STATE_VERSION).toBe(9);
    expect(written.record).toBeNull(); // the record's commit, from format 7: none until a change records
    expect([written.trustedKeys, written.packageTrust]).toEqual([[], {}]); // trust's step from format 2
    expect([written.feeds, written.packageUpdates]).toEqual([{}, {}]); // the feeds' step from format 5
    expect(written.settings).toEqual({
      mcpServers: { ledger: { name: 'ledger', transport: 'stdio', command: 'uvx', args: [], sealed: null } },
      secrets: {},
      deniedTools: ['shell'],
      webhookPort: null,
      activityCollector: null, // the person's collector, from format 9: none named
    });
    expect(readdirSync(dataDir).sort()).toEqual([STATE_FILE]);
  });

  it('a file of the current format without deniedTools is damaged: kept aside and reported', async () => {
    const { api, dataDir } = testApi();
    writeFileSync(
      join(dataDir, STATE_FILE),
      formatOne().replace(
        '"version":1',
        `"version":${STATE_VERSION},"trustedKeys":[],"packageTrust":{},"feeds":{},"packageUpdates":{},"record":null`,
      ),
    );
    const dashboard = await api.dashboard();
    expect(dashboard.ok && dashboard.value.damage.map((d) => d.reason)).toEqual([
      "state.json does not match the store format: `/settings` must have required property 'deniedTools'",
    ]);
  });
});

describe('a torn state file', () => {
  it('met by a write is kept aside, reported, and the write goes on over a fresh state', async () => {
    const { api, dataDir } = testApi();
    await api.saveMcpServer({ name: 'ledger', transport: 'stdio', command: 'uvx' });
    const text = readFileSync(join(dataDir, STATE_FILE), 'utf8');
    const torn = text.slice(0, Math.floor(text.length / 2));
    writeFileSync(join(dataDir, STATE_FILE), torn);
    const saved = await api.saveMcpServer({ name: 'slack', transport: 'stdio', command: 'slack-mcp' });
    expect(saved.ok && saved.value.mcpServers.map((s) => s.name)).toEqual(['slack']);
    const keptAs = 'state.json.damaged-2026-12-01T10-00-00-000Z';
    expect(
      readdirSync(dataDir)
        .filter((name) => !RECORD_FILES.includes(name))
        .sort(),
    ).toEqual([STATE_FILE, keptAs].sort());
    expect(readFileSync(join(dataDir, keptAs), 'utf8')).toBe(torn);
    const dashboard = await api.dashboard();
    expect(dashboard.ok && dashboard.value.damage).toEqual([
      {
        keptAs,
        reason: expect.stringMatching(/^state\.json is not valid JSON \(.+\); it may have been cut short$/),
        at: '2026-12-01T10:00:00.000Z',
      },
    ]);
  });
});
