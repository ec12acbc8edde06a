import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { UNSIGNED } from '../../../shared/trust/trust';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { describe, expect, test } from 'vitest';
import { INVOICES_DIR } from '../../../test/helpers/pack';
import { type ArchiveView, checkApolliaManifest } from './check-manifest';
import { cargoRequirementToRange, satisfiesRequirement } from './sdk-requirement';
import { summariseManifest } from './summary';

/** The files of a fixture folder as the archive reader would hand them over. */
function folderView(dir: string): {
  manifestText: string;
  view: ArchiveView & { pythonTexts: Map<string, string>; files: { path: string }[] };
} {
  const files: { path: string }[] = [];
  const pythonTexts = new Map<string, string>();
  const walk = (current: string) => {
    for (const name of readdirSync(current).sort()) {
      const full = join(current, name);
      if (statSync(full).isDirectory()) walk(full);
      else {
        const path = relative(dir, full).split(sep).join('/');
        files.push({ path });
        if (path.endsWith('.py')) pythonTexts.set(path, readFileSync(full, 'utf8'));
      }
    }
  };
  walk(dir);
  return { manifestText: readFileSync(join(dir, 'apollia.toml'), 'utf8'), view: { files, pythonTexts } };
}

const invoices = folderView(INVOICES_DIR);
const MANIFEST = invoices.manifestText;

/** Checks the invoices example with its manifest text edited. */
function check(edit: (text: string) => string, view: ArchiveView = invoices.view) {
  return checkApolliaManifest(edit(MANIFEST), view);
}

/** Replaces exactly one occurrence, so a test cannot pass because its edit did nothing. */
function swap(text: string, from: string, to: string): string {
  expect(text.split(from).length - 1).toBe(1);
  return text.replace(from, to);
}

function firstError(result: ReturnType<typeof check>) {
  expect(result.ok).toBe(false);
  return result.errors[0];
}

describe('the complete example', () => {
  test('is accepted, with no warnings', () => {
    const result = check((t) => t);
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.stage).toBe('done');
    expect(result.sdkSupported).toBe(true);
  });

  test('summarises as the contract shows', () => {
    const result = check((t) => t);
    expect(summariseManifest(result.manifest!, 'abc', UNSIGNED)).toEqual({
      name: 'invoices',
      version: '1.2.0',
      publisher: 'Example Accounting',
      sensitive_families: ['execute_code', 'read_personal', 'send_external'],
      connections: ['gmail'],
      mcp_servers: ['ledger'],
      triggers: [{ id: 'first-monday', type: 'cron', needs: null }],
      sha256: 'abc',
      signature: UNSIGNED,
    });
  });
});

describe('TOML syntax', () => {
  test('names line and column', () => {
    const result = checkApolliaManifest('[package]\nname = "x"\nversion = = "1"\n', invoices.view);
    expect(result.stage).toBe('syntax');
    expect(result.manifest).toBeNull();
    expect(result.errors).toEqual([
      { code: 'manifest.syntax', message: 'apollia.toml: TOML syntax error at line 3, column 11: invalid value' },
    ]);
  });
});

