import { describe, expect, it } from 'vitest';
import type { ApolliaManifest } from './apollia-manifest';
import { proposedConsent } from './consent';
import { diffUpdate } from './update-diff';

const base: ApolliaManifest = {
  package: { name: 'invoices', version: '1.2.0', publisher: 'Example Accounting', sdk: '>=0.3, <0.4' },
  agents: [{ id: 'clerk', name: 'Clerk', mission: 'm', defaults: { access: ['file_read', 'mcp:ledger/lookup', 'pkg:invoices/extract'] } }],
  tools: [{ name: 'extract', module: 'tools/extract.py', description: 'd', action: 'read' }],
  workflows: [{ name: 'remind', module: 'w.py', description: 'd', action: 'send_external' }],
  requires: [{ type: 'gmail' }],
  mcp_servers: [{ name: 'ledger', command: 'uvx', args: ['ledger-mcp'] }],
  triggers: [
    { id: 'monday', target: 'remind', source: { type: 'cron', schedule: '0 8 1-7 * MON' } },
    { id: 'hourly', target: 'clerk', source: { type: 'interval', every: '1h' } },
  ],
};

describe('diffUpdate', () => {
  it('keeps the user answers for what did not change; re-asks a changed family; arms nothing new or changed', () => {
    const decisions = { agents: { clerk: { access: { file_read: true, 'mcp:ledger/lookup': false, 'pkg:invoices/extract': true } } }, triggers: { monday: { armed: true }, hourly: { armed: true } } };
    const after: ApolliaManifest = {
      ...base,
      package: { ...base.package, version: '1.3.0' },
      agents: [{ id: 'clerk', name: 'Clerk', mission: 'm', defaults: { access: ['file_read', 'mcp:ledger/lookup', 'pkg:invoices/extract', 'shell'] } }],
      tools: [{ name: 'extract', module: 'tools/extract.py', description: 'd', action: 'read_personal' }],
      requires: [{ type: 'gmail' }, { type: 'slack' }],
      mcp_servers: [{ name: 'ledger', command: 'npx', args: ['ledger-mcp'], env: { TOKEN: '${TOKEN}' } }],
      triggers: [
        { id: 'monday', target: 'remind', source: { type: 'cron', schedule: '0 9 1-7 * MON' } },
        { id: 'hourly', target: 'clerk', source: { type: 'interval', every: '1h' } },
        { id: 'hook', target: 'clerk', source: { type: 'webhook' } },
      ],
    };
    const diff = diffUpdate(base, decisions, after);
    expect(diff.merged).toEqual({
      agents: { clerk: { access: { file_read: true, 'mcp:ledger/lookup': false, 'pkg:invoices/extract': false, shell: false } } },
      triggers: { monday: { armed: false }, hourly: { armed: true }, hook: { armed: false } },
    });
    expect(diff.proposedAccess).toEqual({ clerk: ['pkg:invoices/extract', 'shell'] });
    expect(diff.changes).toEqual(['`extract` now does read_personal (was read)', 'Needs new connections: `slack`', 'MCP server `ledger` would run differently: command, env changed', 'New triggers (not armed): `hook`', 'Changed triggers (disarmed until you arm them again): `monday`', 'Agent `clerk` asks for `shell`']);
    expect(diff.asksMore).toBe(true);
  });

  it('an identical manifest changes nothing and keeps every answer', () => {
    const decisions = proposedConsent(base);
    decisions.agents.clerk = { access: { file_read: false, 'mcp:ledger/lookup': true, 'pkg:invoices/extract': true } };
    const diff = diffUpdate(base, decisions, { ...base, package: { ...base.package, version: '1.2.1' } });
    expect([diff.changes, diff.asksMore, diff.proposedAccess]).toEqual([[], false, {}]);
    expect(diff.merged.agents).toEqual(decisions.agents);
  });

  it('lists what a version no longer asks for', () => {
    const diff = diffUpdate(base, proposedConsent(base), { ...base, package: { ...base.package, version: '1.1.0' }, workflows: [], triggers: [], requires: [] });
    expect(diff.changes).toEqual(['Workflows removed: `remind`', 'No longer needs: `gmail`', 'Triggers removed: `hourly`, `monday`']);
    expect(diff.asksMore).toBe(false);
  });
});
