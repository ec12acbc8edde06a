/**
 * A template's eval cases (spec: agentrun-template-packages.md "Eval cases"): each `evals/<case>/`
 * holds prompt.md, an optional case.yaml, fixtures/ and graders/*.md, and nothing else but the
 * files its case.yaml names. They are checked for their layout and fields only; nothing runs.
 */
import { checkParameter } from '../../../shared/decisions/apply-parameters';
import { mcpGateName, type TemplateEvalCase, type TemplateMcpEntry } from '../../../shared/manifests/template-manifest';
import { checkGrader } from './eval-graders';
import { readFrontMatter } from './front-matter';
import { isObject } from './front-matter-fields';
import { isInnerPath, type PartReader } from './part-reader';
import { unknownKeys } from '../schema/strict-fields';

const CASE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * `evals/<case>/`: prompt.md, optional case.yaml, fixtures/, graders/*.md (spec: "Eval cases").
 * Returns the cases accepted whole, by name; the problems go to `reader`.
 */
export function checkEvals(reader: PartReader): TemplateEvalCase[] {
  const cases = new Set<string>();
  for (const path of reader.files.keys()) {
    if (!path.startsWith('evals/')) continue;
    const parts = path.split('/');
    if (parts.length < 3) reader.fail('template.layout', path, 'evals/ holds one folder per case');
    else cases.add(parts[1] ?? '');
  }
  for (const dir of reader.directories) {
    const parts = dir.split('/');
    if (parts[0] === 'evals' && parts.length === 2) cases.add(parts[1] ?? '');
  }
  const evals: TemplateEvalCase[] = [];
  for (const name of [...cases].sort()) {
    const accepted = checkCase(reader, name);
    if (accepted) evals.push(accepted);
  }
  return evals;
}

/** One case folder, `evals/<name>/`: the case when nothing in it was refused, else `null`. */
function checkCase(reader: PartReader, name: string): TemplateEvalCase | null {
  const base = `evals/${name}`;
  if (!CASE_NAME.test(name)) {
    reader.fail('template.eval', base, `case name \`${name}\` must be lowercase letters, digits, _ and -`);
    return null;
  }
  const before = reader.errors.length;
  const promptPath = `${base}/prompt.md`;
  let description = '';
  if (!reader.files.has(promptPath))
    reader.fail('template.eval', promptPath, "each eval case has a prompt.md, its run's input");
  else {
    const text = reader.text(promptPath);
    const read = text === null ? null : readFrontMatter(text, promptPath);
    if (read && !read.ok) reader.errors.push(read.problem);
    else if (read && read.ok) {
      const data = read.value.data;
      if (!isObject(data))
        reader.fail('template.eval', promptPath, 'front matter must be a map (description, runs, max_cost_usd)');
      else {
        for (const key of unknownKeys(data, ['description', 'runs', 'max_cost_usd']))
          reader.fail(
            'template.unknown_field',
            promptPath,
            `unknown field \`${key}\` (a prompt takes description, runs, max_cost_usd)`,
          );
        if (typeof data.description !== 'string' || data.description.trim() === '')
          reader.fail('template.eval', promptPath, '`description` is required: what the case tests');
        else description = data.description;
        if (
          data.runs !== undefined &&
          (typeof data.runs !== 'number' || !Number.isInteger(data.runs) || data.runs < 1 || data.runs > 100)
        ) {
          reader.fail('template.eval', promptPath, '`runs` must be a whole number from 1 to 100');
        }
        const cost = data.max_cost_usd;
        if (typeof cost !== 'number' || !Number.isFinite(cost) || cost <= 0)
          reader.fail(
            'template.eval',
            promptPath,
            "`max_cost_usd` is required: each run's cap, a positive number of US dollars",
          );
      }
      if (read.value.body.trim() === '')
        reader.fail('template.eval', promptPath, "the body is the run's input and must not be empty");
    }
  }
  const caseFiles = new Set<string>([promptPath]);
  const caseFolders = new Set<string>(['fixtures', 'graders']);
  const fakes = new Set<string>();
  const casePath = `${base}/case.yaml`;
  if (reader.files.has(casePath)) {
    caseFiles.add(casePath);
    checkCaseYaml(reader, base, casePath, caseFiles, caseFolders, fakes);
  }
  const graders = [...reader.files.keys()].filter((p) => p.startsWith(`${base}/graders/`)).sort();
  if (graders.length === 0)
    reader.fail('template.eval', `${base}/graders`, 'each eval case has at least one grader (graders/*.md)');
  for (const path of graders) checkGrader(reader, path, fakes);
  for (const path of reader.files.keys()) {
    if (!path.startsWith(`${base}/`) || caseFiles.has(path)) continue;
    const rest = path.slice(base.length + 1);
    const top = rest.split('/')[0] ?? '';
    if (top === 'graders' && (rest.split('/').length !== 2 || !rest.endsWith('.md'))) {
      reader.fail('template.layout', path, 'graders/ holds only Markdown graders (graders/<name>.md)');
    } else if (!caseFolders.has(top) || rest.split('/').length < 2) {
      reader.fail(
        'template.layout',
        path,
        'an eval case holds prompt.md, case.yaml, fixtures/, graders/ and the files its case.yaml names',
      );
    }
  }
  return reader.errors.length === before ? { case: name, description } : null;
}

