import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectTemplate } from './index';
import {
  agentMd,
  validFiles,
  validManifest,
  writeFolder,
  writeTemplate,
  type LooseManifest,
} from '../../../test/helpers/template-folders';

type Edit = (m: LooseManifest, files: Record<string, string | Buffer>) => void;

async function firstError(edit: Edit, options: { name?: string; body?: string } = {}) {
  const result = await inspectTemplate(writeTemplate(edit, options));
  expect(result.ok).toBe(false);
  return result.errors[0];
}

describe('inspectTemplateFolder: a valid folder', () => {
  it('accepts the test package and summarises it', async () => {
    const result = await inspectTemplate(writeTemplate());
    expect(result.errors).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.summary).toEqual({
      name: 'digest',
      version: '0.1.0',
      publisher: 'Test Author',
      mcp_servers: ['slack'],
      parameters: ['depth', 'channel', 'cron'],
      triggers: [
        { id: 'weekly', type: 'schedule', needs: null },
        { id: 'hook', type: 'webhook', needs: 'secret' },
        { id: 'once', type: 'at', needs: null },
      ],
    });
    expect(result.details?.skills).toEqual([
      { name: 'digest', description: 'Digest one company.', body: 'Do it well.\n' },
    ]);
    expect(result.details?.rules).toEqual([{ file: 'sources.md', body: '# Sources\nCite them.\n' }]);
    expect(result.details?.evals).toEqual([{ case: 'basic', description: 'A basic run.' }]);
    expect(result.details?.body).toBe('Write the digest for ${parameters.channel}.\n');
    expect(result.details?.files.map((f) => f.path)).toContain('skills/digest/SKILL.md');
  });

  it('publisher is null without an author', async () => {
    const result = await inspectTemplate(writeTemplate((m) => delete m.author));
    expect(result.ok).toBe(true);
    expect(result.summary?.publisher).toBeNull();
  });
});

