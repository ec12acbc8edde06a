import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_PLUGIN_MANIFEST_BYTES,
  inspectPluginManifest,
  inspectPluginManifestBytes,
  isPluginManifestContent,
  type PluginInspection,
} from './index';

const FIXTURE = join(__dirname, '../../../test/fixtures/plugin/crm-plugin.json');

type Manifest = Record<string, any>;
let original: Manifest;
let dir: string;

beforeAll(async () => {
  original = JSON.parse(await readFile(FIXTURE, 'utf8')) as Manifest;
  dir = await mkdtemp(join(tmpdir(), 'plugin-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A deep copy of the fixture, changed by `edit`, inspected. */
function inspectEdited(edit: (m: Manifest) => void): PluginInspection {
  const copy = structuredClone(original);
  edit(copy);
  return inspectPluginManifestBytes(new TextEncoder().encode(JSON.stringify(copy)));
}

function inspectText(text: string): PluginInspection {
  return inspectPluginManifestBytes(new TextEncoder().encode(text));
}

function codes(result: PluginInspection): string[] {
  return result.errors.map((e) => e.code);
}

describe('the CRM fixture', () => {
  it('is accepted with the summary the spec implies', async () => {
    const result = await inspectPluginManifest(FIXTURE);
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.kind).toBe('plugin');
    expect(result.summary).toEqual({
      name: 'crm',
      version: '2.4.1',
      owner: 'Acme Integrations Team',
      write_tools: ['create_deal', 'set_deal_stage'],
      approval_capabilities: ['deal_changes'],
      role_floor: 'TENANT_ADMIN',
    });
  });

  it('gives the screen a normalised view', async () => {
    const result = (await inspectPluginManifest(FIXTURE)) as PluginInspection;
    const view = result.details!;
    expect(view.auth).toEqual({
      type: 'oauth2',
      source: 'auth_shape',
      scopes: ['contacts.read', 'deals.read', 'deals.write'],
    });
    expect(view.capabilities[0]!.routing_hints).toEqual([
      'Use when the user asks who a contact is, how to reach them, or which company they work for.',
    ]);
    expect(view.tools.map((t) => [t.name, t.access_class, t.idempotent])).toEqual([
      ['search_contacts', 'read', true],
      ['list_deals', 'read', true],
      ['create_deal', 'write', false],
      ['set_deal_stage', 'write', true],
    ]);
    expect(view.resources).toEqual([
      { name: 'pipeline_stages', description: 'The stages deals move through.' },
      { name: 'field_definitions', description: null },
    ]);
    expect(view.connection_shapes).toEqual(['user', 'tenant']);
    expect(view.profiles[0]!.config_keys).toEqual([
      { key: 'region', hint: 'us or eu' },
      { key: 'instance_subdomain', hint: 'the part before .acmecrm.example' },
    ]);
    expect(view.mcp).toEqual({ transport: 'STDIO', port: null, host: null, path: null });
    expect(view.remote_mcp).toBeNull();
    expect(view.query_profile).toEqual({ kind: 'pushdown', datasets: ['deals'] });
  });

  it('is recognised by content', async () => {
    expect(isPluginManifestContent(await readFile(FIXTURE))).toBe(true);
    expect(isPluginManifestContent(new TextEncoder().encode('{"name":"x","dependencies":{}}'))).toBe(false);
    expect(isPluginManifestContent(new TextEncoder().encode('[1,2]'))).toBe(false);
  });

  it('also accepts the identity as one nested object', () => {
    const result = inspectEdited((m) => {
      m.identity = {
        name: m.name,
        version: m.version,
        display_name: m.display_name,
        description: m.description,
        owner: m.owner,
      };
      for (const key of ['name', 'version', 'display_name', 'description', 'owner', 'homepage']) delete m[key];
    });
    expect(result.errors).toEqual([]);
    expect(result.summary!.name).toBe('crm');
  });
});

describe('construction-time invariants (spec "PluginManifest")', () => {
  it('refuses a repeated tool name', () => {
    const result = inspectEdited((m) => {
      m.tools[3].name = 'create_deal';
    });
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual([
      {
        code: 'plugin.duplicate_tool',
        path: 'tools[3].name',
        message:
          'plugin manifest: `tools[3].name` repeats tool name `create_deal` of `tools[2]`; tool names must be unique',
      },
    ]);
  });

  it('refuses a repeated capability name', () => {
    const result = inspectEdited((m) => {
      m.capabilities[1].name = 'crm_lookup';
      m.tools[1].capability = 'crm_lookup';
    });
    expect(result.errors).toEqual([
      {
        code: 'plugin.duplicate_capability',
        path: 'capabilities[1].name',
        message:
          'plugin manifest: `capabilities[1].name` repeats capability name `crm_lookup` of `capabilities[0]`; capability names must be unique',
      },
    ]);
  });

  it('refuses a repeated resource name', () => {
    const result = inspectEdited((m) => {
      m.resources.push({ name: 'pipeline_stages' });
    });
    expect(result.errors).toEqual([
      {
        code: 'plugin.duplicate_resource',
        path: 'resources[2].name',
        message:
          'plugin manifest: `resources[2].name` repeats resource name `pipeline_stages` of `resources[0]`; resource names must be unique',
      },
    ]);
  });

  it('refuses a tool whose capability is not on the manifest', () => {
    const result = inspectEdited((m) => {
      m.tools[2].capability = 'billing';
    });
    expect(result.errors).toEqual([
      {
        code: 'plugin.unknown_capability',
        path: 'tools[2].capability',
        message:
          'plugin manifest: `tools[2].capability` names capability `billing`, which this manifest does not declare (tool `create_deal`)',
      },
    ]);
  });

  it('refuses a write tool under a capability that needs no approval', () => {
    const result = inspectEdited((m) => {
      m.tools[2].capability = 'crm_lookup';
    });
    expect(result.errors).toEqual([
      {
        code: 'plugin.write_without_approval',
        path: 'tools[2].capability',
        message:
          'plugin manifest: `tools[2].capability` puts write tool `create_deal` under capability `crm_lookup`, which is not `approval_required`; write tools must need approval',
      },
    ]);
  });

  it('refuses a write tool that does not declare idempotent', () => {
    const result = inspectEdited((m) => {
      delete m.tools[3].idempotent;
    });
    expect(result.errors).toEqual([
      {
        code: 'plugin.idempotent_missing',
        path: 'tools[3].idempotent',
        message:
          'plugin manifest: `tools[3].idempotent` is required on write tool `set_deal_stage`: declare true or false explicitly',
      },
    ]);
  });

  it('refuses a read tool that says it is not idempotent', () => {
    const result = inspectEdited((m) => {
      m.tools[1].idempotent = false;
    });
    expect(codes(result)).toEqual(['plugin.read_not_idempotent']);
    expect(result.errors[0]!.path).toBe('tools[1].idempotent');
  });

  it('refuses a name that is not a slug', () => {
    const result = inspectEdited((m) => {
      m.name = 'Acme CRM';
    });
    expect(result.errors).toEqual([
      {
        code: 'plugin.invalid_name',
        path: 'name',
        message:
          'plugin manifest: `name` `Acme CRM` is not a slug: it must match ^[a-z][a-z0-9_-]*$ (a lower-case letter, then lower-case letters, digits, `_` or `-`)',
      },
    ]);
    expect(
      inspectEdited((m) => {
        m.name = '1crm';
      }).errors[0]!.code,
    ).toBe('plugin.invalid_name');
    expect(
      inspectEdited((m) => {
        m.name = 'crm_v2-beta';
      }).ok,
    ).toBe(true);
  });

  it('refuses a read-capable plugin without a query profile', () => {
    const result = inspectEdited((m) => {
      m.datasets = [];
      delete m.tools[0].output_schema;
    });
    expect(result.errors).toEqual([
      {
        code: 'plugin.query_profile_missing',
        path: 'query_surface',
        message:
          'plugin manifest: `query_surface` is missing: a plugin with read tools (`search_contacts`, `list_deals`) must declare a query profile: a dataset with `pushdown`, a `datasets` entry, or an opt-out with a `rationale`',
      },
    ]);
  });

  it('accepts the three ways of satisfying the query profile, in order of preference', () => {
    const bounded = inspectEdited((m) => {
      delete m.datasets[0].pushdown;
    });
    expect(bounded.details!.query_profile).toEqual({
      kind: 'bounded_fetch',
      datasets: ['deals'],
      autoAdaptedTools: ['search_contacts'],
    });
    const adapted = inspectEdited((m) => {
      m.datasets = [];
    });
    expect(adapted.details!.query_profile).toEqual({
      kind: 'bounded_fetch',
      datasets: [],
      autoAdaptedTools: ['search_contacts'],
    });
    const optOut = inspectEdited((m) => {
      m.datasets = [];
      delete m.tools[0].output_schema;
      m.query_surface = { rationale: 'Contact search is relevance-ranked, not tabular.' };
    });
    expect(optOut.details!.query_profile).toEqual({
      kind: 'opt_out',
      rationale: 'Contact search is relevance-ranked, not tabular.',
    });
  });

  it('refuses an opt-out whose rationale is only whitespace', () => {
    const result = inspectEdited((m) => {
      m.datasets = [];
      delete m.tools[0].output_schema;
      m.query_surface = { rationale: '  \n ' };
    });
    expect(result.errors).toEqual([
      {
        code: 'plugin.query_surface_empty_rationale',
        path: 'query_surface.rationale',
        message:
          'plugin manifest: `query_surface.rationale` is empty: a recorded opt-out must say why the read surface is not tabular',
      },
    ]);
  });

  it('refuses a stale opt-out on a plugin without read tools', () => {
    const result = inspectEdited((m) => {
      m.tools = m.tools.filter((t: Manifest) => t.access_class === 'write');
      m.datasets = [];
      m.query_surface = { rationale: 'Not tabular.' };
    });
    expect(codes(result)).toEqual(['plugin.query_surface_stale']);
  });

  it('refuses HTTP or SSE exposure without a port', () => {
    for (const transport of ['HTTP', 'SSE']) {
      const result = inspectEdited((m) => {
        m.mcp = { transport };
      });
      expect(result.errors).toEqual([
        {
          code: 'plugin.mcp_port_missing',
          path: 'mcp.port',
          message: `plugin manifest: \`mcp.port\` is required when \`mcp.transport\` is \`${transport}\``,
        },
      ]);
    }
    expect(
      inspectEdited((m) => {
        m.mcp = { transport: 'HTTP', port: 8931 };
      }).details!.mcp,
    ).toEqual({ transport: 'HTTP', port: 8931, host: null, path: null });
  });

  it('refuses a dynamic pushdown dataset without a schema probe, and a fixed one with a probe', () => {
    const missing = inspectEdited((m) => {
      delete m.datasets[0].schema_probe;
    });
    expect(codes(missing)).toEqual(['plugin.dataset_schema_probe_missing']);
    expect(missing.errors[0]!.path).toBe('datasets[0].schema_probe');
    const unexpected = inspectEdited((m) => {
      m.datasets[0].schema = { type: 'object', properties: { stage: { type: 'string' } } };
    });
    expect(codes(unexpected)).toEqual(['plugin.dataset_schema_probe_unexpected']);
  });
});

describe('shape', () => {
  it('refuses a missing identity field, naming it', () => {
    const result = inspectEdited((m) => {
      delete m.owner;
    });
    expect(result.errors).toEqual([
      { code: 'plugin.missing_field', path: 'owner', message: 'plugin manifest: `owner` is required' },
    ]);
  });

  it('refuses a wrong type, naming the field by its path', () => {
    const result = inspectEdited((m) => {
      m.tools[2].capability = 7;
    });
    expect(result.errors).toEqual([
      {
        code: 'plugin.invalid_type',
        path: 'tools[2].capability',
        message: 'plugin manifest: `tools[2].capability` must be a string, not a number',
      },
    ]);
  });

  it('refuses an unknown access class and an unknown role', () => {
    expect(
      inspectEdited((m) => {
        m.tools[0].access_class = 'delete';
      }).errors,
    ).toEqual([
      {
        code: 'plugin.invalid_value',
        path: 'tools[0].access_class',
        message: 'plugin manifest: `tools[0].access_class` must be `read` or `write`, not `delete`',
      },
    ]);
    expect(
      inspectEdited((m) => {
        m.capabilities[2].minimum_role = 'OWNER';
      }).errors,
    ).toEqual([
      {
        code: 'plugin.invalid_value',
        path: 'capabilities[2].minimum_role',
        message:
          'plugin manifest: `capabilities[2].minimum_role` must be null, `TENANT_ADMIN` or `SUPER_ADMIN`, not `OWNER`',
      },
    ]);
  });

  it('refuses an input schema the JSON Schema meta-schema rejects', () => {
    const result = inspectEdited((m) => {
      m.tools[0].input_schema = { type: 'objekt' };
    });
    expect(codes(result)).toEqual(['plugin.invalid_schema']);
    expect(result.errors[0]!.path).toBe('tools[0].input_schema');
  });

  it('checks a plugin schema as every package schema: an unknown keyword, a pattern that does not compile, a remote $ref', () => {
    for (const schema of [
      { type: 'object', propertise: {} },
      { type: 'string', pattern: '(' },
      { $ref: 'https://example.com/s.json' },
    ]) {
      const result = inspectEdited((m) => {
        m.tools[0].input_schema = schema;
      });
      expect(codes(result)).toEqual(['plugin.invalid_schema']);
      expect(result.errors[0]!.path).toBe('tools[0].input_schema');
      expect(result.errors[0]!.message).toMatch(
        /^plugin manifest: `tools\[0\]\.input_schema` is not a valid JSON Schema: /,
      );
    }
  });

  it('refuses a homepage that is not a web URL', () => {
    expect(
      inspectEdited((m) => {
        m.homepage = 'javascript:alert(1)';
      }).errors,
    ).toEqual([
      {
        code: 'plugin.invalid_url',
        path: 'homepage',
        message: 'plugin manifest: `homepage` must be an http or https URL',
      },
    ]);
  });

  it('reads a remote MCP server and its placeholders; refuses a non-web template', () => {
    const remote = inspectEdited((m) => {
      m.remote_mcp = {
        url_template: 'https://{tenant_subdomain}.mcp.example.com/v1?key={api_key}',
        credential_keys: ['api_key'],
      };
    });
    expect(remote.details!.remote_mcp).toEqual({
      url_template: 'https://{tenant_subdomain}.mcp.example.com/v1?key={api_key}',
      placeholders: ['tenant_subdomain', 'api_key'],
      name: null,
      description: null,
      credential_keys: ['api_key'],
      allowed_tools: [],
    });
    expect(
      codes(
        inspectEdited((m) => {
          m.remote_mcp = { url_template: 'file:///etc/{x}' };
        }),
      ),
    ).toEqual(['plugin.invalid_url']);
  });

  it('lists an unknown field as a warning, not a refusal', () => {
    const result = inspectEdited((m) => {
      m.tools[1].retry_policy = 'aggressive';
      m.telemetry = true;
    });
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([
      {
        code: 'plugin.unknown_field',
        path: 'telemetry',
        message: 'plugin manifest: `telemetry` is a field this app does not know; it is not shown',
      },
      {
        code: 'plugin.unknown_field',
        path: 'tools[1].retry_policy',
        message: 'plugin manifest: `tools[1].retry_policy` is a field this app does not know; it is not shown',
      },
    ]);
  });

  it('warns about a profile config key that looks like a secret', () => {
    const result = inspectEdited((m) => {
      m.profiles[1].config_keys.push('client_secret');
    });
    expect(result.ok).toBe(true);
    expect(result.warnings.map((w) => [w.code, w.path])).toEqual([
      ['plugin.profile_secret_key', 'profiles[1].config_keys'],
    ]);
  });

  it('warns about the same text fields the plugin screen checks (shared/words/plugin-text-fields.ts): a capability description too', () => {
    const result = inspectEdited((m) => {
      m.capabilities[0].description = 'Looks up\u202E contacts';
    });
    expect(result.warnings.map((w) => [w.code, w.path])).toEqual([
      ['text.bidi_control', 'capabilities[0].description'],
    ]);
  });

  it('warns about hidden characters and lookalike letters in the text people judge it by', () => {
    const result = inspectEdited((m) => {
      m.owner = 'Ex\u0430mple Corp';
      m.tools[0].description = 'Search contacts\u202E.';
    });
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([
      {
        code: 'text.mixed_scripts',
        path: 'owner',
        message: 'The owner mixes Cyrillic and Latin letters, which can make it look like a different name',
      },
      {
        code: 'text.confusable',
        path: 'owner',
        message: 'The owner uses lookalike characters: Cyrillic "а" (U+0430) looks like "a"',
      },
      {
        code: 'text.bidi_control',
        path: 'tools[0].description',
        message:
          'The description of tool `search_contacts` contains a right-to-left override (U+202E) that can disguise text',
      },
    ]);
  });

  it('refuses JSON that is not a plugin manifest', () => {
    expect(inspectText('{"name":"left-pad","version":"1.0.0"}').errors).toEqual([
      {
        code: 'plugin.not_a_manifest',
        path: '',
        message:
          'plugin manifest: this JSON object is not a plugin manifest (it needs an identity and `capabilities` or `tools`)',
      },
    ]);
  });
});

describe('reading the file', () => {
  it('refuses malformed JSON, naming the line and column', () => {
    const result = inspectText('{\n  "name": "crm",\n  "tools": [1,,2]\n}');
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual([
      {
        code: 'plugin.json_syntax',
        path: 'tools[1]',
        message: 'plugin manifest is not valid JSON: unexpected `,` at line 3, column 15 (in `tools[1]`)',
      },
    ]);
  });

  it('refuses a duplicate key, which JSON.parse would silently resolve', () => {
    const result = inspectText('{"name":"crm","tools":[],"name":"other"}');
    expect(result.errors).toEqual([
      {
        code: 'plugin.duplicate_key',
        message: 'plugin manifest is not valid JSON: duplicate key `name` at line 1, column 26',
      },
    ]);
  });

  it('refuses a truncated file', () => {
    expect(inspectText('{"name": "crm", "tools": [').errors[0]!.message).toBe(
      'plugin manifest is not valid JSON: unexpected end of input at line 1, column 27 (in `tools[0]`)',
    );
  });

  it('refuses text that is not UTF-8', () => {
    expect(inspectPluginManifestBytes(new Uint8Array([0x7b, 0xff, 0x7d])).errors[0]!.code).toBe('plugin.not_utf8');
  });

  it('refuses a file over 4 MiB before reading it', async () => {
    const huge = join(dir, 'huge.json');
    await writeFile(huge, '');
    await truncate(huge, MAX_PLUGIN_MANIFEST_BYTES + 1);
    expect(await inspectPluginManifest(huge)).toEqual({
      kind: 'plugin',
      ok: false,
      errors: [{ code: 'plugin.too_large', message: 'plugin manifest: the file is larger than 4 MiB' }],
      warnings: [],
      summary: null,
      details: null,
    });
  });

  it('refuses a folder and a missing file', async () => {
    expect((await inspectPluginManifest(dir)).errors[0]!.code).toBe('plugin.not_a_file');
    expect((await inspectPluginManifest(join(dir, 'nope.json'))).errors).toEqual([
      { code: 'plugin.unreadable', message: 'plugin manifest: cannot open the file (ENOENT)' },
    ]);
  });
});
