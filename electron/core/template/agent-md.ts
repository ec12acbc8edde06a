import { SECRET_NAMES, TEMPLATE_TOOLS } from '../../../shared/manifests/catalogues';
import type { Problem } from '../../../shared/manifests/inspection';
import { isHttpUrl } from '../../../shared/base/http-url';
import { MCP_SERVER_NAME, MCP_SERVER_NAME_RULE } from '../../../shared/manifests/mcp-server-name';
import {
  isCanonicalPinList,
  canonicalPinList,
  hasPlaceholder,
  placeholderNames,
  type PinScalar,
  type TemplateManifest,
  type TemplateParameter,
} from '../../../shared/manifests/template-manifest';
import { setOwn } from '../../../shared/base/own-data';
import {
  MAX_PATTERNED_VALUE_LENGTH,
  packagePatternProblem,
  testPackagePattern,
} from '../../../shared/manifests/package-pattern';
import { isSemver } from '../apollia/sdk-requirement';
import { readFrontMatter } from './front-matter';
import { FrontMatterFields, isObject, type Json, show } from './front-matter-fields';
import { jsonSchemaFileProblem } from './json-schema';
import { checkTriggers } from './trigger-fields';

/** What the agent.md check needs to know of the folder around it. */
export interface PackageContext {
  /** The folder's own name: `name` must equal it. */
  folderName: string;
  /** The package's files by `/`-separated path (for `output.schema`). */
  files: ReadonlyMap<string, Uint8Array>;
}

/** agent.md read and checked: the manifest when it is accepted, its body, and the problems found. */
export interface AgentMdResult {
  manifest: TemplateManifest | null;
  /**
   * What was read, less every top-level field that was refused (`null` only when the front matter
   * is not a map): later checks of the folder run against it, so one bad field does not make
   * false claims about the others. `refusedFields` names the fields left out.
   */
  read: TemplateManifest | null;
  refusedFields: ReadonlySet<string>;
  body: string;
  errors: Problem[];
  /** Pin lists kept in their normalised form (spec: agent.md `mcp`, `pin`). */
  warnings: Problem[];
}

/** Name of a package, a skill, an MCP server's tools' owner: lowercase letters, digits, dashes (spec: `name`). */
export const PACKAGE_NAME = /^[a-z0-9-]+$/;
/** An MCP tool or pinned argument name (spec: `mcp`, "`A-Z a-z 0-9 _ . -`; never `*`"). */
const TOOL_NAME = /^[A-Za-z0-9_.-]+$/;
/** A parameter name, as `${parameters.<name>}` names it. */
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** A harness name (`pi`, `claude-agent`). */
const HARNESS_NAME = /^[a-z0-9][a-z0-9_.-]{0,63}$/;
/** `model.prefer`: `provider/model-id`. */
const MODEL_ID = /^[A-Za-z0-9_.-]+\/[^\s/][^\s]*$/;
/**
 * `name@domain.tld`: one `@`, no white space, a dot inside the domain (not its first or last
 * character). Written as steps, not as the regex `^[^\s@]+@[^\s@]+\.[^\s@]+$`, which backtracks
 * quadratically on a long run of dots (a 160 KB value took 20 s).
 */
const EMAIL = {
  test(value: string): boolean {
    if (/\s/.test(value)) return false;
    const at = value.indexOf('@');
    if (at <= 0 || value.indexOf('@', at + 1) !== -1) return false;
    return value.slice(at + 2, -1).includes('.');
  },
};

/** Top-level fields, in the spec's table order. */
const FIELDS = [
  'name',
  'display_name',
  'version',
  'description',
  'license',
  'author',
  'repository',
  'harness',
  'model',
  'effort',
  'tools',
  'mcp',
  'computer',
  'parameters',
  'secrets',
  'budget',
  'learning',
  'approvals',
  'triggers',
  'output',
  'checks',
] as const;

/** Where `${parameters.<name>}` may appear in the front matter (spec: agent.md `parameters`). */
const PLACEHOLDER_PATH = /^(?:display_name|triggers\[\d+\]\.(?:target\.input|cron|timezone)|mcp\[\d+\]\.pin\..+)$/;

