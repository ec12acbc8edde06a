/**
 * Template edges at the command line: `inspect` refuses what apply would refuse (the agent over 1 MiB, a
 * skill file's path clash) in the spec's words, `apply` measures the real values before writing
 * anything, and the decisions where the spec is silent hold.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../../test/helpers/cli-run';
import { writeTemplate } from '../../../test/helpers/template-folders';
import { tempDir } from '../../../test/helpers/test-api';

async function cli(argv: string[]) {
  return runCliCaptured(argv);
}

/** A template with no secrets, MCP servers or triggers: apply is blocked only by what a test gives. */
function plainTemplate(
  edit: (m: Record<string, any>) => void = () => undefined,
  body = 'Digest for ${parameters.channel}: ${parameters.notes}\n',
): string {
  // eslint-disable-line @typescript-eslint/no-explicit-any
  return writeTemplate(
    (m, files) => {
      delete m.secrets;
      delete m.mcp;
      delete m.triggers;
      delete m.budget;
      m.parameters.notes = { type: 'string', description: 'Free notes.' };
      delete m.parameters.cron;
      files['evals/basic/case.yaml'] = 'parameters:\n  channel: C0123ABCD\n';
      delete files['evals/basic/fixtures/slack.json'];
      delete files['evals/basic/graders/sent.md'];
      edit(m);
    },
    { body },
  );
}

describe('inspect refuses what apply would refuse, at the template edges', () => {
  it('refuses an agent over 1 MiB, in the spec’s words, with exit 1', async () => {
    const folder = writeTemplate(
      (m) => (m.parameters.long = { type: 'string', default: 'a'.repeat(1_000), description: 'A long text.' }),
      { body: `${'${parameters.long} '.repeat(1_100)}\n` },
    );
    const done = await cli(['inspect', folder, '--json']);
    expect(done.code).toBe(1);
    const json = JSON.parse(done.stdout);
    expect(json.ok).toBe(false);
    expect(json.errors).toEqual([
      {
        code: 'template.agent_too_large',
        path: 'agent.md',
        message: expect.stringContaining('over its 1 MiB limit of 1,048,576 bytes (`413`)'),
      },
    ]);
    expect(json.errors[0].message).toContain('`POST /v2/agents`');
  });

  it('refuses a rule copy and an output schema landing on a skill file, naming both paths', async () => {
    const folder = writeTemplate((_m, files) => {
      files['skills/digest/tone.md'] = 'Be brief.\n';
      files['rules/tone.md'] = 'Be warm.\n';
      files['skills/digest/out.schema.json'] = '{"type": "string"}\n';
    });
    const done = await cli(['inspect', folder]);
    expect(done.code).toBe(1);
    expect(done.stdout + done.stderr).toContain(
      "rules/tone.md: apply copies this rule beside each SKILL.md, as `skills/digest/tone.md`, where the skill already holds `skills/digest/tone.md`: a skill file's path is refused at the check, not at apply",
    );
    expect(done.stdout + done.stderr).toContain(
      'out.schema.json: apply puts the output schema beside each SKILL.md, as `skills/digest/out.schema.json`, where the skill already holds `skills/digest/out.schema.json`',
    );
  });

  it('warns about a pinned parameter whose pattern is unanchored', async () => {
    const folder = writeTemplate((m) => (m.parameters.channel.pattern = 'C[A-Z0-9]{8}'));
    const done = await cli(['inspect', folder, '--json']);
    expect(done.code).toBe(0);
    const json = JSON.parse(done.stdout);
    expect(json.warnings).toContainEqual({
      code: 'template.unanchored_pattern',
      path: 'parameters.channel.pattern',
      message: expect.stringContaining('any value that contains a match passes'),
    });
  });
});

describe('apply measures the real values before writing anything', () => {
  it('measures the agent with the values given and refuses it over 1 MiB before anything is written', async () => {
    const dataDir = join(tempDir('apollia-cli-'), 'data');
    const folder = plainTemplate(
      undefined,
      `Digest for \${parameters.channel}. ${'${parameters.notes} '.repeat(20)}\n`,
    );
    const done = await cli([
      '--data-dir',
      dataDir,
      'apply',
      folder,
      '--param',
      'channel=C0123ABCD',
      '--param',
      `notes=${'n'.repeat(60_000)}`,
      '--yes',
    ]);
    expect(done.code).toBe(1);
    expect(done.stderr).toContain("Can't apply digest yet: digest: the agent this apply makes would be");
    expect(done.stderr).toContain('over its 1 MiB limit of 1,048,576 bytes (`413`)');
    expect(existsSync(join(dataDir, 'agents'))).toBe(false);
    const fits = await cli([
      '--data-dir',
      dataDir,
      'apply',
      folder,
      '--param',
      'channel=C0123ABCD',
      '--param',
      `notes=${'n'.repeat(1_000)}`,
      '--json',
      '--yes',
    ]);
    expect([fits.code, fits.stderr]).toEqual([0, '']);
  });

  it('reads --param max_items=0x10 as no number (a decision), not as 16', async () => {
    const dataDir = join(tempDir('apollia-cli-'), 'data');
    const folder = plainTemplate(
      (m) => (m.parameters.max_items = { type: 'integer', default: 5, description: 'How many items.' }),
    );
    const done = await cli([
      '--data-dir',
      dataDir,
      'apply',
      folder,
      '--param',
      'channel=C0123ABCD',
      '--param',
      'max_items=0x10',
    ]);
    expect(done.code).toBe(1);
    expect(done.stderr).toContain('`max_items`: Must be a whole number: How many items.');
    expect(existsSync(dataDir)).toBe(false);
  });
});