describe('strict schema: unknown keys, named by full path', () => {
  test.each([
    ['top level', (t: string) => `color = "red"\n${t}`, 'color'],
    [
      'in [package]',
      (t: string) => swap(t, 'sdk = ">=0.3, <0.4"', 'sdk = ">=0.3, <0.4"\nhomepage = "x"'),
      'package.homepage',
    ],
    [
      'in [agents.defaults.model.request]',
      (t: string) => swap(t, 'temperature = 0.2', 'temprature = 0.2'),
      'agents[0].defaults.model.request.temprature',
    ],
    [
      'in [agents.defaults.model]',
      (t: string) => swap(t, 'preset = "balanced"', 'preset = "balanced"\ntemprature = 0.2'),
      'agents[0].defaults.model.temprature',
    ],
    [
      'in a trigger source',
      (t: string) => swap(t, 'schedule = "0 8 1-7 * MON"', 'schedule = "0 8 1-7 * MON"\ntimezone = "UTC"'),
      'triggers[0].source.timezone',
    ],
    [
      'in an MCP server',
      (t: string) => swap(t, 'args = ["ledger-mcp"]', 'args = ["ledger-mcp"]\ncwd = "/"'),
      'mcp_servers[0].cwd',
    ],
  ])('%s', (_where, edit, path) => {
    const result = check(edit);
    expect(result.stage).toBe('schema');
    expect(firstError(result)).toEqual({
      code: 'manifest.unknown_key',
      message: `apollia.toml: unknown key \`${path}\``,
      path,
    });
  });

  test('a webhook source takes no other key', () => {
    const result = check((t) =>
      swap(t, 'type = "cron"\nschedule = "0 8 1-7 * MON"', 'type = "webhook"\nsecret = "hunter2"'),
    );
    expect(result.errors).toEqual([
      {
        code: 'manifest.unknown_key',
        message: 'apollia.toml: unknown key `triggers[0].source.secret`',
        path: 'triggers[0].source.secret',
      },
    ]);
  });

  test('the first problem in document order comes first, the rest follow', () => {
    const result = check((t) =>
      swap(swap(t, 'publisher = ', 'publsher = '), 'max_tokens = 2048', 'max_tokens = 2048\nfoo = 1'),
    );
    expect(result.errors.map((e) => e.message)).toEqual([
      'apollia.toml: unknown key `package.publsher`',
      'apollia.toml: missing required key `package.publisher`',
      'apollia.toml: unknown key `agents[0].defaults.model.request.foo`',
    ]);
  });
});

