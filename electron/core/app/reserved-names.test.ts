/**
 * `__proto__`, `constructor` and `prototype` are legal names (`[a-z0-9_-]+`)
 * for a package, an agent, a trigger and an MCP server. Each must be stored, listed (dashboard and
 * `list --json`), updated and uninstalled like any other name, never lost to a prototype.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packFolder } from '../../../test/helpers/pack';
import { editedPackage, tempDir, testApi } from '../../../test/helpers/test-api';
import type { CoreApi } from '../api';
import type { CliIo } from '../cli/cli-io';
import { runCli } from '../cli/dispatcher';
import { Store } from '../store/store';

const WATCHER_DIR = new URL('../../../test/fixtures/apo/watcher', import.meta.url).pathname;
const NAMES = ['__proto__', 'constructor', 'prototype'] as const;

/** The watcher fixture with its package, agent, first trigger and MCP server all called `name`. */
function namedApo(name: string, version = '0.1.0'): string {
  const dir = editedPackage(WATCHER_DIR, (toml) =>
    toml
      .replace('name = "watcher"', `name = "${name}"`)
      .replace('version = "0.1.0"', `version = "${version}"`)
      .replaceAll('pkg:watcher/', `pkg:${name}/`)
      .replace('id = "tidy"', `id = "${name}"`)
      .replaceAll('target = "tidy"', `target = "${name}"`)
      .replace('id = "hourly"', `id = "${name}"`)
      .replace('name = "notes"', `name = "${name}"`),
  );
  const path = join(tempDir('apollia-apo-'), 'package.apo');
  writeFileSync(path, packFolder(dir));
  return path;
}

async function inspected(api: CoreApi, path: string): Promise<string> {
  const handle = await api.registerSource(path, 'open-file');
  if (!handle.ok) throw new Error(handle.error.message);
  const inspection = await api.inspect({ sourceId: handle.value.id });
  if (!inspection.ok || !inspection.value.ok) throw new Error(JSON.stringify(inspection));
  return handle.value.id;
}

async function listJson(dataDir: string): Promise<{
  packages: { name: string; version: string; agents: string[] }[];
  agents: { id: string; access: { tool: string; granted: boolean }[] }[];
  triggers: { id: string; armed: boolean }[];
}> {
  let stdout = '';
  const io: CliIo = {
    stdout: (t) => (stdout += t),
    stderr: () => undefined,
    cwd: process.cwd(),
    env: { HOME: '/home/someone' },
  };
  expect(await runCli(['--data-dir', dataDir, 'list', '--json'], io)).toBe(0);
  return JSON.parse(stdout);
}

describe.each(NAMES)('a package, agent, trigger and MCP server called `%s`', (name) => {
  const agentId = `${name}/${name}`;
  const triggerId = `${name}/${name}`;

  it('installs, lists (dashboard and list --json), updates keeping its answers, and uninstalls', async () => {
    const { api, dataDir } = testApi();
    const installed = await api.install({
      sourceId: await inspected(api, namedApo(name)),
      decisions: {
        agents: { [name]: { access: { file_list: true, [`pkg:${name}/tidy_folder`]: false } } },
        triggers: { [name]: { armed: true } },
      },
    });
    expect(installed).toMatchObject({
      ok: true,
      value: { name, version: '0.1.0', outcome: 'installed', armed: [triggerId] },
    });

    const file = JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
    expect(Object.keys(file.packages)).toEqual([name]);
    expect(Object.keys(file.agents)).toEqual([agentId]);
    expect(Object.keys(file.triggers).sort()).toEqual([triggerId, `${name}/on-call`, `${name}/on-change`].sort());
    const loaded = await new Store(dataDir).read();
    expect(Object.getPrototypeOf(loaded.packages)).toBeNull();
    expect(Object.keys(loaded.packages)).toEqual([name]);

    const dashboard = await api.dashboard();
    if (!dashboard.ok) throw new Error(dashboard.error.message);
    expect(dashboard.value.packages.map((p) => [p.name, p.version, p.agents])).toEqual([[name, '0.1.0', [agentId]]]);
    expect(dashboard.value.agents.map((a) => [a.id, a.from, a.fromVersion])).toEqual([[agentId, name, '0.1.0']]);
    expect(dashboard.value.agents[0]?.triggers.find((t) => t.id === triggerId)?.armed).toBe(true);

    const listed = await listJson(dataDir);
    expect(listed.packages.map((p) => [p.name, p.version])).toEqual([[name, '0.1.0']]);
    expect(listed.agents[0]?.access.map((a) => [a.tool, a.granted])).toEqual([
      ['file_list', true],
      [`pkg:${name}/tidy_folder`, false],
    ]);
    expect(listed.triggers.find((t) => t.id === triggerId)?.armed).toBe(true);

    // The update keeps what was decided: the trigger stays armed, the grant stays.
    const updateSource = await inspected(api, namedApo(name, '0.2.0'));
    const updated = await api.install({ sourceId: updateSource, decisions: { agents: {}, triggers: {} } });
    expect(updated).toMatchObject({
      ok: true,
      value: { name, version: '0.2.0', outcome: 'updated', previousVersion: '0.1.0', armed: [triggerId] },
    });
    const after = await listJson(dataDir);
    expect(after.packages.map((p) => [p.name, p.version])).toEqual([[name, '0.2.0']]);
    expect(after.agents[0]?.access.find((a) => a.tool === 'file_list')?.granted).toBe(true);

    const removed = await api.uninstallPackage({ name });
    expect(removed).toMatchObject({ ok: true, value: { name, version: '0.2.0', removedAgents: [agentId] } });
    const empty = await listJson(dataDir);
    expect([empty.packages, empty.agents, empty.triggers]).toEqual([[], [], []]);
    expect(existsSync(join(dataDir, 'packages', name))).toBe(false);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('saves, shows and removes an MCP server of that name; denies and allows again a tool of that server', async () => {
    const { api } = testApi();
    const saved = await api.saveMcpServer({ name, transport: 'stdio', command: 'notes-server', args: ['--quiet'] });
    if (!saved.ok) throw new Error(saved.error.message);
    expect(saved.value.mcpServers).toEqual([
      { name, transport: 'stdio', command: 'notes-server', args: ['--quiet'], credentialsSealed: false },
    ]);
    const denied = await api.denyTool({ tool: `mcp:${name}/search` });
    expect(denied.ok && denied.value.deniedTools).toEqual([`mcp:${name}/search`]);
    const read = await api.settings();
    expect(read.ok && read.value.mcpServers.map((s) => s.name)).toEqual([name]);
    const gone = await api.removeMcpServer({ name });
    expect(gone.ok && gone.value.mcpServers).toEqual([]);
    const again = await api.removeMcpServer({ name });
    expect(again).toMatchObject({
      ok: false,
      error: { code: 'mcp.unknown', message: `No MCP server \`${name}\` is saved.` },
    });
    const allowed = await api.removeDeniedTool({ tool: `mcp:${name}/search` });
    expect(allowed.ok && allowed.value.deniedTools).toEqual([]);
  });

  it('answers `package.unknown` for it when nothing of that name is installed, reading nothing inherited', async () => {
    const { api } = testApi();
    expect(await api.uninstallPackage({ name })).toMatchObject({
      ok: false,
      error: { code: 'package.unknown', message: `No package called \`${name}\` is installed.` },
    });
  });
});
