import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { INVOICES_DIR } from '../../test/helpers/pack';
import type { ApolliaManifest } from '../manifests/apollia-manifest';
import { accessFamilies, asksFirst } from './consent';

const manifest = parse(readFileSync(join(INVOICES_DIR, 'apollia.toml'), 'utf8')) as unknown as ApolliaManifest;

describe('access families and the ask-first rule', () => {
  it('knows the family of native, package and workflow entries, and not of MCP tools or agents', () => {
    expect(accessFamilies(manifest)('file_read')).toBe('read_personal');
    expect(accessFamilies(manifest)('web_search')).toBe('read');
    expect(accessFamilies(manifest)('pkg:invoices/extract_totals')).toBe('read_personal');
    expect(accessFamilies(manifest)('workflow:invoices/monthly-reminders')).toBe('send_external');
    expect(accessFamilies(manifest)('pkg:other/extract_totals')).toBeNull();
    expect(accessFamilies(manifest)('mcp:ledger/lookup')).toBeNull();
    expect(accessFamilies(manifest)('agent:invoice-clerk')).toBeNull();
    expect(accessFamilies(manifest)('no_such_tool')).toBeNull();
  });

  it('only a read runs unasked by its family; anything sensitive or unknown asks (shared/decisions/decisions.test.ts has the whole rule)', () => {
    expect(asksFirst('read')).toBe(false);
    for (const family of ['read_personal', 'write_or_delete', 'send_external', 'execute_code'] as const)
      expect(asksFirst(family)).toBe(true);
    expect(asksFirst(null)).toBe(true);
  });
});