describe('strict schema: types, required keys, values', () => {
  test('wrong type', () => {
    expect(firstError(check((t) => swap(t, 'version = "1.2.0"', 'version = 1')))).toEqual({
      code: 'manifest.wrong_type',
      message: 'apollia.toml: `package.version` must be a string, not an integer',
      path: 'package.version',
    });
    expect(firstError(check((t) => swap(t, 'max_tokens = 2048', 'max_tokens = "lots"')))).toEqual({
      code: 'manifest.wrong_type',
      message: 'apollia.toml: `agents[0].defaults.model.request.max_tokens` must be an integer, not a string',
      path: 'agents[0].defaults.model.request.max_tokens',
    });
    expect(
      firstError(
        check((t) =>
          swap(t, 'examples = ["Which invoices are late?", "Draft a reminder for ACME."]', 'examples = "Which?"'),
        ),
      ),
    ).toEqual({
      code: 'manifest.wrong_type',
      message: 'apollia.toml: `agents[0].examples` must be an array, not a string',
      path: 'agents[0].examples',
    });
  });

  test('missing required key', () => {
    expect(
      firstError(
        check((t) => swap(t, 'mission = "Read the supplier invoices of the month and list the late ones."\n', '')),
      ),
    ).toEqual({
      code: 'manifest.missing_key',
      message: 'apollia.toml: missing required key `agents[0].mission`',
      path: 'agents[0].mission',
    });
    expect(
      firstError(checkApolliaManifest('[[agents]]\nid = "a"\nname = "A"\nmission = "m"\n', invoices.view)),
    ).toEqual({
      code: 'manifest.missing_key',
      message: 'apollia.toml: missing required key `package`',
      path: 'package',
    });
  });

  test('bad enum values', () => {
    expect(firstError(check((t) => swap(t, 'action = "read_personal"', 'action = "spy"')))).toEqual({
      code: 'manifest.bad_value',
      message:
        'apollia.toml: `tools[0].action` value `spy` must be one of read, read_personal, write_or_delete, send_external, execute_code',
      path: 'tools[0].action',
    });
    expect(firstError(check((t) => swap(t, 'autonomy = "supervised"', 'autonomy = "free"')))?.code).toBe(
      'manifest.bad_value',
    );
    expect(
      firstError(check((t) => swap(t, 'args = ["ledger-mcp"]', 'args = ["ledger-mcp"]\ntransport = "carrier-pigeon"'))),
    ).toEqual({
      code: 'manifest.bad_value',
      message:
        'apollia.toml: `mcp_servers[0].transport` value `carrier-pigeon` must be one of stdio, streamable-http, sse',
      path: 'mcp_servers[0].transport',
    });
    expect(firstError(check((t) => swap(t, 'type = "cron"', 'type = "sometimes"')))).toEqual({
      code: 'manifest.bad_value',
      message:
        'apollia.toml: `triggers[0].source.type` value `sometimes` must be one of cron, interval, file_watch, webhook',
      path: 'triggers[0].source.type',
    });
  });

  test('bad cron schedule', () => {
    expect(firstError(check((t) => swap(t, 'schedule = "0 8 1-7 * MON"', 'schedule = "0 8 1-7 MON"')))).toEqual({
      code: 'manifest.bad_cron',
      message:
        'apollia.toml: `triggers[0].source.schedule`: `0 8 1-7 MON` is not a 5-field cron expression (minute hour day-of-month month day-of-week)',
      path: 'triggers[0].source.schedule',
    });
    expect(firstError(check((t) => swap(t, 'schedule = "0 8 1-7 * MON"', 'schedule = "0 25 * * *"')))?.code).toBe(
      'manifest.bad_cron',
    );
  });

  test('interval: good and bad', () => {
    const interval = (every: string) =>
      check((t) => swap(t, 'type = "cron"\nschedule = "0 8 1-7 * MON"', `type = "interval"\nevery = "${every}"`));
    expect(interval('30m').ok).toBe(true);
    expect(interval('1d').ok).toBe(true);
    expect(firstError(interval('soon'))).toEqual({
      code: 'manifest.bad_interval',
      message:
        'apollia.toml: `triggers[0].source.every` value `soon` is not an interval such as 30m, 1h or 1d (a whole number, then s, m, h or d)',
      path: 'triggers[0].source.every',
    });
  });

  test('cron source needs exactly its schedule', () => {
    expect(firstError(check((t) => swap(t, 'schedule = "0 8 1-7 * MON"', 'every = "1h"')))).toEqual({
      code: 'manifest.unknown_key',
      message: 'apollia.toml: unknown key `triggers[0].source.every`',
      path: 'triggers[0].source.every',
    });
  });

  test('file_watch takes an optional boolean recursive', () => {
    const watch = (extra: string) =>
      check((t) => swap(t, 'type = "cron"\nschedule = "0 8 1-7 * MON"', `type = "file_watch"${extra}`));
    expect(watch('').ok).toBe(true);
    expect(watch('\nrecursive = true').ok).toBe(true);
    expect(firstError(watch('\nrecursive = "yes"'))?.code).toBe('manifest.wrong_type');
  });

  test('requires_approval is accepted with a retired_key warning', () => {
    const result = check((t) => swap(t, 'args = ["ledger-mcp"]', 'args = ["ledger-mcp"]\nrequires_approval = true'));
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([
      {
        code: 'package.manifest.retired_key',
        message:
          '`mcp_servers[0].requires_approval` is retired and does nothing: whether a call asks first is decided by the action family of each tool',
        path: 'mcp_servers[0].requires_approval',
      },
    ]);
  });

  test('requires_approval of any type is read and warned about, never a wrong type: it does nothing', () => {
    for (const value of ['"yes"', '1', '["x"]', '{ a = 1 }']) {
      const result = check((t) =>
        swap(t, 'args = ["ledger-mcp"]', `args = ["ledger-mcp"]\nrequires_approval = ${value}`),
      );
      expect([value, result.ok, result.warnings.map((w) => w.code)]).toEqual([
        value,
        true,
        ['package.manifest.retired_key'],
      ]);
    }
  });

  test('inputs must be a valid JSON Schema; x-order is allowed', () => {
    expect(
      check((t) =>
        swap(t, '[workflows.inputs]\ntype = "object"', '[workflows.inputs]\ntype = "object"\nx-order = ["month"]'),
      ).ok,
    ).toBe(true);
    expect(
      firstError(check((t) => swap(t, '[tools.inputs]\ntype = "object"', '[tools.inputs]\ntype = "objekt"'))),
    ).toEqual({
      code: 'manifest.bad_inputs_schema',
      message:
        'apollia.toml: `tools[0].inputs` is not a valid JSON Schema: inputs/type must be equal to one of the allowed values',
      path: 'tools[0].inputs',
    });
    // An unknown keyword is refused like an unknown key (the wording after the prefix is the schema checker's).
    const unknown = firstError(
      check((t) => swap(t, '[tools.inputs]\ntype = "object"', '[tools.inputs]\ntyp = "object"')),
    );
    expect(unknown?.code).toBe('manifest.bad_inputs_schema');
    expect(unknown?.path).toBe('tools[0].inputs');
    expect(unknown?.message).toMatch(
      /^apollia\.toml: `tools\[0\]\.inputs` is not a valid JSON Schema: .*unknown keyword.*typ/,
    );
    expect(
      firstError(
        check((t) =>
          swap(t, '[workflows.inputs]\ntype = "object"', '[workflows.inputs]\ntype = "object"\nx-order = "month"'),
        ),
      )?.code,
    ).toBe('manifest.bad_inputs_schema');
  });
});

