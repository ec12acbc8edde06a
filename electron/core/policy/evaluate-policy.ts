/**
 * The policy sources read, validated and combined into the one policy in force (DESIGN.md "Managed
 * policy"). Pure over what was read: `read-policy.ts` finds and reads the files, `registry-policy.ts`
 * and `plist-policy.ts` the registry and managed preferences.
 *
 * - A file is strict JSON (a duplicate key refused); a registry key or a plist arrives as a value. Each is
 *   validated by the schema of its `version` (`policy-schema.ts`, unknown keys refused); any problem makes
 *   the whole policy unreadable, and an unreadable policy fails closed (the callers refuse what it would
 *   have to allow), naming the source and the key.
 * - The sources combine in `policy-sources.ts` (`combineSources`): the machine's decide, a person's only
 *   adds restrictions.
 */
import type { PolicySource, PolicyView, EffectivePolicy } from '../../../shared/policy/policy';
import { validatePolicy, validatePolicyV2 } from '../generated/policy-validator';
import type { AnyPolicyDocument, PolicyDocument } from './policy-schema';
import { readStrictJson } from '../plugin/strict-json';
import { parsePublicKey } from '../trust/minisign';
import { POLICY_VERSIONS } from './policy-format';
import { combineSources, keysAlone, documentKeys, type ReadSource, restrictWith } from './policy-sources';

export type { PolicyDocument } from './policy-schema';
export { GRANTING_KEYS } from './policy-sources';

/** One policy file's text as read (null: it does not exist). */
export interface PolicyFileText {
  role: PolicySource['role'];
  path: string;
  text: string | null;
  /** Why it could not be read (permissions, too large, a folder), when it could not. */
  readProblem?: string;
}

/** One policy source read as a value (a registry key's values, a plist's dictionary); null: it does not exist. */
export interface PolicyValueSource {
  role: PolicySource['role'];
  path: string;
  value: unknown;
  /** Why it could not be read, when it could not (it then fails closed). */
  readProblem?: string;
}

type Parsed = { ok: true; document: AnyPolicyDocument } | { ok: false; problem: string };

/** The problems of a validator's run, each naming its key, as one sentence. */
function schemaProblems(errors: NonNullable<typeof validatePolicy.errors>): string {
  const problems = errors.slice(0, 5).map((error) => {
    const where = error.instancePath ? `\`${error.instancePath.slice(1).replaceAll('/', '.')}\`` : 'the policy';
    if (error.keyword === 'additionalProperties')
      return `${where} has the unknown key \`${String((error.params as { additionalProperty?: string }).additionalProperty)}\``;
    if (error.keyword === 'enum')
      return `${where} must be one of ${((error.params as { allowedValues?: unknown[] }).allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
    return `${where} ${error.message ?? 'is invalid'}`;
  });
  return [...new Set(problems)].join('; ');
}

/** A value's problems by the schema of its version, or its document (version 1 or 2). */
export function parsePolicyValue(value: unknown): Parsed {
  const version = typeof value === 'object' && value !== null ? (value as { version?: unknown }).version : undefined;
  if (version !== undefined && !(POLICY_VERSIONS as readonly unknown[]).includes(version))
    return { ok: false, problem: `\`version\` must be one of ${POLICY_VERSIONS.join(', ')}` };
  const validate = version === 2 ? validatePolicyV2 : validatePolicy;
  if (!validate(value)) return { ok: false, problem: schemaProblems(validate.errors ?? []) };
  const document = value as AnyPolicyDocument;
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

/** The problems of one file's text, or its document (either version). */
export function parsePolicyFile(text: string): Parsed {
  const json = readStrictJson(text);
  if (!json.ok)
    return {
      ok: false,
      problem: `it is not valid JSON: ${json.error.message} (line ${json.error.line}, column ${json.error.column})`,
    };
  return parsePolicyValue(json.value);
}

/**
 * Combines the machine file with the second file: the second only adds restrictions (the two-file case of
 * `combineSources`).
 */
export function combinePolicies(
  machine: PolicyDocument | AnyPolicyDocument,
  extra: AnyPolicyDocument,
): EffectivePolicy {
  const base = combineSources([{ role: 'machine', path: 'machine', keys: documentKeys(machine) }]).effective;
  return restrictWith(base ?? keysAlone({}), keysAlone(documentKeys(extra)));
}

/** What one source says as read: its text parsed, or its value validated; null for a missing source. */
function parsedSource(source: PolicyFileText | PolicyValueSource): Parsed | null {
  if ('text' in source) return source.text === null ? null : parsePolicyFile(source.text);
  return source.value === null || source.value === undefined ? null : parsePolicyValue(source.value);
}

/**
 * The policy in force from the sources as read (in each system's order: the deciding sources first): none, applied,
 * or unreadable.
 */
export function evaluatePolicy(files: readonly (PolicyFileText | PolicyValueSource)[]): PolicyView {
  const sources: PolicySource[] = [];
  const read: ReadSource[] = [];
  let problem: PolicyView['problem'] = null;
  for (const file of files) {
    const parsed = file.readProblem === undefined ? parsedSource(file) : null;
    if (parsed === null) {
      // A missing machine source is no policy; a missing file the variable names is a policy that cannot be read.
      const missing =
        file.readProblem ?? (file.role === 'env' ? 'the file APOLLIA_POLICY_FILE names does not exist' : null);
      sources.push({ role: file.role, path: file.path, state: missing ? 'invalid' : 'absent', problem: missing });
      if (missing && !problem) problem = { path: file.path, message: missing };
      continue;
    }
    if (!parsed.ok) {
      sources.push({ role: file.role, path: file.path, state: 'invalid', problem: parsed.problem });
      if (!problem) problem = { path: file.path, message: parsed.problem };
      continue;
    }
    sources.push({ role: file.role, path: file.path, state: 'read', problem: null });
    read.push({ role: file.role, path: file.path, keys: documentKeys(parsed.document) });
  }
  if (problem) return { state: 'unreadable', effective: null, sources, origin: {}, problem };
  const { effective, origin } = combineSources(read);
  if (!effective) return { state: 'none', effective: null, sources, origin: {}, problem: null };
  return { state: 'applied', effective, sources, origin, problem: null };
}
