/**
 * The policy files read, validated and combined into the one policy in force (DESIGN.md "Managed
 * policy"). Pure over the files' texts: `read-policy.ts` finds and reads them.
 *
 * - Each file is strict JSON (a duplicate key refused), validated by the app's schema
 *   (`policy-schema.ts`, unknown keys refused); any problem makes the whole policy unreadable,
 *   and an unreadable policy fails closed (the callers refuse what it would have to allow).
 * - Both files apply; the second (`APOLLIA_POLICY_FILE`) only adds restrictions: where both
 *   exist, the keys that grant come from the machine file only ({@link GRANTING_KEYS}), and the
 *   keys that restrict combine, the stricter winning. A file alone is the policy.
 */
import type { ActionFamily } from '../../../shared/manifests/apollia-manifest';
import {
  type EffectivePolicy,
  NO_POLICY,
  type PolicySource,
  type PolicyView,
  POLICY_TRIGGER_KINDS,
} from '../../../shared/policy/policy';
import { validatePolicy } from '../generated/policy-validator';
import type { PolicyDocument } from './policy-schema';
import { readStrictJson } from '../plugin/strict-json';
import { parsePublicKey } from '../trust/minisign';

export type { PolicyDocument } from './policy-schema';

/** Keys that allow something: taken from the machine file only when both files exist. */
export const GRANTING_KEYS = [
  'trustedPublishers',
  'allowedPackages',
  'mcpServers',
  'webhookPort',
  'allowUserTrustedKeys',
] as const;

/** One policy file's text as read (null: it does not exist). */
export interface PolicyFileText {
  role: PolicySource['role'];
  path: string;
  text: string | null;
  /** Why it could not be read (permissions, too large, a folder), when it could not. */
  readProblem?: string;
}