describe('strict schema: how fields are named', () => {
  const base = '[package]\nname = "x"\nversion = "1.0.0"\npublisher = "p"\nsdk = "0.3"\n';
  const first = (text: string) => checkApolliaManifest(text, { files: [], pythonTexts: new Map() }).errors[0];

  test('a TOML date where a string belongs', () => {
    expect(first(base.replace('publisher = "p"', 'publisher = 1979-05-27'))).toEqual({
      code: 'manifest.wrong_type',
      message: 'apollia.toml: `package.publisher` must be a string, not a date-time',
      path: 'package.publisher',
    });
  });

  test('[agents] written as a table, [[package]] as an array', () => {
    expect(first(`${base}[agents]\nid = "a"\n`)?.message).toBe(
      'apollia.toml: `agents` must be an array of tables ([[agents]]), not a table',
    );
    expect(first('[[package]]\nname = "x"\n')?.message).toBe('apollia.toml: `package` must be a table, not an array');
  });

  test('a key that is not a bare key is quoted; a numeric key is not an index', () => {
    expect(first(`${base}"weird key" = 1\n`)?.message).toBe('apollia.toml: unknown key `package."weird key"`');
    expect(first(`${base}0 = 1\n`)?.message).toBe('apollia.toml: unknown key `package.0`');
  });

  test('a missing source type is reported once', () => {
    const errors = check((t) => swap(t, 'type = "cron"\n', '')).errors;
    expect(errors).toEqual([
      {
        code: 'manifest.missing_key',
        message: 'apollia.toml: missing required key `triggers[0].source.type`',
        path: 'triggers[0].source.type',
      },
    ]);
  });
});

