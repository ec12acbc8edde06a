import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { INVOICES_DIR } from '../../../test/helpers/pack';
import { checkManifestSchema, parseManifestText } from './manifest-parse';

function schemaErrors(toml: string) {
  const parsed = parseManifestText(toml);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return checkManifestSchema(parsed.data);
}

const INVOICES = readFileSync(join(INVOICES_DIR, 'apollia.toml'), 'utf8');

describe('apollia.toml: `__proto__`, `constructor`, `prototype` are keys like any other (issue 12, finding 3)', () => {
  test('`[agents.__proto__.defaults]` is an unknown key, not the agent\'s prototype', () => {
    const toml = INVOICES.replace('[agents.defaults]\n', '[agents.__proto__.defaults]\naccess = ["shell"]\n\n[agents.defaults]\n');
    const parsed = parseManifestText(toml);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const agent = (parsed.data.agents as Record<string, unknown>[])[0] as Record<string, unknown>;
    expect(Object.hasOwn(agent, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(agent)).toBe(Object.prototype);
    const errors = schemaErrors(toml);
    expect(errors).toContainEqual({ code: 'manifest.unknown_key', message: 'apollia.toml: unknown key `agents[0].__proto__`', path: 'agents[0].__proto__' });
  });

  test.each(['__proto__', 'constructor', 'prototype'])('`%s` at the top, in a table and in a nested table is refused as unknown', (key) => {
    const toml = INVOICES
      .replace('[package]\n', `${key} = 1\n\n[package]\n${key} = "x"\n`)
      .replace('[agents.defaults.model.request]\n', `[agents.defaults.model.request]\n${key} = { a = 1 }\n`);
    const errors = schemaErrors(toml).filter((e) => e.code === 'manifest.unknown_key').map((e) => e.path);
    expect(errors).toEqual([key, `package.${key}`, `agents[0].defaults.model.request.${key}`]);
  });
});