/** Checks one manifest, collecting problems in order. */
class AgentMdCheck extends FrontMatterFields {
  readonly warnings: Problem[] = [];
  private readonly declared: Set<string>;

  constructor(
    private readonly data: Json,
    private readonly ctx: PackageContext,
  ) {
    super();
    this.declared = new Set(isObject(data.parameters) ? Object.keys(data.parameters) : []);
  }

  run(): void {
    const d = this.data;
    this.keys(d, FIELDS, '');

    if (d.name === undefined) this.missing('name', `the folder's name, \`${this.ctx.folderName}\``);
    else {
      const name = this.text(d.name, 'name', {
        pattern: PACKAGE_NAME,
        form: 'lowercase letters, digits and dashes',
        max: 64,
      });
      if (name !== undefined && name !== this.ctx.folderName) {
        this.fail(
          'template.name_mismatch',
          'name',
          `\`name\` ${show(name)} must be the folder's name, \`${this.ctx.folderName}\``,
        );
      }
    }
    if (d.display_name !== undefined) this.text(d.display_name, 'display_name', { max: 200 });

    if (d.version === undefined) this.missing('version', "the package's SemVer 2 version, like 0.1.0");
    else if (typeof d.version !== 'string' || !isSemver(d.version)) {
      this.fail(
        'template.version',
        'version',
        `version \`${String(d.version)}\` is not SemVer 2 (like 0.1.0)${typeof d.version === 'number' ? ': a bare number is refused, quote a full version' : ''}`,
      );
    }
    if (d.description === undefined) this.missing('description', 'what the package does');
    else this.text(d.description, 'description', { max: 1024 });
    if (d.license !== undefined) this.text(d.license, 'license', { max: 200 });
    if (d.author !== undefined) this.author(d.author);
    if (d.repository !== undefined) this.text(d.repository, 'repository', { max: 500 });
    if (d.harness !== undefined) {
      this.list(
        d.harness,
        'harness',
        (item, path) => {
          if (!HARNESS_NAME.test(item))
            this.fail(
              'template.invalid_field',
              path,
              `\`${path}\` ${show(item)} is not a harness name (like pi or claude-agent)`,
            );
        },
        { nonEmpty: true },
      );
    }
    if (d.model !== undefined) this.model(d.model);
    if (d.effort !== undefined) this.oneOf(d.effort, 'effort', ['low', 'medium', 'high', 'xhigh', 'max']);
    if (d.tools !== undefined) this.tools(d.tools);
    if (d.mcp !== undefined) this.mcp(d.mcp);
    if (d.computer !== undefined) this.oneOf(d.computer, 'computer', ['default']);
    const parameters = d.parameters === undefined ? {} : this.parameters(d.parameters);
    if (d.secrets !== undefined) {
      this.list(d.secrets, 'secrets', (item, path) => {
        if (!SECRET_NAMES.some((secret) => secret.name === item)) {
          this.fail(
            'template.unknown_secret',
            path,
            `\`${path}\` ${show(item)} is not a secret this app can keep (${SECRET_NAMES.map((s) => s.name).join(', ')})`,
          );
        }
      });
    }
    const hasTriggers = Array.isArray(d.triggers) && d.triggers.length > 0;
    if (d.budget !== undefined) this.budget(d.budget);
    else if (hasTriggers)
      this.missing('budget', "a package with triggers sets `budget.per_run_usd`, each unattended run's cap");
    if (d.learning !== undefined) this.bool(d.learning, 'learning');
    if (d.approvals !== undefined) this.oneOf(d.approvals, 'approvals', ['ask', 'never']);
    if (d.triggers !== undefined) checkTriggers(this, d.triggers, parameters);
    if (d.output !== undefined) this.output(d.output);
    if (d.checks !== undefined) this.list(d.checks, 'checks', () => undefined);
    this.placeholders(d, '');
  }

