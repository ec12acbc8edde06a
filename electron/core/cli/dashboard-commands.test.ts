/**
 * The dashboard's actions from the command line: arm, disarm, grant, revoke, remove, mcp, apply of a
 * built-in by name, reinstall after a change was found; each through the Api's own use case, each
 * saying what it did, exit 0 done, 1 refused, 2 usage.
 */
import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packFolder } from '../../../test/helpers/pack';
import { activityText, tempDir } from '../../../test/helpers/test-api';
import { runCliCaptured } from '../../../test/helpers/cli-run';
import { programUsage } from './dispatcher';
import { COMMANDS } from './commands';
import { USAGE_WIDTH } from './usage';

const WATCHER = new URL('../../../test/fixtures/apo/watcher', import.meta.url).pathname;

/** A data folder with the watcher package installed, nothing armed; the .apo's path. */
async function watcherInstalled(): Promise<{
  dataDir: string;
  apo: string;
  cli: (argv: string[], cwd?: string) => ReturnType<typeof runCliCaptured>;
}> {
  const dir = tempDir('apollia-cli-');
  const dataDir = join(dir, 'data');
  const apo = join(dir, 'watcher.apo');
  writeFileSync(apo, packFolder(WATCHER));
  const cli = (argv: string[], cwd = dir) => runCliCaptured(['--data-dir', dataDir, ...argv], { cwd });
  const done = await cli(['install', apo, '--yes', '--grant', 'file_list']);
  expect([done.code, done.stderr]).toEqual([0, '']);
  return { dataDir, apo, cli };
}

function state(dataDir: string) {
  return JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
}