/**
 * A case's case.yaml: the apply's parameters, the MCP gates granted, the fake servers (each a
 * fixture file, added to `caseFiles`; its server to `fakes`) and the learning folder (added to `caseFolders`).
 */
function checkCaseYaml(
  reader: PartReader,
  base: string,
  path: string,
  caseFiles: Set<string>,
  caseFolders: Set<string>,
  fakes: Set<string>,
): void {
  const text = reader.text(path);
  if (text === null) return;
  const read = readFrontMatter(`---\n${text.trimEnd()}\n---\n`, path);
  if (!read.ok) {
    reader.errors.push(read.problem);
    return;
  }
  const data = read.value.data;
  if (!isObject(data)) {
    reader.fail('template.eval', path, 'must be a map (parameters, grants, mcp, learning)');
    return;
  }
  for (const key of unknownKeys(data, ['parameters', 'grants', 'mcp', 'learning']))
    reader.fail(
      'template.unknown_field',
      path,
      `unknown field \`${key}\` (a case takes parameters, grants, mcp, learning)`,
    );
  const manifest = reader.manifest;
  const defs = manifest?.parameters ?? {};
  if (data.parameters !== undefined) {
    if (!isObject(data.parameters))
      reader.fail('template.eval', path, "`parameters` must be a map of the apply's parameters");
    else {
      for (const [param, value] of Object.entries(data.parameters)) {
        const def = defs[param];
        if (!def) reader.fail('template.eval', path, `\`parameters.${param}\` is not a parameter of the package`);
        else {
          const problem = checkParameter(def, value);
          if (problem) reader.fail('template.eval', path, `\`parameters.${param}\`: ${problem}`);
        }
      }
    }
  }
  for (const [param, def] of Object.entries(defs)) {
    const given = isObject(data.parameters) ? data.parameters[param] : undefined;
    if (given === undefined && def.required && def.default === undefined)
      reader.fail('template.eval', path, `\`parameters.${param}\` is required by the package`);
  }
  const gates = new Set(
    (manifest?.mcp ?? []).flatMap((entry) => entry.tools.map((tool) => mcpGateName(entry.server, tool))),
  );
  // By name, the first entry of each (as a search would find it), looked up once per server named.
  const mcpEntries = new Map<string, TemplateMcpEntry>();
  for (const entry of manifest?.mcp ?? []) if (!mcpEntries.has(entry.server)) mcpEntries.set(entry.server, entry);
  if (data.grants !== undefined) {
    if (!Array.isArray(data.grants))
      reader.fail('template.eval', path, '`grants` must be a list of gate names (mcp:<server>/<tool>)');
    else {
      data.grants.forEach((grant, i) => {
        if (typeof grant !== 'string' || !gates.has(grant))
          reader.fail(
            'template.eval',
            path,
            `\`grants[${i}]\` ${JSON.stringify(grant)} is not one of the package's MCP tools (mcp:<server>/<tool>)`,
          );
      });
    }
  }
  if (data.mcp !== undefined) {
    if (!isObject(data.mcp))
      reader.fail('template.eval', path, "`mcp` must map a server's name to a fixture file in the case");
    else {
      for (const [server, file] of Object.entries(data.mcp)) {
        const entry = mcpEntries.get(server);
        if (!entry) {
          reader.fail('template.eval', path, `\`mcp.${server}\` is not an MCP server of the package`);
          continue;
        }
        if (typeof file !== 'string' || !isInnerPath(file) || !reader.files.has(`${base}/${file}`)) {
          reader.fail(
            'template.eval',
            path,
            `\`mcp.${server}\` must name a fixture file in the case, not ${JSON.stringify(file)}`,
          );
          continue;
        }
        caseFiles.add(`${base}/${file}`);
        fakes.add(server);
        checkFixture(reader, `${base}/${file}`, server, new Set(entry.tools));
      }
    }
  }
  if (data.learning !== undefined) {
    const folder = data.learning;
    if (typeof folder !== 'string' || !isInnerPath(folder) || folder.includes('/')) {
      reader.fail('template.eval', path, '`learning` must name a folder of notes in the case');
    } else {
      const notes = [...reader.files.keys()].filter((p) => p.startsWith(`${base}/${folder}/`));
      if (notes.length === 0) reader.fail('template.eval', path, `\`learning\` names ${folder}/, which holds no notes`);
      for (const note of notes) {
        if (!note.endsWith('.md') || note.slice(base.length + folder.length + 2).includes('/'))
          reader.fail('template.eval', note, 'a learning folder holds Markdown notes only (MEMORY.md and its notes)');
        else reader.text(note);
      }
      caseFolders.add(folder);
    }
  }
}

