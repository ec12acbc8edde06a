/**
 * A template's layout, skills, rules and evals (spec: agentrun-template-packages.md, the folder
 * tree and "Eval cases"). Evals are checked for their layout and fields only; nothing runs.
 *
 * Decisions the spec leaves open (written down in resources/templates/README.md):
 * - Root files: `agent.md`, any file the package names (`output.schema`, a grader's `schema`), and
 *   `README.md`, `LICENSE`, `LICENSE.md`, `LICENSE.txt`, `CHANGELOG.md`. Anything else is refused.
 * - `skills/<name>/` may hold other files beside SKILL.md (references, examples): they are data.
 * - `rules/` holds only `*.md` files, no folders.
 * - SKILL.md front matter takes the Agent Skills fields `name`, `description`, `license`,
 *   `compatibility`, `metadata`, `allowed-tools`; any other field is refused.
 * - `${parameters.…}` in a skill or rule is refused: apply never fills those files.
 */
import type { Problem } from '../../../shared/manifests/inspection';
import { checkParameter } from '../../../shared/decisions/apply-parameters';
import {
  hasPlaceholder,
  mcpGateName,
  type TemplateEvalCase,
  type TemplateManifest,
  type TemplateMcpEntry,
  type TemplateRule,
  type TemplateSkill,
} from '../../../shared/manifests/template-manifest';
import { TEMPLATE_TOOLS } from '../../../shared/manifests/catalogues';
import { readFrontMatter } from './front-matter';
import { jsonSchemaFileProblem } from './json-schema';
import { unknownKeys } from '../schema/strict-fields';
import type { RefusalCode } from '../../../shared/contract/refusal-codes';

/** Root files any template may hold besides agent.md and the files it names. */
export const ALLOWED_ROOT_FILES = ['README.md', 'LICENSE', 'LICENSE.md', 'LICENSE.txt', 'CHANGELOG.md'] as const;
/** The only folders a template holds at its root (spec: the folder tree). */
export const ALLOWED_ROOT_FOLDERS = ['skills', 'rules', 'evals'] as const;

const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const CASE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const TARGET = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;
const SKILL_FIELDS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'];

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Decodes UTF-8 text strictly; null when the bytes are not UTF-8. */
export function utf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** A relative path inside the package: no `..`, no leading `/`, no empty parts. */
function isInnerPath(path: string): boolean {
  return (
    path !== '' &&
    !path.startsWith('/') &&
    !path.includes('\\') &&
    path.split('/').every((part) => part !== '' && part !== '.' && part !== '..')
  );
}

/** Checks the parts around agent.md, collecting problems in folder order. */
export class PackageParts {
  readonly errors: Problem[] = [];
  readonly skills: TemplateSkill[] = [];
  readonly rules: TemplateRule[] = [];
  readonly evals: TemplateEvalCase[] = [];
  /** Files a part names (grader schemas, fixtures): a root file named here is allowed. */
  readonly named = new Set<string>();

  constructor(
    private readonly files: ReadonlyMap<string, Uint8Array>,
    private readonly directories: readonly string[],
    private readonly manifest: TemplateManifest | null,
  ) {}

  fail(code: RefusalCode, path: string, message: string): void {
    this.errors.push({ code, path, message: `${path}: ${message}` });
  }

  /** Only skills/, rules/, evals/ as folders (DESIGN.md "Reading without running"). */
  folders(): void {
    for (const dir of this.directories) {
      const top = dir.split('/')[0] ?? '';
      if (!(ALLOWED_ROOT_FOLDERS as readonly string[]).includes(top)) {
        this.fail('template.layout', dir, `a template's only folders are skills/, rules/ and evals/`);
        return;
      }
    }
  }

  text(path: string): string | null {
    const bytes = this.files.get(path);
    if (!bytes) return null;
    const text = utf8(bytes);
    if (text === null) this.fail('template.encoding', path, 'is not UTF-8 text');
    return text;
  }

