/**
 * What a plugin offers (spec "PluginManifest", "Tools"): its capabilities, the tools under them
 * and its resources, with the construction-time invariants (unique names, each tool under a
 * declared capability, write tools under approval), read with the field reader.
 */
import type {
  MinimumRole,
  PluginCapabilityView,
  PluginResourceView,
  PluginToolView,
  ToolAccessClass,
} from '../../../shared/manifests/plugin-manifest';
import { has, isObject, type JsonObject, type Reader, typeName } from './field-reader';
import { childPath } from './strict-json';

/**
 * Reads `capabilities[]`: each capability's routing text, approval and minimum role.
 *
 * A repeated name is refused (`plugin.duplicate_capability`): tools name their capability, so it must be unique.
 */
export function readCapabilities(r: Reader, root: JsonObject): PluginCapabilityView[] {
  const out: PluginCapabilityView[] = [];
  const seen = new Map<string, number>();
  r.list(root, 'capabilities', '').forEach((item, i) => {
    const path = childPath('capabilities', i);
    const obj = r.object(item, path);
    if (!obj) return;
    r.unknownFields(obj, path, [
      'name',
      'description',
      'routing_hints',
      'routing_examples',
      'approval_required',
      'minimum_role',
    ]);
    const name = r.string(obj, 'name', path, { nonEmpty: true });
    const description = r.string(obj, 'description', path, { optional: true }) ?? '';
    const routingHints = r.stringList(obj, 'routing_hints', path, { acceptString: true });
    const routingExamples = r.stringList(obj, 'routing_examples', path);
    const approvalRequired = r.boolean(obj, 'approval_required', path) ?? false;
    let minimumRole: MinimumRole | null = null;
    if (has(obj, 'minimum_role') && obj.minimum_role !== null) {
      const role = obj.minimum_role;
      if (role === 'TENANT_ADMIN' || role === 'SUPER_ADMIN') minimumRole = role;
      else
        r.error(
          'plugin.invalid_value',
          childPath(path, 'minimum_role'),
          `must be null, \`TENANT_ADMIN\` or \`SUPER_ADMIN\`, not ${typeof role === 'string' ? `\`${role}\`` : typeName(role)}`,
        );
    }
    if (name === null) return;
    const first = seen.get(name);
    if (first !== undefined) {
      r.error(
        'plugin.duplicate_capability',
        childPath(path, 'name'),
        `repeats capability name \`${name}\` of \`capabilities[${first}]\`; capability names must be unique`,
      );
      return;
    }
    seen.set(name, i);
    out.push({
      name,
      description,
      routing_hints: routingHints,
      routing_examples: routingExamples,
      approval_required: approvalRequired,
      minimum_role: minimumRole,
    });
  });
  return out;
}

/**
 * Reads `tools[]`. `declared` holds every tool name written, with its class when readable, so a
 * later reference to a tool that was refused for another reason is not reported twice.
 */