  author(value: unknown): void {
    if (!isObject(value)) {
      this.fail('template.invalid_field', 'author', `\`author\` must be {name, email?, url?}, not ${show(value)}`);
      return;
    }
    this.keys(value, ['name', 'email', 'url'], 'author.');
    if (value.name === undefined) this.missing('author.name', 'who wrote the package');
    else this.text(value.name, 'author.name', { max: 200 });
    if (value.email !== undefined) this.text(value.email, 'author.email', { pattern: EMAIL, form: 'an email address' });
    if (value.url !== undefined) {
      const url = this.text(value.url, 'author.url');
      if (url !== undefined && !isHttpUrl(url))
        this.fail('template.invalid_field', 'author.url', `\`author.url\` ${show(url)} must be an http(s) URL`);
    }
  }

  model(value: unknown): void {
    if (!isObject(value)) {
      this.fail('template.invalid_field', 'model', `\`model\` must be {tier, prefer?}, not ${show(value)}`);
      return;
    }
    this.keys(value, ['tier', 'prefer'], 'model.');
    if (value.tier === undefined) this.missing('model.tier', 'fast, balanced or strong');
    else this.oneOf(value.tier, 'model.tier', ['fast', 'balanced', 'strong']);
    if (value.prefer !== undefined)
      this.text(value.prefer, 'model.prefer', { pattern: MODEL_ID, form: 'provider/model-id' });
  }

  tools(value: unknown): void {
    this.list(value, 'tools', (item, path) => {
      if (item.startsWith('mcp:') || item.includes('/')) {
        this.fail(
          'template.unknown_tool',
          path,
          `\`${path}\` ${show(item)} is an MCP tool: MCP tools are granted through \`mcp\`, never \`tools\``,
        );
      } else if (!TEMPLATE_TOOLS.some((tool) => tool.name === item)) {
        this.fail(
          'template.unknown_tool',
          path,
          `\`${path}\` ${show(item)} is not a tool this app binds (${TEMPLATE_TOOLS.map((t) => t.name).join(', ')})`,
        );
      }
    });
  }

  mcp(value: unknown): void {
    if (!Array.isArray(value)) {
      this.fail(
        'template.invalid_field',
        'mcp',
        `\`mcp\` must be a list of {server, tools, required?, allow?, pin?}, not ${show(value)}`,
      );
      return;
    }
    const servers = new Set<string>();
    value.forEach((entry, i) => {
      const path = `mcp[${i}]`;
      if (!isObject(entry)) {
        this.fail(
          'template.invalid_field',
          path,
          `\`${path}\` must be {server, tools, required?, allow?, pin?}, not ${show(entry)}`,
        );
        return;
      }
      this.keys(entry, ['server', 'tools', 'required', 'allow', 'pin'], `${path}.`);
      if (entry.server === undefined)
        this.missing(`${path}.server`, 'the name the MCP server is saved under in Settings → MCP servers');
      else {
        const server = this.text(entry.server, `${path}.server`, {
          pattern: MCP_SERVER_NAME,
          form: `a saved MCP server's name (${MCP_SERVER_NAME_RULE})`,
        });
        if (server !== undefined) {
          if (servers.has(server))
            this.fail(
              'template.duplicate',
              `${path}.server`,
              `\`${path}.server\` repeats ${show(server)}: list each server once`,
            );
          servers.add(server);
        }
      }
      let tools: string[] = [];
      if (entry.tools === undefined)
        this.missing(`${path}.tools`, 'the tools of the server the agent uses, each by its name');
      else {
        tools = this.list(
          entry.tools,
          `${path}.tools`,
          (item, itemPath) => {
            if (item.includes('*'))
              this.fail(
                'template.mcp_wildcard',
                itemPath,
                `\`${itemPath}\` ${show(item)}: name each tool, never \`*\``,
              );
            else if (!TOOL_NAME.test(item))
              this.fail(
                'template.invalid_field',
                itemPath,
                `\`${itemPath}\` ${show(item)} is not a tool name (A-Z a-z 0-9 _ . -)`,
              );
          },
          { nonEmpty: true },
        );
      }
      if (entry.required !== undefined) this.bool(entry.required, `${path}.required`);
      // A set: both lists may run to thousands of names, and no package text costs more than linear time.
      const known = new Set(tools);
      if (entry.allow !== undefined) {
        this.list(entry.allow, `${path}.allow`, (item, itemPath) => {
          if (!known.has(item))
            this.fail('template.mcp_allow', itemPath, `\`${itemPath}\` ${show(item)} is not one of \`${path}.tools\``);
        });
      }
      if (entry.pin !== undefined) this.pin(entry.pin, `${path}.pin`, known);
    });
  }