  /** `skills/<name>/SKILL.md`: front matter names the skill (= its folder) and describes it. */
  checkSkills(): void {
    const skillDirs = new Set<string>();
    for (const path of this.files.keys()) {
      if (!path.startsWith('skills/')) continue;
      const parts = path.split('/');
      if (parts.length < 3) {
        this.fail('template.layout', path, 'skills/ holds one folder per skill, each with a SKILL.md');
        continue;
      }
      skillDirs.add(parts[1] ?? '');
    }
    for (const dir of this.directories) {
      const parts = dir.split('/');
      if (parts[0] === 'skills' && parts.length === 2) skillDirs.add(parts[1] ?? '');
    }
    for (const name of [...skillDirs].sort()) {
      const path = `skills/${name}/SKILL.md`;
      if (!this.files.has(path)) {
        this.fail('template.skill', path, `skill folder skills/${name}/ has no SKILL.md`);
        continue;
      }
      const text = this.text(path);
      if (text === null) continue;
      const read = readFrontMatter(text, path);
      if (!read.ok) {
        this.errors.push(read.problem);
        continue;
      }
      const data = read.value.data;
      if (!isObject(data)) {
        this.fail('template.skill', path, 'front matter must be a map with name and description');
        continue;
      }
      const before = this.errors.length;
      for (const key of unknownKeys(data, SKILL_FIELDS))
        this.fail(
          'template.unknown_field',
          path,
          `unknown field \`${key}\` (a skill takes ${SKILL_FIELDS.join(', ')})`,
        );
      if (typeof data.name !== 'string' || data.name !== name) {
        this.fail('template.skill', path, `\`name\` must be the skill's folder name, \`${name}\``);
      } else if (!SKILL_NAME.test(name) || name.length > 64) {
        this.fail(
          'template.skill',
          path,
          `skill name \`${name}\` must be lowercase letters and digits joined by single dashes, at most 64`,
        );
      }
      if (typeof data.description !== 'string' || data.description.trim() === '' || data.description.length > 1024) {
        this.fail(
          'template.skill',
          path,
          '`description` is required: what the skill does and when to use it (at most 1024 characters)',
        );
      }
      if (hasPlaceholder(read.value.body)) {
        this.fail(
          'template.placeholder',
          path,
          'holds `${parameters.…}`: apply fills only display_name, the body, trigger inputs, schedules and pins, never a skill',
        );
      }
      if (this.errors.length === before)
        this.skills.push({ name, description: data.description as string, body: read.value.body });
    }
  }

  /** `rules/*.md`: plain Markdown each skill reads; apply copies them beside each SKILL.md. */
  checkRules(): void {
    for (const path of [...this.files.keys()].sort()) {
      if (!path.startsWith('rules/')) continue;
      const parts = path.split('/');
      if (parts.length !== 2 || !path.endsWith('.md')) {
        this.fail('template.layout', path, 'rules/ holds only Markdown files (rules/<name>.md), no folders');
        continue;
      }
      const body = this.text(path);
      if (body === null) continue;
      if (hasPlaceholder(body)) {
        this.fail('template.placeholder', path, 'holds `${parameters.…}`: apply never fills a rule');
        continue;
      }
      this.rules.push({ file: parts[1] ?? '', body });
    }
  }

  /** `evals/<case>/`: prompt.md, optional case.yaml, fixtures/, graders/*.md (spec: "Eval cases"). */
  checkEvals(): void {
    const cases = new Set<string>();
    for (const path of this.files.keys()) {
      if (!path.startsWith('evals/')) continue;
      const parts = path.split('/');
      if (parts.length < 3) this.fail('template.layout', path, 'evals/ holds one folder per case');
      else cases.add(parts[1] ?? '');
    }
    for (const dir of this.directories) {
      const parts = dir.split('/');
      if (parts[0] === 'evals' && parts.length === 2) cases.add(parts[1] ?? '');
    }
    for (const name of [...cases].sort()) this.checkCase(name);
  }

