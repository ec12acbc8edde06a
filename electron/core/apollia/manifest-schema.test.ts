/**
 * The manifest's schema is defined once with TypeBox (`shared/apollia-manifest-schema.ts`) and
 * must stay the strict schema that was written by hand before it: the same JSON, key for key and
 * in the same order (`test/fixtures/schemas/manifest-schema.json` is that schema, checked in), so the
 * compiled validator validates exactly as it did; a deliberate change to what is validated updates
 * that file with it. The types it gives are the manifest's types as they were declared by hand
 * (`npm run typecheck` fails when they drift).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ActionFamily, AutonomyTier, McpTransport, PlanningMode } from '../../../shared/apollia-manifest';
import { TRIGGER_SOURCE_TYPES } from '../../../shared/apollia-manifest';
import type * as Manifest from '../../../shared/apollia-manifest';
import { validateManifest } from '../generated/manifest-validator';
import { MANIFEST_SCHEMA } from './manifest-schema';

const ROOT = new URL('../../../', import.meta.url).pathname;
const BEFORE = JSON.parse(readFileSync(`${ROOT}test/fixtures/schemas/manifest-schema.json`, 'utf8')) as Record<
  string,
  unknown
>;

// The types as they were declared by hand before the schema gave them.
interface PackageTable {
  name: string;
  version: string;
  publisher: string;
  description?: string;
  sdk: string;
}
interface ModelRequest {
  temperature?: number;
  top_p?: number;
  top_k?: number;
  repetition_penalty?: number;
  max_tokens?: number;
  seed?: number;
}
interface AgentDefaults {
  access?: string[];
  sources?: string[];
  autonomy?: AutonomyTier;
  planning?: PlanningMode;
  model?: { model?: string; preset?: string; request?: ModelRequest };
}
interface AgentEntry {
  id: string;
  name: string;
  mission: string;
  examples?: string[];
  defaults?: AgentDefaults;
}
interface ToolEntry {
  name: string;
  module: string;
  description: string;
  action: ActionFamily;
  inputs?: Record<string, unknown>;
}
interface WorkflowEntry extends ToolEntry {
  steps?: string[];
}
interface RequiresEntry {
  type: string;
  reason?: string;
}
interface McpServerEntry {
  name: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  transport?: McpTransport;
  url?: string;
  init_timeout_secs?: number;
  call_timeout_secs?: number;
  max_response_bytes?: number;
  max_tools?: number;
  tags?: string[];
  requires_approval?: unknown;
}
type TriggerSource =
  | { type: 'cron'; schedule: string }
  | { type: 'interval'; every: string }
  | { type: 'file_watch'; recursive?: boolean }
  | { type: 'webhook' };
interface TriggerEntry {
  id: string;
  target: string;
  input?: string;
  source: TriggerSource;
}
interface ApolliaManifest {
  package: PackageTable;
  agents?: AgentEntry[];
  tools?: ToolEntry[];
  workflows?: WorkflowEntry[];
  requires?: RequiresEntry[];
  mcp_servers?: McpServerEntry[];
  pip?: { packages?: string[] };
  triggers?: TriggerEntry[];
}

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

  it('gives the manifest the types it was declared with', () => {
    expectTypeOf<Manifest.PackageTable>().toEqualTypeOf<PackageTable>();
    expectTypeOf<Manifest.ModelRequest>().toEqualTypeOf<ModelRequest>();
    expectTypeOf<Manifest.AgentDefaults>().toEqualTypeOf<AgentDefaults>();
    expectTypeOf<Manifest.AgentEntry>().toEqualTypeOf<AgentEntry>();
    expectTypeOf<Manifest.ToolEntry>().toEqualTypeOf<ToolEntry>();
    expectTypeOf<Manifest.WorkflowEntry>().toEqualTypeOf<WorkflowEntry>();
    expectTypeOf<Manifest.RequiresEntry>().toEqualTypeOf<RequiresEntry>();
    expectTypeOf<Manifest.McpServerEntry>().toEqualTypeOf<McpServerEntry>();
    expectTypeOf<Manifest.TriggerSource>().toEqualTypeOf<TriggerSource>();
    expectTypeOf<Manifest.TriggerEntry>().toEqualTypeOf<TriggerEntry>();
    expectTypeOf<Manifest.ApolliaManifest>().toEqualTypeOf<ApolliaManifest>();
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
