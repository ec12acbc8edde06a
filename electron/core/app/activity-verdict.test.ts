import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { tempDir, testApi } from '../../../test/helpers/test-api';
import { ActivityViewSchema } from '../../../shared/contract/replies-installed';
import { Value } from 'typebox/value';

async function installInvoices(api: ReturnType<typeof testApi>['api']): Promise<void> {
  const path = join(tempDir('apollia-apo-'), 'invoices.apo');
  writeFileSync(path, packFolder(INVOICES_DIR));
  const handle = await api.registerSource(path, 'open-file');
  if (!handle.ok) throw new Error(handle.error.message);
  const shown = await api.inspect({ sourceId: handle.value.id });
  if (!shown.ok) throw new Error(shown.error.message);
  await api.install({ sourceId: handle.value.id, decisions: { agents: {}, triggers: {} } });
}

describe('the Activity view carries the record’s verdict (DESIGN.md: the dashboard shows it)', () => {
  it('one line when intact; the kind of break when the record was cut or deleted', async () => {
    const { api, dataDir } = testApi();
    await installInvoices(api);
    // The same again is refused, and recorded: two decisions.
    await installInvoices(api);
    const intact = await api.activity();
    if (!intact.ok) throw new Error(intact.error.message);
    expect(Value.Check(ActivityViewSchema, intact.value)).toBe(true);
    expect(intact.value.verdict).toMatchObject({ intact: true, breakKind: null, recordedBreaks: 0 });
    expect(intact.value.verdict.summary).toMatch(
      /^intact: \d+ decisions from the first \(\d{4}-\d\d-\d\d \d\d:\d\d\) to the last \(\d{4}-\d\d-\d\d \d\d:\d\d\), head as committed$/,
    );
    const decisions = join(dataDir, 'activity', 'decisions.jsonl');
    const lines = readFileSync(decisions, 'utf8').split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    // The last change's line is put back from the state's outbox (the commit carries it); one more is gone for good.
    writeFileSync(decisions, `${lines.slice(0, -2).join('\n')}\n`);
    const cut = await api.activity();
    expect(cut.ok && cut.value.verdict).toMatchObject({ intact: false, breakKind: 'cut' });
    expect(cut.ok && cut.value.verdict.summary).toMatch(/^decisions: BROKEN \(lines are missing at the end\)/);
    rmSync(join(dataDir, 'activity'), { recursive: true });
    // Sealed once when the key was made; the store commits the decisions' head, the host's journal traffic's.
    rmSync(join(dataDir, 'activity-head.json'), { force: true });
    rmSync(join(dataDir, 'record.key'));
    // Even without the key, a store holding packages says the record was kept: it was deleted.
    const deleted = await api.activity();
    expect(deleted.ok && deleted.value.verdict).toMatchObject({ intact: false, breakKind: 'deleted' });
  });
});