  checkCase(name: string): void {
    const base = `evals/${name}`;
    if (!CASE_NAME.test(name)) {
      this.fail('template.eval', base, `case name \`${name}\` must be lowercase letters, digits, _ and -`);
      return;
    }
    const before = this.errors.length;
    const promptPath = `${base}/prompt.md`;
    let description = '';
    if (!this.files.has(promptPath))
      this.fail('template.eval', promptPath, "each eval case has a prompt.md, its run's input");
    else {
      const text = this.text(promptPath);
      const read = text === null ? null : readFrontMatter(text, promptPath);
      if (read && !read.ok) this.errors.push(read.problem);
      else if (read && read.ok) {
        const data = read.value.data;
        if (!isObject(data))
          this.fail('template.eval', promptPath, 'front matter must be a map (description, runs, max_cost_usd)');
        else {
          for (const key of unknownKeys(data, ['description', 'runs', 'max_cost_usd']))
            this.fail(
              'template.unknown_field',
              promptPath,
              `unknown field \`${key}\` (a prompt takes description, runs, max_cost_usd)`,
            );
          if (typeof data.description !== 'string' || data.description.trim() === '')
            this.fail('template.eval', promptPath, '`description` is required: what the case tests');
          else description = data.description;
          if (
            data.runs !== undefined &&
            (typeof data.runs !== 'number' || !Number.isInteger(data.runs) || data.runs < 1 || data.runs > 100)
          ) {
            this.fail('template.eval', promptPath, '`runs` must be a whole number from 1 to 100');
          }
          const cost = data.max_cost_usd;
          if (typeof cost !== 'number' || !Number.isFinite(cost) || cost <= 0)
            this.fail(
              'template.eval',
              promptPath,
              "`max_cost_usd` is required: each run's cap, a positive number of US dollars",
            );
        }
        if (read.value.body.trim() === '')
          this.fail('template.eval', promptPath, "the body is the run's input and must not be empty");
      }
    }
    const caseFiles = new Set<string>([promptPath]);
    const caseFolders = new Set<string>(['fixtures', 'graders']);
    const fakes = new Set<string>();
    const casePath = `${base}/case.yaml`;
    if (this.files.has(casePath)) {
      caseFiles.add(casePath);
      this.checkCaseYaml(base, casePath, caseFiles, caseFolders, fakes);
    }
    const graders = [...this.files.keys()].filter((p) => p.startsWith(`${base}/graders/`)).sort();
    if (graders.length === 0)
      this.fail('template.eval', `${base}/graders`, 'each eval case has at least one grader (graders/*.md)');
    for (const path of graders) this.checkGrader(path, fakes);
    for (const path of this.files.keys()) {
      if (!path.startsWith(`${base}/`) || caseFiles.has(path)) continue;
      const rest = path.slice(base.length + 1);
      const top = rest.split('/')[0] ?? '';
      if (top === 'graders' && (rest.split('/').length !== 2 || !rest.endsWith('.md'))) {
        this.fail('template.layout', path, 'graders/ holds only Markdown graders (graders/<name>.md)');
      } else if (!caseFolders.has(top) || rest.split('/').length < 2) {
        this.fail(
          'template.layout',
          path,
          'an eval case holds prompt.md, case.yaml, fixtures/, graders/ and the files its case.yaml names',
        );
      }
    }
    if (this.errors.length === before) this.evals.push({ case: name, description });
  }

