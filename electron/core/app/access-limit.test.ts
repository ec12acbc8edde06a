/**
 * One source for the limit of access entries per agent (shared/base/limits.ts): a package at the limit
 * installs from the form (every entry answered, through the Api's request schema) and from the
 * CLI; one past it is refused by `inspect` with a clear error naming the field and the limit.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_ACCESS_PER_AGENT } from '../../../shared/base/limits';
import { runCliCaptured } from '../../../test/helpers/cli-run';
import { packFiles } from '../../../test/helpers/pack';
import { tempDir, testApi } from '../../../test/helpers/test-api';
import { sharedChecker } from '../bounded/index';

beforeAll(() => sharedChecker().warm(), 120_000);

function crowded(entries: number): string {
  const access = Array.from({ length: entries }, (_, i) => `"mcp:ledger/t${i}"`).join(', ');
  const toml = `[package]\nname = "crowded"\nversion = "1.0.0"\npublisher = "P"\nsdk = "0.3"\n\n[[agents]]\nid = "a"\nname = "A"\nmission = "m"\n\n[agents.defaults]\naccess = [${access}]\n\n[[mcp_servers]]\nname = "ledger"\ncommand = "uvx"\nargs = ["ledger-mcp==1.0.0"]\n`;
  const path = join(tempDir('apollia-limit-'), `crowded-${entries}.apo`);
  writeFileSync(path, packFiles({ 'apollia.toml': toml }));
  return path;
}

describe(`at most ${MAX_ACCESS_PER_AGENT.toLocaleString('en-US')} access entries per agent`, () => {
  it('a package at the limit installs from the form, every entry answered, and from the CLI', async () => {
    const path = crowded(MAX_ACCESS_PER_AGENT);
    const { api, dataDir } = testApi();
    const source = await api.registerSource(path, 'open-file');
    if (!source.ok) throw new Error(source.error.message);
    const inspected = await api.inspect({ sourceId: source.value.id });
    expect(inspected.ok && inspected.value.ok).toBe(true);
    const access = Object.fromEntries(
      Array.from({ length: MAX_ACCESS_PER_AGENT }, (_, i) => [`mcp:ledger/t${i}`, i % 2 === 0]),
    );
    const installed = await api.install({
      sourceId: source.value.id,
      decisions: { agents: { a: { access } }, triggers: {} },
    });
    expect(installed.ok ? installed.value.outcome : installed.error).toBe('installed');
    const stored = JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8')).agents['crowded/a'].access as {
      permission: string;
    }[];
    expect([stored.length, stored.filter((a) => a.permission === 'ask').length]).toEqual([
      MAX_ACCESS_PER_AGENT,
      MAX_ACCESS_PER_AGENT / 2,
    ]);

    const cliDir = join(tempDir('apollia-limit-cli-'), 'data');
    const run = await runCliCaptured(['--data-dir', cliDir, 'install', path, '--yes', '--withhold', 'mcp:ledger/t0']);
    expect([run.code, run.stderr]).toEqual([0, '']);
  });

  it('one past the limit is refused by inspect, naming the field and the limit', async () => {
    const run = await runCliCaptured(['inspect', crowded(MAX_ACCESS_PER_AGENT + 1), '--json']);
    const json = JSON.parse(run.stdout);
    expect([run.code, json.ok, json.errors[0]]).toEqual([
      1,
      false,
      {
        code: 'manifest.too_many',
        message: 'apollia.toml: `agents[0].defaults.access` lists 10,001 entries; at most 10,000 are allowed',
        path: 'agents[0].defaults.access',
      },
    ]);
  });
});
