import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { tempDir, testApi, treeHash } from '../../../test/helpers/test-api';

const CODE_REVIEW = new URL('../../../resources/templates/code-review', import.meta.url).pathname;

function invoicesApo(): string {
  const path = join(tempDir('apollia-apo-'), 'invoices.apo');
  writeFileSync(path, packFolder(INVOICES_DIR));
  return path;
}

const decisions = { agents: { 'invoice-clerk': { access: { file_read: true } } }, triggers: {} };

describe('an app started without the sandbox (--no-sandbox)', () => {
  it('tells the renderer, so every screen can say so', async () => {
    const off = testApi({ sandboxOff: true, cliProgram: null });
    expect(await off.api.appInfo()).toMatchObject({ ok: true, value: { sandboxOff: true, cliProgram: null } });
    const on = testApi();
    expect(await on.api.appInfo()).toMatchObject({
      ok: true,
      value: { sandboxOff: false, cliProgram: 'apollia-desktop' },
    });
  });

  it('still inspects, but refuses to install or apply, and changes nothing on disk', async () => {
    const { api, dataDir } = testApi({ sandboxOff: true });
    const apo = await api.registerSource(invoicesApo(), 'open-file');
    if (!apo.ok) throw new Error(apo.error.message);
    const inspected = await api.inspect({ sourceId: apo.value.id });
    expect(inspected.ok).toBe(true);
    const before = treeHash(dataDir);
    const installed = await api.install({ sourceId: apo.value.id, decisions });
    expect(installed).toMatchObject({ ok: false, error: { code: 'app.sandbox_off' } });
    expect(installed.ok ? '' : installed.error.message).toContain('--no-sandbox');
    const template = await api.registerSource(CODE_REVIEW, 'dialog');
    if (!template.ok) throw new Error(template.error.message);
    const applied = await api.apply({ sourceId: template.value.id, parameters: {}, grants: [], requestId: 'r1' });
    expect(applied).toMatchObject({ ok: false, error: { code: 'app.sandbox_off' } });
    expect(treeHash(dataDir)).toBe(before);
  });

  it('installs once started properly (the same data folder)', async () => {
    const dataDir = tempDir();
    const path = invoicesApo();
    const off = testApi({ dataDir, sandboxOff: true });
    const first = await off.api.registerSource(path, 'open-file');
    if (!first.ok) throw new Error(first.error.message);
    await off.api.inspect({ sourceId: first.value.id });
    expect((await off.api.install({ sourceId: first.value.id, decisions })).ok).toBe(false);
    const on = testApi({ dataDir });
    const again = await on.api.registerSource(path, 'open-file');
    if (!again.ok) throw new Error(again.error.message);
    await on.api.inspect({ sourceId: again.value.id });
    expect(await on.api.install({ sourceId: again.value.id, decisions })).toMatchObject({
      ok: true,
      value: { outcome: 'installed' },
    });
  });
});