describe('arm and disarm', () => {
  it('arms a schedule, a watched folder and a webhook (made here or the sender’s), then disarms', async () => {
    const { dataDir, cli } = await watcherInstalled();
    const hourly = await cli(['arm', 'watcher/hourly']);
    expect([hourly.code, hourly.stderr]).toEqual([0, '']);
    expect(hourly.stdout).toMatch(/^Armed watcher\/hourly: Every hour, next \d{4}-\d\d-\d\d \d\d:\d\d UTC\n/);

    const folder = join(tempDir('apollia-watched-'), 'inbox');
    mkdirSync(folder);
    const watching = await cli(['arm', 'watcher/on-change', '--folder', folder, '--json']);
    expect(watching.code).toBe(0);
    const armed = JSON.parse(watching.stdout);
    expect([armed.trigger.armed, armed.trigger.folder, armed.webhookSecret]).toEqual([true, folder, null]);

    const webhook = await cli(['arm', 'watcher/on-call']);
    expect(webhook.code).toBe(0);
    expect(webhook.stdout).toMatch(/Webhook secret for watcher\/on-call \(shown once, keep it now\): whsec_\S+\n/);
    expect(webhook.stdout).toContain('secret-box.key');

    expect(
      Object.values(state(dataDir).triggers).map((t) => [(t as { id: string }).id, (t as { armed: boolean }).armed]),
    ).toEqual([
      ['watcher/hourly', true],
      ['watcher/on-change', true],
      ['watcher/on-call', true],
    ]);

    const off = await cli(['disarm', 'watcher/on-call']);
    expect([off.code, off.stdout]).toEqual([
      0,
      'Disarmed watcher/on-call: its signing secret was deleted (arming it again makes a new one).\n',
    ]);
    const secretFile = join(tempDir('apollia-secret-'), 'secret.txt');
    writeFileSync(secretFile, `whsec_${Buffer.alloc(32, 7).toString('base64')}\n`);
    const given = await cli(['arm', 'watcher/on-call', '--webhook-secret-file', secretFile]);
    expect(given.code).toBe(0);
    expect(given.stdout).toContain(
      'Webhook secret for watcher/on-call: the one your sender gave, kept (it is never shown).\n',
    );
    expect(given.stdout).not.toContain('whsec_');
    const disarmed = JSON.parse((await cli(['disarm', 'watcher/on-change', '--json'])).stdout);
    expect([disarmed.armed, disarmed.folder]).toEqual([false, null]);
  });

  it('refuses what the use case refuses (exit 1) and wrong arguments (exit 2)', async () => {
    const { cli } = await watcherInstalled();
    expect(await cli(['arm', 'watcher/on-change'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'apollia-desktop: trigger `on-change` watches a folder: pick one to arm it\n',
    });
    expect((await cli(['arm', 'watcher/nope'])).stderr).toBe(
      'apollia-desktop: There is no trigger `watcher/nope` on this computer.\n',
    );
    expect((await cli(['arm', 'watcher/hourly', '--folder', tempDir()])).code).toBe(1);
    expect((await cli(['arm'])).code).toBe(2);
    expect((await cli(['arm', 'watcher/on-change', '--folder', '/no/such/folder'])).stderr).toMatch(
      /^apollia-desktop: no such folder: \/no\/such\/folder\n/,
    );
    expect((await cli(['arm', 'watcher/on-call', '--webhook-secret', 'x'])).code).toBe(2);
    expect((await cli(['disarm'])).code).toBe(2);
    expect((await cli(['disarm', 'watcher/nope'])).code).toBe(1);
  });
});

describe('grant and revoke', () => {
  it('grants and withdraws entries through setToolAccess, each said; an entry not offered changes nothing', async () => {
    const { dataDir, cli } = await watcherInstalled();
    const granted = await cli(['grant', 'watcher/tidy', 'pkg:watcher/tidy_folder']);
    expect([granted.code, granted.stdout]).toEqual([
      0,
      'Granted pkg:watcher/tidy_folder for Tidy [watcher/tidy]: asks you before each use\n',
    ]);
    const access = () =>
      (state(dataDir).agents['watcher/tidy'].access as { entry: string; granted: boolean }[]).map((a) => [
        a.entry,
        a.granted,
      ]);
    expect(access()).toEqual([
      ['file_list', true],
      ['pkg:watcher/tidy_folder', true],
    ]);
    const typo = await cli(['revoke', 'watcher/tidy', 'file_list', 'shel']);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toBe(
      'apollia-desktop: Tidy is not offered `shel`; nothing was changed. It is offered: file_list, pkg:watcher/tidy_folder\n',
    );
    expect(access()[0]).toEqual(['file_list', true]);
    const revoked = await cli(['revoke', 'watcher/tidy', 'file_list', 'pkg:watcher/tidy_folder', '--json']);
    expect(revoked.code).toBe(0);
    expect(
      JSON.parse(revoked.stdout).access.map((a: { tool: string; permission: string }) => [a.tool, a.permission]),
    ).toEqual([
      ['file_list', 'deny'],
      ['pkg:watcher/tidy_folder', 'deny'],
    ]);
    expect((await cli(['grant', 'watcher/nobody', 'file_list'])).stderr).toBe(
      'apollia-desktop: There is no agent `watcher/nobody` on this computer.\n',
    );
    expect((await cli(['grant', 'watcher/tidy'])).code).toBe(2);
    expect((await cli(['activity', '--agent', 'watcher/tidy', '--json'])).stdout).toContain('"kind": "revoke"');
    const bare = await cli(['activity', '--agent', 'tidy']);
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain(
      'no agent `tidy` is known: none is installed by that id and the record never named it (an agent is named by its id as `list` shows it, package/agent, e.g. invoices/invoice-clerk)',
    );
    const activity = activityText(dataDir);
    expect(activity).toContain('"kind":"grant"');
    expect(activity).toContain('"kind":"revoke"');
  });
});

describe('apply NAME, mcp, remove', () => {
  it('applies a built-in by name from any folder, with an MCP server saved by `mcp add`; removes its agent; a package agent is refused', async () => {
    const { dataDir, cli } = await watcherInstalled();
    const elsewhere = tempDir('apollia-elsewhere-');
    const withoutServer = await cli(
      [
        'apply',
        'inbound-lead',
        '--param',
        'icp=B2B SaaS',
        '--param',
        'slack_channel=C0123ABCD',
        '--grant',
        'mcp:slack/slack_send_message',
        '--yes',
      ],
      elsewhere,
    );
    expect(withoutServer.code).toBe(0);
    expect(withoutServer.stdout).toContain('No MCP server `slack` is saved');
    const firstId = (withoutServer.stdout.match(/^Applied: .* \[(.+)\]$/m) ?? [])[1] as string;
    const tools = async (id: string) =>
      (JSON.parse((await cli(['list', '--json'])).stdout).agents as { id: string; access: { tool: string }[] }[])
        .find((a) => a.id === id)
        ?.access.map((a) => a.tool);
    expect(await tools(firstId)).not.toContain('mcp:slack/slack_send_message');

    const saved = await cli(
      [
        'mcp',
        'add',
        'slack',
        '--command',
        'npx',
        '--arg',
        '-y',
        '--arg',
        '@modelcontextprotocol/server-slack',
        '--env',
        'SLACK_BOT_TOKEN=xoxb-1234567890-abcdefghijkl',
      ],
      elsewhere,
    );
    expect(saved.code).toBe(0);
    expect(saved.stderr).toContain('--env-file FILE or --env-stdin keep a credential off the command line');
    expect(saved.stdout).toMatch(
      /^Saved MCP server slack: npx -y @modelcontextprotocol\/server-slack {2}\[credentials kept encrypted\]\n$/,
    );
    expect(readFileSync(join(dataDir, 'state.json'), 'utf8')).not.toContain('xoxb-1234567890');
    expect((await cli(['mcp', 'add', 'hubspot', '--url', 'https://mcp.hubspot.example/mcp'])).stdout).toBe(
      'Saved MCP server hubspot: https://mcp.hubspot.example/mcp, over the network (HTTP) (streamable-http)\n',
    );
    const listed = JSON.parse((await cli(['mcp', 'list', '--json'])).stdout);
    expect(listed.servers.map((s: { name: string; transport: string }) => [s.name, s.transport])).toEqual([
      ['hubspot', 'streamable-http'],
      ['slack', 'stdio'],
    ]);
    expect((await cli(['mcp', 'list'])).stdout).toContain(
      'MCP servers:\n  hubspot: https://mcp.hubspot.example/mcp, over the network (HTTP) (streamable-http)\n',
    );

    const applied = await cli(
      [
        'apply',
        'inbound-lead',
        '--param',
        'icp=B2B SaaS',
        '--param',
        'slack_channel=C0123ABCD',
        '--grant',
        'mcp:slack/slack_send_message',
        '--yes',
      ],
      elsewhere,
    );
    expect([applied.code, applied.stderr]).toEqual([0, '']);
    const agentId = (applied.stdout.match(/^Applied: Inbound lead research.* \[(.+)\]$/m) ?? [])[1] as string;
    expect(applied.stdout).not.toContain('No MCP server `slack` is saved');
    expect(await tools(agentId)).toContain('mcp:slack/slack_send_message');
    expect(applied.stdout).toContain(
      `  trigger new-lead (webhook): off: \`arm ${agentId}/new-lead\` makes its secret (or takes your sender's)\n`,
    );
    const armed = await cli(['arm', `${agentId}/new-lead`]);
    expect(armed.code).toBe(0);
    expect(armed.stdout).toContain(`Webhook secret for ${agentId}/new-lead (shown once, keep it now): whsec_`);

    const removed = await cli(['remove', agentId]);
    expect([removed.code, removed.stdout]).toEqual([
      0,
      `Removed Inbound lead research [${agentId}]: archived, it no longer runs.\n  Triggers disarmed: ${agentId}/new-lead\n`,
    ]);
    expect(state(dataDir).agents[agentId].archived).toBe(true);
    // Removed already (a rerun after a kill): said, exit 0.
    expect(await cli(['remove', agentId])).toMatchObject({
      code: 0,
      stdout: 'Inbound lead research is archived: removed already; nothing to do.\n',
    });
    expect((await cli(['remove', 'watcher/tidy'])).stderr).toBe(
      'apollia-desktop: Tidy belongs to the package watcher: uninstall the package instead.\n',
    );

    expect((await cli(['mcp', 'remove', 'hubspot'])).stdout).toBe('Removed MCP server hubspot.\n');
    expect((await cli(['mcp', 'remove', 'hubspot'])).stderr).toBe(
      'apollia-desktop: No MCP server `hubspot` is saved.\n',
    );
    expect((await cli(['mcp', 'add', 'x', '--command', 'a', '--url', 'https://b.example'])).code).toBe(2);
    expect((await cli(['mcp', 'add', 'x', '--command', 'a', '--env', '1BAD=v'])).code).toBe(2);
    expect((await cli(['mcp', 'add', 'x', '--url', 'ftp://b.example'])).code).toBe(1);
    expect((await cli(['apply', 'no-such-template'], elsewhere)).code).toBe(2);
  });

  it('inspect reports a built-in template `builtin` from any working folder', async () => {
    const builtin = new URL('../../../resources/templates/kyb', import.meta.url).pathname;
    const run = await runCliCaptured(['inspect', builtin, '--json'], { cwd: tempDir('apollia-elsewhere-') });
    expect(JSON.parse(run.stdout).summary.signature.state).toBe('builtin');
  });
});

describe('reinstall after the integrity check found a change', () => {
  it('shows what changed, then puts the same version back: what the change paused resumes, folder and secret kept', async () => {
    const { dataDir, apo, cli } = await watcherInstalled();
    const folder = tempDir('apollia-watched-');
    expect((await cli(['arm', 'watcher/on-change', '--folder', folder])).code).toBe(0);
    expect((await cli(['arm', 'watcher/on-call'])).code).toBe(0);
    const unchanged = await cli(['reinstall', apo]);
    expect([unchanged.code, unchanged.stdout]).toEqual([
      0,
      'watcher 0.1.0: its files are unchanged since install: nothing to do\n',
    ]);

    expect((await cli(['revoke', 'watcher/tidy', 'pkg:watcher/tidy_folder'])).code).toBe(0);
    const answers = state(dataDir).agents['watcher/tidy'].access;
    expect(answers.map((a: { entry: string; granted: boolean }) => [a.entry, a.granted])).toContainEqual([
      'pkg:watcher/tidy_folder',
      false,
    ]);
    const [version] = readdirSync(join(dataDir, 'packages', 'watcher'));
    appendFileSync(
      join(dataDir, 'packages', 'watcher', version as string, 'tools', 'tidy.py'),
      '\nimport os; os.system("curl evil")\n',
    );
    // No `verify` first: reinstall checks the files itself.
    const dry = await cli(['reinstall', apo]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(
      'watcher 0.1.0 changed on this computer since you installed it (1 changed: tools/tidy.py).\n  changed tools/tidy.py\n',
    );
    expect(dry.stdout).toContain(
      '  resumes:    watcher/on-call (paused by integrity, still armed)\n  resumes:    watcher/on-change (paused by integrity, still armed)\n',
    );
    expect(dry.stdout).not.toContain('arms again');
    expect(dry.stdout).toContain('\nNothing was changed: add --yes to do it\n');
    // Paused, not disarmed: still armed, the folder and the webhook's secret kept.
    const paused = state(dataDir);
    expect([paused.triggers['watcher/on-change'].folder, paused.triggers['watcher/on-call'].armed]).toEqual([
      folder,
      true,
    ]);
    const secretRef = paused.triggers['watcher/on-call'].secretRef;
    expect(paused.webhookSecrets[secretRef]).toEqual(expect.anything());

    const done = await cli(['reinstall', apo, '--yes']);
    expect([done.code, done.stderr]).toEqual([0, '']);
    expect(done.stdout).toContain(
      'Reinstalled watcher 0.1.0: its files are the installed ones again.\n  Resumed: watcher/on-change, watcher/on-call\n',
    );
    // The sender's secret still signs: none is made again.
    expect(done.stdout).not.toContain('New webhook secret');
    const after = state(dataDir);
    expect([
      after.triggers['watcher/on-change'].armed,
      after.triggers['watcher/on-change'].folder,
      after.triggers['watcher/on-call'].armed,
      after.triggers['watcher/hourly'].armed,
    ]).toEqual([true, folder, true, false]);
    expect(after.triggers['watcher/on-call'].secretRef).toBe(secretRef);
    expect(after.agents['watcher/tidy'].access).toEqual(answers);
    expect((await cli(['verify'])).code).toBe(0);
  });

  it('refuses a package not installed (install it) and another version (install updates)', async () => {
    const dir = tempDir('apollia-cli-');
    const apo = join(dir, 'watcher.apo');
    writeFileSync(apo, packFolder(WATCHER));
    const run = await runCliCaptured(['--data-dir', join(dir, 'data'), 'reinstall', apo], { cwd: dir });
    expect([run.code, run.stderr]).toEqual([
      1,
      `apollia-desktop: watcher is not installed here: install it with \`install ${apo}\`\n`,
    ]);
    expect((await runCliCaptured(['--data-dir', join(dir, 'data'), 'reinstall'])).code).toBe(2);
  });
});

describe('help', () => {
  it('fits 100 columns, the program’s and every command’s, and lists every option of every command', async () => {
    const texts = [
      programUsage(),
      ...(await Promise.all(COMMANDS.map(async (c) => (await runCliCaptured([c.name, '--help'])).stdout))),
    ];
    for (const text of texts)
      for (const line of text.split('\n')) expect(line.length, line).toBeLessThanOrEqual(USAGE_WIDTH);
    const usage = programUsage();
    // Every option a command's own help names is in the program's help too.
    for (const [i, command] of COMMANDS.entries()) {
      const own = new Set((texts[i + 1] ?? '').match(/--[a-z][a-z-]*/g) ?? []);
      for (const option of own)
        if (option !== '--help' && option !== '--data-dir')
          expect(usage, `${command.name} ${option}`).toContain(option);
    }
    for (const option of [
      '--withhold',
      '--approvals',
      '--arm',
      '--webhook-secret-file',
      '--webhook-secret-stdin',
      '--accept-key-change',
      '--allow-downgrade',
      '--folder',
      '--env',
      '--url',
      '--transport',
      '--force',
      '--port',
      '--limit',
      '--agent',
    ]) {
      expect(usage).toContain(option);
    }
  });
});
