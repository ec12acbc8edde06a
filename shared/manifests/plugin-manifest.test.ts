import { describe, expect, it } from 'vitest';
import { higherRole, pluginRiskSummary, roleFloorWords, type PluginManifestView } from './plugin-manifest';

function view(over: Partial<PluginManifestView> = {}): PluginManifestView {
  return {
    identity: { name: 'crm', version: '1.0.0', display_name: 'CRM', description: '', owner: 'Acme', homepage: null },
    auth: null,
    capabilities: [],
    tools: [],
    resources: [],
    connection_shapes: [],
    profiles: [],
    mcp: null,
    remote_mcp: null,
    datasets: [],
    query_profile: { kind: 'none' },
    ...over,
  };
}

const read = {
  name: 'list',
  capability: 'c',
  description: '',
  access_class: 'read' as const,
  idempotent: true,
  input_schema: null,
  output_schema: null,
};
const create = { ...read, name: 'create', access_class: 'write' as const, idempotent: false };

describe('pluginRiskSummary', () => {
  it('puts writes, non-idempotent writes and network MCP exposure first, then notices, then what it does not do', () => {
    const lines = pluginRiskSummary(
      view({
        tools: [read, create],
        capabilities: [
          {
            name: 'c',
            description: '',
            routing_hints: [],
            routing_examples: [],
            approval_required: true,
            minimum_role: 'SUPER_ADMIN',
          },
        ],
        mcp: { transport: 'HTTP', port: 8931, host: null, path: null },
        auth: { type: 'api_key', source: 'auth_shape', scopes: [] },
      }),
    );
    expect(lines).toEqual([
      {
        level: 'sensitive',
        text: 'Exposes its tools as an MCP server over the network (HTTP) on port 8931: other programs that can reach that port could call them.',
      },
      { level: 'sensitive', text: 'Can change or create things: 1 write tool (create).' },
      { level: 'sensitive', text: 'Running this tool twice does it twice (not idempotent): create.' },
      { level: 'notice', text: 'Asks for approval before using 1 capability: c.' },
      { level: 'notice', text: 'Restricted to admins: c (only the platform operator).' },
      { level: 'notice', text: 'Needs credentials of the shape api_key; the manifest holds no credential values.' },
      { level: 'notice', text: 'Can read data: 1 read tool (list).' },
      { level: 'cannot', text: 'Does not use a remote MCP server.' },
    ]);
  });

  it('says plainly what a read-only plugin does not do', () => {
    expect(
      pluginRiskSummary(view({ tools: [read] }))
        .filter((l) => l.level === 'cannot')
        .map((l) => l.text),
    ).toEqual([
      'Declares no write tools: it only reads.',
      'Does not expose an MCP server.',
      'Does not use a remote MCP server.',
      'Declares no credentials.',
    ]);
  });

  it('flags a remote MCP server as sensitive', () => {
    const lines = pluginRiskSummary(
      view({
        remote_mcp: {
          url_template: 'https://x/{t}',
          placeholders: ['t'],
          name: null,
          description: null,
          credential_keys: [],
          allowed_tools: [],
        },
      }),
    );
    expect(lines[0]).toEqual({
      level: 'sensitive',
      text: 'Gets its tools from a remote MCP server at runtime: what it can do is decided by that server, not by this manifest.',
    });
  });
});

describe('roles', () => {
  it('orders role floors and says who they let in', () => {
    expect(higherRole(null, 'TENANT_ADMIN')).toBe('TENANT_ADMIN');
    expect(higherRole('SUPER_ADMIN', 'TENANT_ADMIN')).toBe('SUPER_ADMIN');
    expect(higherRole(null, null)).toBeNull();
    expect(roleFloorWords(null)).toBe('Anyone on the tenant');
  });
});