/** One refusal per rule of the spec's agent.md table: [what, edit, code, path, message part]. */
const AGENT_MD_RULES: [string, Edit, string, string, string][] = [
  [
    'an unknown top-level field',
    (m) => (m.temperature = 1),
    'template.unknown_field',
    'temperature',
    'agent.md: unknown field `temperature`',
  ],
  [
    'an unknown nested field',
    (m) => (m.parameters.depth.defualt = 3),
    'template.unknown_field',
    'parameters.depth.defualt',
    'unknown field `parameters.depth.defualt`',
  ],
  ['a missing name', (m) => delete m.name, 'template.missing_field', 'name', '`name` is required'],
  [
    'a name that is not the folder',
    (m) => (m.name = 'other'),
    'template.name_mismatch',
    'name',
    "must be the folder's name, `digest`",
  ],
  ['a name over 64', (m) => (m.name = 'a'.repeat(65)), 'template.invalid_field', 'name', 'longer than 64'],
  [
    'a bare-number version',
    (m) => (m.version = 1),
    'template.version',
    'version',
    'version `1` is not SemVer 2 (like 0.1.0): a bare number is refused',
  ],
  ['a partial version', (m) => (m.version = '1.2'), 'template.version', 'version', 'version `1.2` is not SemVer 2'],
  [
    'a missing description',
    (m) => delete m.description,
    'template.missing_field',
    'description',
    '`description` is required',
  ],
  [
    'an author with no name',
    (m) => (m.author = { email: 'a@example.com' }),
    'template.missing_field',
    'author.name',
    '`author.name` is required',
  ],
  [
    'an author email that is not one',
    (m) => (m.author.email = 'nope'),
    'template.invalid_field',
    'author.email',
    'must be an email address',
  ],
  [
    'a harness that is not a list',
    (m) => (m.harness = 'pi'),
    'template.invalid_field',
    'harness',
    '`harness` must be a list',
  ],
  [
    'an unknown model tier',
    (m) => (m.model.tier = 'huge'),
    'template.invalid_field',
    'model.tier',
    'must be one of fast, balanced, strong',
  ],
  [
    'a prefer without a provider',
    (m) => (m.model.prefer = 'gpt'),
    'template.invalid_field',
    'model.prefer',
    'must be provider/model-id',
  ],
  [
    'an unknown effort',
    (m) => (m.effort = 'extreme'),
    'template.invalid_field',
    'effort',
    'must be one of low, medium, high, xhigh, max',
  ],
  [
    'a tool outside the catalogue',
    (m) => (m.tools = ['web_search', 'teleport']),
    'template.unknown_tool',
    'tools[1]',
    '"teleport" is not a tool this app binds',
  ],
  [
    'an MCP tool in tools',
    (m) => (m.tools = ['mcp:slack/send']),
    'template.unknown_tool',
    'tools[0]',
    'MCP tools are granted through `mcp`',
  ],
  ['an mcp wildcard', (m) => (m.mcp[0].tools = ['*']), 'template.mcp_wildcard', 'mcp[0].tools[0]', 'never `*`'],
  [
    'an mcp tool name with a space',
    (m) => (m.mcp[0].tools = ['send', 'read history']),
    'template.invalid_field',
    'mcp[0].tools[1]',
    'is not a tool name',
  ],
  [
    'two entries for one server',
    (m) => m.mcp.push({ server: 'slack', tools: ['x'] }),
    'template.duplicate',
    'mcp[1].server',
    'list each server once',
  ],
  [
    'an allow outside the tools',
    (m) => (m.mcp[0].allow = ['delete_channel']),
    'template.mcp_allow',
    'mcp[0].allow[0]',
    'is not one of `mcp[0].tools`',
  ],
  [
    'a pin of a tool the entry does not list',
    (m) => (m.mcp[0].pin = { post: { channel_id: 'C1' } }),
    'template.pin',
    'mcp[0].pin',
    'pins "post", which is not one of this entry\'s tools',
  ],
  [
    'a pin of nine arguments',
    (m) => (m.mcp[0].pin.send = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`a${i}`, 1]))),
    'template.pin',
    'mcp[0].pin.send',
    '1 to 8 top-level arguments',
  ],
  [
    'a pin list of 17 distinct values',
    (m) => (m.mcp[0].pin.send.event = Array.from({ length: 17 }, (_, i) => i)),
    'template.pin',
    'mcp[0].pin.send.event',
    'must list 1 to 16 distinct values, not 17',
  ],
  [
    'an empty pin list',
    (m) => (m.mcp[0].pin.send.event = []),
    'template.pin',
    'mcp[0].pin.send.event',
    'must list 1 to 16 distinct values, not 0',
  ],
  [
    'a pin value that is an object',
    (m) => (m.mcp[0].pin.send.channel_id = { id: 1 }),
    'template.pin',
    'mcp[0].pin.send.channel_id',
    'must be text, a number, true/false or null',
  ],
  [
    'a computer other than default',
    (m) => (m.computer = 'box'),
    'template.invalid_field',
    'computer',
    'must be one of default',
  ],
  [
    'a default of the wrong type',
    (m) => (m.parameters.depth.default = 'two'),
    'template.invalid_field',
    'parameters.depth.default',
    '"two" is not a integer',
  ],
  [
    'a default outside the pattern',
    (m) => (m.parameters.channel.default = 'general'),
    'template.invalid_field',
    'parameters.channel.default',
    'does not match `parameters.channel.pattern`',
  ],
  [
    'a default outside the enum',
    (m) => Object.assign(m.parameters.depth, { enum: [1, 2], default: 3 }),
    'template.invalid_field',
    'parameters.depth.default',
    'is not one of `parameters.depth.enum`',
  ],
  [
    'a pattern on a number',
    (m) => (m.parameters.depth.pattern = '^[0-9]$'),
    'template.invalid_field',
    'parameters.depth.pattern',
    'for string parameters only',
  ],
  [
    'a pattern that does not compile',
    (m) => (m.parameters.channel.pattern = '^C[$'),
    'template.pattern',
    'parameters.channel.pattern',
    'does not compile',
  ],
  [
    'an unknown parameter type',
    (m) => (m.parameters.depth.type = 'float'),
    'template.invalid_field',
    'parameters.depth.type',
    'must be one of string, number, integer, boolean',
  ],
  [
    'a parameter with no description',
    (m) => delete m.parameters.depth.description,
    'template.missing_field',
    'parameters.depth.description',
    'is required',
  ],
  [
    'a secret outside the catalogue',
    (m) => (m.secrets = ['AWS_SECRET_ACCESS_KEY']),
    'template.unknown_secret',
    'secrets[0]',
    'is not a secret this app can keep',
  ],
  ['triggers with no budget', (m) => delete m.budget, 'template.missing_field', 'budget', '`budget` is required'],
  [
    'a budget of zero',
    (m) => (m.budget.per_run_usd = 0),
    'template.invalid_field',
    'budget.per_run_usd',
    'positive number',
  ],
  [
    'learning that is not a boolean',
    (m) => (m.learning = 'yes'),
    'template.invalid_field',
    'learning',
    'must be true or false',
  ],
  [
    'an unknown approvals value',
    (m) => (m.approvals = 'always'),
    'template.invalid_field',
    'approvals',
    'must be one of ask, never',
  ],
  [
    'a bad cron',
    (m) => (m.triggers[0].cron = '0 25 * * *'),
    'template.cron',
    'triggers[0].cron',
    '`triggers[0].cron`: `0 25 * * *`',
  ],
  [
    'a bad cron default filled in',
    (m) => (m.parameters.cron.default = 'every monday'),
    'template.cron',
    'triggers[0].cron',
    'is not a 5-field cron expression',
  ],
  [
    'a schedule parameter with no default',
    (m) => delete m.parameters.cron.default,
    'template.schedule_parameter',
    'triggers[0].cron',
    'uses `${parameters.cron}`, which has no default',
  ],
  [
    'a bad time zone',
    (m) => (m.triggers[0].timezone = 'Mars/Olympus'),
    'template.timezone',
    'triggers[0].timezone',
    '`Mars/Olympus` is not an IANA time zone',
  ],
  [
    'an at date not in RFC 3339 form',
    (m) => (m.triggers[2].at = 'next tuesday'),
    'template.at',
    'triggers[2].at',
    'is not an RFC 3339 date-time',
  ],
  [
    'an at date that does not exist',
    (m) => (m.triggers[2].at = '2027-02-30T09:00:00Z'),
    'template.at',
    'triggers[2].at',
    'is not an RFC 3339 date-time',
  ],
  [
    'two triggers of one name',
    (m) => (m.triggers[1].name = 'weekly'),
    'template.duplicate',
    'triggers[1].name',
    'trigger names are unique',
  ],
  [
    'an unknown trigger type',
    (m) => (m.triggers[1].type = 'file_watch'),
    'template.unknown_field',
    'triggers[1].events',
    'unknown field `triggers[1].events`',
  ],
  [
    'a cron on a webhook',
    (m) => (m.triggers[1].cron = '0 8 * * 1'),
    'template.unknown_field',
    'triggers[1].cron',
    'unknown field `triggers[1].cron`',
  ],
  [
    'a trigger with no target',
    (m) => delete m.triggers[1].target,
    'template.missing_field',
    'triggers[1].target',
    'is required',
  ],
  [
    'a target that is not start_run',
    (m) => (m.triggers[1].target.type = 'webhook_forward'),
    'template.invalid_field',
    'triggers[1].target.type',
    'must be one of start_run',
  ],
  [
    'max_concurrent of zero',
    (m) => (m.triggers[1].max_concurrent = 0),
    'template.invalid_field',
    'triggers[1].max_concurrent',
    'whole number from 1 to 100',
  ],
  [
    'an output schema that is not in the package',
    (m) => (m.output.schema = 'missing.json'),
    'template.output_schema',
    'output.schema',
    'names `missing.json`, which is not a file of the package',
  ],
  [
    'an output schema that does not compile',
    (_m, f) => (f['out.schema.json'] = '{"type": "banana"}'),
    'template.output_schema',
    'output.schema',
    'does not compile as JSON Schema 2020-12',
  ],
  ['checks that are not a list', (m) => (m.checks = 'x'), 'template.invalid_field', 'checks', 'must be a list'],
  [
    'a placeholder in description',
    (m) => (m.description = 'For ${parameters.channel}'),
    'template.placeholder',
    'description',
    'parameters fill only display_name',
  ],
  [
    'a placeholder in a webhook event',
    (m) => (m.triggers[1].events = ['${parameters.channel}']),
    'template.invalid_field',
    'triggers[1].events[0]',
    'is not an event type',
  ],
  [
    'a placeholder naming no parameter',
    (m) => (m.triggers[0].target.input = 'For ${parameters.team}'),
    'template.placeholder',
    'triggers[0].target.input',
    '`${parameters.team}`, which is not a declared parameter',
  ],
  [
    'a placeholder in a pin naming no parameter',
    (m) => (m.mcp[0].pin.send.channel_id = '${parameters.room}'),
    'template.placeholder',
    'mcp[0].pin.send.channel_id',
    'not a declared parameter',
  ],
];

