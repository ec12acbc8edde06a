import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse } from 'smol-toml';
import { type ApolliaManifest, mcpCommandLine, isPinnedRequirement } from '../manifests/apollia-manifest';
import { APOLLIA_NATIVE_TOOLS } from '../manifests/catalogues';
import { riskSummary } from './risk-summary';

const example = parse(
  readFileSync(new URL('../../test/fixtures/apo/invoices/apollia.toml', import.meta.url), 'utf8'),
) as unknown as ApolliaManifest;

describe('riskSummary', () => {
  it('lists the spec example worst first, and claims nothing it cannot do: its code runs as you', () => {
    const lines = riskSummary(example, APOLLIA_NATIVE_TOOLS);
    expect(lines.map((line) => [line.level, line.text])).toEqual([
      ['sensitive', 'Runs a program on this computer: `uvx ledger-mcp`'],
      ['sensitive', 'Can send things outside this computer — 1 workflow (monthly-reminders)'],
      ['sensitive', 'Reads your personal data — 1 tool (extract_totals) and 1 built-in tool (file_read)'],
      ['notice', 'Asks for a connection to gmail'],
      ['notice', 'Installs 1 Python package'],
      ['notice', 'Proposes 1 trigger (off until you arm it)'],
    ]);
    expect(lines[1]).toMatchObject({ family: 'send_external', items: ['monthly-reminders'] });
  });

  it('a Python tool makes no "cannot" claim, whatever family it declares', () => {
    const manifest: ApolliaManifest = {
      package: { name: 'notes', version: '1.0.0', publisher: 'P', sdk: '>=0.3' },
      tools: [{ name: 'count', module: 'tools/count.py', description: 'Counts', action: 'read' }],
    };
    expect(riskSummary(manifest, APOLLIA_NATIVE_TOOLS).map((line) => line.text)).toEqual([
      'Reads data that is not personal — 1 tool (count)',
    ]);
  });

  it('says what a package with no code of its own cannot do, and web access is a way out', () => {
    const manifest: ApolliaManifest = {
      package: { name: 'notes', version: '1.0.0', publisher: 'P', sdk: '>=0.3' },
      agents: [{ id: 'a', name: 'A', mission: 'm', defaults: { access: ['notify'] } }],
    };
    expect(riskSummary(manifest, APOLLIA_NATIVE_TOOLS).map((line) => line.text)).toEqual([
      'Reads data that is not personal — 1 built-in tool (notify)',
      'Cannot run code on this computer',
      'Cannot send things outside this computer',
      'Cannot delete or write files',
      'Cannot read your personal data',
    ]);
    const web: ApolliaManifest = {
      ...manifest,
      agents: [{ id: 'a', name: 'A', mission: 'm', defaults: { access: ['web_fetch'] } }],
    };
    expect(riskSummary(web, APOLLIA_NATIVE_TOOLS).map((line) => line.text)).not.toContain(
      'Cannot send things outside this computer',
    );
  });

  it('flags unpinned pip requirements and network MCP servers', () => {
    const manifest: ApolliaManifest = {
      package: { name: 'x', version: '1.0.0', publisher: 'P', sdk: '>=0.3' },
      workflows: [
        { name: 'a', module: 'a.py', description: 'A', action: 'write_or_delete' },
        { name: 'b', module: 'b.py', description: 'B', action: 'write_or_delete' },
      ],
      mcp_servers: [{ name: 'remote', transport: 'streamable-http', url: 'https://mcp.example.com/mcp' }],
      pip: { packages: ['pypdf==4.3.1', 'requests>=2'] },
      triggers: [
        { id: 't1', target: 'a', source: { type: 'webhook' } },
        { id: 't2', target: 'b', source: { type: 'interval', every: '1h' } },
      ],
    };
    const lines = riskSummary(manifest, APOLLIA_NATIVE_TOOLS);
    expect(lines.map((line) => line.text)).toEqual([
      'Connects to a server outside this computer: https://mcp.example.com/mcp',
      'Can write or delete things — 2 workflows (a, b)',
      'Installs 2 Python packages (1 not pinned to one version: requests>=2)',
      'Proposes 2 triggers (off until you arm them)',
    ]);
    expect(lines[2]?.level).toBe('sensitive');
  });
});

describe('helpers', () => {
  it('isPinnedRequirement accepts exact pins only', () => {
    expect(isPinnedRequirement('pypdf==4.3.1')).toBe(true);
    expect(isPinnedRequirement('pypdf')).toBe(false);
    expect(isPinnedRequirement('pypdf>=4')).toBe(false);
    expect(isPinnedRequirement('pypdf==4.*')).toBe(false);
  });
  it('mcpCommandLine joins command and args', () => {
    expect(mcpCommandLine({ command: 'uvx', args: ['ledger-mcp'] })).toBe('uvx ledger-mcp');
  });
});
