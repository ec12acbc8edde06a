import { describe, expect, it } from 'vitest';
import type { AccessView, AgentView } from '../../../../shared/contract/api';
import { outboundUnasked, runsSwitch } from './runs-unasked';

const access = (tool: string, fields: Partial<AccessView> = {}): AccessView => ({
  tool,
  what: tool,
  family: 'read',
  permission: 'allow',
  granted: true,
  pin: null,
  ...fields,
});

const agent = (id: string, origin: AgentView['origin'], rows: AccessView[], archived = false): AgentView => ({
  id,
  origin,
  from: id,
  fromVersion: '1.0.0',
  displayName: id,
  description: '',
  archived,
  createdAt: '2026-01-01T00:00:00Z',
  access: rows,
  triggers: [],
  model: null,
  budgetPerRunUsd: null,
  approvals: origin === 'template' ? 'never' : null,
  waitingServers: [],
});

describe('the outbound tools that run without asking', () => {
  it('lists web_fetch and web_search granted and running unasked, with the switch their agent has', () => {
    const agents = [
      agent('pkg/a', 'package', [
        access('web_fetch'),
        access('file_read'),
        access('web_search', { permission: 'ask' }),
      ]),
      agent('monitor', 'template', [access('web_search'), access('web_fetch', { granted: false, permission: 'deny' })]),
      agent('old', 'template', [access('web_fetch')], true),
    ];
    expect(outboundUnasked(agents).map((o) => [o.agent.id, o.access.tool, o.switches])).toEqual([
      ['pkg/a', 'web_fetch', 'tool'],
      ['monitor', 'web_search', 'agent'],
    ]);
  });

  it('offers Ask first on a tool running unasked, Run without asking only where a family allows it', () => {
    const pkg = agent('pkg/a', 'package', []);
    expect(runsSwitch(pkg, access('web_fetch'))).toBe('ask');
    expect(runsSwitch(pkg, access('web_fetch', { permission: 'ask' }))).toBe('unasked');
    expect(runsSwitch(pkg, access('mcp:x/y', { permission: 'ask', family: null }))).toBe('unasked');
    expect(runsSwitch(pkg, access('file_read', { permission: 'ask', family: 'read_personal' }))).toBeNull();
    expect(runsSwitch(pkg, access('web_fetch', { granted: false, permission: 'deny' }))).toBeNull();
    expect(runsSwitch(agent('t', 'template', []), access('web_fetch'))).toBeNull();
  });
});
