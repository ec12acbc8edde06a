/**
 * `pause`, `resume` and `approvals` from the command line: each through the Api's own use case, saying what it did;
 * exit 0 done, 1 refused (the same words as the dashboard's), 2 usage; a refusal writes nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packFolder } from '../../../test/helpers/pack';
import { activityText, tempDir } from '../../../test/helpers/test-api';
import { runCliCaptured } from '../../../test/helpers/cli-run';

const WATCHER = new URL('../../../test/fixtures/apo/watcher', import.meta.url).pathname;

async function dataFolder(env: Record<string, string> = {}) {
  const dir = tempDir('apollia-cli-pause-');
  const dataDir = join(dir, 'data');
  const cli = (argv: string[]) =>
    runCliCaptured(['--data-dir', dataDir, ...argv], { cwd: dir, env: { HOME: '/home/someone', ...env } });
  return { dir, dataDir, cli };
}

async function watcherInstalled(env: Record<string, string> = {}) {
  const folder = await dataFolder(env);
  const apo = join(folder.dir, 'watcher.apo');
  writeFileSync(apo, packFolder(WATCHER));
  const done = await folder.cli(['install', apo, '--yes', '--grant', 'file_list']);
  expect([done.code, done.stderr]).toEqual([0, '']);
  return folder;
}

const state = (dataDir: string) => JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
const stateText = (dataDir: string) => readFileSync(join(dataDir, 'state.json'), 'utf8');

describe('pause and resume', () => {
  it('pauses an armed webhook (its secret kept), says so in list, resumes it; again changes nothing', async () => {
    const { dataDir, cli } = await watcherInstalled();
    expect((await cli(['arm', 'watcher/on-call'])).code).toBe(0);
    const ref = state(dataDir).triggers['watcher/on-call'].secretRef;
    const paused = await cli(['pause', 'watcher/on-call']);
    expect([paused.code, paused.stderr]).toEqual([0, '']);
    expect(paused.stdout).toBe(
      'Paused watcher/on-call: On a signed HTTP call.\n  Still armed, its signing secret kept (its sender’s calls are not taken while paused); it does not fire until `apollia-desktop resume watcher/on-call`.\n',
    );
    expect(state(dataDir).triggers['watcher/on-call']).toMatchObject({ armed: true, secretRef: ref });
    expect((await cli(['list'])).stdout).toContain('  paused   watcher/on-call: On a signed HTTP call');
    expect((await cli(['pause', 'watcher/on-call'])).stdout).toBe(
      'watcher/on-call was already paused: nothing changed.\n',
    );
    const json = JSON.parse((await cli(['resume', 'watcher/on-call', '--json'])).stdout);
    expect([json.armed, json.pausedAt, json.webhookSecretSet]).toEqual([true, null, true]);
    expect((await cli(['resume', 'watcher/on-call'])).stdout).toBe(
      'watcher/on-call was not paused: nothing changed.\n',
    );
    expect(activityText(dataDir)).toContain('"kind":"pause"');
    expect(activityText(dataDir)).toContain('"kind":"resume"');
  });

  it('refuses a trigger that is off (exit 1, nothing written) and a usage mistake (exit 2)', async () => {
    const { dataDir, cli } = await watcherInstalled();
    const text = stateText(dataDir);
    const off = await cli(['pause', 'watcher/hourly']);
    expect([off.code, off.stderr]).toEqual([
      1,
      'apollia-desktop: trigger `watcher/hourly` is not armed: there is nothing to pause (arm it first)\n',
    ]);
    expect(stateText(dataDir)).toBe(text);
    expect((await cli(['pause'])).code).toBe(2);
    expect((await cli(['resume', 'a', 'b'])).code).toBe(2);
    expect((await cli(['pause', 'watcher/hourly', '--now'])).stderr).toContain('unknown option `--now` for pause');
  });
});

describe('approvals', () => {
  it('switches a template agent between unattended and asking; recorded', async () => {
    const { dataDir, cli } = await dataFolder();
    const applied = await cli([
      'apply',
      'release-notes',
      '--param',
      'owner=acme',
      '--param',
      'repo=shop',
      '--approvals',
      'never',
      '--yes',
    ]);
    expect([applied.code, applied.stderr]).toEqual([0, '']);
    const agentId = Object.keys(state(dataDir).agents)[0] as string;
    expect(state(dataDir).agents[agentId].approvals).toBe('never');
    const ask = await cli(['approvals', agentId, 'ask']);
    expect([ask.code, ask.stderr]).toEqual([0, '']);
    expect(ask.stdout).toMatch(/\] asks you before a tool runs\.\n$/);
    expect(state(dataDir).agents[agentId].approvals).toBe('ask');
    expect(activityText(dataDir)).toContain('"kind":"approvals_changed"');
    expect((await cli(['approvals', agentId, 'sometimes'])).code).toBe(2);
    expect((await cli(['approvals', agentId])).code).toBe(2);
  });

  it('under a policy without unattended, `never` is refused with the organization’s reason and nothing is written', async () => {
    const policy = join(tempDir('apollia-cli-pause-policy-'), 'policy.json');
    writeFileSync(policy, JSON.stringify({ version: 1 }));
    const { dataDir, cli } = await dataFolder({ APOLLIA_POLICY_FILE: policy });
    expect((await cli(['apply', 'release-notes', '--param', 'owner=acme', '--param', 'repo=shop', '--yes'])).code).toBe(
      0,
    );
    const agentId = Object.keys(state(dataDir).agents)[0] as string;
    writeFileSync(policy, JSON.stringify({ version: 1, unattended: false }));
    const text = stateText(dataDir);
    const never = await cli(['approvals', agentId, 'never']);
    expect([never.code, never.stderr]).toEqual([
      1,
      'apollia-desktop: The agent cannot run unattended: your organization does not allow tools to run without asking; your organization does not allow this; your administrator can change the policy (at approvals)\n',
    ]);
    expect(stateText(dataDir)).toBe(text);
  });

  it('a package’s agent: one tool at a time through the decision function; a sensitive one cannot run unasked', async () => {
    const { dataDir, cli } = await watcherInstalled();
    const whole = await cli(['approvals', 'watcher/tidy', 'never']);
    expect([whole.code, whole.stderr]).toEqual([
      1,
      'apollia-desktop: Tidy belongs to the package watcher: it has no approvals switch: how each of its tools runs is set per tool (on its row in the dashboard, or `approvals AGENT ask|never --tool TOOL`)\n',
    ]);
    const asks = await cli(['approvals', 'watcher/tidy', 'ask', '--tool', 'file_list']);
    expect([asks.code, asks.stdout]).toEqual([0, 'file_list for Tidy [watcher/tidy] asks you first.\n']);
    const entry = () =>
      state(dataDir).agents['watcher/tidy'].access.find((a: { entry: string }) => a.entry === 'file_list');
    expect(entry().permission).toBe('ask');
    const sensitive = await cli(['approvals', 'watcher/tidy', 'never', '--tool', 'file_list']);
    expect([sensitive.code, sensitive.stderr]).toEqual([
      1,
      'apollia-desktop: agent `tidy` of watcher: `file_list` can read your personal data, so it asks you before each call: it cannot run without asking (at decisions.agents.tidy.access.file_list)\n',
    ]);
    expect((await cli(['revoke', 'watcher/tidy', 'pkg:watcher/tidy_folder'])).code).toBe(0);
    const text = stateText(dataDir);
    const notGranted = await cli(['approvals', 'watcher/tidy', 'ask', '--tool', 'pkg:watcher/tidy_folder']);
    expect([notGranted.code, notGranted.stderr]).toEqual([
      1,
      'apollia-desktop: `pkg:watcher/tidy_folder` is not granted to Tidy: grant it first, then choose how it runs (at tool)\n',
    ]);
    expect(stateText(dataDir)).toBe(text);
  });
});
