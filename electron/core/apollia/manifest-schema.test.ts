/**
 * The manifest's schema is defined once with TypeBox (`shared/manifests/apollia-manifest-schema.ts`) and
 * must stay the strict schema that was written by hand before it: the same JSON, key for key and
 * in the same order (`test/fixtures/schemas/manifest-schema.json` is that schema, checked in), so the
 * compiled validator validates exactly as it did; a deliberate change to what is validated updates
 * that file with it. The manifest's types are the schema's static types: there is no second text
 * of them to drift from.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { TRIGGER_SOURCE_TYPES } from '../../../shared/manifests/apollia-manifest';
import type * as Manifest from '../../../shared/manifests/apollia-manifest';
import { validateManifest } from '../generated/manifest-validator';
import { MANIFEST_SCHEMA } from './manifest-schema';

const ROOT = new URL('../../../', import.meta.url).pathname;
const BEFORE = JSON.parse(readFileSync(`${ROOT}test/fixtures/schemas/manifest-schema.json`, 'utf8')) as Record<
  string,
  unknown
>;

/** The one schema object embedded in the compiled validator (ajv's standalone code writes it as JSON). */
function compiledSchema(): unknown {
  const code = readFileSync(`${ROOT}electron/core/generated/manifest-validator.js`, 'utf8');
  const json = /^const schema\d+ = (\{.*\});$/m.exec(code)?.[1];
  if (!json) throw new Error('no schema in manifest-validator.js');
  return JSON.parse(json);
}

describe('manifest schema (defined once with TypeBox)', () => {
  it('is, key for key and in order, the strict schema written by hand before it', () => {
    expect(JSON.stringify(MANIFEST_SCHEMA)).toBe(JSON.stringify(BEFORE));
    expect(JSON.stringify(compiledSchema())).toBe(JSON.stringify(BEFORE));
  });

  it('types a trigger source by the parser’s list of types', () => {
    expectTypeOf<Manifest.TriggerSource['type']>().toEqualTypeOf<(typeof TRIGGER_SOURCE_TYPES)[number]>();
  });

  it('has one source table per trigger source type, in the parser’s order', () => {
    type Source = { oneOf: { properties: { type: { const: string } } }[] };
    const schema = MANIFEST_SCHEMA as unknown as {
      properties: { triggers: { items: { properties: { source: Source } } } };
    };
    const source = schema.properties.triggers.items.properties.source;
    expect(source.oneOf.map((table) => table.properties.type.const)).toEqual([...TRIGGER_SOURCE_TYPES]);
  });

  it('compiles to a validator that still refuses what the schema refuses', () => {
    const manifest = { package: { name: 'p', version: '1.0.0', publisher: 'P', sdk: '>=0.3' } };
    expect(validateManifest(manifest)).toBe(true);
    expect(validateManifest({ ...manifest, extra: 1 })).toBe(false);
    expect(validateManifest({ package: { ...manifest.package, publisher: '' } })).toBe(false);
    const trigger = (source: object) => ({ ...manifest, triggers: [{ id: 't', target: 'a', source }] });
    expect(validateManifest(trigger({ type: 'cron', schedule: '0 8 * * MON' }))).toBe(true);
    expect(validateManifest(trigger({ type: 'webhook', secret: 'x' }))).toBe(false);
    expect(validateManifest(trigger({ type: 'interval', every: 'soon' }))).toBe(false);
    expect(validateManifest({ ...manifest, mcp_servers: [{ name: 's', requires_approval: 'yes' }] })).toBe(true);
  });
});
