/**
 * A rerun says it is already done (DESIGN.md "Commit points": run again, a command "completes or says it is already
 * done", exit 0), against the built CLI: `apply --yes` of the same template with the same answers makes no second
 * agent ("already applied"; `--another` makes one on purpose), `reinstall` of unchanged files and `mcp add` of the
 * same server in clear are nothing to do. Each writes nothing: the state and the record are byte for byte as before.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skipWithoutBuild } from '../../../test/helpers/built-output';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { tempDir } from '../../../test/helpers/test-api';

const BUILT = new URL('../../../out/cli/cli.cjs', import.meta.url).pathname;

/** The built CLI on a fresh data folder: its exit code and output. */
function builtCli() {
  const dir = tempDir('apollia-rerun-');
  const dataDir = join(dir, 'data');
  const run = (args: string[]) => {
    const child = spawnSync(process.execPath, [BUILT, '--data-dir', dataDir, ...args], {
      encoding: 'utf8',
      timeout: 60_000,
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: '/home/someone' },
    });
    return { code: child.status, stdout: child.stdout, stderr: child.stderr };
  };
  /** The state file and the decisions, byte for byte. */
  const written = () => [
    readFileSync(join(dataDir, 'state.json'), 'utf8'),
    readFileSync(join(dataDir, 'activity', 'decisions.jsonl'), 'utf8'),
  ];
  const agents = () =>
    Object.values(JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8')).agents) as {
      id: string;
      archived: boolean;
    }[];
  return { dir, dataDir, run, written, agents };
}

const RELEASE_NOTES = ['apply', 'release-notes', '--param', 'owner=acme', '--param', 'repo=shop', '--yes'];

describe.skipIf(skipWithoutBuild(BUILT))('the built CLI: a rerun says it is already done', () => {
  it('apply --yes again with the same answers: "already applied", exit 0, nothing written; --another makes a second', () => {
    const { run, written, agents } = builtCli();
    const first = run(RELEASE_NOTES);
    expect([first.code, first.stderr]).toEqual([0, '']);
    const [made] = agents();
    const before = written();

    const again = run(RELEASE_NOTES);
    expect([again.code, again.stderr]).toEqual([0, '']);
    expect(again.stdout).toMatch(
      new RegExp(
        `^Already applied: Release notes: acme/shop \\[${made?.id}\\], made \\S+, has exactly these parameters`,
      ),
    );
    expect(again.stdout).toContain('nothing to do (add --another to make a second agent)');
    expect(written()).toEqual(before);
    expect(agents()).toHaveLength(1);

    const json = run([...RELEASE_NOTES, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: true,
      applied: false,
      alreadyApplied: true,
      agentId: made?.id,
    });
    expect(written()).toEqual(before);

    const another = run([...RELEASE_NOTES, '--another']);
    expect([another.code, another.stderr]).toEqual([0, '']);
    expect(another.stdout).toMatch(/^Applied: Release notes: acme\/shop \[/);
    expect(agents()).toHaveLength(2);
  }, 120_000);

  it('apply with other answers, or after the agent was changed or removed, is another apply; the new one is then the same', () => {
    const { run, agents } = builtCli();
    expect(run(RELEASE_NOTES).code).toBe(0);
    // Another parameter value: another agent.
    const otherRepo = run(['apply', 'release-notes', '--param', 'owner=acme', '--param', 'repo=web', '--yes']);
    expect(otherRepo.stdout).toMatch(/^Applied: Release notes: acme\/web/);
    // Other approvals: another agent.
    const never = run([...RELEASE_NOTES, '--approvals', 'never']);
    expect(never.stdout).toMatch(/^Applied: /);
    expect(agents()).toHaveLength(3);
    // The same answers as the first, once its approvals were changed since: not the same agent any more.
    const [first] = agents();
    expect(run(['approvals', first?.id as string, 'never']).code).toBe(0);
    expect(run(RELEASE_NOTES).stdout).toMatch(/^Applied: /);
    expect(agents()).toHaveLength(4);
    // Removed (archived): applying again makes a live one.
    const live = agents().filter((a) => !a.archived);
    for (const agent of live) expect(run(['remove', agent.id]).code).toBe(0);
    expect(run(RELEASE_NOTES).stdout).toMatch(/^Applied: /);
    expect(agents().filter((a) => !a.archived)).toHaveLength(1);
    // And that live one, asked again the same: already applied.
    expect(run(RELEASE_NOTES).stdout).toMatch(/^Already applied: /);
    expect(agents().filter((a) => !a.archived)).toHaveLength(1);
  }, 180_000);

  it('reinstall of files unchanged since install: nothing to do, exit 0, nothing written (so is the rerun of one)', () => {
    const { dir, dataDir, run, written } = builtCli();
    const apo = join(dir, 'invoices.apo');
    writeFileSync(apo, packFolder(INVOICES_DIR));
    expect(run(['install', apo, '--yes', '--arm', 'first-monday']).code).toBe(0);
    const before = written();
    const unchanged = run(['reinstall', apo, '--yes']);
    expect([unchanged.code, unchanged.stdout, unchanged.stderr]).toEqual([
      0,
      'invoices 1.2.0: its files are unchanged since install: nothing to do\n',
      '',
    ]);
    expect(written()).toEqual(before);
    expect(JSON.parse(run(['reinstall', apo, '--json']).stdout)).toEqual({
      ok: true,
      applied: false,
      unchanged: true,
      name: 'invoices',
      version: '1.2.0',
    });

    // Changed, reinstalled, then the same reinstall again: done the first time, nothing to do the second.
    appendFileSync(join(dataDir, 'packages', 'invoices', '1.2.0', 'tools', 'extract.py'), '\n# changed\n');
    const put = run(['reinstall', apo, '--yes']);
    expect([put.code, put.stderr]).toEqual([0, '']);
    expect(put.stdout).toContain('Reinstalled invoices 1.2.0');
    const after = written();
    const rerun = run(['reinstall', apo, '--yes']);
    expect([rerun.code, rerun.stdout]).toEqual([
      0,
      'invoices 1.2.0: its files are unchanged since install: nothing to do\n',
    ]);
    expect(written()).toEqual(after);
  }, 120_000);

  it('mcp add of the same server in clear: nothing to do, exit 0, nothing written; another command line replaces it', () => {
    const { run, written } = builtCli();
    expect(run(['mcp', 'add', 'slack', '--command', 'slack-mcp', '--arg', '--stdio']).stdout).toBe(
      'Saved MCP server slack: slack-mcp --stdio\n',
    );
    const before = written();
    const again = run(['mcp', 'add', 'slack', '--command', 'slack-mcp', '--arg', '--stdio']);
    expect([again.code, again.stdout, again.stderr]).toEqual([
      0,
      'MCP server slack: slack-mcp --stdio is already saved as given: nothing to do\n',
      '',
    ]);
    expect(written()).toEqual(before);
    // A url server the same way; then another argument is a change, saved and recorded.
    expect(run(['mcp', 'add', 'notes', '--url', 'https://notes.example.com/mcp']).code).toBe(0);
    const notes = written();
    expect(run(['mcp', 'add', 'notes', '--url', 'https://notes.example.com/mcp']).stdout).toContain(
      'is already saved as given: nothing to do',
    );
    expect(written()).toEqual(notes);
    const other = run(['mcp', 'add', 'slack', '--command', 'slack-mcp']);
    expect([other.code, other.stdout]).toEqual([0, 'Replaced MCP server slack: slack-mcp\n']);
    expect(written()).not.toEqual(notes);
  }, 120_000);
});