  /** `pin`: `{<tool>: {<argument>: <value>}}` (spec: agent.md `mcp`). */
  pin(value: unknown, path: string, tools: ReadonlySet<string>): void {
    if (!isObject(value)) {
      this.fail('template.pin', path, `\`${path}\` must be {<tool>: {<argument>: <value>}}, not ${show(value)}`);
      return;
    }
    for (const [tool, args] of Object.entries(value)) {
      if (!tools.has(tool)) {
        this.fail('template.pin', path, `\`${path}\` pins ${show(tool)}, which is not one of this entry's tools`);
        continue;
      }
      const toolPath = `${path}.${tool}`;
      if (!isObject(args) || Object.keys(args).length < 1 || Object.keys(args).length > 8) {
        this.fail(
          'template.pin',
          toolPath,
          `\`${toolPath}\` must pin 1 to 8 top-level arguments, as {<argument>: <value>}`,
        );
        continue;
      }
      for (const [arg, pinned] of Object.entries(args)) {
        const argPath = `${toolPath}.${arg}`;
        if (!TOOL_NAME.test(arg)) {
          this.fail(
            'template.pin',
            argPath,
            `\`${argPath}\`: ${show(arg)} is not an argument name (A-Z a-z 0-9 _ . -)`,
          );
          continue;
        }
        if (Array.isArray(pinned)) {
          if (!pinned.every((item) => this.pinScalar(item, argPath))) continue;
          // The spec says how a pin list is KEPT ("each value once, null first, then by its JSON
          // text"), not an order the author must write: any order and repeats are accepted, the
          // normalised list is what is kept and shown, and a warning shows it.
          const scalars = pinned as PinScalar[];
          const canonical = canonicalPinList(scalars);
          if (canonical.length < 1 || canonical.length > 16) {
            this.fail(
              'template.pin',
              argPath,
              `\`${argPath}\` must list 1 to 16 distinct values, not ${canonical.length}`,
            );
            continue;
          }
          if (!isCanonicalPinList(scalars)) {
            (args as Json)[arg] = canonical;
            this.warnings.push({
              code: 'template.pin_normalised',
              path: argPath,
              message: `agent.md: \`${argPath}\` is kept as ${JSON.stringify(canonical)} (each value once, null first, then by JSON text)`,
            });
          }
        } else this.pinScalar(pinned, argPath);
      }
    }
  }

