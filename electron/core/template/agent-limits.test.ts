/**
 * The agent's 1 MiB limit (`POST /v2/agents`' `413`) and a skill file's path clash, both
 * refused at the check (so `inspect` refuses what apply would), and the unbounded parameter warned.
 */
import { describe, expect, it } from 'vitest';
import {
  AGENT_BODY_LIMIT,
  agentBodyBytes,
  filledJsonTextBytes,
  jsonTextBytes,
} from '../../../shared/manifests/agent-body';
import { fillText } from '../../../shared/manifests/template-manifest';
import { inspectTemplate } from './index';
import { writeTemplate } from '../../../test/helpers/template-folders';

const SKILL = (name: string) => `---\nname: ${name}\ndescription: Skill ${name}.\n---\nDo it.\n`;

describe('the agent body is measured as POST /v2/agents receives it, without building it', () => {
  it('counts JSON text bytes exactly, escapes and UTF-8 included', () => {
    for (const text of [
      'plain',
      'quote " and \\ back',
      'tab\tnew\nline',
      '\u0001ctl',
      'é ü',
      '€ 中',
      '😀',
      '\ud800 lone',
      'end \udc00',
    ]) {
      expect([text, jsonTextBytes(text)]).toEqual([text, Buffer.byteLength(JSON.stringify(text)) - 2]);
    }
  });

  it('counts a filled body as the filled text would be, a missing value left as written', () => {
    const body = 'To ${parameters.a} and ${parameters.a}, "${parameters.b}" ${parameters.c} \u00e9';
    const values = { a: 'x\ny', b: 7 };
    expect(filledJsonTextBytes(body, values)).toBe(Buffer.byteLength(JSON.stringify(fillText(body, values))) - 2);
  });

  it('the limit is 1 MiB, 1,048,576 bytes', () => expect(AGENT_BODY_LIMIT).toBe(1_048_576));

  it('measures the whole record: shell, filled instructions and files', () => {
    const record = { name: 'n', description: 'd', tools: ['web_fetch'] };
    const bytes = agentBodyBytes({ record, body: 'Hi ${parameters.p}', values: { p: 'there' }, filesJsonBytes: 0 });
    expect(bytes).toBe(Buffer.byteLength(JSON.stringify({ ...record, instructions: 'Hi there', files: {} })));
  });
});

describe('inspect: the agent over 1 MiB is refused at the check', () => {
  it('a 16 KiB body naming a 1,000-character default 1,100 times', async () => {
    const body = `${'${parameters.long} '.repeat(1_100)}\n`;
    expect(body.length).toBeLessThan(24 * 1024);
    const result = await inspectTemplate(
      writeTemplate(
        (m) => {
          m.parameters.long = { type: 'string', default: 'a'.repeat(1_000), description: 'A long text.' };
        },
        { body },
      ),
    );
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual([
      {
        code: 'template.agent_too_large',
        path: 'agent.md',
        message: expect.stringMatching(
          /^agent\.md: the agent an apply makes would be 1,1\d\d,\d\d\d bytes as `POST \/v2\/agents` receives it .*over its 1 MiB limit of 1,048,576 bytes \(`413`\)/,
        ),
      },
    ]);
  });

  it('a 250 KiB rule copied beside five skills', async () => {
    const result = await inspectTemplate(
      writeTemplate((_m, files) => {
        for (const name of ['one', 'two', 'three', 'four']) files[`skills/${name}/SKILL.md`] = SKILL(name);
        files['rules/big.md'] = `# Big\n${'r'.repeat(250 * 1024)}\n`;
      }),
    );
    expect(result.errors.map((e) => e.code)).toEqual(['template.agent_too_large']);
  });

  it('the same rule beside one skill is accepted: the folder itself is within its limits', async () => {
    const result = await inspectTemplate(
      writeTemplate((_m, files) => (files['rules/big.md'] = `# Big\n${'r'.repeat(250 * 1024)}\n`)),
    );
    expect(result.errors).toEqual([]);
    expect(result.details?.agentFilesJsonBytes).toBeGreaterThan(250 * 1024);
  });

  it('a patterned parameter without a default is measured at a short value it accepts, warned at its longest (10,000 characters)', async () => {
    const body = `${'${parameters.channel} '.repeat(110)}\n`;
    const warned = await inspectTemplate(writeTemplate(() => undefined, { body }));
    expect(warned.errors).toEqual([]);
    expect(warned.warnings.map((w) => w.code)).toContain('template.agent_may_exceed');
    // With a default, the default is the sample.
    const accepted = await inspectTemplate(
      writeTemplate((m) => (m.parameters.channel.default = 'C0123ABCD'), { body }),
    );
    expect(accepted.errors).toEqual([]);
  });

  it('an enum at its longest choice and a number at its longest text are warned, not refused', async () => {
    const body = `${'${parameters.pick} ${parameters.n} '.repeat(40)}\n`;
    const result = await inspectTemplate(
      writeTemplate(
        (m) => {
          m.parameters.pick = { type: 'string', enum: ['a', 'b'.repeat(30_000)], description: 'Pick.' };
          m.parameters.n = { type: 'number', description: 'N.' };
        },
        { body },
      ),
    );
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((w) => w.code)).toContain('template.agent_may_exceed');
  });

  it('a string with no default, enum or pattern that the body names is warned as unbounded; one it does not name is not', async () => {
    const result = await inspectTemplate(
      writeTemplate(
        (m) => {
          m.parameters.notes = { type: 'string', description: 'Free notes.' };
          m.parameters.unused = { type: 'string', description: 'Not in the body.' };
        },
        { body: 'Write the digest for ${parameters.channel}, noting ${parameters.notes}.\n' },
      ),
    );
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([
      {
        code: 'template.unbounded_parameter',
        path: 'parameters.notes',
        message: expect.stringContaining(
          "`parameters.notes` has no default, enum or pattern, so nothing bounds how long it is, and the agent's body names it",
        ),
      },
    ]);
  });
});

