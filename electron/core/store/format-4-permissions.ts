/**
 * The store's step from format 3 to 4 (the one decision model): each package agent's access entry
 * gets its `permission`, decided once and kept from then on.
 */
import { ownRecord } from '../../../shared/base/own-data';
import { isObject } from './migration-values';

/**
 * Format 3 → 4: each package agent's access entry gets the `permission` format 3 derived from its
 * family on every read, under the rule of `shared/decisions/decisions.ts`: a granted entry runs without
 * asking only when it is a native tool that only reads, or a package's own tool declaring `read`
 * in a package whose stored signature was verified by a key the person trusted; every other grant
 * asks first (a package's own code is its author's word). A tightening, never a widening.
 */
export function migrateFrom3(value: unknown): unknown {
  if (!isObject(value) || value.version !== 3 || !isObject(value.agents)) return value;
  const trust = isObject(value.packageTrust) ? value.packageTrust : {};
  const agents = Object.entries(value.agents).map(([id, agent]) => {
    if (!isObject(agent) || agent.origin !== 'package' || !Array.isArray(agent.access)) return [id, agent] as const;
    const pkg = typeof agent.packageName === 'string' ? agent.packageName : '';
    const record = Object.hasOwn(trust, pkg) ? trust[pkg] : undefined;
    const verified = isObject(record) && isObject(record.signature) && record.signature.state === 'verified';
    const access = agent.access.map((a: unknown) => {
      if (!isObject(a) || Object.hasOwn(a, 'permission')) return a;
      const entry = typeof a.entry === 'string' ? a.entry : '';
      const ownCode = entry.startsWith(`pkg:${pkg}/`) || entry.startsWith(`workflow:${pkg}/`);
      const reads = a.family === 'read' && (ownCode ? verified : !entry.includes(':'));
      return { ...a, permission: a.granted !== true ? 'deny' : reads ? 'allow' : 'ask' };
    });
    return [id, { ...agent, access }] as const;
  });
  return { ...value, agents: ownRecord(agents), version: 4 };
}
