import { describe, expect, it } from 'vitest';
import { runTarget } from './run-requests';

describe('a run request names what it starts as the rest of the app does', () => {
  it('package/agent for an agent, package/workflow for a workflow, a template agent by its id', () => {
    expect(runTarget({ agentId: 'watcher/pager', packageName: 'watcher', target: 'pager' })).toBe('watcher/pager');
    expect(runTarget({ agentId: null, packageName: 'invoices', target: 'monthly-reminders' })).toBe(
      'invoices/monthly-reminders',
    );
    expect(
      runTarget({
        agentId: '4c0f93a2-0000-4000-8000-000000000000',
        packageName: null,
        target: '4c0f93a2-0000-4000-8000-000000000000',
      }),
    ).toBe('4c0f93a2-0000-4000-8000-000000000000');
  });
});
