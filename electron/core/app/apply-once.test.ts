/**
 * An apply asked `once` (the CLI's, unless `--another`; DESIGN.md "Commit points": a rerun "says it is already done"):
 * a live agent already holding exactly what it would make is the answer, marked `alreadyApplied`, and nothing is
 * written; two such applies at once make one agent; without `once` (the app’s apply
 * screen) each request makes its agent; an agent whose files changed on disk is not the same.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testApi } from '../../../test/helpers/test-api';
import type { CoreApi } from '../api';

const MARKET_MONITOR = new URL('../../../resources/templates/market-monitor', import.meta.url).pathname;
const PARAMETERS = { companies: 'Acme', channel: 'C0123ABCD' };

/** The market-monitor template registered and previewed: the apply request's body, without its id. */
async function previewed(api: CoreApi) {
  const template = await api.registerSource(MARKET_MONITOR, 'dialog');
  if (!template.ok) throw new Error(template.error.message);
  const body = { sourceId: template.value.id, parameters: PARAMETERS, grants: [], arm: ['weekly'] };
  const preview = await api.previewApply({ sourceId: body.sourceId, parameters: PARAMETERS, grants: [] });
  if (!preview.ok) throw new Error(preview.error.message);
  return body;
}

function liveAgents(dataDir: string): string[] {
  const state = JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
  return Object.values(state.agents as Record<string, { id: string; archived: boolean }>)
    .filter((a) => !a.archived)
    .map((a) => a.id);
}

describe('apply once', () => {
  it('answers the agent already made, marked alreadyApplied, and writes nothing', async () => {
    const { api, dataDir } = testApi();
    const body = await previewed(api);
    const first = await api.apply({ ...body, requestId: 'r1', once: true });
    if (!first.ok) throw new Error(first.error.message);
    expect(first.value.alreadyApplied).toBeUndefined();
    const before = readFileSync(join(dataDir, 'state.json'), 'utf8');
    const again = await api.apply({ ...body, requestId: 'r2', once: true });
    if (!again.ok) throw new Error(again.error.message);
    expect([again.value.alreadyApplied, again.value.agentId]).toEqual([true, first.value.agentId]);
    expect(readFileSync(join(dataDir, 'state.json'), 'utf8')).toBe(before);
    // Other triggers armed: another apply.
    const unarmed = await api.apply({ ...body, arm: [], requestId: 'r3', once: true });
    expect(unarmed.ok && unarmed.value.alreadyApplied).toBeFalsy();
    expect(liveAgents(dataDir)).toHaveLength(2);
  });

  it('two applies at once, each asked once, make one agent', async () => {
    const { api, dataDir } = testApi();
    const body = await previewed(api);
    const [a, b] = await Promise.all([
      api.apply({ ...body, requestId: 'ra', once: true }),
      api.apply({ ...body, requestId: 'rb', once: true }),
    ]);
    if (!a.ok || !b.ok) throw new Error('an apply was refused');
    expect(a.value.agentId).toBe(b.value.agentId);
    expect([a.value.alreadyApplied, b.value.alreadyApplied].filter(Boolean)).toEqual([true]);
    expect(liveAgents(dataDir)).toEqual([a.value.agentId]);
  });

  it('without once each request makes its agent; an agent whose files changed is not the same', async () => {
    const { api, dataDir } = testApi();
    const body = await previewed(api);
    const first = await api.apply({ ...body, requestId: 'r1' });
    const second = await api.apply({ ...body, requestId: 'r2' });
    if (!first.ok || !second.ok) throw new Error('an apply was refused');
    expect(liveAgents(dataDir)).toHaveLength(2);

    const { api: other, dataDir: otherDir } = testApi();
    const otherBody = await previewed(other);
    const made = await other.apply({ ...otherBody, requestId: 'r1', once: true });
    if (!made.ok) throw new Error(made.error.message);
    writeFileSync(join(otherDir, 'agents', made.value.agentId, 'instructions.md'), 'changed by hand\n');
    const again = await other.apply({ ...otherBody, requestId: 'r2', once: true });
    expect(again.ok && again.value.alreadyApplied).toBeFalsy();
    expect(liveAgents(otherDir)).toHaveLength(2);
  });
});