  pinScalar(value: unknown, path: string): boolean {
    const ok =
      value === null ||
      typeof value === 'string' ||
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value));
    if (!ok)
      this.fail(
        'template.pin',
        path,
        `\`${path}\` ${show(value)} must be text, a number, true/false or null (a list holds only these)`,
      );
    return ok;
  }

  parameters(value: unknown): Record<string, TemplateParameter> {
    const accepted: Record<string, TemplateParameter> = {};
    if (!isObject(value)) {
      this.fail(
        'template.invalid_field',
        'parameters',
        `\`parameters\` must be a map of name → {type, description, ...}, not ${show(value)}`,
      );
      return accepted;
    }
    for (const [name, def] of Object.entries(value)) {
      const path = `parameters.${name}`;
      if (!PARAMETER_NAME.test(name)) {
        this.fail(
          'template.invalid_field',
          path,
          `\`${path}\`: ${show(name)} is not a parameter name (a letter or _, then letters, digits or _)`,
        );
        continue;
      }
      if (!isObject(def)) {
        this.fail(
          'template.invalid_field',
          path,
          `\`${path}\` must be {type, description, required?, pattern?, enum?, default?}, not ${show(def)}`,
        );
        continue;
      }
      const before = this.errors.length;
      this.keys(def, ['type', 'required', 'pattern', 'enum', 'default', 'description'], `${path}.`);
      const type = def.type;
      if (type === undefined) this.missing(`${path}.type`, 'string, number, integer or boolean');
      else this.oneOf(type, `${path}.type`, ['string', 'number', 'integer', 'boolean']);
      if (def.required !== undefined) this.bool(def.required, `${path}.required`);
      let pattern: string | undefined;
      if (def.pattern !== undefined) {
        if (type !== 'string')
          this.fail('template.invalid_field', `${path}.pattern`, `\`${path}.pattern\` is for string parameters only`);
        else if (typeof def.pattern !== 'string')
          this.fail('template.invalid_field', `${path}.pattern`, `\`${path}.pattern\` must be text`);
        else {
          // One engine for package patterns, linear in the value (shared/manifests/package-pattern.ts says
          // which ECMAScript features are refused and why).
          const why = packagePatternProblem(def.pattern);
          if (why === null) pattern = def.pattern;
          else this.fail('template.pattern', `${path}.pattern`, `\`${path}.pattern\` ${why}`);
        }
      }
      const fits = (v: unknown, where: string): boolean => {
        const typeOk =
          type === 'string'
            ? typeof v === 'string'
            : type === 'number'
              ? typeof v === 'number' && Number.isFinite(v)
              : type === 'integer'
                ? typeof v === 'number' && Number.isInteger(v)
                : type === 'boolean'
                  ? typeof v === 'boolean'
                  : true;
        if (!typeOk) {
          this.fail('template.invalid_field', where, `\`${where}\` ${show(v)} is not a ${String(type)}`);
          return false;
        }
        const tested = pattern !== undefined && typeof v === 'string' ? testPackagePattern(pattern, v) : 'match';
        if (tested === 'too_long') {
          this.fail(
            'template.invalid_field',
            where,
            `\`${where}\` is longer than ${MAX_PATTERNED_VALUE_LENGTH} characters, the most checked against \`${path}.pattern\``,
          );
          return false;
        }
        if (tested !== 'match') {
          this.fail('template.invalid_field', where, `\`${where}\` ${show(v)} does not match \`${path}.pattern\``);
          return false;
        }
        return true;
      };
      let choices: unknown[] | undefined;
      if (def.enum !== undefined) {
        if (!Array.isArray(def.enum) || def.enum.length === 0) {
          this.fail('template.invalid_field', `${path}.enum`, `\`${path}.enum\` must be a non-empty list of choices`);
        } else {
          choices = def.enum;
          const seen = new Set<string>();
          def.enum.forEach((choice, i) => {
            const where = `${path}.enum[${i}]`;
            if (!fits(choice, where)) return;
            if (seen.has(JSON.stringify(choice)))
              this.fail('template.duplicate', where, `\`${where}\` repeats ${show(choice)}`);
            seen.add(JSON.stringify(choice));
          });
        }
      }
      if (
        def.default !== undefined &&
        fits(def.default, `${path}.default`) &&
        choices &&
        !choices.some((c) => c === def.default)
      ) {
        this.fail(
          'template.invalid_field',
          `${path}.default`,
          `\`${path}.default\` ${show(def.default)} is not one of \`${path}.enum\``,
        );
      }
      if (def.description === undefined)
        this.missing(
          `${path}.description`,
          'what a person reads beside the field (say the format there, never the pattern)',
        );
      else this.text(def.description, `${path}.description`, { max: 500 });
      if (this.errors.length === before) setOwn(accepted, name, def as unknown as TemplateParameter);
    }
    return accepted;
  }

  budget(value: unknown): void {
    if (!isObject(value)) {
      this.fail('template.invalid_field', 'budget', `\`budget\` must be {per_run_usd}, not ${show(value)}`);
      return;
    }
    this.keys(value, ['per_run_usd'], 'budget.');
    const usd = value.per_run_usd;
    if (usd === undefined) this.missing('budget.per_run_usd', "each run's cap in US dollars");
    else if (typeof usd !== 'number' || !Number.isFinite(usd) || usd <= 0) {
      this.fail(
        'template.invalid_field',
        'budget.per_run_usd',
        `\`budget.per_run_usd\` must be a positive number of US dollars, not ${show(usd)}`,
      );
    }
  }

  output(value: unknown): void {
    if (!isObject(value)) {
      this.fail('template.invalid_field', 'output', `\`output\` must be {schema: <file>}, not ${show(value)}`);
      return;
    }
    this.keys(value, ['schema'], 'output.');
    if (value.schema === undefined) {
      this.missing('output.schema', 'a JSON Schema file of the package');
      return;
    }
    const file = this.text(value.schema, 'output.schema');
    if (file === undefined) return;
    const bytes = this.ctx.files.get(file);
    if (!bytes) {
      this.fail(
        'template.output_schema',
        'output.schema',
        `\`output.schema\` names \`${file}\`, which is not a file of the package`,
      );
      return;
    }
    const problem = jsonSchemaFileProblem(bytes);
    if (problem) this.fail('template.output_schema', 'output.schema', `\`output.schema\` \`${file}\` ${problem}`);
  }

  /**
   * `${parameters.<name>}` only where the spec allows it, and only naming a declared parameter
   * (spec: agent.md `parameters`: "nowhere else").
   */
  placeholders(value: unknown, path: string): void {
    if (typeof value === 'string') {
      if (!hasPlaceholder(value)) return;
      if (!PLACEHOLDER_PATH.test(path)) {
        this.fail(
          'template.placeholder',
          path,
          `\`${path}\` holds \`\${parameters.…}\`: parameters fill only display_name, the body, a trigger's target.input, a schedule's cron and timezone, and mcp pin values`,
        );
        return;
      }
      for (const name of placeholderNames(value)) {
        if (!this.declared.has(name)) {
          this.fail(
            'template.placeholder',
            path,
            `\`${path}\` names \`\${parameters.${name}}\`, which is not a declared parameter`,
          );
        }
      }
      return;
    }
    if (Array.isArray(value)) value.forEach((item, i) => this.placeholders(item, `${path}[${i}]`));
    else if (isObject(value))
      for (const [key, item] of Object.entries(value)) this.placeholders(item, path === '' ? key : `${path}.${key}`);
  }

  /** The body's placeholders must name declared parameters. */
  body(body: string): void {
    for (const name of placeholderNames(body)) {
      if (!this.declared.has(name))
        this.fail(
          'template.placeholder',
          'body',
          `the body names \`\${parameters.${name}}\`, which is not a declared parameter`,
        );
    }
  }
}

