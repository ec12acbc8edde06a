import { describe, expect, it } from 'vitest';
import { jsonSchemaProblem } from './json-schema-check';

describe('jsonSchemaProblem', () => {
  it('accepts the spec example inputs and booleans', () => {
    expect(
      jsonSchemaProblem({
        type: 'object',
        required: ['path'],
        properties: { path: { type: 'string', description: 'Path' } },
      }),
    ).toBeNull();
    expect(jsonSchemaProblem(true)).toBeNull();
    expect(
      jsonSchemaProblem({ $defs: { a: { type: 'string' } }, properties: { x: { $ref: '#/$defs/a' } } }),
    ).toBeNull();
    expect(jsonSchemaProblem({ $defs: { a: { $anchor: 'A', type: 'string' } }, items: { $ref: '#A' } })).toBeNull();
  });

  it('refuses what is not a schema', () => {
    expect(jsonSchemaProblem('object')).toBe('is not a JSON Schema (an object or a boolean)');
    expect(jsonSchemaProblem({ properties: { a: 3 } })).toBe(
      'has `/properties/a`, which is not a schema (an object or a boolean)',
    );
  });

  it('refuses meta-schema violations', () => {
    expect(jsonSchemaProblem({ type: 'strnig' })).toMatch(
      /^schema\/type must be equal to one of the allowed values|^schema\/type/,
    );
    expect(jsonSchemaProblem({ required: 'path' })).toMatch(/^schema\/required must be array/);
  });

  it('refuses unknown keywords like strict mode, but allows declared extras', () => {
    expect(jsonSchemaProblem({ typ: 'object' })).toBe('has the unknown keyword `typ` at `/`');
    expect(jsonSchemaProblem({ properties: { a: { tpye: 'string' } } })).toBe(
      'has the unknown keyword `tpye` at `/properties/a`',
    );
    const xOrder = (value: unknown) =>
      Array.isArray(value) && value.every((v) => typeof v === 'string') ? null : 'must list property names';
    expect(jsonSchemaProblem({ 'x-order': ['a'] }, { 'x-order': xOrder })).toBeNull();
    expect(jsonSchemaProblem({ 'x-order': [1] }, { 'x-order': xOrder })).toBe('`/x-order`: must list property names');
  });

  it('refuses bad patterns and unresolvable or remote references', () => {
    expect(jsonSchemaProblem({ pattern: '(' })).toBe('`/pattern` is not a valid regular expression: `(`');
    expect(jsonSchemaProblem({ patternProperties: { '[': {} } })).toBe(
      '`/patternProperties` has a property pattern that is not a valid regular expression: `[`',
    );
    expect(jsonSchemaProblem({ $ref: '#/$defs/missing' })).toBe(
      '`/$ref` refers to `#/$defs/missing`, which is not in the schema',
    );
    expect(jsonSchemaProblem({ $ref: 'https://evil.example/schema.json' })).toBe(
      '`/$ref` refers to `https://evil.example/schema.json`, outside this schema: only references inside the schema are allowed',
    );
  });

  it('refuses a `$ref` with a malformed %-escape, naming it, instead of throwing', () => {
    expect(jsonSchemaProblem({ properties: { a: { $ref: '#%E0%A4%A' } } })).toBe(
      '`/properties/a/$ref` refers to `#%E0%A4%A`, which is not a valid URI fragment (a malformed %-escape)',
    );
    expect(jsonSchemaProblem({ $dynamicRef: '#%' })).toBe(
      '`/$dynamicRef` refers to `#%`, which is not a valid URI fragment (a malformed %-escape)',
    );
  });

  it('bounds depth and size', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100; i += 1) deep = { not: deep };
    expect(jsonSchemaProblem(deep)).toMatch(/^is nested too deeply/);
    const wide = { properties: Object.fromEntries(Array.from({ length: 25_000 }, (_, i) => [`p${i}`, {}])) };
    expect(jsonSchemaProblem(wide)).toBe('is too large (over 20000 subschemas)');
  });
});