describe("the spec's Validation rules, with its messages", () => {
  const rule = (edit: (t: string) => string) => {
    const result = check(edit);
    expect(result.stage).toBe('rules');
    return result.errors;
  };

  test('1: at least one agent, workflow or tool', () => {
    const text = '[package]\nname = "empty"\nversion = "1.0.0"\npublisher = "P"\nsdk = "0.3"\n';
    const result = checkApolliaManifest(text, { files: [], pythonTexts: new Map() });
    expect(result.errors).toEqual([
      { code: 'manifest.empty_package', message: 'the package declares no agent, no workflow and no tool' },
    ]);
  });

  test('2: identifiers match [a-z0-9_-]+', () => {
    expect(rule((t) => swap(t, 'id = "invoice-clerk"', 'id = "Bad Id"'))[0]).toEqual({
      code: 'manifest.bad_identifier',
      message: '`agents[0].id` value `Bad Id` must match [a-z0-9_-]+',
      path: 'agents[0].id',
    });
    expect(rule((t) => swap(t, 'name = "invoices"', 'name = "Invoices"'))[0]).toEqual({
      code: 'manifest.bad_identifier',
      message: '`package.name` value `Invoices` must match [a-z0-9_-]+',
      path: 'package.name',
    });
    expect(rule((t) => swap(t, 'id = "first-monday"', 'id = "first monday"'))[0]?.message).toBe(
      '`triggers[0].id` value `first monday` must match [a-z0-9_-]+',
    );
  });

  test('2: MCP server names match [a-z0-9_-]+', () => {
    expect(rule((t) => swap(t, 'name = "ledger"', 'name = "X"'))[0]).toEqual({
      code: 'manifest.bad_identifier',
      message: 'MCP server name `X` must match [a-z0-9_-]+',
      path: 'mcp_servers[0].name',
    });
  });

  test('3: version is semver', () => {
    expect(rule((t) => swap(t, 'version = "1.2.0"', 'version = "1.2"'))).toEqual([
      { code: 'manifest.bad_version', message: 'package version `1.2` is not semver', path: 'package.version' },
    ]);
    expect(rule((t) => swap(t, 'version = "1.2.0"', 'version = "v1.2.0"'))[0]?.message).toBe(
      'package version `v1.2.0` is not semver',
    );
  });

  test('4: sdk is a semver requirement', () => {
    expect(rule((t) => swap(t, 'sdk = ">=0.3, <0.4"', 'sdk = "recent"'))).toEqual([
      {
        code: 'manifest.bad_sdk_requirement',
        message: 'sdk requirement `recent` is not a semver requirement',
        path: 'package.sdk',
      },
    ]);
    expect(rule((t) => swap(t, 'sdk = ">=0.3, <0.4"', 'sdk = ">=0.3,, <0.4"'))[0]?.code).toBe(
      'manifest.bad_sdk_requirement',
    );
  });

  test('5: agents, tools and workflows share one namespace', () => {
    expect(
      rule((t) =>
        swap(t, 'name = "monthly-reminders"', 'name = "invoice-clerk"').replace(
          'target = "monthly-reminders"',
          'target = "invoice-clerk"',
        ),
      )[0],
    ).toEqual({
      code: 'manifest.duplicate_identifier',
      message: 'identifier `invoice-clerk` is declared more than once',
      path: 'workflows[0].name',
    });
  });

  test('5: trigger ids and MCP server names are unique', () => {
    const twoTriggers = (t: string) =>
      `${t}\n[[triggers]]\nid = "first-monday"\ntarget = "invoice-clerk"\n[triggers.source]\ntype = "webhook"\n`;
    expect(rule(twoTriggers)[0]).toEqual({
      code: 'manifest.duplicate_identifier',
      message: 'identifier `first-monday` is declared more than once',
      path: 'triggers[1].id',
    });
    const twoServers = (t: string) =>
      swap(t, '[pip]', '[[mcp_servers]]\nname = "ledger"\ntransport = "sse"\nurl = "https://example.com/sse"\n\n[pip]');
    expect(rule(twoServers)[0]).toEqual({
      code: 'manifest.duplicate_identifier',
      message: 'identifier `ledger` is declared more than once',
      path: 'mcp_servers[1].name',
    });
  });

  test('6: a default pkg: access names a tool of this package', () => {
    expect(rule((t) => swap(t, '"pkg:invoices/extract_totals"', '"pkg:invoices/nope"'))).toEqual([
      {
        code: 'manifest.unknown_package_tool',
        message: 'agent `invoice-clerk` grants `pkg:invoices/nope`, which is not a tool of package `invoices`',
        path: 'agents[0].defaults.access[2]',
      },
    ]);
    // Another package's tool is not a tool of this package either (spec: "must name a tool of this package").
    expect(rule((t) => swap(t, '"pkg:invoices/extract_totals"', '"pkg:other/extract_totals"'))[0]?.message).toBe(
      'agent `invoice-clerk` grants `pkg:other/extract_totals`, which is not a tool of package `invoices`',
    );
    // A workflow is not a tool.
    expect(rule((t) => swap(t, '"pkg:invoices/extract_totals"', '"pkg:invoices/monthly-reminders"'))[0]?.code).toBe(
      'manifest.unknown_package_tool',
    );
  });

  test('7: a trigger targets an agent or a workflow of this package', () => {
    expect(rule((t) => swap(t, 'target = "monthly-reminders"', 'target = "extract_totals"'))).toEqual([
      {
        code: 'manifest.unknown_trigger_target',
        message: 'trigger `first-monday` targets `extract_totals`, which is no agent or workflow of the package',
        path: 'triggers[0].target',
      },
    ]);
    expect(check((t) => swap(t, 'target = "monthly-reminders"', 'target = "invoice-clerk"')).ok).toBe(true);
  });

  test('7: a target is the name of an agent or workflow, never its address `package/name`', () => {
    expect(rule((t) => swap(t, 'target = "monthly-reminders"', 'target = "invoices/monthly-reminders"'))).toEqual([
      {
        code: 'manifest.unknown_trigger_target',
        message:
          'trigger `first-monday` targets `invoices/monthly-reminders`, which is no agent or workflow of the package',
        path: 'triggers[0].target',
      },
    ]);
  });

  test('rules are reported in the spec table order, not document order', () => {
    const errors = rule((t) =>
      swap(swap(t, 'version = "1.2.0"', 'version = "1.2"'), 'name = "invoices"', 'name = "Invoices"'),
    );
    expect(errors.map((e) => e.code)).toEqual([
      'manifest.bad_identifier',
      'manifest.bad_version',
      'manifest.unknown_package_tool',
    ]);
  });

  test('the schema does not pre-empt the identifier rule', () => {
    expect(check((t) => swap(t, 'name = "extract_totals"', 'name = "Extract Totals"')).stage).toBe('rules');
  });
});