/**
 * Checks an already parsed front matter `data` and the body against the spec's agent.md table.
 * The manifest is returned only when nothing was refused.
 */
export function checkAgentManifest(data: unknown, body: string, ctx: PackageContext): AgentMdResult {
  if (!isObject(data)) {
    return {
      manifest: null,
      read: null,
      refusedFields: new Set(),
      body,
      errors: [
        {
          code: 'template.front_matter',
          path: 'agent.md',
          message: 'agent.md: front matter must be a map of fields (name, version, description, ...)',
        },
      ],
      warnings: [],
    };
  }
  const check = new AgentMdCheck(data, ctx);
  check.run();
  check.body(body);
  // A problem's path starts with its top-level field (`effort`, `mcp[0].pin.x`, `parameters.p`).
  const refusedFields = new Set(
    check.errors
      .map((error) => (error.path ?? '').split(/[.[]/)[0] ?? '')
      .filter((field) => Object.hasOwn(data, field)),
  );
  const read = Object.create(null) as Json;
  for (const [field, value] of Object.entries(data)) if (!refusedFields.has(field)) read[field] = value;
  return {
    manifest: check.errors.length === 0 ? (data as unknown as TemplateManifest) : null,
    read: read as unknown as TemplateManifest,
    refusedFields,
    body,
    errors: check.errors,
    warnings: check.warnings,
  };
}

/** Reads agent.md's text (front matter as data only) and checks it whole. Never throws on any input. */
export function checkAgentMd(text: string, ctx: PackageContext): AgentMdResult {
  const read = readFrontMatter(text, 'agent.md');
  if (!read.ok)
    return { manifest: null, read: null, refusedFields: new Set(), body: '', errors: [read.problem], warnings: [] };
  return checkAgentManifest(read.value.data, read.value.body, ctx);
}