export function readTools(
  r: Reader,
  root: JsonObject,
  capabilities: PluginCapabilityView[],
): { tools: PluginToolView[]; declared: Map<string, ToolAccessClass | null> } {
  const out: PluginToolView[] = [];
  const declared = new Map<string, ToolAccessClass | null>();
  const seen = new Map<string, number>();
  const byName = new Map(capabilities.map((cap) => [cap.name, cap]));
  r.list(root, 'tools', '').forEach((item, i) => {
    const path = childPath('tools', i);
    const obj = r.object(item, path);
    if (!obj) return;
    r.unknownFields(obj, path, [
      'name',
      'capability',
      'description',
      'access_class',
      'idempotent',
      'input_schema',
      'output_schema',
    ]);
    const before = r.errors.length;
    const name = r.string(obj, 'name', path, { nonEmpty: true });
    const capability = r.string(obj, 'capability', path, { nonEmpty: true });
    const description = r.string(obj, 'description', path, { optional: true }) ?? '';
    let accessClass: ToolAccessClass | null = null;
    const rawClass = r.string(obj, 'access_class', path);
    if (rawClass !== null) {
      const lower = rawClass.toLowerCase();
      if (lower === 'read' || lower === 'write') accessClass = lower;
      else
        r.error(
          'plugin.invalid_value',
          childPath(path, 'access_class'),
          `must be \`read\` or \`write\`, not \`${rawClass}\``,
        );
    }
    const idempotent = r.boolean(obj, 'idempotent', path);
    const inputSchema = r.jsonSchema(obj, 'input_schema', path);
    const outputSchema = r.jsonSchema(obj, 'output_schema', path);
    const label = name === null ? 'this tool' : `tool \`${name}\``;
    if (name !== null && !declared.has(name)) declared.set(name, accessClass);

    if (name !== null) {
      const first = seen.get(name);
      if (first !== undefined)
        r.error(
          'plugin.duplicate_tool',
          childPath(path, 'name'),
          `repeats tool name \`${name}\` of \`tools[${first}]\`; tool names must be unique`,
        );
      else seen.set(name, i);
    }
    // Spec "PluginManifest": every ToolSpec.capability resolves to a capability on the same manifest.
    const cap = capability === null ? undefined : byName.get(capability);
    if (capability !== null && cap === undefined) {
      r.error(
        'plugin.unknown_capability',
        childPath(path, 'capability'),
        `names capability \`${capability}\`, which this manifest does not declare (${label})`,
      );
    }
    if (accessClass === 'write') {
      // Spec "PluginManifest": write-class tools live under an approval_required capability
      // and declare idempotent explicitly.
      if (cap !== undefined && !cap.approval_required) {
        r.error(
          'plugin.write_without_approval',
          childPath(path, 'capability'),
          `puts write ${label} under capability \`${cap.name}\`, which is not \`approval_required\`; write tools must need approval`,
        );
      }
      if (idempotent === undefined && !has(obj, 'idempotent')) {
        r.error(
          'plugin.idempotent_missing',
          childPath(path, 'idempotent'),
          `is required on write ${label}: declare true or false explicitly`,
        );
      }
    }
    // Spec "Tools": READ tools are idempotent by definition.
    if (accessClass === 'read' && idempotent === false) {
      r.error(
        'plugin.read_not_idempotent',
        childPath(path, 'idempotent'),
        `is false on read ${label}, but read tools are idempotent by definition`,
      );
    }
    if (r.errors.length > before || name === null || capability === null || accessClass === null) return;
    out.push({
      name,
      capability,
      description,
      access_class: accessClass,
      idempotent: accessClass === 'read' ? true : (idempotent ?? false),
      input_schema: inputSchema,
      output_schema: outputSchema,
    });
  });
  return { tools: out, declared };
}

/**
 * Reads `resources[]`: each a name, or an object with `name` and `description`.
 *
 * A repeated name is refused (`plugin.duplicate_resource`), as the spec requires unique resource names.
 */
export function readResources(r: Reader, root: JsonObject): PluginResourceView[] {
  const out: PluginResourceView[] = [];
  const seen = new Map<string, number>();
  r.list(root, 'resources', '').forEach((item, i) => {
    const path = childPath('resources', i);
    let resource: PluginResourceView | null = null;
    let namePath = path;
    if (typeof item === 'string') {
      if (item.trim() === '') r.error('plugin.empty_field', path, 'must not be empty');
      else resource = { name: item, description: null };
    } else if (isObject(item)) {
      r.unknownFields(item, path, ['name', 'description']);
      const name = r.string(item, 'name', path, { nonEmpty: true });
      const description = r.string(item, 'description', path, { optional: true });
      namePath = childPath(path, 'name');
      if (name !== null) resource = { name, description };
    } else {
      r.error('plugin.invalid_type', path, `must be a name or an object with \`name\`, not ${typeName(item)}`);
    }
    if (resource === null) return;
    const first = seen.get(resource.name);
    if (first !== undefined) {
      r.error(
        'plugin.duplicate_resource',
        namePath,
        `repeats resource name \`${resource.name}\` of \`resources[${first}]\`; resource names must be unique`,
      );
      return;
    }
    seen.set(resource.name, i);
    out.push(resource);
  });
  return out;
}
