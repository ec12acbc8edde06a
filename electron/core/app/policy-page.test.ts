/**
 * The policy page: who sets the policy and from where (a trial policy from APOLLIA_POLICY_FILE said
 * so), each rule with its source, and what it changes here now, from the same evaluation every door makes: a package
 * the policy refuses withheld whole, a trigger kind it does not allow paused, a tool the person let run unasked made
 * to ask.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { tempDir, testApi } from '../../../test/helpers/test-api';
import { sharedChecker } from '../bounded/index';

beforeAll(() => sharedChecker().warm(), 120_000);

async function invoicesArmed(policy: object) {
  const policyPath = join(tempDir('apollia-policy-page-'), 'policy.json');
  writeFileSync(policyPath, JSON.stringify({ version: 1 }));
  const { api } = testApi({ policy: { machine: null, env: policyPath } });
  const apo = join(tempDir('apollia-policy-page-apo-'), 'invoices.apo');
  writeFileSync(apo, packFolder(INVOICES_DIR));
  const handle = await api.registerSource(apo, 'open-file');
  if (!handle.ok) throw new Error(handle.error.message);
  await api.inspect({ sourceId: handle.value.id });
  const done = await api.install({
    sourceId: handle.value.id,
    decisions: { agents: {}, triggers: { 'first-monday': { armed: true } } } as never,
  });
  if (!done.ok) throw new Error(done.error.message);
  writeFileSync(policyPath, JSON.stringify(policy));
  return { api, policyPath };
}

describe('the policy page', () => {
  it('a trial policy: said so, each rule in words from its file, and what it changes here', async () => {
    const { api, policyPath } = await invoicesArmed({
      version: 1,
      organization: 'Example Corp',
      triggers: { schedule: false },
      blockedTools: ['mcp:*/lookup'],
    });
    const page = await api.policyPage();
    if (!page.ok) throw new Error(page.error.message);
    expect(page.value.trial).toBe(true);
    expect(page.value.heading).toBe(
      'A trial policy (Example Corp), from your own file (APOLLIA_POLICY_FILE), not from your organization',
    );
    expect(page.value.sources).toContain(
      `your own file, named by APOLLIA_POLICY_FILE (a trial policy: it only adds restrictions): ${policyPath} (read)`,
    );
    expect(page.value.rules).toContainEqual({
      key: 'triggers',
      words: 'Triggers it does not allow: schedule',
      from: [policyPath],
    });
    expect(page.value.effects.map((e) => [e.kind, e.what, e.code])).toEqual([
      ['tool', expect.stringContaining('mcp:ledger/lookup of Invoice clerk is withheld'), 'policy.blocked_tool'],
      [
        'trigger',
        'The trigger invoices/first-monday is paused: still armed, its folder and secret kept',
        'policy.trigger_kind',
      ],
    ]);
  });

  it('a package the policy now refuses is withheld whole, each violation named; no policy: nothing', async () => {
    const { api, policyPath } = await invoicesArmed({ version: 1, requireSignature: 'trusted' });
    const page = await api.policyPage();
    if (!page.ok) throw new Error(page.error.message);
    expect(page.value.effects).toEqual([
      expect.objectContaining({ kind: 'package', subject: 'invoices', code: 'policy.untrusted_signature' }),
    ]);
    expect(page.value.effects[0]?.why).toContain('invoices is not signed');
    writeFileSync(policyPath, '{ nope');
    const broken = await api.policyPage();
    expect(broken.ok && [broken.value.policy.state, broken.value.heading]).toEqual([
      'unreadable',
      "Your organization's policy cannot be used",
    ]);
    expect(broken.ok && broken.value.effects.map((e) => e.code)).toEqual(['policy.unreadable']);
  });

  it('with no policy, the page says so and lists nothing', async () => {
    const { api } = testApi({ policy: { machine: null, env: null } });
    const page = await api.policyPage();
    expect(page.ok && [page.value.policy.state, page.value.trial, page.value.rules, page.value.effects]).toEqual([
      'none',
      false,
      [],
      [],
    ]);
  });
});
