/**
 * DESIGN.md "The command line": a command that changes what an agent may do asks before it acts (a preview,
 * nothing changed without `--yes`), and every refusal is one contract: each problem with its field, and with
 * `--json` one document `{ ok: false, errors: [{ code, message, path }] }` on standard output; exit 0, 1 or 2.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { tempDir, treeHash } from '../../../test/helpers/test-api';
import { runCliCaptured } from '../../../test/helpers/cli-run';
import { VERDICT_LABELS } from '../../../shared/decisions/verdict';
import { mcpServerForRun } from '../secrets/mcp-credentials';
import { createFileKeySecretBox } from '../secrets/secret-box';
import { Store } from '../store/store';

const WATCHER = new URL('../../../test/fixtures/apo/watcher', import.meta.url).pathname;

function apo(): string {
  const path = join(tempDir('apollia-contract-apo-'), 'watcher.apo');
  writeFileSync(path, packFolder(WATCHER));
  return path;
}

/** The verdict's line, as the consent form's first words (`High risk: Can run programs …`). */
const VERDICT_LINE = new RegExp(`^(${Object.values(VERDICT_LABELS).join('|')}): \\S`);

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);

describe('asks before it acts', () => {
  it('apply without --yes prints the verdict first and the preview, and changes nothing', async () => {
    const dataDir = join(tempDir('apollia-contract-'), 'data');
    const run = await runCliCaptured([
      '--data-dir',
      dataDir,
      'apply',
      'release-notes',
      '--param',
      'owner=acme',
      '--param',
      'repo=widgets',
    ]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout.split('\n')[0]).toMatch(VERDICT_LINE);
    // The template recommends `never`; the person did not choose it, so it asks.
    expect(run.stdout).toContain('  approvals: ask (');
    expect(run.stdout).toContain('the template recommends never');
    expect(lastLine(run.stdout)).toBe('Nothing was changed: add --yes to do it');
    expect(existsSync(dataDir)).toBe(false);
  });

  it('apply --json without --yes is one document { ok, applied: false, preview }; --approvals never chooses never', async () => {
    const dataDir = join(tempDir('apollia-contract-'), 'data');
    const args = ['--data-dir', dataDir, 'apply', 'release-notes', '--param', 'owner=acme', '--param', 'repo=widgets'];
    const run = await runCliCaptured([...args, '--json']);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect([doc.ok, doc.applied, doc.preview.approvals.chosen, doc.preview.canApply]).toEqual([
      true,
      false,
      'ask',
      true,
    ]);
    expect(existsSync(dataDir)).toBe(false);
    const never = JSON.parse((await runCliCaptured([...args, '--json', '--approvals', 'never'])).stdout);
    expect(never.preview.approvals.chosen).toBe('never');
    const done = await runCliCaptured([...args, '--json', '--yes']);
    expect(done.code).toBe(0);
    const receipt = JSON.parse(done.stdout);
    expect([receipt.ok, receipt.applied, receipt.preview.approvals.chosen]).toEqual([true, true, 'ask']);
    expect(existsSync(join(dataDir, 'state.json'))).toBe(true);
  });

  it('install --json without --yes is one document { ok, applied: false, preview }, nothing written', async () => {
    const dataDir = join(tempDir('apollia-contract-'), 'data');
    const run = await runCliCaptured(['--data-dir', dataDir, 'install', apo(), '--json']);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect([doc.ok, doc.applied, doc.preview.summary.name]).toEqual([true, false, 'watcher']);
    expect(Object.keys(doc.preview.decisions.agents).length).toBeGreaterThan(0);
    expect(existsSync(dataDir)).toBe(false);
    const text = await runCliCaptured(['--data-dir', dataDir, 'install', apo()]);
    expect(text.stdout.split('\n')[0]).toMatch(VERDICT_LINE);
    expect(lastLine(text.stdout)).toBe('Nothing was changed: add --yes to do it');
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe('one refusal contract', () => {
  /** A data folder with the watcher package installed, for the commands that need something to refuse. */
  async function installed(): Promise<string> {
    const dataDir = join(tempDir('apollia-contract-'), 'data');
    const done = await runCliCaptured(['--data-dir', dataDir, 'install', apo(), '--yes']);
    expect(done.code).toBe(0);
    return dataDir;
  }

  const notApo = () => {
    const dir = tempDir('apollia-contract-in-');
    writeFileSync(join(dir, 'notes.txt'), 'hello');
    return join(dir, 'notes.txt');
  };

  // One refused invocation per command; each is refused with exit 1 and, with --json, one document on stdout.
  const cases: [string, (dataDir: string) => string[]][] = [
    ['inspect', () => ['inspect', notApo()]],
    ['install', () => ['install', apo(), '--yes', '--grant', 'no_such_entry']],
    ['reinstall', () => ['reinstall', notApo()]],
    ['apply', () => ['apply', 'release-notes', '--param', 'owner=acme']],
    ['pack', () => ['pack', tempDir('apollia-contract-empty-')]],
    ['arm', () => ['arm', 'watcher/nope']],
    ['disarm', () => ['disarm', 'watcher/nope']],
    ['grant', () => ['grant', 'nobody/none', 'file_read']],
    ['revoke', () => ['revoke', 'nobody/none', 'file_read']],
    ['remove', () => ['remove', 'nobody/none']],
    ['mcp', () => ['mcp', 'remove', 'nope']],
    ['rotate', () => ['rotate', 'watcher/nope']],
    ['uninstall', () => ['uninstall', 'nope']],
    ['trust', () => ['trust', 'remove', 'RWQ0000000000000', '--yes']],
    ['runs', () => ['runs', 'discard', 'no-such-run', '--yes']],
  ];

  it.each(cases)('%s: the text names each problem; --json prints one document on stdout; exit 1', async (_, argv) => {
    const dataDir = await installed();
    const before = treeHash(dataDir);
    const text = await runCliCaptured(['--data-dir', dataDir, ...argv(dataDir)]);
    expect(text.code).toBe(1);
    expect(text.stderr + text.stdout).not.toBe('');
    const json = await runCliCaptured(['--data-dir', dataDir, ...argv(dataDir), '--json']);
    expect(json.code).toBe(1);
    const doc = JSON.parse(json.stdout);
    expect(doc.ok).toBe(false);
    expect(doc.errors.length).toBeGreaterThan(0);
    for (const error of doc.errors) {
      expect(typeof error.code).toBe('string');
      expect(error.code).not.toBe('');
      expect(typeof error.message).toBe('string');
      expect(error.path === null || typeof error.path === 'string').toBe(true);
    }
    expect(treeHash(dataDir)).toBe(before);
  });

  it("apply's refusal names the field, in text and in JSON (parameters.repo)", async () => {
    const dataDir = join(tempDir('apollia-contract-'), 'data');
    const argv = ['--data-dir', dataDir, 'apply', 'release-notes', '--param', 'owner=acme'];
    const text = await runCliCaptured(argv);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain('(at parameters.repo)');
    const json = await runCliCaptured([...argv, '--json']);
    const doc = JSON.parse(json.stdout);
    expect(doc.errors).toContainEqual(expect.objectContaining({ code: 'apply.parameter', path: 'parameters.repo' }));
    expect(existsSync(dataDir)).toBe(false);
  });

  it('an unknown --param lists the parameters', async () => {
    const run = await runCliCaptured([
      '--data-dir',
      join(tempDir('apollia-contract-'), 'data'),
      'apply',
      'release-notes',
      '--param',
      'owner=acme',
      '--param',
      'repo=w',
      '--param',
      'chanel=x',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('`chanel` is not a parameter of release-notes (its parameters: owner, repo, audience');
  });

  it('list and verify refuse a store of a future version, in one JSON document', async () => {
    const dataDir = join(tempDir('apollia-contract-'), 'data');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'state.json'), '{"version": 999}');
    for (const argv of [['list'], ['verify']]) {
      const json = await runCliCaptured(['--data-dir', dataDir, ...argv, '--json']);
      expect(json.code, argv.join(' ')).toBe(1);
      const doc = JSON.parse(json.stdout);
      expect([doc.ok, typeof doc.errors[0].code]).toEqual([false, 'string']);
    }
  });
});

describe('usage errors', () => {
  it('are one line and a hint, with the nearest option or command', async () => {
    const flag = await runCliCaptured(['apply', 'kyb', '--jsn']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe(
      'apollia-desktop: unknown option `--jsn` for apply: did you mean --json?\n(`apollia-desktop apply --help` shows the usage)\n',
    );
    const command = await runCliCaptured(['instal', 'x.apo']);
    expect(command.code).toBe(2);
    expect(command.stderr.split('\n')[0]).toBe('apollia-desktop: unknown command `instal`: did you mean install?');
    const far = await runCliCaptured(['inspect', 'x', '--zzzzzzzz']);
    expect(far.stderr.split('\n')[0]).toBe('apollia-desktop: unknown option `--zzzzzzzz` for inspect');
  });

  it('--version prints the version of package.json', async () => {
    const { version } = (await import('../../../package.json')).default;
    const run = await runCliCaptured(['--version']);
    expect([run.code, run.stdout]).toEqual([0, `apollia-desktop ${version}\n`]);
  });
});

describe('names and paths', () => {
  /** A folder with a template folder called `kyb` in it: the built-in's name, shadowed here. */
  function shadowing(): string {
    const here = tempDir('apollia-contract-here-');
    cpSync(new URL('../../../resources/templates/kyb', import.meta.url).pathname, join(here, 'kyb'), {
      recursive: true,
    });
    return here;
  }

  it('inspect takes a built-in template by its name', async () => {
    const run = await runCliCaptured(['inspect', 'code-review', '--json'], { cwd: tempDir('apollia-contract-') });
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect([doc.kind, doc.summary.name, doc.summary.signature.state]).toEqual(['template', 'code-review', 'builtin']);
  });

  it('a bare name is the built-in even where a folder of that name is here, and says so; ./NAME is the folder', async () => {
    const cwd = shadowing();
    const named = await runCliCaptured(['inspect', 'kyb', '--json'], { cwd });
    expect(JSON.parse(named.stdout).summary.signature.state).toBe('builtin');
    expect(named.stderr).toContain('`kyb` is the built-in template of that name, not the folder kyb here');
    expect(named.stderr).toContain('(./kyb)');
    const path = await runCliCaptured(['inspect', './kyb', '--json'], { cwd });
    expect(JSON.parse(path.stdout).summary.signature.state).not.toBe('builtin');
    expect(path.stderr).toBe('');
    const dataDir = join(tempDir('apollia-contract-'), 'data');
    const applied = await runCliCaptured(['--data-dir', dataDir, 'apply', 'kyb', '--json'], { cwd });
    expect(applied.stderr).toContain('`kyb` is the built-in template of that name');
    const folder = await runCliCaptured(['--data-dir', dataDir, 'apply', './kyb', '--json'], { cwd });
    expect([folder.code, folder.stderr]).toEqual([0, '']);
  });
});

describe('the small traps', () => {
  it('a plain folder is called what it is, by inspect, install and apply', async () => {
    const plain = tempDir('apollia-contract-plain-');
    mkdirSync(join(plain, 'src'));
    writeFileSync(join(plain, 'src', 'main.py'), 'print(1)\n');
    const dataDir = join(tempDir('apollia-contract-'), 'data');
    const inspected = await runCliCaptured(['inspect', plain]);
    expect(inspected.code).toBe(1);
    expect(inspected.stdout.split('\n')[0]).toBe(
      'plain folder: neither a template (agent.md at its root) nor a package folder (apollia.toml at its root)',
    );
    for (const command of ['install', 'apply']) {
      const run = await runCliCaptured(['--data-dir', dataDir, command, plain]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`${plain} is a plain folder, neither a template`);
      expect(run.stderr).not.toMatch(/apply it|template's only folders/);
    }
    expect(existsSync(dataDir)).toBe(false);
  });

  it('an access entry no agent offers is called an entry', async () => {
    const dataDir = join(tempDir('apollia-contract-'), 'data');
    const run = await runCliCaptured(['--data-dir', dataDir, 'install', apo(), '--grant', 'mcp:ledger/lokup']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^apollia-desktop: watcher offers no entry `mcp:ledger\/lokup` \(it can grant: /);
  });

  it('a zip renamed .apo says what to do with it', async () => {
    const dir = tempDir('apollia-contract-zip-');
    writeFileSync(join(dir, 'renamed.apo'), Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(60)]));
    const run = await runCliCaptured(['inspect', join(dir, 'renamed.apo')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('unzip it into a folder, then `apollia-desktop pack FOLDER` writes the .apo');
  });

  it('install --yes says each armed trigger once, with a webhook’s address; uninstall counts in words', async () => {
    const dataDir = join(tempDir('apollia-contract-'), 'data');
    const done = await runCliCaptured(['--data-dir', dataDir, 'install', apo(), '--yes', '--arm', 'on-call']);
    expect(done.code).toBe(0);
    expect(done.stdout.match(/on-call: armed/g)).toHaveLength(1);
    expect(done.stdout).not.toContain('Armed:');
    expect(done.stdout).toContain('  Its address: http://127.0.0.1:47611/hooks/watcher/on-call (Only this computer');
    const armed = await runCliCaptured(['--data-dir', dataDir, 'arm', 'watcher/on-call']);
    expect(armed.stdout).toContain('  Its address: http://127.0.0.1:47611/hooks/watcher/on-call');
    const gone = await runCliCaptured(['--data-dir', dataDir, 'uninstall', 'watcher']);
    expect(gone.stdout).toMatch(/: 1 agent and 3 triggers removed\.\n$/);
  });
});

describe('a template inspected in words', () => {
  it('lists its parameters, saying which are required, and no raw JSON lists', async () => {
    const run = await runCliCaptured(['inspect', 'release-notes']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('\nparameters: owner (required), repo (required), audience (default "users")\n');
    expect(run.stdout).toContain('\nmcp servers: github\n');
    expect(run.stdout).toContain('\ntriggers: none\n');
    expect(run.stdout).not.toMatch(/: \[/);
  });
});

describe('pack leaves out what is no part of the package', () => {
  it('leaves out dotfiles, .git/ and what .apoignore lists, says so, and packs a dotfile `!` names', async () => {
    const dir = join(tempDir('apollia-contract-pack-'), 'invoices');
    cpSync(INVOICES_DIR, dir, { recursive: true });
    writeFileSync(join(dir, '.env'), 'API_KEY=sk-live-123\n');
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(dir, 'debug.log'), 'noise\n');
    writeFileSync(join(dir, '.apoignore'), '# not the package\n*.log\n');
    const out = join(tempDir('apollia-contract-out-'), 'invoices.apo');
    const run = await runCliCaptured(['pack', dir, '-o', out]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toMatch(/^Left out: \.env, \.git\/, debug\.log \(/m);
    const listed = JSON.parse((await runCliCaptured(['inspect', out, '--json'])).stdout);
    const files = listed.details.files.map((f: { path: string }) => f.path);
    expect(files.filter((f: string) => /(^|\/)\.|\.log$/.test(f))).toEqual([]);
    // The same bytes as the folder without them: only the package is packed.
    const clean = join(tempDir('apollia-contract-out-'), 'clean.apo');
    expect((await runCliCaptured(['pack', INVOICES_DIR, '-o', clean])).code).toBe(0);
    expect(readFileSync(out).equals(readFileSync(clean))).toBe(true);
    writeFileSync(join(dir, '.apoignore'), '*.log\n!.env\n');
    const kept = await runCliCaptured(['pack', dir, '-o', out, '--force']);
    expect(kept.stdout).toMatch(/^Left out: \.git\/, debug\.log \(/m);
  });
});

describe('MCP credentials off the command line', () => {
  it('mcp add takes the environment from a file or standard input, sealed, and warns about --env', async () => {
    const dataDir = join(tempDir('apollia-contract-'), 'data');
    const file = join(tempDir('apollia-contract-env-'), 'slack.env');
    writeFileSync(file, '# the bot\nexport SLACK_BOT_TOKEN="xoxb-1234567890-abcdef"\n\n');
    const fromFile = await runCliCaptured([
      '--data-dir',
      dataDir,
      'mcp',
      'add',
      'slack',
      '--command',
      'npx',
      '--env-file',
      file,
    ]);
    expect([fromFile.code, fromFile.stderr]).toEqual([0, '']);
    expect(fromFile.stdout).toBe('Saved MCP server slack: npx  [credentials kept encrypted]\n');
    expect(readFileSync(join(dataDir, 'state.json'), 'utf8')).not.toContain('SLACK_BOT_TOKEN');
    expect(readFileSync(join(dataDir, 'state.json'), 'utf8')).not.toContain('xoxb-1234567890');
    const fromStdin = await runCliCaptured(
      ['--data-dir', dataDir, 'mcp', 'add', 'gh', '--command', 'gh-mcp', '--env-stdin'],
      {
        readStdin: async () => 'GITHUB_TOKEN=ghp_abcdefabcdefabcdef\n',
      },
    );
    expect([fromStdin.code, fromStdin.stdout]).toEqual([
      0,
      'Saved MCP server gh: gh-mcp  [credentials kept encrypted]\n',
    ]);
    // The runtime gets the environment back, unsealed, as Settings' own `env` (no `env KEY=VALUE` command prefix).
    const state = await new Store(dataDir).read();
    expect(await mcpServerForRun(state, 'gh', createFileKeySecretBox(dataDir))).toEqual({
      name: 'gh',
      transport: 'stdio',
      command: 'gh-mcp',
      args: [],
      env: { GITHUB_TOKEN: 'ghp_abcdefabcdefabcdef' },
    });
    const bad = await runCliCaptured(['--data-dir', dataDir, 'mcp', 'add', 'x', '--command', 'x', '--env-stdin'], {
      readStdin: async () => 'not a line secret-value\n',
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('standard input, line 1: not KEY=VALUE');
    expect(bad.stderr).not.toContain('secret-value');
    const argv = await runCliCaptured(['--data-dir', dataDir, 'mcp', 'add', 'y', '--command', 'y', '--env', 'A=b']);
    expect(argv.code).toBe(0);
    expect(argv.stderr).toContain('--env-file FILE or --env-stdin keep a credential off the command line');
  });
});

describe('the data folder is its owner’s alone', () => {
  const mode = (path: string) => statSync(path).mode & 0o777;

  it.skipIf(process.platform === 'win32')('the CLI creates it 0700 and its own files 0600', () => {
    const dataDir = join(tempDir('apollia-contract-'), 'data');
    const cliTs = new URL('../../cli.ts', import.meta.url).pathname;
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', cliTs, '--data-dir', dataDir, 'install', apo(), '--yes'],
      {
        encoding: 'utf8',
        env: { ...process.env, HOME: tempDir('apollia-contract-home-') },
      },
    );
    expect([run.status, run.stderr]).toEqual([0, '']);
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? [join(dir, e.name), ...walk(join(dir, e.name))] : e.isFile() ? [join(dir, e.name)] : [],
      );
    expect(mode(dataDir)).toBe(0o700);
    const entries = walk(dataDir);
    expect(entries.length).toBeGreaterThan(3);
    // An installed package's own files keep the modes its archive gives them (the store sets them); the folders above
    // them are 0700, so no other user reaches them.
    const own = entries.filter((path) => !/\/packages\/[^/]+\/[^/]+/.test(path));
    expect(own).toContain(join(dataDir, 'packages', 'watcher'));
    for (const path of own) expect([path, mode(path) & 0o077]).toEqual([path, 0]);
  });

  it.skipIf(process.platform === 'win32')(
    'an existing folder others could read is tightened, with a notice',
    async () => {
      const dataDir = join(tempDir('apollia-contract-'), 'data');
      mkdirSync(join(dataDir, 'packages'), { recursive: true, mode: 0o755 });
      chmodSync(dataDir, 0o755);
      writeFileSync(join(dataDir, 'packages', 'note.txt'), 'x');
      // Set by chmod: an earlier run of the CLI in this process left its umask of 077.
      chmodSync(join(dataDir, 'packages'), 0o755);
      chmodSync(join(dataDir, 'packages', 'note.txt'), 0o644);
      const run = await runCliCaptured(['--data-dir', dataDir, 'list']);
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(`note: the data folder ${dataDir} could be read by other users of this computer`);
      expect([mode(dataDir), mode(join(dataDir, 'packages')), mode(join(dataDir, 'packages', 'note.txt'))]).toEqual([
        0o700, 0o700, 0o600,
      ]);
      expect((await runCliCaptured(['--data-dir', dataDir, 'list'])).stderr).toBe('');
    },
  );
});

describe('activity collector follows the one contract', () => {
  it('a policy lock is exit 1 with its sentence, and with --json one refusal document; nothing written', async () => {
    const dataDir = join(tempDir('apollia-contract-collector-'), 'data');
    const policy = join(tempDir('apollia-contract-collector-policy-'), 'policy.json');
    writeFileSync(
      policy,
      JSON.stringify({ version: 2, activityExport: { otlp: 'https://collector.corp.example/v1/logs' } }),
    );
    const env = { HOME: '/home/someone', APOLLIA_POLICY_FILE: policy };
    const argv = ['--data-dir', dataDir, 'activity', 'collector', 'https://otel.example.com/v1/logs'];
    const text = await runCliCaptured(argv, { env });
    expect([text.code, text.stdout]).toEqual([1, '']);
    expect(text.stderr).toMatch(
      /^apollia-desktop: The activity record is sent to https:\/\/collector\.corp\.example\/v1\/logs/,
    );
    const json = await runCliCaptured([...argv, '--json'], { env });
    expect([json.code, json.stderr]).toEqual([1, '']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      errors: [{ code: 'policy.collector_locked', path: null }],
    });
    const usage = await runCliCaptured(['--data-dir', dataDir, 'activity', 'collector', '--off', 'x', '--json']);
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stdout)).toMatchObject({
      ok: false,
      errors: [{ message: expect.stringContaining('not both') }],
    });
    expect(existsSync(join(dataDir, 'state.json'))).toBe(false);
  });
});