describe("inspect: a skill file's path clash is refused at the check, naming both paths", () => {
  it('a rule copy landing on an existing skills/digest/tone.md', async () => {
    const result = await inspectTemplate(
      writeTemplate((_m, files) => {
        files['skills/digest/tone.md'] = 'The skill says: be brief.\n';
        files['rules/tone.md'] = 'The rule says: be warm.\n';
      }),
    );
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual([
      {
        code: 'template.file_collision',
        path: 'rules/tone.md',
        message:
          "rules/tone.md: apply copies this rule beside each SKILL.md, as `skills/digest/tone.md`, where the skill already holds `skills/digest/tone.md`: a skill file's path is refused at the check, not at apply; rename one of them",
      },
    ]);
  });

  it('an output.schema landing on an existing skills/digest/out.schema.json', async () => {
    const result = await inspectTemplate(
      writeTemplate((_m, files) => (files['skills/digest/out.schema.json'] = '{"type": "string"}\n')),
    );
    expect(result.errors).toEqual([
      {
        code: 'template.file_collision',
        path: 'out.schema.json',
        message:
          "out.schema.json: apply puts the output schema beside each SKILL.md, as `skills/digest/out.schema.json`, where the skill already holds `skills/digest/out.schema.json`: a skill file's path is refused at the check, not at apply; rename one of them",
      },
    ]);
  });

  it('a rule named SKILL.md would replace every skill: refused', async () => {
    const result = await inspectTemplate(writeTemplate((_m, files) => (files['rules/SKILL.md'] = '# Not a skill\n')));
    expect(result.errors.map((e) => [e.code, e.path])).toEqual([['template.file_collision', 'rules/SKILL.md']]);
  });

  it('the same bytes landing twice are one file, not a clash (a decision)', async () => {
    const result = await inspectTemplate(
      writeTemplate((_m, files) => {
        files['skills/digest/tone.md'] = 'Be brief.\n';
        files['rules/tone.md'] = 'Be brief.\n';
      }),
    );
    expect(result.errors).toEqual([]);
  });
});

describe('inspect: a pinned parameter with an unanchored pattern is warned', () => {
  it('warns, naming the tool it pins, and still accepts the folder', async () => {
    const result = await inspectTemplate(writeTemplate((m) => (m.parameters.channel.pattern = 'C[A-Z0-9]{8}')));
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([
      {
        code: 'template.unanchored_pattern',
        path: 'parameters.channel.pattern',
        message:
          "agent.md: `parameters.channel.pattern` `C[A-Z0-9]{8}` is not anchored, and `send` is pinned to `channel`: any value that contains a match passes (as JSON Schema's `pattern` is searched); anchor it as `^…$` so only a whole destination does",
      },
    ]);
  });

  it('says nothing of an unanchored pattern no pin uses, nor of an anchored one', async () => {
    const result = await inspectTemplate(
      writeTemplate(
        (m) => (m.parameters.other = { type: 'string', pattern: 'x', default: 'x', description: 'Other.' }),
      ),
    );
    expect(result.warnings).toEqual([]);
  });
});

describe('evals: their fields are checked, not only their layout', () => {
  it("refuses a tool_used grader's negative count, as `agentrun template eval` would before running anything", async () => {
    const result = await inspectTemplate(
      writeTemplate(
        (_m, files) =>
          (files['evals/basic/graders/sent.md'] = '---\ntype: tool_used\ntool: mcp:slack/send\ncount: -1\n---\n'),
      ),
    );
    expect(result.errors).toEqual([
      {
        code: 'template.grader',
        path: 'evals/basic/graders/sent.md',
        message: 'evals/basic/graders/sent.md: `count` must be a whole number, 0 or more',
      },
    ]);
  });
});