describe('module scan (text only)', () => {
  const withPython = (extra: Record<string, string>, drop: string[] = []): ArchiveView => {
    const pythonTexts = new Map([...invoices.view.pythonTexts].filter(([p]) => !drop.includes(p)));
    for (const [p, text] of Object.entries(extra)) pythonTexts.set(p, text);
    const files = [
      ...invoices.view.files.filter((f) => !drop.includes(f.path)),
      ...Object.keys(extra).map((path) => ({ path })),
    ];
    return { files, pythonTexts };
  };

  test('a declared module missing from the archive', () => {
    const result = check((t) => t, withPython({}, ['tools/extract.py']));
    expect(result.stage).toBe('modules');
    expect(result.errors).toEqual([
      {
        code: 'manifest.module_missing',
        message: '`tools[0].module` names `tools/extract.py`, which is not in the archive',
        path: 'tools[0].module',
      },
    ]);
  });

  test('a module shipped under another name than the manifest gives is a misnamed file, not a hidden tool', () => {
    // `extractor.py` named, `extract.py` shipped with the very tool the manifest describes.
    const result = check((t) => swap(t, 'module = "tools/extract.py"', 'module = "tools/extractor.py"'));
    expect(result.errors).toEqual([
      {
        code: 'manifest.module_missing',
        message: '`tools[0].module` names `tools/extractor.py`, which is not in the archive',
        path: 'tools[0].module',
      },
      {
        code: 'manifest.module_misnamed',
        message:
          'module `tools/extract.py` defines the tool `extract_totals`, which the manifest describes in `tools/extractor.py`, a module not in the archive',
        path: 'tools/extract.py',
      },
    ]);
  });

  test('an extra @tool function the manifest does not describe', () => {
    const extract = `${invoices.view.pythonTexts.get('tools/extract.py')}\n\n@tool\ndef leak_everything(path: str) -> None:\n    pass\n`;
    const result = check((t) => t, withPython({ 'tools/extract.py': extract }));
    expect(result.errors).toEqual([
      {
        code: 'manifest.undescribed_function',
        message: 'module `tools/extract.py` defines the tool `leak_everything`, which the manifest does not describe',
        path: 'tools/extract.py',
      },
    ]);
  });

  test('the spec example: workflow `monthly-reminders` (no Python name) defined by a bare @workflow says how to name it', () => {
    const text = 'from apollia import workflow\n\n@workflow\nasync def monthly_reminders(ctx, month: str):\n    pass\n';
    const errors = check((t) => t, withPython({ 'workflows/reminders.py': text })).errors;
    expect(errors[0]).toEqual({
      code: 'manifest.undescribed_function',
      message:
        'module `workflows/reminders.py` defines the workflow `monthly_reminders`, which the manifest does not describe: to make it the manifest\'s workflow `monthly-reminders` (not a Python name), decorate it `@workflow(name="monthly-reminders")`',
      path: 'workflows/reminders.py',
    });
  });

  test('a multi-line @apollia.workflow(name="x") in another module', () => {
    const text =
      'import apollia\n\n@apollia.workflow(\n    description="quiet",\n    name="x",\n)\nasync def hidden(ctx):\n    pass\n';
    expect(check((t) => t, withPython({ 'lib/helpers.py': text })).errors).toEqual([
      {
        code: 'manifest.undescribed_function',
        message: 'module `lib/helpers.py` defines the workflow `hidden` (as `x`), which the manifest does not describe',
        path: 'lib/helpers.py',
      },
    ]);
  });

  test('a decorator in a docstring or comment is not a definition', () => {
    const text = '"""\n@tool\ndef fake(): pass\n"""\n# @tool\ndef plain():\n    return "@tool"\n';
    expect(check((t) => t, withPython({ 'lib/doc.py': text })).ok).toBe(true);
  });

  test('a module that would write a file if imported is never run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'apo-never-run-'));
    const marker = join(dir, 'ran.txt');
    const text = `import apollia\nopen(${JSON.stringify(marker)}, "w").write("ran")\n\n@apollia.tool\ndef sneaky():\n    open(${JSON.stringify(marker)}, "w").write("ran")\n`;
    const result = check((t) => t, withPython({ 'tools/sneaky.py': text }));
    expect(result.errors[0]?.code).toBe('manifest.undescribed_function');
    expect(existsSync(marker)).toBe(false);
  });
});

