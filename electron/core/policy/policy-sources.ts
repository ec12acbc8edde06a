/**
 * The sources' order and who wins (DESIGN.md "Managed policy"), in one function for every system: the machine's
 * sources decide, a person's source only adds restrictions.
 *
 * - Every source is read into the same flat keys ({@link PolicyKeys}): a version-1 file's `mcpServers` list is
 *   `mcpServers.provided` and its `activityExport` path is `activityExport.file`.
 * - The deciding sources (`machine`: Windows' `HKLM` key then the machine file; macOS' managed preferences then the
 *   machine file; Linux' file) in that order: the first that sets a key decides it.
 * - The restricting sources (`user`: `HKCU` or the per-user managed preferences; `env`: `APOLLIA_POLICY_FILE`) then
 *   only add restrictions: while a deciding source exists they supply no granting key ({@link GRANTING_KEYS}), name,
 *   port or export, and every key that restricts combines, the stricter winning. With no deciding source the first
 *   restricting source is the whole policy (a trial policy) and the others restrict it.
 */
import type { ActionFamily } from '../../../shared/manifests/apollia-manifest';
import {
  type EffectivePolicy,
  NO_POLICY,
  type PolicySource,
  POLICY_TRIGGER_KINDS,
} from '../../../shared/policy/policy';
import type { AnyPolicyDocument } from './policy-schema';

/** A policy source's keys, flattened: each is one rule a source sets, and what `origin` names. */
export interface PolicyKeys {
  organization?: string;
  trustedPublishers?: EffectivePolicy['trustedPublishers'];
  requireSignature?: EffectivePolicy['requireSignature'];
  allowUserTrustedKeys?: boolean;
  allowedPackages?: NonNullable<EffectivePolicy['allowedPackages']>;
  blockedActionFamilies?: ActionFamily[];
  blockedTools?: string[];
  templates?: EffectivePolicy['templates'];
  triggers?: Partial<EffectivePolicy['triggers']>;
  webhookPort?: number;
  unattended?: boolean;
  'mcpServers.provided'?: EffectivePolicy['mcpServers'];
  'mcpServers.allowed'?: EffectivePolicy['mcpServersDenied'];
  'mcpServers.denied'?: EffectivePolicy['mcpServersDenied'];
  toolRules?: EffectivePolicy['toolRules'];
  installSources?: EffectivePolicy['installSources'];
  'feeds.allowed'?: string[];
  updates?: EffectivePolicy['updates'];
  'activityExport.file'?: string;
  'activityExport.otlp'?: string;
}

/** The key of the policy in force each source key sets (what `policy` prints beside the sources it came from). */
export const EFFECTIVE_KEY: Record<keyof PolicyKeys, keyof EffectivePolicy> = {
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
  'mcpServers.provided': 'mcpServers',
  'mcpServers.allowed': 'mcpServersAllowed',
  'mcpServers.denied': 'mcpServersDenied',
  toolRules: 'toolRules',
  installSources: 'installSources',
  'feeds.allowed': 'feedsAllowed',
  updates: 'updates',
  'activityExport.file': 'activityExport',
  'activityExport.otlp': 'activityExportOtlp',
};

/** Keys that allow something (or name who decides): a restricting source never supplies them beside a machine one. */
export const GRANTING_KEYS = [
  'trustedPublishers',
  'allowedPackages',
  'mcpServers.provided',
  'webhookPort',
  'allowUserTrustedKeys',
  'organization',
  'activityExport.file',
  'activityExport.otlp',
] as const satisfies readonly (keyof PolicyKeys)[];

/** One source read and validated. */
export interface ReadSource {
  role: PolicySource['role'];
  path: string;
  keys: PolicyKeys;
}

/** A validated document of either version as its flat keys (absent keys left out). */
export function documentKeys(doc: AnyPolicyDocument): PolicyKeys {
  const { $schema: _schema, version: _version, mcpServers, activityExport, ...same } = doc;
  const keys: PolicyKeys = { ...same } as PolicyKeys;
  if ('feeds' in same) {
    delete (keys as Record<string, unknown>).feeds;
    if (same.feeds?.allowed !== undefined) keys['feeds.allowed'] = same.feeds.allowed;
  }
  if (Array.isArray(mcpServers)) keys['mcpServers.provided'] = mcpServers;
  else if (mcpServers !== undefined) {
    if (mcpServers.provided !== undefined) keys['mcpServers.provided'] = mcpServers.provided;
    if (mcpServers.allowed !== undefined) keys['mcpServers.allowed'] = mcpServers.allowed;
    if (mcpServers.denied !== undefined) keys['mcpServers.denied'] = mcpServers.denied;
  }
  if (typeof activityExport === 'string') keys['activityExport.file'] = activityExport;
  else if (activityExport?.file !== undefined) keys['activityExport.file'] = activityExport.file;
  else if (activityExport?.otlp !== undefined) keys['activityExport.otlp'] = activityExport.otlp;
  return keys;
}

