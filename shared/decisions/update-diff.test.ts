import { describe, expect, it } from 'vitest';
import type { ApolliaManifest } from '../manifests/apollia-manifest';
import { diffUpdate, updateChangeLines } from './update-diff';

const base: ApolliaManifest = {
  package: { name: 'invoices', version: '1.2.0', publisher: 'Example Accounting', sdk: '>=0.3, <0.4' },
  agents: [
    {
      id: 'clerk',
      name: 'Clerk',
      mission: 'm',
      defaults: { access: ['file_read', 'mcp:ledger/lookup', 'pkg:invoices/extract'] },
    },
  ],
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
  it('describes a changed family, new access, a changed program and a changed trigger old → new, in words', () => {
    const after: ApolliaManifest = {
      ...base,
      package: { ...base.package, version: '1.3.0' },
      agents: [
        {
          id: 'clerk',
          name: 'Clerk',
          mission: 'm',
          defaults: { access: ['file_read', 'mcp:ledger/lookup', 'pkg:invoices/extract', 'shell'] },
        },
      ],
      tools: [{ name: 'extract', module: 'tools/extract.py', description: 'd', action: 'read_personal' }],
      requires: [{ type: 'gmail' }, { type: 'slack' }],
      mcp_servers: [{ name: 'ledger', command: 'npx', args: ['ledger-mcp'], env: { TOKEN: '${TOKEN}' } }],
      triggers: [
        { id: 'monday', target: 'remind', source: { type: 'cron', schedule: '0 9 1-7 * MON' } },
        { id: 'hourly', target: 'clerk', source: { type: 'interval', every: '1h' } },
        { id: 'hook', target: 'clerk', source: { type: 'webhook' } },
      ],
    };
    const diff = diffUpdate(base, after);
    expect(diff.proposedAccess).toEqual({ clerk: ['pkg:invoices/extract', 'shell'] });
    expect(diff.changes).toEqual([
      'The tool `extract` can now read your personal data (was: read data that is not personal)',
      'Now needs a connection to `slack`',
      'The program `ledger` would now start differently: the program it runs, the environment variables it receives changed',
      'Clerk asks for something new, not allowed until you tick it: run shell commands on this computer (`shell`)',
      'New trigger `hook`: off until you arm it',
      'Changed trigger `monday`: at 08:00, on the first Monday of each month (UTC) → at 09:00, on the first Monday of each month (UTC); off until you arm it again',
    ]);
    expect(diff.changes.join('\n')).not.toMatch(/read_personal|execute_code|send_external|write_or_delete/);
    expect(diff.asksMore).toBe(true);
    expect(diff.publisher).toBeNull();
  });

  it('an identical manifest changes nothing', () => {
    const diff = diffUpdate(base, { ...base, package: { ...base.package, version: '1.2.1' } });
    expect([diff.changes, diff.asksMore, diff.proposedAccess]).toEqual([[], false, {}]);
  });

  it('a trigger that only starts something else says so', () => {
    const after: ApolliaManifest = {
      ...base,
      package: { ...base.package, version: '1.2.1' },
      triggers: [
        { id: 'hourly', target: 'remind', source: { type: 'interval', every: '1h' } },
        ...(base.triggers ?? []).slice(0, 1),
      ],
    };
    expect(diffUpdate(base, after).changes).toEqual([
      'Changed trigger `hourly`: now starts `remind` (was: `clerk`); off until you arm it again',
    ]);
  });

  it('lists what a version no longer asks for', () => {
    const diff = diffUpdate(base, {
      ...base,
      package: { ...base.package, version: '1.1.0' },
      workflows: [],
      triggers: [],
      requires: [],
    });
    expect(diff.changes).toEqual([
      'No longer has the workflow `remind`',
      'No longer needs `gmail`',
      'No longer proposes the triggers `hourly`, `monday`',
    ]);
    expect(diff.asksMore).toBe(false);
  });

  it('a new publisher comes first; a lookalike with digits for letters is named as one', () => {
    const lookalike = diffUpdate(base, {
      ...base,
      package: { ...base.package, version: '1.3.0', publisher: 'Example Acc0unting' },
    });
    expect(lookalike.publisher).toEqual({
      from: 'Example Accounting',
      to: 'Example Acc0unting',
      comparison: 'lookalike',
    });
    expect(lookalike.changes[0]).toBe(
      'The publisher changed to a name that passes for the old one: “Example Acc0unting” (was: “Example Accounting”)',
    );
    const other = diffUpdate(base, {
      ...base,
      package: { ...base.package, version: '1.3.0', publisher: 'Someone Else' },
    });
    expect(other.changes[0]).toBe('The publisher changed: “Someone Else” (was: “Example Accounting”)');
    expect(other.publisher?.comparison).toBe('different');
  });

  it('names new tools, programs and agents in words', () => {
    const after: ApolliaManifest = {
      ...base,
      package: { ...base.package, version: '2.0.0' },
      tools: [...(base.tools ?? []), { name: 'wipe', module: 'w.py', description: 'd', action: 'write_or_delete' }],
      mcp_servers: [...(base.mcp_servers ?? []), { name: 'fetch', command: 'npx', args: ['-y', 'fetch-mcp@latest'] }],
      agents: [...(base.agents ?? []), { id: 'helper', name: 'Helper', mission: 'm' }],
    };
    expect(diffUpdate(base, after).changes).toEqual([
      'New tool `wipe` (Python code): says it can write or delete things',
      'Starts a new program on this computer: `npx -y fetch-mcp@latest`',
      'New agent Helper',
    ]);
  });

  it('weighs each change: a program to run, code, sending outside, a plain-http or raw-IP server high; the rest less', () => {
    const after: ApolliaManifest = {
      ...base,
      package: { ...base.package, version: '2.0.0', publisher: 'Example Acc0unting Partners' },
      tools: [...(base.tools ?? []), { name: 'wipe', module: 'w.py', description: 'd', action: 'write_or_delete' }],
      requires: [{ type: 'gmail' }, { type: 'slack' }],
      mcp_servers: [
        ...(base.mcp_servers ?? []),
        { name: 'fetch', command: 'npx', args: ['-y', 'fetch-mcp@latest'] },
        { name: 'crm', url: 'http://203.0.113.7/mcp', transport: 'streamable-http' },
        { name: 'plain', url: 'http://crm.example.com/mcp', transport: 'streamable-http' },
        { name: 'safe', url: 'https://mcp.example.com/mcp', transport: 'streamable-http' },
        { name: 'local', url: 'http://127.0.0.1:8931/mcp', transport: 'streamable-http' },
      ],
      agents: [{ id: 'clerk', name: 'Clerk', mission: 'm', defaults: { access: ['file_read', 'web_fetch'] } }],
      triggers: [base.triggers?.[0] as NonNullable<ApolliaManifest['triggers']>[number]],
    };
    const diff = diffUpdate(base, after);
    expect(diff.changeLevels).toHaveLength(diff.changes.length);
    expect(updateChangeLines(diff)).toEqual([
      {
        text: 'The publisher changed to a name that passes for the old one: “Example Acc0unting Partners” (was: “Example Accounting”)',
        level: 'high',
      },
      { text: 'New tool `wipe` (Python code): says it can write or delete things', level: 'high' },
      { text: 'Now needs a connection to `slack`', level: 'sensitive' },
      {
        text: 'Connects to a new server outside this computer: http://203.0.113.7/mcp (over plain http://, so what it sends can be read and changed on the way; at a raw IP address, not a name you can check)',
        level: 'high',
      },
      { text: 'Starts a new program on this computer: `npx -y fetch-mcp@latest`', level: 'high' },
      {
        text: 'Connects to a new server outside this computer: http://127.0.0.1:8931/mcp',
        level: 'sensitive',
      },
      {
        text: 'Connects to a new server outside this computer: http://crm.example.com/mcp (over plain http://, so what it sends can be read and changed on the way)',
        level: 'high',
      },
      { text: 'Connects to a new server outside this computer: https://mcp.example.com/mcp', level: 'sensitive' },
      {
        text: 'Clerk asks for something new, not allowed until you tick it: fetch a web page (`web_fetch`)',
        level: 'high',
      },
      { text: 'No longer proposes the trigger `hourly`', level: 'notice' },
      {
        text: 'Clerk no longer asks for: the tool `lookup` of the program `ledger`; its tool `extract`',
        level: 'notice',
      },
    ]);
  });
});