describe('SDK compatibility', () => {
  test("a requirement excluding this app's SDK is refused naming both", () => {
    const result = check((t) => swap(t, 'sdk = ">=0.3, <0.4"', 'sdk = ">=0.4"'));
    expect(result.stage).toBe('sdk');
    expect(result.sdkSupported).toBe(false);
    expect(result.errors).toEqual([
      {
        code: 'manifest.sdk_unsupported',
        message: 'the package needs SDK `>=0.4`, but this app serves SDK 0.3.2',
        path: 'package.sdk',
      },
    ]);
  });

  test('Cargo-style requirements', () => {
    expect(cargoRequirementToRange('>=0.3, <0.4')).toBe('>=0.3 <0.4');
    expect(cargoRequirementToRange('0.3')).toBe('^0.3');
    expect(cargoRequirementToRange('*')).toBe('*');
    expect(cargoRequirementToRange('>= 1.2.3-beta.1')).toBe('>=1.2.3-beta.1');
    expect(cargoRequirementToRange('')).toBeNull();
    expect(cargoRequirementToRange('>=0.3 <0.4')).toBeNull();
    expect(cargoRequirementToRange('latest')).toBeNull();
    expect(satisfiesRequirement('0.3.2', '0.3')).toBe(true);
    expect(satisfiesRequirement('0.3.2', '^0.2')).toBe(false);
    expect(satisfiesRequirement('0.3.2', '~0.3.1')).toBe(true);
    expect(satisfiesRequirement('0.3.2', '=0.3.1')).toBe(false);
  });
});

describe('warnings', () => {
  test('unknown native tool, unknown connection, unpinned pip requirement', () => {
    const result = check((t) =>
      swap(
        swap(swap(t, '"file_read"', '"teleport"'), 'type = "gmail"', 'type = "carrier_pigeon"'),
        '"pypdf==4.3.1"',
        '"pypdf>=4"',
      ),
    );
    expect(result.ok).toBe(true);
    expect(result.warnings.map((w) => [w.code, w.path])).toEqual([
      ['package.manifest.unknown_tool', 'agents[0].defaults.access[0]'],
      ['package.manifest.unknown_connection', 'requires[0].type'],
      ['package.manifest.unpinned_requirement', 'pip.packages[0]'],
    ]);
  });
});
