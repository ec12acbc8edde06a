import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { INVOICES_DIR, packFiles } from '../../../test/helpers/pack';
import { inspectApo } from './index';
import { checkManifestSchema, parseManifestText } from './manifest-parse';

function schemaErrors(toml: string) {
  const parsed = parseManifestText(toml);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return checkManifestSchema(parsed.data);
}

const INVOICES = readFileSync(join(INVOICES_DIR, 'apollia.toml'), 'utf8');

describe('apollia.toml: `__proto__`, `constructor`, `prototype` are keys like any other', () => {
  test("`[agents.__proto__.defaults]` is an unknown key, not the agent's prototype", () => {
    const toml = INVOICES.replace(
      '[agents.defaults]\n',
      '[agents.__proto__.defaults]\naccess = ["shell"]\n\n[agents.defaults]\n',
    );
    const parsed = parseManifestText(toml);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const agent = (parsed.data.agents as Record<string, unknown>[])[0] as Record<string, unknown>;
    expect(Object.hasOwn(agent, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(agent)).toBe(Object.prototype);
    const errors = schemaErrors(toml);
    expect(errors).toContainEqual({
      code: 'manifest.unknown_key',
      message: 'apollia.toml: unknown key `agents[0].__proto__`',
      path: 'agents[0].__proto__',
    });
  });

  test('inspectApo refuses it first, with no summary access the JSON would not show', async () => {
    const toml = INVOICES.replace(
      '[agents.defaults]\n',
      '[agents.__proto__.defaults]\naccess = ["shell"]\n\n[agents.defaults]\n',
    );
    const path = join(mkdtempSync(join(tmpdir(), 'proto-')), 'proto.apo');
    writeFileSync(
      path,
      packFiles({
        'apollia.toml': toml,
        'tools/extract.py': readFileSync(join(INVOICES_DIR, 'tools/extract.py'), 'utf8'),
        'workflows/reminders.py': readFileSync(join(INVOICES_DIR, 'workflows/reminders.py'), 'utf8'),
      }),
    );
    const result = await inspectApo(path);
    expect(result.ok).toBe(false);
    expect(result.errors[0]).toEqual({
      code: 'manifest.unknown_key',
      message: 'apollia.toml: unknown key `agents[0].__proto__`',
      path: 'agents[0].__proto__',
    });
    expect(JSON.stringify(result.details?.manifest)).toContain('"__proto__":{"defaults":{"access":["shell"]}}');
  });

  test.each(['__proto__', 'constructor', 'prototype'])(
    '`%s` at the top, in a table and in a nested table is refused as unknown',
    (key) => {
      const toml = INVOICES.replace('[package]\n', `${key} = 1\n\n[package]\n${key} = "x"\n`).replace(
        '[agents.defaults.model.request]\n',
        `[agents.defaults.model.request]\n${key} = { a = 1 }\n`,
      );
      const errors = schemaErrors(toml)
        .filter((e) => e.code === 'manifest.unknown_key')
        .map((e) => e.path);
      expect(errors).toEqual([key, `package.${key}`, `agents[0].defaults.model.request.${key}`]);
    },
  );
});

describe("apollia.toml: a malformed `$ref` in a tool's inputs", () => {
  test('is a refusal naming the field, not a thrown URIError', async () => {
    const toml = INVOICES.replace(
      '[tools.inputs]\ntype = "object"\n',
      '[tools.inputs]\ntype = "object"\n"$ref" = "#%E0%A4%A"\n',
    );
    const files = {
      'apollia.toml': toml,
      'tools/extract.py': readFileSync(join(INVOICES_DIR, 'tools/extract.py'), 'utf8'),
      'workflows/reminders.py': readFileSync(join(INVOICES_DIR, 'workflows/reminders.py'), 'utf8'),
    };
    const path = join(mkdtempSync(join(tmpdir(), 'bad-ref-')), 'bad-ref.apo');
    writeFileSync(path, packFiles(files));
    const result = await inspectApo(path);
    expect(result.ok).toBe(false);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]?.code).toBe('manifest.bad_inputs_schema');
    expect(result.errors[0]?.path).toBe('tools[0].inputs');
    expect(result.errors[0]?.message).toContain('`/$ref` refers to `#%E0%A4%A`, which is not a valid URI fragment');
  });
});
