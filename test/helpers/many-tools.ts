/**
 * A package that offers many tools ("a manifest with thousands of tools still renders
 * promptly"): one agent offered every tool, each tool in its own Python module (all described, so
 * the package is accepted), families cycling through the four that e2e counts cover. Used by the
 * long-list e2e spec (a hundred tools) and the render bench (thousands).
 */

const FAMILIES = ['read', 'read_personal', 'write_or_delete', 'send_external'] as const;

/** The name of tool `i`: `tool_0042`. */
export const manyToolName = (i: number): string => `tool_${String(i).padStart(4, '0')}`;

/** The `apollia.toml` of `name` 1.0.0 with `count` tools, all offered to its agent `operator`. */
export function manyToolsManifest(name: string, count: number, publisher = 'Example'): string {
  const access = Array.from({ length: count }, (_, i) => `"pkg:${name}/${manyToolName(i)}"`);
  const lines = [
    '[package]',
    `name = "${name}"`,
    'version = "1.0.0"',
    `publisher = "${publisher}"`,
    `description = "A package with ${count} tools."`,
    'sdk = ">=0.3, <0.4"',
    '',
    '[[agents]]',
    'id = "operator"',
    'name = "Operator"',
    'mission = "Uses many tools."',
    '',
    '[agents.defaults]',
    `access = [${access.join(', ')}]`,
    '',
  ];
  for (let i = 0; i < count; i++) {
    const tool = manyToolName(i);
    lines.push(
      '[[tools]]',
      `name = "${tool}"`,
      `module = "tools/${tool}.py"`,
      `description = "Tool number ${i}: reads or changes one record."`,
      `action = "${FAMILIES[i % FAMILIES.length]}"`,
      '',
    );
  }
  return lines.join('\n');
}

/** The Python module of one tool: its `@tool` function, read as text, never run. */
export function manyToolsModule(tool: string): string {
  return `"""Module ${tool}."""\nfrom apollia import tool\n\n\n@tool\ndef ${tool}(record_id: str) -> dict:\n    """Does ${tool}."""\n    return {"id": record_id}\n`;
}
