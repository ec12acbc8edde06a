import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { INVOICES_DIR } from '../../test/helpers/pack';
import type { ApolliaManifest } from '../manifests/apollia-manifest';
import { accessFamilies, asksFirst } from './consent';
import { diffUpdate } from './update-diff';
import { accessClassifier, accessMarker, accessRow, grantsSensitive } from './access-rows';

const manifest = parse(readFileSync(join(INVOICES_DIR, 'apollia.toml'), 'utf8')) as unknown as ApolliaManifest;

describe('the Access step rows of the complete example', () => {
  it('says what each entry is, its family, and that each asks first', () => {
    expect(accessRow('file_read', manifest)).toEqual({
      entry: 'file_read',
      kind: 'native',
      what: 'Read files the user opens to the agent',
      family: 'read_personal',
      asks: true,
      outward: false,
    });
    expect(accessRow('mcp:ledger/lookup', manifest)).toMatchObject({
      kind: 'mcp',
      what: 'Use “lookup”, a tool of the program ledger (what it does is known only when it runs)',
      family: 'unknown',
      asks: true,
    });
    expect(accessRow('pkg:invoices/extract_totals', manifest)).toMatchObject({
      kind: 'pkg',
      family: 'read_personal',
      asks: true,
    });
  });

  it('a read-only native tool runs unasked; a name the app does not know asks', () => {
    expect(accessRow('web_search', manifest)).toMatchObject({ kind: 'native', family: 'read', asks: false });
  });

  it('a web tool reads but is marked as sending what it looks up outside, as the verdict counts it', () => {
    expect(accessRow('web_search', manifest)).toMatchObject({ family: 'read', outward: true });
    expect(accessRow('web_fetch', manifest)).toMatchObject({ family: 'read', outward: true });
    expect(accessRow('notify', manifest)).toMatchObject({ family: 'read', outward: false });
    expect(accessRow('teleport', manifest)).toMatchObject({ kind: 'unknown', family: 'unknown', asks: true });
  });
});

describe('accessClassifier: one lookup per manifest, the same answers as the store', () => {
  const big: ApolliaManifest = {
    ...manifest,
    tools: [
      ...(manifest.tools ?? []),
      { name: 'dup', module: 'tools/dup.py', description: 'first', action: 'read' },
      { name: 'dup', module: 'tools/dup2.py', description: 'second', action: 'send_external' },
      ...Array.from({ length: 50 }, (_, i) => ({
        name: `t${i}`,
        module: `tools/t${i}.py`,
        description: `tool ${i}`,
        action: (['read', 'write_or_delete'] as const)[i % 2] ?? 'read',
      })),
    ],
  };
  const entries = [
    'file_read',
    'web_search',
    'teleport',
    'mcp:ledger/lookup',
    'agent:invoice-clerk',
    'agent:nobody',
    'pkg:invoices/extract_totals',
    'pkg:invoices/dup',
    'pkg:invoices/t7',
    'pkg:invoices/t8',
    'pkg:invoices/missing',
    'pkg:other/t7',
    'pkg:invoices/t7/x',
    'workflow:invoices/monthly-reminders',
    'workflow:invoices/none',
    'workflow:other/monthly-reminders',
  ];

  it('gives each entry the family accessFamilies records, and asks first by asksFirst', () => {
    const classify = accessClassifier(big);
    for (const entry of entries) {
      const family = accessFamilies(big)(entry);
      expect(classify(entry), entry).toMatchObject({ entry, family: family ?? 'unknown', asks: asksFirst(family) });
    }
  });

  it('takes the first tool of a duplicated name, as a scan does', () => {
    expect(accessClassifier(big)('pkg:invoices/dup')).toMatchObject({
      kind: 'pkg',
      what: 'first',
      family: 'read',
      asks: false,
    });
    expect(accessClassifier(big)('pkg:invoices/t7')).toMatchObject({
      what: 'tool 7',
      family: 'write_or_delete',
      asks: true,
    });
    expect(accessClassifier(big)('pkg:other/t7')).toMatchObject({
      what: 'Use the tool “t7” of another package, other',
      family: 'unknown',
      asks: true,
    });
  });
});

describe('accessMarker: what an update adds or changes', () => {
  const after: ApolliaManifest = {
    ...manifest,
    tools: (manifest.tools ?? []).map((tool) =>
      tool.name === 'extract_totals' ? { ...tool, action: 'send_external' as const } : tool,
    ),
    agents: (manifest.agents ?? []).map((agent) => ({
      ...agent,
      defaults: { ...agent.defaults, access: [...(agent.defaults?.access ?? []), 'file_list'] },
    })),
  };
  const clerk = manifest.agents?.[0]?.id ?? '';

  it('marks the new entry new and the entry whose tool changed family changed; kept entries unmarked', () => {
    const diff = diffUpdate(manifest, after);
    const marks = accessMarker(diff)(clerk);
    expect(Object.fromEntries(marks)).toEqual({
      file_list: { kind: 'new' },
      'pkg:invoices/extract_totals': { kind: 'changed', from: 'read_personal', to: 'send_external' },
    });
  });

  it('marks every entry of an agent the update adds new', () => {
    const helper = {
      id: 'helper',
      name: 'Helper',
      mission: 'Helps.',
      defaults: { access: ['file_list', 'pkg:invoices/extract_totals'] },
    };
    const diff = diffUpdate(manifest, { ...after, agents: [...(after.agents ?? []), helper] });
    expect(Object.fromEntries(accessMarker(diff)('helper'))).toEqual({
      file_list: { kind: 'new' },
      'pkg:invoices/extract_totals': { kind: 'new' },
    });
  });

  it('marks nothing for a fresh install', () => {
    expect(accessMarker(null)(clerk).size).toBe(0);
  });
});

describe('grantsSensitive: an agent never shown collapsed', () => {
  const classify = accessClassifier(manifest);
  it('is true when a granted entry is of a sensitive or unknown family, false when only reads are granted', () => {
    expect(grantsSensitive({ file_read: { permission: 'ask' } }, classify)).toBe(true);
    expect(grantsSensitive({ 'mcp:ledger/lookup': { permission: 'ask' } }, classify)).toBe(true);
    expect(grantsSensitive({ file_read: { permission: 'deny' }, notify: { permission: 'allow' } }, classify)).toBe(
      false,
    );
    expect(grantsSensitive({}, classify)).toBe(false);
  });
});
