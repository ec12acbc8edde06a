import { describe, expect, it } from 'vitest';
import type { AgentView } from '../../../../shared/contract/api';
import { agentCounts, agentCountsText, agentRisk, matchesFilter, riskiestFirst } from './agent-summary';

type Access = AgentView['access'][number];
const tool = (tool: string, family: Access['family'], granted = true, permission: Access['permission'] = 'ask') =>
  ({ tool, what: tool, family, granted, permission }) as Access;
const agent = (id: string, access: Access[], extra: Partial<AgentView> = {}): AgentView =>
  ({
    id,
    displayName: id.toUpperCase(),
    from: `pkg-${id}`,
    archived: false,
    access,
    triggers: [],
    ...extra,
  }) as AgentView;

describe('the dashboard summary of many agents', () => {
  const reader = agent('reader', [tool('notify', 'read', true, 'allow')]);
  const operator = agent('operator', [tool('shell', 'execute_code'), tool('notify', 'read', true, 'allow')]);
  const revoked = agent('revoked', [tool('shell', 'execute_code', false)]);
  const unknown = agent('unknown', [tool('mcp:x/y', null)]);
  const mailer = agent('mailer', [tool('mail_send', 'send_external')], {
    triggers: [{ armed: true }, { armed: false }] as AgentView['triggers'],
  });

  it('ranks an agent by the worst family it is granted; a revoked tool counts for nothing, an unknown one as worst', () => {
    expect(agentRisk(operator)).toBe(0);
    expect(agentRisk(unknown)).toBe(0);
    expect(agentRisk(mailer)).toBe(1);
    expect(agentRisk(reader)).toBe(4);
    expect(agentRisk(revoked)).toBe(5);
  });

  it('orders the riskiest first, keeping the store order among equals, archived last', () => {
    const archived = agent('archived', [tool('shell', 'execute_code')], { archived: true });
    expect(riskiestFirst([reader, archived, mailer, operator, unknown]).map((a) => a.id)).toEqual([
      'operator',
      'unknown',
      'mailer',
      'reader',
      'archived',
    ]);
  });

  it('counts what is sensitive, what runs without asking and what is armed, in words', () => {
    const counts = agentCounts([reader, operator, revoked, mailer]);
    expect(counts).toEqual({ agents: 4, sensitive: 2, unattended: 2, armed: 1 });
    expect(agentCountsText(counts)).toBe(
      '4 agents: 2 may do something sensitive, 2 tools run without asking, 1 trigger armed.',
    );
  });

  it('filters by name, package or id, ignoring case', () => {
    expect(matchesFilter(operator, 'OPER')).toBe(true);
    expect(matchesFilter(operator, 'pkg-op')).toBe(true);
    expect(matchesFilter(operator, 'mail')).toBe(false);
    expect(matchesFilter(operator, '  ')).toBe(true);
  });
});
