/**
 * Every signature state through the built command line, as a person or a script meets it: `out/cli/cli.cjs inspect`
 * in text and with `--json`, spawned as its own process, over packages and signatures made by the real `minisign`.
 * The words are the hand-written ones of `test/helpers/signature-stories.ts` (the e2e spec checks the screens against
 * the same, and against this CLI); the text and the JSON are also checked against each other.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { skipWithoutBuild } from './helpers/built-output';
import { describeWithMinisign } from './helpers/minisign-tool';
import { installedFirst, SIGNATURE_STORIES, type StoryKit, storyKit, TRUSTED_AS } from './helpers/signature-stories';

const CLI = new URL('../out/cli/cli.cjs', import.meta.url).pathname;

function cli(...argv: string[]) {
  const run = spawnSync(process.execPath, [CLI, ...argv], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', HOME: tmpdir() },
    input: '',
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The lines of `inspect`'s text that carry the signature verdict. */
function verdictLines(text: string): string {
  return text
    .split('\n')
    .filter((line) => /^(publisher|signature|update): |^ {2}! /.test(line))
    .join('\n');
}

describeWithMinisign('every signature state through the built CLI: text and --json tell one story', () => {
  let kit: StoryKit;
  const dataDirs: Record<'first' | 'update', string> = { first: '', update: '' };
  beforeAll(() => {
    if (skipWithoutBuild(CLI)) return;
    kit = storyKit(mkdtempSync(join(tmpdir(), 'apollia-stories-')));
    for (const stage of ['first', 'update'] as const) {
      dataDirs[stage] = join(kit.dir, `data-${stage}`);
      const trusted = cli(
        '--data-dir',
        dataDirs[stage],
        'trust',
        'add',
        kit.publisher.publicKeyPath,
        '--name',
        TRUSTED_AS,
      );
      expect(trusted.code, trusted.stderr).toBe(0);
    }
    const installed = cli('--data-dir', dataDirs.update, 'install', installedFirst(kit), '--yes');
    expect(installed.code, installed.stderr).toBe(0);
  }, 60_000);

  for (const story of SIGNATURE_STORIES) {
    it.skipIf(skipWithoutBuild(CLI))(`${story.id} (run \`npm run build\` first)`, () => {
      const path = story.make(kit);
      const dataDir = dataDirs[story.stage];
      const text = cli('--data-dir', dataDir, 'inspect', path);
      const json = cli('--data-dir', dataDir, 'inspect', path, '--json');
      expect([text.code, json.code]).toEqual(story.refused ? [1, 1] : [0, 0]);

      // --json: the codes a script reads.
      const summary = JSON.parse(json.stdout).summary;
      expect({
        state: summary.signature.state,
        reason: summary.signature.reason,
        change: summary.signature_update?.change ?? null,
        stop: summary.signature_update?.stop ?? null,
        names: summary.publisher_names,
      }).toEqual(story.json);

      // Text: the words a person reads.
      const said = verdictLines(text.stdout);
      expect(said).toContain(`(${story.label})`);
      for (const sentence of story.says(kit)) expect(said).toContain(sentence);
      if (story.updateSays) expect(said).toContain(`update: ${story.updateSays(kit)}`);
      else expect(said).not.toMatch(/^update:/m);
      if (story.never) expect(said).not.toMatch(story.never);

      // The two agree with each other: the key the JSON names, its update sentence, its refusal.
      if (summary.signature.key_id) expect(said).toContain(summary.signature.key_id);
      if (summary.signature_update) {
        expect(said).toContain(`: ${summary.signature_update.message}.`);
      }
      if (story.refused) expect(text.stdout).toContain(`Refused: ${JSON.parse(json.stdout).errors[0].message}`);
    });
  }

  it.skipIf(skipWithoutBuild(CLI))(
    'a template says who it is from in the same words: shipped with the app, or not signed',
    () => {
      const builtin = new URL('../resources/templates/market-monitor', import.meta.url).pathname;
      const copy = join(mkdtempSync(join(tmpdir(), 'apollia-template-')), 'market-monitor');
      cpSync(builtin, copy, { recursive: true });
      const shipped = verdictLines(cli('inspect', builtin).stdout);
      expect(shipped).toBe(
        'publisher: Apollia (Ships with Apollia Desktop)\nsignature: This template came with the app itself, not from a publisher.',
      );
      const copied = verdictLines(cli('inspect', copy).stdout);
      expect(copied).toBe(
        'publisher: Apollia (Unverified publisher)\nsignature: It is not signed: anyone can write any publisher name.',
      );
      expect(JSON.parse(cli('inspect', copy, '--json').stdout).summary.signature.state).toBe('unsigned');
    },
  );
});