describe('inspectTemplateFolder: agent.md, one refusal per rule', () => {
  for (const [what, edit, code, path, message] of AGENT_MD_RULES) {
    it(`refuses ${what}`, async () => {
      const error = await firstError(edit);
      expect(error).toMatchObject({ code, path });
      expect(error?.message).toContain(message);
    });
  }

  it('refuses a placeholder in the body naming no parameter', async () => {
    const error = await firstError(() => undefined, { body: 'Post to ${parameters.room}.' });
    expect(error).toMatchObject({ code: 'template.placeholder', path: 'body' });
  });

  it('refuses a name that is not lowercase letters, digits and dashes', async () => {
    const error = await firstError((m) => (m.name = 'My_Pkg'), { name: 'My_Pkg' });
    expect(error).toMatchObject({ code: 'template.invalid_field', path: 'name' });
    expect(error?.message).toContain('lowercase letters, digits and dashes');
  });
});

describe('inspectTemplateFolder: spec edges', () => {
  it.each(['1.0.0-beta.1+build.5', '1.0.0+build.5'])(
    'accepts the SemVer 2 version %s (build metadata)',
    async (version) => {
      const result = await inspectTemplate(writeTemplate((m) => (m.version = version)));
      expect(result.errors).toEqual([]);
      expect(result.summary?.version).toBe(version);
    },
  );

  it('still refuses a version that is not SemVer 2', async () => {
    const error = await firstError((m) => (m.version = '1.0.0+'));
    expect(error).toMatchObject({ code: 'template.version', path: 'version' });
  });

  it.each([
    [
      ['COMMENT', null],
      [null, 'COMMENT'],
    ],
    [
      [null, 'COMMENT', 'COMMENT'],
      [null, 'COMMENT'],
    ],
    [
      ['b', 2, 'a', true, 2, null, 'a'],
      [null, 'a', 'b', 2, true],
    ],
  ])('accepts the pin list %j in any order with repeats, keeps %j and warns with it', async (written, kept) => {
    const result = await inspectTemplate(writeTemplate((m) => (m.mcp[0].pin.send.event = written)));
    expect(result.errors).toEqual([]);
    expect(result.ok).toBe(true);
    const pin = (result.details?.manifest.mcp?.[0]?.pin ?? {}) as Record<string, Record<string, unknown>>;
    expect(pin['send']?.['event']).toEqual(kept);
    expect(result.warnings).toEqual([
      {
        code: 'template.pin_normalised',
        path: 'mcp[0].pin.send.event',
        message: `agent.md: \`mcp[0].pin.send.event\` is kept as ${JSON.stringify(kept)} (each value once, null first, then by JSON text)`,
      },
    ]);
  });

  it('accepts 20 pins that are 16 distinct values (the bound is on distinct values)', async () => {
    const written = [...Array.from({ length: 16 }, (_, i) => i), 0, 1, 2, 3];
    const result = await inspectTemplate(writeTemplate((m) => (m.mcp[0].pin.send.event = written)));
    expect(result.ok).toBe(true);
  });

  it('gives no warning for a pin list already kept as the spec says', async () => {
    const result = await inspectTemplate(writeTemplate((m) => (m.mcp[0].pin.send.event = [null, 'COMMENT'])));
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it('one error, not six: a bad `effort` refuses agent.md alone; eval cases are still checked against the rest', async () => {
    const result = await inspectTemplate(writeTemplate((m) => (m.effort = 'minimal')));
    expect(result.errors).toEqual([
      { code: 'template.invalid_field', path: 'effort', message: expect.stringContaining('agent.md: `effort`') },
    ]);
    const withBadCase = await inspectTemplate(
      writeTemplate((m, f) => {
        m.effort = 'minimal';
        f['evals/basic/case.yaml'] =
          'parameters:\n  channel: C0123ABCD\n  colour: red\ngrants:\n  - mcp:slack/send\nmcp:\n  slack: fixtures/slack.json\n';
      }),
    );
    expect(withBadCase.errors.map((e) => e.message)).toEqual([
      expect.stringContaining('`effort`'),
      'evals/basic/case.yaml: `parameters.colour` is not a parameter of the package',
    ]);
  });

  it('skips the eval cases (no false claims) when a field they are checked against was refused', async () => {
    const result = await inspectTemplate(writeTemplate((m) => (m.mcp[0].tools = ['*'])));
    expect(result.errors[0]?.code).toBe('template.mcp_wildcard');
    expect(result.errors.filter((e) => !(e.path ?? '').startsWith('mcp['))).toEqual([]);
  });
});

const RAW_AGENT_MD: [string, string, string, string][] = [
  ['no front matter', '# Just a body\n', 'template.front_matter', 'must start with `---` front matter'],
  ['no closing fence', '---\nname: digest\n', 'template.front_matter', 'no closing `---`'],
  ['a YAML tag', '---\nname: !!js/function "x"\n---\n', 'template.yaml_tag', 'YAML tags'],
  ['a YAML alias', '---\nname: &n digest\ndisplay_name: *n\n---\n', 'template.yaml_alias', 'anchors'],
  ['a repeated key', '---\nname: digest\nname: digest\n---\n', 'template.yaml', 'not valid YAML'],
  ['front matter that is a list', '---\n- a\n---\n', 'template.front_matter', 'must be a map'],
];

describe('inspectTemplateFolder: agent.md as YAML data only', () => {
  for (const [what, text, code, message] of RAW_AGENT_MD) {
    it(`refuses ${what}`, async () => {
      const error = await firstError((_m, f) => (f['agent.md'] = text));
      expect(error).toMatchObject({ code, path: 'agent.md' });
      expect(error?.message).toContain(message);
    });
  }
});

const PART_RULES: [string, Edit, string, string, string][] = [
  [
    'a folder outside skills, rules and evals',
    (_m, f) => (f['scripts/run.sh'] = 'echo'),
    'template.layout',
    'scripts',
    'only folders are skills/, rules/ and evals/',
  ],
  [
    'a root file nobody names',
    (_m, f) => (f['notes.txt'] = 'x'),
    'template.layout',
    'notes.txt',
    'a file at the root must be agent.md',
  ],
  [
    'a missing agent.md',
    (_m, f) => delete f['agent.md'],
    'template.agent_md_missing',
    'agent.md',
    'agent.md is missing',
  ],
  [
    'a skill with no SKILL.md',
    (_m, f) => (f['skills/extra/notes.md'] = 'x'),
    'template.skill',
    'skills/extra/SKILL.md',
    'has no SKILL.md',
  ],
  [
    'a skill named unlike its folder',
    (_m, f) => (f['skills/digest/SKILL.md'] = '---\nname: digests\ndescription: d\n---\n'),
    'template.skill',
    'skills/digest/SKILL.md',
    "must be the skill's folder name, `digest`",
  ],
  [
    'a skill with an unknown field',
    (_m, f) => (f['skills/digest/SKILL.md'] = '---\nname: digest\ndescription: d\nrun: true\n---\n'),
    'template.unknown_field',
    'skills/digest/SKILL.md',
    'unknown field `run`',
  ],
  [
    'a skill with no description',
    (_m, f) => (f['skills/digest/SKILL.md'] = '---\nname: digest\n---\n'),
    'template.skill',
    'skills/digest/SKILL.md',
    '`description` is required',
  ],
  [
    'a skill holding a placeholder',
    (_m, f) =>
      (f['skills/digest/SKILL.md'] = '---\nname: digest\ndescription: d\n---\nPost to ${parameters.channel}\n'),
    'template.placeholder',
    'skills/digest/SKILL.md',
    'never a skill',
  ],
  [
    'a rule that is not Markdown',
    (_m, f) => (f['rules/x.txt'] = 'x'),
    'template.layout',
    'rules/x.txt',
    'only Markdown files',
  ],
  [
    'a rule holding a placeholder',
    (_m, f) => (f['rules/sources.md'] = '${parameters.channel}'),
    'template.placeholder',
    'rules/sources.md',
    'never fills a rule',
  ],
  [
    'an eval case with no prompt',
    (_m, f) => delete f['evals/basic/prompt.md'],
    'template.eval',
    'evals/basic/prompt.md',
    'has a prompt.md',
  ],
  [
    'a prompt with an unknown field',
    (_m, f) => (f['evals/basic/prompt.md'] = '---\ndescription: d\nmax_cost_usd: 1\nmodel: x\n---\nGo.\n'),
    'template.unknown_field',
    'evals/basic/prompt.md',
    'unknown field `model`',
  ],
  [
    'a prompt with no cost cap',
    (_m, f) => (f['evals/basic/prompt.md'] = '---\ndescription: d\n---\nGo.\n'),
    'template.eval',
    'evals/basic/prompt.md',
    '`max_cost_usd` is required',
  ],
  [
    'a case grant outside the package',
    (_m, f) => (f['evals/basic/case.yaml'] = 'grants:\n  - mcp:slack/delete_channel\n'),
    'template.eval',
    'evals/basic/case.yaml',
    '`grants[0]` "mcp:slack/delete_channel" is not one of the package\'s MCP tools',
  ],
  [
    'grants that are not a list',
    (_m, f) => (f['evals/basic/case.yaml'] = 'grants: mcp:slack/send\n'),
    'template.eval',
    'evals/basic/case.yaml',
    '`grants` must be a list',
  ],
  [
    'a case parameter that does not fit',
    (_m, f) => (f['evals/basic/case.yaml'] = 'parameters:\n  channel: general\n'),
    'template.eval',
    'evals/basic/case.yaml',
    '`parameters.channel`: Not in the expected form: A Slack channel ID like C0123ABCD.',
  ],
  [
    'a case mcp fixture that is missing',
    (_m, f) => delete f['evals/basic/fixtures/slack.json'],
    'template.eval',
    'evals/basic/case.yaml',
    '`mcp.slack` must name a fixture file in the case',
  ],
  [
    'a fixture of the wrong shape',
    (_m, f) =>
      (f['evals/basic/fixtures/slack.json'] =
        '{"server":"slack","description":"d","tools":{"send":{"description":"s","input":{},"default":"ok"}}}'),
    'template.fixture',
    'evals/basic/fixtures/slack.json',
    '`tools.send.default` must be an MCP tool result',
  ],
  [
    'a case faking a server the package lacks',
    (_m, f) => (f['evals/basic/case.yaml'] = 'mcp:\n  github: fixtures/slack.json\n'),
    'template.eval',
    'evals/basic/case.yaml',
    '`mcp.github` is not an MCP server of the package',
  ],
  [
    'a fixture faking a tool the entry does not list',
    (_m, f) =>
      (f['evals/basic/fixtures/slack.json'] =
        '{"server":"slack","description":"d","tools":{"delete_channel":{"description":"s","input":{}}}}'),
    'template.fixture',
    'evals/basic/fixtures/slack.json',
    "`tools.delete_channel` is not one of the package's tools of slack",
  ],
  [
    'a case learning folder that is not there',
    (_m, f) => (f['evals/basic/case.yaml'] = 'learning: notes\n'),
    'template.eval',
    'evals/basic/case.yaml',
    'holds no notes',
  ],
  [
    'a case with no grader',
    (_m, f) => {
      delete f['evals/basic/graders/quality.md'];
      delete f['evals/basic/graders/sent.md'];
    },
    'template.eval',
    'evals/basic/graders',
    'at least one grader',
  ],
  [
    'a grader with an unknown field',
    (_m, f) => (f['evals/basic/graders/quality.md'] = '---\ntype: llm\nmodel: x\n---\nRubric.\n'),
    'template.unknown_field',
    'evals/basic/graders/quality.md',
    'unknown field `model` for a llm grader',
  ],
  [
    'a grader of an unknown type',
    (_m, f) => (f['evals/basic/graders/quality.md'] = '---\ntype: vibes\n---\n'),
    'template.grader',
    'evals/basic/graders/quality.md',
    '`type` must be one of llm, regex, tool_used, file_exists, schema',
  ],
  [
    'a regex grader that does not compile',
    (_m, f) => (f['evals/basic/graders/quality.md'] = '---\ntype: regex\npattern: "a("\n---\n'),
    'template.grader',
    'evals/basic/graders/quality.md',
    '`pattern` does not compile',
  ],
  [
    'a regex grader with a g flag',
    (_m, f) => (f['evals/basic/graders/quality.md'] = '---\ntype: regex\npattern: a\nflags: g\n---\n'),
    'template.grader',
    'evals/basic/graders/quality.md',
    '`flags` must be some of i, m, s, u, v',
  ],
  [
    'a tool_used grader of a tool the package lacks',
    (_m, f) => (f['evals/basic/graders/sent.md'] = '---\ntype: tool_used\ntool: shell\n---\n'),
    'template.grader',
    'evals/basic/graders/sent.md',
    '"shell" is not a tool the package has',
  ],
  [
    'args on a tool that is not faked',
    (_m, f) => (f['evals/basic/graders/sent.md'] = '---\ntype: tool_used\ntool: web_fetch\nargs:\n  url: x\n---\n'),
    'template.grader',
    'evals/basic/graders/sent.md',
    '`args` is allowed on a faked MCP tool only',
  ],
  [
    'a schema grader naming no file',
    (_m, f) => (f['evals/basic/graders/quality.md'] = '---\ntype: schema\nschema: nope.json\n---\n'),
    'template.grader',
    'evals/basic/graders/quality.md',
    'must name a JSON Schema file of the package',
  ],
  [
    'a file_exists grader leaving the work folder',
    (_m, f) => (f['evals/basic/graders/quality.md'] = '---\ntype: file_exists\npath: ../x\n---\n'),
    'template.grader',
    'evals/basic/graders/quality.md',
    "relative to the run's work folder",
  ],
  [
    'a stray file in an eval case',
    (_m, f) => (f['evals/basic/run.py'] = 'x'),
    'template.layout',
    'evals/basic/run.py',
    'an eval case holds prompt.md',
  ],
];

describe('inspectTemplateFolder: skills, rules and evals, one refusal per rule', () => {
  for (const [what, edit, code, path, message] of PART_RULES) {
    it(`refuses ${what}`, async () => {
      const error = await firstError(edit);
      expect(error).toMatchObject({ code, path });
      expect(error?.message).toContain(message);
    });
  }

  it('accepts a grader schema at the root, which names the file', async () => {
    const result = await inspectTemplate(
      writeTemplate((_m, f) => {
        f['answer.schema.json'] = '{"type":"object"}';
        f['evals/basic/graders/shape.md'] = '---\ntype: schema\nschema: answer.schema.json\n---\n';
      }),
    );
    expect(result.errors).toEqual([]);
  });
});

describe('inspectTemplateFolder: links, special files and limits', () => {
  it('refuses a symlink anywhere, without following it', async () => {
    const dir = writeTemplate();
    symlinkSync('/etc/passwd', join(dir, 'rules', 'passwd.md'));
    const result = await inspectTemplate(dir);
    expect(result.errors).toEqual([
      {
        code: 'template.link',
        path: 'rules/passwd.md',
        message: 'rules/passwd.md is a link: a template holds only regular files and folders',
      },
    ]);
  });

  it('refuses a symlinked folder', async () => {
    const dir = writeTemplate();
    symlinkSync('/tmp', join(dir, 'skills', 'tmp'));
    const result = await inspectTemplate(dir);
    expect(result.errors[0]).toMatchObject({ code: 'template.link', path: 'skills/tmp' });
  });

  it('refuses the folder itself when it is a link', async () => {
    const dir = writeTemplate();
    const link = `${dir}-link`;
    symlinkSync(dir, link);
    const result = await inspectTemplate(link);
    expect(result.errors[0]).toMatchObject({ code: 'template.link', path: '.' });
  });

  it('refuses a FIFO without waiting on it', async () => {
    const dir = writeTemplate();
    execFileSync('mkfifo', [join(dir, 'rules', 'pipe.md')]);
    const result = await inspectTemplate(dir);
    expect(result.errors).toEqual([
      {
        code: 'template.special_file',
        path: 'rules/pipe.md',
        message: 'rules/pipe.md is a FIFO: a template holds only regular files and folders',
      },
    ]);
  });

  it('refuses a file over 256 KiB', async () => {
    const error = await firstError((_m, f) => (f['rules/big.md'] = Buffer.alloc(256 * 1024 + 1, 'a')));
    expect(error).toEqual({
      code: 'template.too_large',
      path: 'rules/big.md',
      message: 'rules/big.md is 262145 bytes: each file is at most 262144 bytes (256 KiB)',
    });
  });

  it('accepts a file of exactly 256 KiB', async () => {
    const result = await inspectTemplate(writeTemplate((_m, f) => (f['rules/big.md'] = Buffer.alloc(256 * 1024, 'a'))));
    expect(result.errors).toEqual([]);
  });

  it('refuses more than 1 MiB together', async () => {
    const error = await firstError((_m, f) => {
      for (let i = 0; i < 5; i += 1) f[`rules/big${i}.md`] = Buffer.alloc(250 * 1024, 'a');
    });
    expect(error?.code).toBe('template.too_large');
    expect(error?.message).toContain('(1 MiB) together');
  });

  it('refuses more than 256 files', async () => {
    const error = await firstError((_m, f) => {
      for (let i = 0; i < 250; i += 1) f[`rules/r${String(i).padStart(3, '0')}.md`] = 'x';
    });
    expect(error?.code).toBe('template.too_many_files');
    expect(error?.message).toContain('more than 256 files');
  });

  it('refuses two names that collide after case folding', async () => {
    const error = await firstError((_m, f) => {
      f['rules/Sources.md'] = 'x';
    });
    expect(error).toMatchObject({ code: 'template.name_collision', path: 'rules/sources.md' });
  });

  it('refuses a path that is not a folder', async () => {
    const dir = writeFolder({ 'agent.md': agentMd(validManifest()), ...validFiles() });
    const result = await inspectTemplate(join(dir, 'agent.md'));
    expect(result.errors[0]?.code).toBe('template.not_a_folder');
  });

  it('refuses a non-UTF-8 agent.md', async () => {
    const dir = writeTemplate();
    writeFileSync(join(dir, 'agent.md'), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe]));
    const result = await inspectTemplate(dir);
    expect(result.errors[0]).toMatchObject({ code: 'template.encoding', path: 'agent.md' });
  });

  it('accepts empty optional folders', async () => {
    const dir = writeTemplate();
    mkdirSync(join(dir, 'rules', 'empty'), { recursive: true });
    const result = await inspectTemplate(dir);
    expect(result.ok).toBe(true);
  });
});