/** The problems of one file's text, or its document. */
export function parsePolicyFile(text: string): { ok: true; document: PolicyDocument } | { ok: false; problem: string } {
  const json = readStrictJson(text);
  if (!json.ok)
    return {
      ok: false,
      problem: `it is not valid JSON: ${json.error.message} (line ${json.error.line}, column ${json.error.column})`,
    };
  if (!validatePolicy(json.value)) {
    const problems = (validatePolicy.errors ?? []).slice(0, 5).map((error) => {
      const where = error.instancePath ? `\`${error.instancePath.slice(1).replaceAll('/', '.')}\`` : 'the policy';
      if (error.keyword === 'additionalProperties')
        return `${where} has the unknown key \`${String((error.params as { additionalProperty?: string }).additionalProperty)}\``;
      if (error.keyword === 'enum')
        return `${where} must be one of ${((error.params as { allowedValues?: unknown[] }).allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
      return `${where} ${error.message ?? 'is invalid'}`;
    });
    return { ok: false, problem: [...new Set(problems)].join('; ') };
  }
  const document = json.value as unknown as PolicyDocument;
  for (const [i, entry] of [
    ...(document.trustedPublishers ?? []),
    ...(document.allowedPackages ?? []).filter((p): p is { name: string; key: string } => 'key' in p),
  ].entries()) {
    const key = parsePublicKey(entry.key);
    if (!key.ok)
      return {
        ok: false,
        problem: `the key of \`${entry.name}\` (entry ${i + 1}) is not a minisign public key: ${key.error.message}`,
      };
  }
  return { ok: true, document };
}

const SIGNATURE_ORDER = ['none', 'any', 'trusted'] as const;
const TEMPLATE_ORDER = ['any', 'builtin', 'none'] as const;
const stricter = <T extends string>(order: readonly T[], a: T, b: T): T =>
  order.indexOf(a) >= order.indexOf(b) ? a : b;

/** The policy of one file alone: every key it sets, the others at their defaults. */
function alone(doc: PolicyDocument): EffectivePolicy {
  return {
    organization: doc.organization ?? null,
    trustedPublishers: doc.trustedPublishers ?? [],
    requireSignature: doc.requireSignature ?? NO_POLICY.requireSignature,
    allowUserTrustedKeys: doc.allowUserTrustedKeys ?? NO_POLICY.allowUserTrustedKeys,
    allowedPackages: doc.allowedPackages ?? null,
    blockedActionFamilies: [...new Set(doc.blockedActionFamilies ?? [])],
    blockedTools: [...new Set(doc.blockedTools ?? [])],
    templates: doc.templates ?? NO_POLICY.templates,
    triggers: { ...NO_POLICY.triggers, ...doc.triggers },
    webhookPort: doc.webhookPort ?? null,
    unattended: doc.unattended ?? NO_POLICY.unattended,
    mcpServers: doc.mcpServers ?? [],
    activityExport: doc.activityExport ?? null,
  };
}

/**
 * Combines the machine file with the second file: the second only adds restrictions. Granting
 * keys are the machine's; restricting keys combine, the stricter winning; the organization's name
 * and the export are the machine's alone (DESIGN.md "Managed policy": the person's file never
 * supplies them while a machine source exists).
 */
export function combinePolicies(machine: PolicyDocument, extra: PolicyDocument): EffectivePolicy {
  const m = alone(machine);
  const e = alone(extra);
  return {
    // The organization's name and its export are the machine's alone: the person's file never names or redirects them.
    organization: m.organization,
    trustedPublishers: m.trustedPublishers,
    requireSignature: stricter(SIGNATURE_ORDER, m.requireSignature, e.requireSignature),
    allowUserTrustedKeys: m.allowUserTrustedKeys && e.allowUserTrustedKeys,
    allowedPackages: m.allowedPackages,
    blockedActionFamilies: [...new Set<ActionFamily>([...m.blockedActionFamilies, ...e.blockedActionFamilies])],
    blockedTools: [...new Set([...m.blockedTools, ...e.blockedTools])],
    templates: stricter(TEMPLATE_ORDER, m.templates, e.templates),
    triggers: Object.fromEntries(
      POLICY_TRIGGER_KINDS.map((kind) => [kind, m.triggers[kind] && e.triggers[kind]]),
    ) as EffectivePolicy['triggers'],
    webhookPort: m.webhookPort,
    unattended: m.unattended && e.unattended,
    mcpServers: m.mcpServers,
    activityExport: m.activityExport,
  };
}

/**
 * Which file each key in force came from: a granting key from the machine file only, a restricting key from every file
 * that sets it.
 */
function originOf(
  files: { path: string; role: PolicySource['role']; document: PolicyDocument }[],
): Record<string, string[]> {
  const origin: Record<string, string[]> = {};
  const both = files.length > 1;
  for (const { path, role, document } of files) {
    for (const key of Object.keys(document)) {
      if (key === 'version' || key === '$schema') continue;
      if (both && role !== 'machine' && (GRANTING_KEYS as readonly string[]).includes(key)) {
        // `allowUserTrustedKeys: false` restricts: it counts from either file.
        if (!(key === 'allowUserTrustedKeys' && document.allowUserTrustedKeys === false)) continue;
      }
      if (both && role !== 'machine' && (key === 'organization' || key === 'activityExport')) continue;
      if (!Object.hasOwn(origin, key)) origin[key] = [];
      origin[key]?.push(path);
    }
  }
  return origin;
}

/** The policy in force from the files' texts (machine first): none, applied, or unreadable. */
export function evaluatePolicy(files: readonly PolicyFileText[]): PolicyView {
  const sources: PolicySource[] = [];
  const read: { path: string; role: PolicySource['role']; document: PolicyDocument }[] = [];
  let problem: PolicyView['problem'] = null;
  for (const file of files) {
    if (file.text === null) {
      // A missing machine file is no policy; a missing file the variable names is a policy that cannot be read.
      const missing =
        file.readProblem ?? (file.role === 'env' ? 'the file APOLLIA_POLICY_FILE names does not exist' : null);
      sources.push({ role: file.role, path: file.path, state: missing ? 'invalid' : 'absent', problem: missing });
      if (missing && !problem) problem = { path: file.path, message: missing };
      continue;
    }
    const parsed = parsePolicyFile(file.text);
    if (!parsed.ok) {
      sources.push({ role: file.role, path: file.path, state: 'invalid', problem: parsed.problem });
      if (!problem) problem = { path: file.path, message: parsed.problem };
      continue;
    }
    sources.push({ role: file.role, path: file.path, state: 'read', problem: null });
    read.push({ path: file.path, role: file.role, document: parsed.document });
  }
  if (problem) return { state: 'unreadable', effective: null, sources, origin: {}, problem };
  const [first, second] = read;
  if (!first) return { state: 'none', effective: null, sources, origin: {}, problem: null };
  const effective = second ? combinePolicies(first.document, second.document) : alone(first.document);
  return { state: 'applied', effective, sources, origin: originOf(read), problem: null };
}
