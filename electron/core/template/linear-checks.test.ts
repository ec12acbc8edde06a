import { describe, expect, it } from 'vitest';
import { MAX_PATTERNED_VALUE_LENGTH } from '../../../shared/manifests/package-pattern';
import { placeholderNames } from '../../../shared/manifests/template-manifest';
import { inspectTemplate } from './index';
import { writeTemplate } from '../../../test/helpers/template-folders';

// Each of these took minutes (or far longer) with a backtracking engine; they finish inside the
// default test timeout when every check of package text is linear.
describe('agent.md: no package pattern or text costs more than linear time', () => {
  it('checks a default against a catastrophic pattern and refuses it, naming the field', async () => {
    const result = await inspectTemplate(
      writeTemplate((m) => {
        m.parameters.words = {
          type: 'string',
          pattern: '^(\\w+\\s?)+$',
          default: `${'a'.repeat(MAX_PATTERNED_VALUE_LENGTH - 1)}!`,
          description: 'Some words.',
        };
      }),
    );
    expect(result.ok).toBe(false);
    expect(result.errors[0]).toEqual({
      code: 'template.invalid_field',
      path: 'parameters.words.default',
      message: `agent.md: \`parameters.words.default\` "${'a'.repeat(56)}... does not match \`parameters.words.pattern\``,
    });
  });

  it('refuses a default too long to check', async () => {
    const result = await inspectTemplate(
      writeTemplate((m) => {
        m.parameters.words = {
          type: 'string',
          pattern: '^\\w+$',
          default: 'a'.repeat(100_000),
          description: 'Some words.',
        };
      }),
    );
    expect(result.errors[0]).toEqual({
      code: 'template.invalid_field',
      path: 'parameters.words.default',
      message: `agent.md: \`parameters.words.default\` is longer than ${MAX_PATTERNED_VALUE_LENGTH} characters, the most checked against \`parameters.words.pattern\``,
    });
  });

  it.each([
    ['^(?=a)\\w+$', 'uses a lookahead or lookbehind, which cannot be checked in linear time'],
    ['^(a)\\1$', 'uses a backreference, which cannot be checked in linear time'],
  ])('refuses the pattern %s at inspection, naming the field and why', async (pattern, why) => {
    const result = await inspectTemplate(
      writeTemplate((m) => {
        m.parameters.words = { type: 'string', pattern, description: 'Some words.' };
      }),
    );
    expect(result.errors[0]).toEqual({
      code: 'template.pattern',
      path: 'parameters.words.pattern',
      message: `agent.md: \`parameters.words.pattern\` ${why}`,
    });
  });

  it('checks a 160 KB `author.email` of dots in linear time', async () => {
    const result = await inspectTemplate(
      writeTemplate((m) => {
        m.author.email = `a@${'.'.repeat(160_000)} `;
      }),
    );
    expect([result.errors[0]?.code, result.errors[0]?.path]).toEqual(['template.invalid_field', 'author.email']);
  });

  it('still accepts an ordinary email and refuses one without a dot inside its domain', async () => {
    expect(
      (
        await inspectTemplate(
          writeTemplate((m) => {
            m.author.email = 'first.last@mail.example.org';
          }),
        )
      ).errors,
    ).toEqual([]);
    for (const email of ['a@.b', 'a@b.', 'a@@b.c', '@b.c', 'a b@c.d']) {
      const result = await inspectTemplate(
        writeTemplate((m) => {
          m.author.email = email;
        }),
      );
      expect(result.errors[0]?.path).toBe('author.email');
    }
  });
});

describe('placeholders and eval cases are read in linear time', () => {
  it('reads 20 000 unclosed placeholders and 20 000 distinct ones', () => {
    expect(placeholderNames('${parameters.'.repeat(20_000))).toEqual(['']);
    const many = Array.from({ length: 20_000 }, (_, i) => `\${parameters.p${i}}`).join(' ');
    expect(placeholderNames(many)).toHaveLength(20_000);
    expect(placeholderNames('${parameters.a${parameters.b}')).toEqual(['b', '']);
  });

  it('reads a case.yaml of 200 000 spaces before its text', async () => {
    const result = await inspectTemplate(
      writeTemplate((_m, files) => {
        files['evals/basic/case.yaml'] = `${' '.repeat(200_000)}x: 1\n`;
      }),
    );
    expect(result.ok).toBe(false);
    expect(result.errors[0]?.path).toBe('evals/basic/case.yaml');
  });
});
