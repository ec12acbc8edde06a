import { describe, expect, it } from 'vitest';
import type { PolicyView } from './policy-in-force-schema';
import { NO_POLICY } from './policy';
import { adminRequestText, policyHeading, policyIsTrial, policyRuleOf, policyRuleWords } from './policy-words';

const applied = (sources: PolicyView['sources'], organization: string | null = null): PolicyView => ({
  state: 'applied',
  effective: { ...NO_POLICY, organization },
  sources,
  origin: {},
  problem: null,
});
const machine = { role: 'machine', path: '/etc/apollia-desktop/policy.json', state: 'read', problem: null } as const;
const env = { role: 'env', path: '/home/me/try.json', state: 'read', problem: null } as const;
const absentMachine = { ...machine, state: 'absent' } as const;

describe('who sets the policy', () => {
  it('a policy from APOLLIA_POLICY_FILE alone is a trial, said so; beside a machine source it is not', () => {
    expect(policyIsTrial(applied([absentMachine, env]))).toBe(true);
    expect(policyHeading(applied([absentMachine, env], 'Example Corp'))).toBe(
      'A trial policy (Example Corp), from your own file (APOLLIA_POLICY_FILE), not from your organization',
    );
    expect(policyIsTrial(applied([machine, env]))).toBe(false);
    expect(policyHeading(applied([machine, env], 'Example Corp'))).toBe('Managed by Example Corp');
    expect(policyIsTrial({ ...applied([env]), state: 'none' })).toBe(false);
  });
});

describe('the rules in words, and a request for the administrator', () => {
  it('says each rule plainly', () => {
    expect(policyRuleWords('unattended', { ...NO_POLICY, unattended: false })).toBe(
      'No tool may run without asking: every tool asks you first',
    );
    expect(policyRuleWords('triggers', { ...NO_POLICY, triggers: { ...NO_POLICY.triggers, file_watch: false } })).toBe(
      'Triggers it does not allow: file watch',
    );
    expect(policyRuleWords('requireSignature', { ...NO_POLICY, requireSignature: 'trusted' })).toBe(
      'A package must be signed by a key trusted here',
    );
  });

  it('names the package, what was refused and the rule', () => {
    expect(policyRuleOf('policy.blocked_family')).toBe('blockedActionFamilies');
    expect(policyRuleOf('install.cannot_allow')).toBeNull();
    const text = adminRequestText({
      code: 'policy.untrusted_signature',
      refused: 'invoices is not signed by a key your organization trusts',
      subject: 'invoices',
      organization: 'Example Corp',
    });
    expect(text).toContain('To the administrator of Apollia Desktop at Example Corp:');
    expect(text).toContain('About: invoices\n');
    expect(text).toContain('What was refused: invoices is not signed by a key your organization trusts\n');
    expect(text).toContain('The rule: requireSignature (refusal code policy.untrusted_signature)');
  });
});
