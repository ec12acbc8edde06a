/**
 * agent.md read and checked against the spec's agent.md table (spec: agentrun-template-packages.md,
 * agent.md): its front matter field by field, `${parameters.…}` only where the spec allows it, and
 * the body's placeholders. `mcp` (mcp-fields.ts), `parameters` (parameter-fields.ts) and `triggers`
 * (trigger-fields.ts) are checked in their own files, on the same collected problems.
 */
import { SECRET_NAMES, TEMPLATE_TOOLS } from '../../../shared/manifests/catalogues';
import type { Problem } from '../../../shared/manifests/inspection';
import { isHttpUrl } from '../../../shared/base/http-url';
import { hasPlaceholder, placeholderNames, type TemplateManifest } from '../../../shared/manifests/template-manifest';
import { isSemver } from '../apollia/sdk-requirement';
import { readFrontMatter } from './front-matter';
import { FrontMatterFields, isObject, type Json, show } from './front-matter-fields';
import { jsonSchemaFileProblem } from './json-schema';
import { checkMcp } from './mcp-fields';
import { checkParameters } from './parameter-fields';
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
    if (d.mcp !== undefined) checkMcp(this, d.mcp, this.warnings);
    if (d.computer !== undefined) this.oneOf(d.computer, 'computer', ['default']);
    const parameters = d.parameters === undefined ? {} : checkParameters(this, d.parameters);
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