/** The policy of one set of keys alone: every key it sets, the others at their permissive defaults. */
export function keysAlone(k: PolicyKeys): EffectivePolicy {
  return {
    organization: k.organization ?? null,
    trustedPublishers: k.trustedPublishers ?? [],
    requireSignature: k.requireSignature ?? NO_POLICY.requireSignature,
    allowUserTrustedKeys: k.allowUserTrustedKeys ?? NO_POLICY.allowUserTrustedKeys,
    allowedPackages: k.allowedPackages ?? null,
    blockedActionFamilies: [...new Set(k.blockedActionFamilies ?? [])],
    blockedTools: [...new Set(k.blockedTools ?? [])],
    templates: k.templates ?? NO_POLICY.templates,
    triggers: { ...NO_POLICY.triggers, ...k.triggers },
    webhookPort: k.webhookPort ?? null,
    unattended: k.unattended ?? NO_POLICY.unattended,
    mcpServers: k['mcpServers.provided'] ?? [],
    activityExport: k['activityExport.file'] ?? null,
    activityExportOtlp: k['activityExport.otlp'] ?? null,
    mcpServersAllowed: k['mcpServers.allowed'] ? [k['mcpServers.allowed']] : [],
    mcpServersDenied: k['mcpServers.denied'] ?? [],
    toolRules: k.toolRules ?? [],
    installSources: k.installSources ?? NO_POLICY.installSources,
    feedsAllowed: k['feeds.allowed'] ? [k['feeds.allowed']] : [],
    updates: k.updates ?? NO_POLICY.updates,
  };
}

const SIGNATURE_ORDER = ['none', 'any', 'trusted'] as const;
const TEMPLATE_ORDER = ['any', 'builtin', 'none'] as const;
const SOURCE_ORDER = ['any', 'feeds'] as const;
const stricter = <T extends string>(order: readonly T[], a: T, b: T): T =>
  order.indexOf(a) >= order.indexOf(b) ? a : b;
const union = <T>(a: readonly T[], b: readonly T[]): T[] => [...new Set([...a, ...b])];

/**
 * `base` with `extra`'s restrictions added: granting keys stay the base's; restricting keys combine, the stricter
 * winning; an allowlist `extra` sets is one more list a server or feed must be on; `updates` is the base's unless the
 * base leaves it to the person.
 */
export function restrictWith(base: EffectivePolicy, extra: EffectivePolicy): EffectivePolicy {
  return {
    ...base,
    requireSignature: stricter(SIGNATURE_ORDER, base.requireSignature, extra.requireSignature),
    allowUserTrustedKeys: base.allowUserTrustedKeys && extra.allowUserTrustedKeys,
    blockedActionFamilies: union(base.blockedActionFamilies, extra.blockedActionFamilies),
    blockedTools: union(base.blockedTools, extra.blockedTools),
    templates: stricter(TEMPLATE_ORDER, base.templates, extra.templates),
    triggers: Object.fromEntries(
      POLICY_TRIGGER_KINDS.map((kind) => [kind, base.triggers[kind] && extra.triggers[kind]]),
    ) as EffectivePolicy['triggers'],
    unattended: base.unattended && extra.unattended,
    mcpServersAllowed: [...base.mcpServersAllowed, ...extra.mcpServersAllowed],
    mcpServersDenied: union(base.mcpServersDenied, extra.mcpServersDenied),
    toolRules: union(base.toolRules, extra.toolRules),
    installSources: stricter(SOURCE_ORDER, base.installSources, extra.installSources),
    feedsAllowed: [...base.feedsAllowed, ...extra.feedsAllowed],
    updates: base.updates === 'person' ? extra.updates : base.updates,
  };
}

/** Whether a restricting source's key counts beside a deciding one: granting keys do not, but `false` for keys does. */
function restrictingKeyCounts(key: keyof PolicyKeys, keys: PolicyKeys): boolean {
  if (key === 'allowUserTrustedKeys') return keys.allowUserTrustedKeys === false;
  if (key === 'updates') return keys.updates !== 'person';
  return !(GRANTING_KEYS as readonly string[]).includes(key);
}

/**
 * The policy in force from every source read (in the order each system reads them) and, for each key in force, the
 * sources it came from: the one function that says the order between sources and who wins.
 */
export function combineSources(read: readonly ReadSource[]): {
  effective: EffectivePolicy | null;
  origin: Record<string, string[]>;
} {
  const deciding = read.filter((s) => s.role === 'machine');
  const restricting = read.filter((s) => s.role !== 'machine');
  const origin: Record<string, string[]> = {};
  const from = (key: string, path: string) => {
    if (!Object.hasOwn(origin, key)) origin[key] = [];
    if (!origin[key]?.includes(path)) origin[key]?.push(path);
  };
  // The deciding sources: the first that sets a key decides it. With none, the first restricting one decides.
  const deciders = deciding.length > 0 ? deciding : restricting.slice(0, 1);
  const rest = deciding.length > 0 ? restricting : restricting.slice(1);
  if (deciders.length === 0) return { effective: null, origin };
  const decided: Record<string, unknown> = {};
  const keyUpdates = { updates: false };
  for (const source of deciders)
    for (const [key, value] of Object.entries(source.keys)) {
      if (value === undefined || Object.hasOwn(decided, key)) continue;
      decided[key] = value;
      from(key, source.path);
      if (key === 'updates') keyUpdates.updates = value !== 'person';
    }
  let effective = keysAlone(decided as PolicyKeys);
  for (const source of rest) {
    effective = restrictWith(effective, keysAlone(source.keys));
    for (const key of Object.keys(source.keys) as (keyof PolicyKeys)[])
      if (restrictingKeyCounts(key, source.keys) && !(key === 'updates' && keyUpdates.updates)) from(key, source.path);
  }
  return { effective, origin };
}