  checkCaseYaml(
    base: string,
    path: string,
    caseFiles: Set<string>,
    caseFolders: Set<string>,
    fakes: Set<string>,
  ): void {
    const text = this.text(path);
    if (text === null) return;
    const read = readFrontMatter(`---\n${text.trimEnd()}\n---\n`, path);
    if (!read.ok) {
      this.errors.push(read.problem);
      return;
    }
    const data = read.value.data;
    if (!isObject(data)) {
      this.fail('template.eval', path, 'must be a map (parameters, grants, mcp, learning)');
      return;
    }
    for (const key of unknownKeys(data, ['parameters', 'grants', 'mcp', 'learning']))
      this.fail(
        'template.unknown_field',
        path,
        `unknown field \`${key}\` (a case takes parameters, grants, mcp, learning)`,
      );
    const manifest = this.manifest;
    const defs = manifest?.parameters ?? {};
    if (data.parameters !== undefined) {
      if (!isObject(data.parameters))
        this.fail('template.eval', path, "`parameters` must be a map of the apply's parameters");
      else {
        for (const [param, value] of Object.entries(data.parameters)) {
          const def = defs[param];
          if (!def) this.fail('template.eval', path, `\`parameters.${param}\` is not a parameter of the package`);
          else {
            const problem = checkParameter(def, value);
            if (problem) this.fail('template.eval', path, `\`parameters.${param}\`: ${problem}`);
          }
        }
      }
    }
    for (const [param, def] of Object.entries(defs)) {
      const given = isObject(data.parameters) ? data.parameters[param] : undefined;
      if (given === undefined && def.required && def.default === undefined)
        this.fail('template.eval', path, `\`parameters.${param}\` is required by the package`);
    }
    const gates = new Set(
      (manifest?.mcp ?? []).flatMap((entry) => entry.tools.map((tool) => mcpGateName(entry.server, tool))),
    );
    // By name, the first entry of each (as a search would find it), looked up once per server named.
    const mcpEntries = new Map<string, TemplateMcpEntry>();
    for (const entry of manifest?.mcp ?? []) if (!mcpEntries.has(entry.server)) mcpEntries.set(entry.server, entry);
    if (data.grants !== undefined) {
      if (!Array.isArray(data.grants))
        this.fail('template.eval', path, '`grants` must be a list of gate names (mcp:<server>/<tool>)');
      else {
        data.grants.forEach((grant, i) => {
          if (typeof grant !== 'string' || !gates.has(grant))
            this.fail(
              'template.eval',
              path,
              `\`grants[${i}]\` ${JSON.stringify(grant)} is not one of the package's MCP tools (mcp:<server>/<tool>)`,
            );
        });
      }
    }
    if (data.mcp !== undefined) {
      if (!isObject(data.mcp))
        this.fail('template.eval', path, "`mcp` must map a server's name to a fixture file in the case");
      else {
        for (const [server, file] of Object.entries(data.mcp)) {
          const entry = mcpEntries.get(server);
          if (!entry) {
            this.fail('template.eval', path, `\`mcp.${server}\` is not an MCP server of the package`);
            continue;
          }
          if (typeof file !== 'string' || !isInnerPath(file) || !this.files.has(`${base}/${file}`)) {
            this.fail(
              'template.eval',
              path,
              `\`mcp.${server}\` must name a fixture file in the case, not ${JSON.stringify(file)}`,
            );
            continue;
          }
          caseFiles.add(`${base}/${file}`);
          fakes.add(server);
          this.checkFixture(`${base}/${file}`, server, new Set(entry.tools));
        }
      }
    }
    if (data.learning !== undefined) {
      const folder = data.learning;
      if (typeof folder !== 'string' || !isInnerPath(folder) || folder.includes('/')) {
        this.fail('template.eval', path, '`learning` must name a folder of notes in the case');
      } else {
        const notes = [...this.files.keys()].filter((p) => p.startsWith(`${base}/${folder}/`));
        if (notes.length === 0) this.fail('template.eval', path, `\`learning\` names ${folder}/, which holds no notes`);
        for (const note of notes) {
          if (!note.endsWith('.md') || note.slice(base.length + folder.length + 2).includes('/'))
            this.fail('template.eval', note, 'a learning folder holds Markdown notes only (MEMORY.md and its notes)');
          else this.text(note);
        }
        caseFolders.add(folder);
      }
    }
  }