/** A fake MCP server's fixture: the spec's one shape for every package. */
function checkFixture(reader: PartReader, path: string, server: string, tools: ReadonlySet<string>): void {
  const text = reader.text(path);
  if (text === null) return;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    reader.fail('template.fixture', path, `is not JSON: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  const bad = (message: string) => reader.fail('template.fixture', path, message);
  if (!isObject(data)) return bad('a fixture is {server, description, tools}');
  for (const key of unknownKeys(data, ['server', 'description', 'tools'])) bad(`unknown field \`${key}\``);
  if (data.server !== server) bad(`\`server\` must be ${JSON.stringify(server)}, the name case.yaml gives it`);
  if (typeof data.description !== 'string') bad('`description` is required: what the fake holds');
  if (!isObject(data.tools)) return bad('`tools` must map each tool to {description, input, answers?, default?}');
  for (const [tool, def] of Object.entries(data.tools)) {
    const where = `tools.${tool}`;
    if (!tools.has(tool)) bad(`\`${where}\` is not one of the package's tools of ${server}`);
    if (!isObject(def)) {
      bad(`\`${where}\` must be {description, input, answers?, default?}`);
      continue;
    }
    for (const key of Object.keys(def))
      if (!['description', 'input', 'answers', 'default'].includes(key)) bad(`unknown field \`${where}.${key}\``);
    if (typeof def.description !== 'string') bad(`\`${where}.description\` is required`);
    if (!isObject(def.input)) bad(`\`${where}.input\` must be the tool's input JSON Schema (an object)`);
    if (def.answers !== undefined) {
      if (!Array.isArray(def.answers)) bad(`\`${where}.answers\` must be a list of {when, result}`);
      else {
        def.answers.forEach((answer, i) => {
          const at = `${where}.answers[${i}]`;
          if (!isObject(answer)) return bad(`\`${at}\` must be {when, result}`);
          for (const key of Object.keys(answer))
            if (!['when', 'result'].includes(key)) bad(`unknown field \`${at}.${key}\``);
          if (!isObject(answer.when)) bad(`\`${at}.when\` must map arguments to the values a call carries`);
          if (!isToolResult(answer.result))
            bad(`\`${at}.result\` must be an MCP tool result ({content: [...], isError?})`);
        });
      }
    }
    if (def.default !== undefined && !isToolResult(def.default))
      bad(`\`${where}.default\` must be an MCP tool result ({content: [...], isError?})`);
  }
}

/** Whether `value` is an MCP tool result: `{content: [...], isError?}`, each content item a map. */
function isToolResult(value: unknown): boolean {
  return (
    isObject(value) &&
    Array.isArray(value.content) &&
    value.content.every(isObject) &&
    (value.isError === undefined || typeof value.isError === 'boolean')
  );
}
