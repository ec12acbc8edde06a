/**
 * A template's eval graders (spec: agentrun-template-packages.md "Eval cases", "Running the
 * evals"): `graders/*.md`, each by its `type` (llm, regex, tool_used, file_exists, schema) with
 * that type's fields. A grader is checked as data; nothing of it runs here.
 */
import { mcpGateName } from '../../../shared/manifests/template-manifest';
import { TEMPLATE_TOOLS } from '../../../shared/manifests/catalogues';
import { readFrontMatter } from './front-matter';
import { isObject, type Json } from './front-matter-fields';
import { jsonSchemaFileProblem } from './json-schema';
import { isInnerPath, type PartReader } from './part-reader';

const TARGET = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;

/**
 * `graders/*.md`, each by its `type` (spec: "Eval cases", "Running the evals").
 * A `schema` grader's file goes to `reader.named`, so the root-file check allows it.
 */
export function checkGrader(reader: PartReader, path: string, fakes: Set<string>): void {
  if (!path.endsWith('.md') || path.split('/').length !== 4) return;
  const text = reader.text(path);
  if (text === null) return;
  const read = readFrontMatter(text, path);
  if (!read.ok) {
    reader.errors.push(read.problem);
    return;
  }
  const data = read.value.data;
  if (!isObject(data)) return reader.fail('template.grader', path, 'front matter must be a map with `type`');
  const fields: Record<string, string[]> = {
    llm: ['type', 'target'],
    regex: ['type', 'pattern', 'flags', 'expect', 'target'],
    tool_used: ['type', 'tool', 'tools', 'expect', 'count', 'args'],
    file_exists: ['type', 'path'],
    schema: ['type', 'schema'],
  };
  const type = data.type;
  if (typeof type !== 'string' || !fields[type]) {
    return reader.fail(
      'template.grader',
      path,
      `\`type\` must be one of ${Object.keys(fields).join(', ')}, not ${JSON.stringify(type)}`,
    );
  }
  for (const key of Object.keys(data)) {
    if (!(fields[type] ?? []).includes(key))
      reader.fail('template.unknown_field', path, `unknown field \`${key}\` for a ${type} grader`);
  }
  if (data.target !== undefined && (typeof data.target !== 'string' || !TARGET.test(data.target))) {
    reader.fail('template.grader', path, "`target` must name a field of the answer's JSON, like `verdict` or `a.b`");
  }
  if (type === 'llm' && read.value.body.trim() === '')
    reader.fail('template.grader', path, "an llm grader's body is its rubric and must not be empty");
  if (type === 'regex') {
    const flags = data.flags ?? '';
    if (
      typeof flags !== 'string' ||
      !/^[imsuv]*$/.test(flags) ||
      new Set(flags).size !== flags.length ||
      (flags.includes('u') && flags.includes('v'))
    ) {
      reader.fail('template.grader', path, '`flags` must be some of i, m, s, u, v, each once (u and v not together)');
    } else if (typeof data.pattern !== 'string' || data.pattern === '')
      reader.fail('template.grader', path, '`pattern` is required: a regular expression');
    else {
      try {
        new RegExp(data.pattern, flags);
      } catch (error) {
        reader.fail(
          'template.grader',
          path,
          `\`pattern\` does not compile: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    if (data.expect !== undefined && data.expect !== 'match' && data.expect !== 'no_match')
      reader.fail('template.grader', path, '`expect` must be match or no_match');
  }
  if (type === 'tool_used') checkToolUsed(reader, path, data, fakes);
  if (type === 'file_exists' && (typeof data.path !== 'string' || !isInnerPath(data.path))) {
    reader.fail('template.grader', path, "`path` must be a path relative to the run's work folder");
  }
  if (type === 'schema') {
    const file = data.schema;
    if (typeof file !== 'string' || !isInnerPath(file) || !reader.files.has(file)) {
      reader.fail(
        'template.grader',
        path,
        `\`schema\` must name a JSON Schema file of the package, not ${JSON.stringify(file)}`,
      );
    } else {
      reader.named.add(file);
      const problem = jsonSchemaFileProblem(reader.files.get(file) as Uint8Array);
      if (problem) reader.fail('template.grader', path, `\`schema\` ${file} ${problem}`);
    }
  }
}

/**
 * A `tool_used` grader: `tool` or `tools` by gate name, each one the package has; `args` only on
 * a tool of a server the case fakes (`fakes`, from case.yaml `mcp`).
 */
function checkToolUsed(reader: PartReader, path: string, data: Json, fakes: Set<string>): void {
  const manifest = reader.manifest;
  const known = new Set<string>([
    ...(manifest?.tools ?? TEMPLATE_TOOLS.map((t) => t.name)),
    ...(manifest?.mcp ?? []).flatMap((entry) => entry.tools.map((tool) => mcpGateName(entry.server, tool))),
  ]);
  let names: unknown[] = [];
  if ((data.tool === undefined) === (data.tools === undefined))
    reader.fail('template.grader', path, 'give `tool` or `tools`, one of them');
  else if (data.tool !== undefined) names = [data.tool];
  else if (!Array.isArray(data.tools) || data.tools.length === 0)
    reader.fail('template.grader', path, '`tools` must be a non-empty list of gate names');
  else names = data.tools;
  for (const name of names) {
    if (typeof name !== 'string' || !known.has(name))
      reader.fail(
        'template.grader',
        path,
        `${JSON.stringify(name)} is not a tool the package has (by gate name: write, web_fetch, mcp:<server>/<tool>)`,
      );
  }
  if (data.expect !== undefined && data.expect !== 'called' && data.expect !== 'not_called')
    reader.fail('template.grader', path, '`expect` must be called or not_called');
  if (data.count !== undefined && (typeof data.count !== 'number' || !Number.isInteger(data.count) || data.count < 0))
    reader.fail('template.grader', path, '`count` must be a whole number, 0 or more');
  if (data.args !== undefined) {
    if (!isObject(data.args))
      reader.fail('template.grader', path, '`args` must map arguments to the values a call carries');
    const faked = names.every(
      (name) => typeof name === 'string' && /^mcp:[^/]+\//.test(name) && fakes.has(name.slice(4).split('/')[0] ?? ''),
    );
    if (!faked)
      reader.fail(
        'template.grader',
        path,
        "`args` is allowed on a faked MCP tool only (case.yaml `mcp`): the timeline keeps a call's input as a preview",
      );
  }
}
