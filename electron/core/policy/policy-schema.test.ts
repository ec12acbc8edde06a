/**
 * The policy file's schema is its document's type (TypeBox's `Static`), and what the core combines
 * from it is what every surface reads (`shared/policy/policy.ts`): the type checks fail `npm run typecheck`
 * when the two drift; the value checks fail here when the schema stops refusing what it must.
 */
import type { Static } from 'typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { AllowedPackage, EffectivePolicy, PolicyMcpServer } from '../../../shared/policy/policy';
import { validatePolicy } from '../generated/policy-validator';
import { MAX_POLICY_KEYS, MAX_POLICY_LIST } from './policy-format';
import { PolicyMcpServerSchema, AllowedPackageSchema } from '../../../shared/policy/policy-in-force-schema';
import { POLICY_SCHEMA, type PolicyDocument } from './policy-schema';

describe('policy file schema', () => {
  it('types the document as the schema admits it, and as the evaluated policy reads it', () => {
    expectTypeOf<Static<typeof AllowedPackageSchema>>().toEqualTypeOf<AllowedPackage>();
    expectTypeOf<Static<typeof PolicyMcpServerSchema>>().toEqualTypeOf<PolicyMcpServer>();
    expectTypeOf<NonNullable<PolicyDocument['allowedPackages']>>().toEqualTypeOf<
      NonNullable<EffectivePolicy['allowedPackages']>
    >();
    expectTypeOf<NonNullable<PolicyDocument['mcpServers']>>().toEqualTypeOf<EffectivePolicy['mcpServers']>();
    expectTypeOf<NonNullable<PolicyDocument['trustedPublishers']>>().toEqualTypeOf<
      EffectivePolicy['trustedPublishers']
    >();
    expectTypeOf<PolicyDocument['version']>().toEqualTypeOf<1>();
    expectTypeOf<NonNullable<PolicyDocument['requireSignature']>>().toEqualTypeOf<
      EffectivePolicy['requireSignature']
    >();
    expectTypeOf<NonNullable<PolicyDocument['triggers']>>().toEqualTypeOf<Partial<EffectivePolicy['triggers']>>();
    expectTypeOf<NonNullable<PolicyDocument['blockedActionFamilies']>>().toEqualTypeOf<
      EffectivePolicy['blockedActionFamilies']
    >();
    expectTypeOf<NonNullable<PolicyDocument['templates']>>().toEqualTypeOf<EffectivePolicy['templates']>();
  });

  it('names every key the evaluated policy has, and only those', () => {
    const effective: Record<keyof EffectivePolicy, true> = {
      organization: true,
      trustedPublishers: true,
      requireSignature: true,
      allowUserTrustedKeys: true,
      allowedPackages: true,
      blockedActionFamilies: true,
      blockedTools: true,
      templates: true,
      triggers: true,
      webhookPort: true,
      unattended: true,
      mcpServers: true,
      activityExport: true,
    };
    const keys = Object.keys(POLICY_SCHEMA.properties).filter((key) => key !== '$schema' && key !== 'version');
    expect(keys.sort()).toEqual(Object.keys(effective).sort());
  });

  it('caps its lists with the named limits, and refuses one past them', () => {
    const props = POLICY_SCHEMA.properties as unknown as Record<string, { maxItems?: number }>;
    expect(props.trustedPublishers?.maxItems).toBe(MAX_POLICY_KEYS);
    expect(props.mcpServers?.maxItems).toBe(MAX_POLICY_KEYS);
    expect(props.allowedPackages?.maxItems).toBe(MAX_POLICY_LIST);
    expect(props.blockedTools?.maxItems).toBe(MAX_POLICY_LIST);
    const tools = (count: number) => ({ version: 1, blockedTools: Array.from({ length: count }, (_, i) => `t${i}`) });
    expect(validatePolicy(tools(MAX_POLICY_LIST))).toBe(true);
    expect(validatePolicy(tools(MAX_POLICY_LIST + 1))).toBe(false);
    expect(validatePolicy({ version: 1, triggers: { webhook: false } })).toBe(true);
    expect(validatePolicy({ version: 1, triggers: { webhooks: false } })).toBe(false);
    expect(validatePolicy({ version: 2 })).toBe(false);
  });
});