  /** A fake MCP server's fixture: the spec's one shape for every package. */
  checkFixture(path: string, server: string, tools: ReadonlySet<string>): void {
    const text = this.text(path);
    if (text === null) return;
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      this.fail('template.fixture', path, `is not JSON: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    const bad = (message: string) => this.fail('template.fixture', path, message);
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

  /** `graders/*.md`, each by its `type` (spec: "Eval cases", "Running the evals"). */
  checkGrader(path: string, fakes: Set<string>): void {
    if (!path.endsWith('.md') || path.split('/').length !== 4) return;
    const text = this.text(path);
    if (text === null) return;
    const read = readFrontMatter(text, path);
    if (!read.ok) {
      this.errors.push(read.problem);
      return;
    }
    const data = read.value.data;
    if (!isObject(data)) return this.fail('template.grader', path, 'front matter must be a map with `type`');
    const fields: Record<string, string[]> = {
      llm: ['type', 'target'],
      regex: ['type', 'pattern', 'flags', 'expect', 'target'],
      tool_used: ['type', 'tool', 'tools', 'expect', 'count', 'args'],
      file_exists: ['type', 'path'],
      schema: ['type', 'schema'],
    };
    const type = data.type;
    if (typeof type !== 'string' || !fields[type]) {
      return this.fail(
        'template.grader',
        path,
        `\`type\` must be one of ${Object.keys(fields).join(', ')}, not ${JSON.stringify(type)}`,
      );
    }
    for (const key of Object.keys(data)) {
      if (!(fields[type] ?? []).includes(key))
        this.fail('template.unknown_field', path, `unknown field \`${key}\` for a ${type} grader`);
    }
    if (data.target !== undefined && (typeof data.target !== 'string' || !TARGET.test(data.target))) {
      this.fail('template.grader', path, "`target` must name a field of the answer's JSON, like `verdict` or `a.b`");
    }
    if (type === 'llm' && read.value.body.trim() === '')
      this.fail('template.grader', path, "an llm grader's body is its rubric and must not be empty");
    if (type === 'regex') {
      const flags = data.flags ?? '';
      if (
        typeof flags !== 'string' ||
        !/^[imsuv]*$/.test(flags) ||
        new Set(flags).size !== flags.length ||
        (flags.includes('u') && flags.includes('v'))
      ) {
        this.fail('template.grader', path, '`flags` must be some of i, m, s, u, v, each once (u and v not together)');
      } else if (typeof data.pattern !== 'string' || data.pattern === '')
        this.fail('template.grader', path, '`pattern` is required: a regular expression');
      else {
        try {
          new RegExp(data.pattern, flags);
        } catch (error) {
          this.fail(
            'template.grader',
            path,
            `\`pattern\` does not compile: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
      if (data.expect !== undefined && data.expect !== 'match' && data.expect !== 'no_match')
        this.fail('template.grader', path, '`expect` must be match or no_match');
    }
    if (type === 'tool_used') this.checkToolUsed(path, data, fakes);
    if (type === 'file_exists' && (typeof data.path !== 'string' || !isInnerPath(data.path))) {
      this.fail('template.grader', path, "`path` must be a path relative to the run's work folder");
    }
    if (type === 'schema') {
      const file = data.schema;
      if (typeof file !== 'string' || !isInnerPath(file) || !this.files.has(file)) {
        this.fail(
          'template.grader',
          path,
          `\`schema\` must name a JSON Schema file of the package, not ${JSON.stringify(file)}`,
        );
      } else {
        this.named.add(file);
        const problem = jsonSchemaFileProblem(this.files.get(file) as Uint8Array);
        if (problem) this.fail('template.grader', path, `\`schema\` ${file} ${problem}`);
      }
    }
  }

  checkToolUsed(path: string, data: Json, fakes: Set<string>): void {
    const manifest = this.manifest;
    const known = new Set<string>([
      ...(manifest?.tools ?? TEMPLATE_TOOLS.map((t) => t.name)),
      ...(manifest?.mcp ?? []).flatMap((entry) => entry.tools.map((tool) => mcpGateName(entry.server, tool))),
    ]);
    let names: unknown[] = [];
    if ((data.tool === undefined) === (data.tools === undefined))
      this.fail('template.grader', path, 'give `tool` or `tools`, one of them');
    else if (data.tool !== undefined) names = [data.tool];
    else if (!Array.isArray(data.tools) || data.tools.length === 0)
      this.fail('template.grader', path, '`tools` must be a non-empty list of gate names');
    else names = data.tools;
    for (const name of names) {
      if (typeof name !== 'string' || !known.has(name))
        this.fail(
          'template.grader',
          path,
          `${JSON.stringify(name)} is not a tool the package has (by gate name: write, web_fetch, mcp:<server>/<tool>)`,
        );
    }
    if (data.expect !== undefined && data.expect !== 'called' && data.expect !== 'not_called')
      this.fail('template.grader', path, '`expect` must be called or not_called');
    if (data.count !== undefined && (typeof data.count !== 'number' || !Number.isInteger(data.count) || data.count < 0))
      this.fail('template.grader', path, '`count` must be a whole number, 0 or more');
    if (data.args !== undefined) {
      if (!isObject(data.args))
        this.fail('template.grader', path, '`args` must map arguments to the values a call carries');
      const faked = names.every(
        (name) => typeof name === 'string' && /^mcp:[^/]+\//.test(name) && fakes.has(name.slice(4).split('/')[0] ?? ''),
      );
      if (!faked)
        this.fail(
          'template.grader',
          path,
          "`args` is allowed on a faked MCP tool only (case.yaml `mcp`): the timeline keeps a call's input as a preview",
        );
    }
  }

  /** Root files: agent.md, the files the package names, and the allowed extras. */
  rootFiles(): void {
    const named = new Set(this.named);
    if (this.manifest?.output?.schema) named.add(this.manifest.output.schema);
    for (const path of [...this.files.keys()].sort()) {
      if (
        path.includes('/') ||
        path === 'agent.md' ||
        named.has(path) ||
        (ALLOWED_ROOT_FILES as readonly string[]).includes(path)
      )
        continue;
      this.fail(
        'template.layout',
        path,
        `a file at the root must be agent.md, a file the package names (output.schema, a grader's schema) or one of ${ALLOWED_ROOT_FILES.join(', ')}`,
      );
    }
  }
}

function isToolResult(value: unknown): boolean {
  return (
    isObject(value) &&
    Array.isArray(value.content) &&
    value.content.every(isObject) &&
    (value.isError === undefined || typeof value.isError === 'boolean')
  );
}
