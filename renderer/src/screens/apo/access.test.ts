import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { INVOICES_DIR } from '../../../../test/helpers/pack';
import type { ApolliaManifest } from '../../../../shared/apollia-manifest';
import { accessRow } from './access';

const manifest = parse(readFileSync(join(INVOICES_DIR, 'apollia.toml'), 'utf8')) as unknown as ApolliaManifest;

describe('the Access step rows of the complete example', () => {
  it('says what each entry is, its family, and that each asks first', () => {
    expect(accessRow('file_read', manifest)).toEqual({ entry: 'file_read', kind: 'native', what: 'Built-in tool: Read files the user opens to the agent', family: 'read_personal', asks: true });
    expect(accessRow('mcp:ledger/lookup', manifest)).toMatchObject({ kind: 'mcp', what: 'Tool lookup of the MCP server ledger', family: 'unknown', asks: true });
    expect(accessRow('pkg:invoices/extract_totals', manifest)).toMatchObject({ kind: 'pkg', family: 'read_personal', asks: true });
  });

  it('a read-only native tool runs unasked; a name the app does not know asks', () => {
    expect(accessRow('web_search', manifest)).toMatchObject({ kind: 'native', family: 'read', asks: false });
    expect(accessRow('teleport', manifest)).toMatchObject({ kind: 'unknown', family: 'unknown', asks: true });
  });
});
