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
import { POLICY_SCHEMA, POLICY_V2_SCHEMA, type PolicyDocument } from './policy-schema';

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

  it('names every key the evaluated policy has, and only those (each from the file key it is read from)', () => {
    const effective: Record<keyof EffectivePolicy, string> = {
      organization: 'organization',
      trustedPublishers: 'trustedPublishers',
      requireSignature: 'requireSignature',
      allowUserTrustedKeys: 'allowUserTrustedKeys',
      allowedPackages: 'allowedPackages',
      blockedActionFamilies: 'blockedActionFamilies',
      blockedTools: 'blockedTools',
      templates: 'templates',
      triggers: 'triggers',
      webhookPort: 'webhookPort',
      unattended: 'unattended',
      mcpServers: 'mcpServers.provided',
      activityExport: 'activityExport.file',
      activityExportOtlp: 'activityExport.otlp',
      mcpServersAllowed: 'mcpServers.allowed',
      mcpServersDenied: 'mcpServers.denied',
      toolRules: 'toolRules',
      installSources: 'installSources',
      feedsAllowed: 'feeds.allowed',
      updates: 'updates',
    };
    const props = POLICY_V2_SCHEMA.properties as unknown as Record<string, { properties?: Record<string, unknown> }>;
    const keys = Object.keys(props)
      .filter((key) => key !== '$schema' && key !== 'version')
      .flatMap((key) => {
        const nested = props[key]?.properties;
        return nested && key !== 'triggers' ? Object.keys(nested).map((sub) => `${key}.${sub}`) : [key];
      });
    expect(keys.sort()).toEqual(Object.values(effective).sort());
    // Version 1's keys are version 2's, its list of servers and its export path being what version 2 nests.
    const v1 = Object.keys(POLICY_SCHEMA.properties).filter((key) => key !== '$schema' && key !== 'version');
    expect(v1.every((key) => Object.hasOwn(props, key))).toBe(true);
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
