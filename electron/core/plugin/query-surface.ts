/**
 * The plugin manifest's datasets and query surface (spec "Datasets", "Query-profile"), read with
 * the field reader; manifest-reader.ts puts them together with the other sections.
 */
import type {
  PluginDatasetView,
  PluginToolView,
  PushdownOperation,
  QueryProfileView,
  ToolAccessClass,
} from '../../../shared/manifests/plugin-manifest';
import { has, type JsonObject, type Reader } from './field-reader';
import { childPath } from './strict-json';

const PUSHDOWN_OPERATIONS: readonly PushdownOperation[] = ['filter', 'project', 'sort', 'limit', 'aggregate'];

/** Spec "Datasets": each dataset, its tool, schema, probe and pushdown. */
export function readDatasets(
  r: Reader,
  root: JsonObject,
  declaredTools: Map<string, ToolAccessClass | null>,
): PluginDatasetView[] {
  const out: PluginDatasetView[] = [];
  const seen = new Set<string>();
  r.list(root, 'datasets', '').forEach((item, i) => {
    const path = childPath('datasets', i);
    const obj = r.object(item, path);
    if (!obj) return;
    r.unknownFields(obj, path, ['name', 'description', 'tool', 'schema', 'schema_probe', 'pushdown']);
    const before = r.errors.length;
    const name = r.string(obj, 'name', path, { nonEmpty: true });
    const description = r.string(obj, 'description', path, { optional: true });
    const tool = r.string(obj, 'tool', path, { optional: true });
    const schema = r.jsonSchema(obj, 'schema', path);
    const schemaProbe = r.string(obj, 'schema_probe', path, { optional: true, nonEmpty: true });
    let pushdown: PluginDatasetView['pushdown'] = null;
    if (has(obj, 'pushdown') && obj.pushdown !== null) {
      const pd = r.object(obj.pushdown, childPath(path, 'pushdown'));
      if (pd) {
        const pdPath = childPath(path, 'pushdown');
        r.unknownFields(pd, pdPath, ['operations', 'aggregates']);
        const operations: PushdownOperation[] = [];
        r.stringList(pd, 'operations', pdPath).forEach((op, j) => {
          if ((PUSHDOWN_OPERATIONS as readonly string[]).includes(op)) operations.push(op as PushdownOperation);
          else
            r.error(
              'plugin.invalid_value',
              childPath(childPath(pdPath, 'operations'), j),
              `must be one of ${PUSHDOWN_OPERATIONS.map((o) => `\`${o}\``).join(', ')}, not \`${op}\``,
            );
        });
        pushdown = { operations, aggregates: r.stringList(pd, 'aggregates', pdPath) };
      }
    }
    if (tool !== null) {
      if (!declaredTools.has(tool))
        r.error(
          'plugin.unknown_dataset_tool',
          childPath(path, 'tool'),
          `names tool \`${tool}\`, which this manifest does not declare`,
        );
      else if (declaredTools.get(tool) === 'write')
        r.error(
          'plugin.dataset_write_tool',
          childPath(path, 'tool'),
          `names write tool \`${tool}\`; a dataset resolves through a read tool`,
        );
    }
    // Spec "Query-profile": a dynamic dataset declaring pushdown must supply a schema_probe;
    // a fixed-schema dataset must not.
    if (pushdown !== null && schema === null && schemaProbe === null && !has(obj, 'schema_probe')) {
      r.error(
        'plugin.dataset_schema_probe_missing',
        childPath(path, 'schema_probe'),
        'is required: a dynamic dataset (no fixed `schema`) that declares `pushdown` must supply a schema probe',
      );
    }
    if (schema !== null && schemaProbe !== null) {
      r.error(
        'plugin.dataset_schema_probe_unexpected',
        childPath(path, 'schema_probe'),
        'must not be set on a dataset with a fixed `schema`',
      );
    }
    if (name === null || r.errors.length > before) return;
    if (seen.has(name)) {
      r.error('plugin.duplicate_dataset', childPath(path, 'name'), `repeats dataset name \`${name}\``);
      return;
    }
    seen.add(name);
    out.push({ name, description, tool, fixed_schema: schema !== null, schema_probe: schemaProbe, pushdown });
  });
  return out;
}

/**
 * Spec "Query-profile": a READ tool returning a single list of flat scalar-field rows is
 * auto-adapted into a queryable dataset.
 */
function returnsFlatRows(schema: Record<string, unknown> | null): boolean {
  if (schema === null || schema.type !== 'array') return false;
  const items = schema.items as Record<string, unknown> | undefined;
  if (typeof items !== 'object' || items === null || items.type !== 'object') return false;
  const properties = items.properties as Record<string, Record<string, unknown>> | undefined;
  if (typeof properties !== 'object' || properties === null || Object.keys(properties).length === 0) return false;
  const scalar = new Set(['string', 'number', 'integer', 'boolean', 'null']);
  return Object.values(properties).every((prop) => {
    const type = prop?.type;
    if (typeof type === 'string') return scalar.has(type);
    return Array.isArray(type) && type.length > 0 && type.every((t) => typeof t === 'string' && scalar.has(t));
  });
}

/** Spec "Query-profile": which query surface the plugin offers, from its datasets and tools. */
export function readQueryProfile(
  r: Reader,
  root: JsonObject,
  tools: PluginToolView[],
  datasets: PluginDatasetView[],
  toolsRead: boolean,
): QueryProfileView {
  const readTools = tools.filter((t) => t.access_class === 'read');
  let rationale: string | null = null;
  const present = has(root, 'query_surface') && root.query_surface !== null;
  if (present) {
    const obj = r.object(root.query_surface, 'query_surface');
    if (obj) {
      r.unknownFields(obj, 'query_surface', ['rationale']);
      const value = r.string(obj, 'rationale', 'query_surface');
      // Spec "Recorded opt-out": an empty rationale fails the gate.
      if (value !== null && value.trim() === '')
        r.error(
          'plugin.query_surface_empty_rationale',
          'query_surface.rationale',
          'is empty: a recorded opt-out must say why the read surface is not tabular',
        );
      else rationale = value;
    }
  }
  if (readTools.length === 0) {
    // Spec: "a stale key fails the gate". Only judged when every tool was read cleanly.
    if (present && toolsRead)
      r.error(
        'plugin.query_surface_stale',
        'query_surface',
        'records a query-profile opt-out, but the plugin has no read tools',
      );
    return { kind: 'none' };
  }
  const pushdown = datasets.filter((d) => d.pushdown !== null).map((d) => d.name);
  if (pushdown.length > 0) return { kind: 'pushdown', datasets: pushdown };
  const adapted = readTools.filter((t) => returnsFlatRows(t.output_schema)).map((t) => t.name);
  if (datasets.length > 0 || adapted.length > 0)
    return { kind: 'bounded_fetch', datasets: datasets.map((d) => d.name), autoAdaptedTools: adapted };
  if (rationale !== null) return { kind: 'opt_out', rationale };
  if (!present) {
    r.error(
      'plugin.query_profile_missing',
      'query_surface',
      `is missing: a plugin with read tools (${readTools.map((t) => `\`${t.name}\``).join(', ')}) must declare a query profile: a dataset with \`pushdown\`, a \`datasets\` entry, or an opt-out with a \`rationale\``,
    );
  }
  return { kind: 'none' };
}
