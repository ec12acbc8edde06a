/**
 * The agent's 1 MiB limit at the check (template spec, "agent.md" last paragraph: "the package is
 * compiled with a sample of each parameter, and the agent body ... checked as `POST /v2/agents`
 * checks theirs"; "Apply" step 2: "its body held to `POST /v2/agents`' 1 MiB limit (`413`), its
 * instructions the body with the parameters filled in").
 *
 * The sample of each parameter (the spec's "a sample of each parameter"): its `default`; else a short value its
 * definition accepts: an `enum`'s shortest choice, `false`, `0`, a short text its `pattern` accepts (or empty). The
 * check refuses only what is over the limit with these samples. It also measures the longest values the definitions
 * allow (an `enum`'s longest choice, a `pattern`'s longest checked value, `MAX_PATTERNED_VALUE_LENGTH` characters, a
 * number's longest text) and warns (`template.agent_may_exceed`) when they would pass the limit: apply measures the
 * real values and refuses over it. A string with none of these has no bound the package states: it is measured
 * empty, and where the agent's body names it (its instructions, its display name, a pin) the check warns that it is
 * unbounded.
 *
 * Counted, never built: the instructions and the pins are measured segment by segment
 * (shared/manifests/agent-body.ts), so a body naming a 10,000-character sample a thousand times costs
 * time linear in the body.
 */
import {
  AGENT_BODY_LIMIT,
  type AgentToolSetting,
  agentBodyBytes,
  agentRecord,
  agentTooLargeMessage,
  filledJsonTextBytes,
  jsonTextBytes,
} from '../../../shared/manifests/agent-body';
import type { Problem } from '../../../shared/manifests/inspection';
import { setOwn } from '../../../shared/base/own-data';
import { MAX_PATTERNED_VALUE_LENGTH } from '../../../shared/manifests/package-pattern';
import {
  fillText,
  mcpGateName,
  placeholderNames,
  type ParameterValue,
  type TemplateManifest,
  type TemplateParameter,
} from '../../../shared/manifests/template-manifest';

/** The longest text of a finite JavaScript number (`-2.2250738585072014e-308`). */
const LONGEST_NUMBER = '-2.2250738585072014e-308';

/** Short texts tried against a parameter's pattern for its sample: the first it accepts is the sample. */
const SHORT_TEXTS = ['', 'x', 'a', '0', '1', 'A', 'a1', 'x-1', 'example', 'C0123ABCD', 'https://example.com'];

/** A parameter's sample for the size check: its default, else a short value it accepts (see the module's comment). */
export function sizeSample(def: TemplateParameter): ParameterValue | null {
  if (def.default !== undefined) return def.default;
  if (def.enum && def.enum.length > 0) {
    let shortest = def.enum[0] as ParameterValue;
    for (const choice of def.enum)
      if (jsonTextBytes(String(choice)) < jsonTextBytes(String(shortest))) shortest = choice;
    return shortest;
  }
  if (def.type === 'boolean') return false;
  if (def.type === 'number' || def.type === 'integer') return 0;
  if (def.pattern !== undefined) {
    let accepts: (text: string) => boolean;
    try {
      const regex = new RegExp(def.pattern, 'u');
      accepts = (text) => regex.test(text);
    } catch {
      accepts = () => false;
    }
    return SHORT_TEXTS.find(accepts) ?? '';
  }
  return null;
}

/** A parameter's longest value for the size check, or null when nothing bounds it (see the module's comment). */
export function longestSample(def: TemplateParameter): ParameterValue | null {
  if (def.default !== undefined && def.enum === undefined && def.pattern === undefined) return def.default;
  if (def.enum && def.enum.length > 0) {
    let longest = def.enum[0] as ParameterValue;
    for (const choice of def.enum) if (jsonTextBytes(String(choice)) > jsonTextBytes(String(longest))) longest = choice;
    return longest;
  }
  if (def.type === 'boolean') return false;
  if (def.type === 'number' || def.type === 'integer') return LONGEST_NUMBER;
  if (def.pattern !== undefined) return 'x'.repeat(MAX_PATTERNED_VALUE_LENGTH);
  return null;
}

/** The agent's size at the check: an error over 1 MiB, and a warning per unbounded parameter its body names. */
export function checkAgentSize(
  manifest: TemplateManifest,
  body: string,
  filesJsonBytes: number,
): { errors: Problem[]; warnings: Problem[] } {
  const defs = manifest.parameters ?? {};
  const samples: Record<string, ParameterValue> = {};
  const longest: Record<string, ParameterValue> = {};
  const unbounded = new Set<string>();
  for (const [name, def] of Object.entries(defs)) {
    const sample = sizeSample(def);
    if (sample === null) unbounded.add(name);
    setOwn(samples, name, sample ?? '');
    setOwn(longest, name, longestSample(def) ?? sample ?? '');
  }
  const { bytes, named } = measureAgent(manifest, body, filesJsonBytes, samples);
  const most = measureAgent(manifest, body, filesJsonBytes, longest).bytes;

  const errors: Problem[] = [];
  if (bytes > AGENT_BODY_LIMIT) {
    errors.push({
      code: 'template.agent_too_large',
      path: 'agent.md',
      message: `agent.md: ${agentTooLargeMessage(bytes, 'an apply makes')}, with each parameter at its sample (its default, or a short value it accepts): shorten the body, the skills or the rules (each rule is copied beside every SKILL.md)`,
    });
  }
  const warnings: Problem[] = [];
  if (errors.length === 0 && most > AGENT_BODY_LIMIT)
    warnings.push({
      code: 'template.agent_may_exceed',
      path: 'agent.md',
      message: `agent.md: with the longest values its parameters allow, ${agentTooLargeMessage(most, 'an apply makes')}: apply measures the values given and refuses an agent over it; bound the parameters the body names to keep every apply under it`,
    });
  for (const name of Object.keys(defs)) {
    if (!unbounded.has(name) || !named.has(name)) continue;
    warnings.push({
      code: 'template.unbounded_parameter',
      path: `parameters.${name}`,
      message: `agent.md: \`parameters.${name}\` has no default, enum or pattern, so nothing bounds how long it is, and the agent's body names it: the check measured it empty; apply measures the value given and refuses an agent over \`POST /v2/agents\`' 1 MiB limit (\`413\`). Give it a default, an enum or a pattern (a value checked against a pattern is at most ${MAX_PATTERNED_VALUE_LENGTH.toLocaleString('en-US')} characters)`,
    });
  }
  return { errors, warnings };
}

/** The agent's body in bytes with `samples` as the parameters' values, and the parameters it names. */
function measureAgent(
  manifest: TemplateManifest,
  body: string,
  filesJsonBytes: number,
  samples: Record<string, ParameterValue>,
): { bytes: number; named: Set<string> } {
  // Tool settings as apply writes them at most (every server saved, each tool at `ask`), each pin
  // unfilled; the pins' filled text is added as counted.
  const toolSettings: Record<string, AgentToolSetting> = {};
  let pinGrowth = 0;
  const named = new Set<string>();
  for (const entry of manifest.mcp ?? []) {
    for (const tool of entry.tools) {
      const pin = entry.pin?.[tool];
      setOwn(
        toolSettings,
        mcpGateName(entry.server, tool),
        pin === undefined ? { permission: 'ask' } : { permission: 'ask', pin },
      );
      for (const value of Object.values(pin ?? {})) {
        for (const scalar of Array.isArray(value) ? value : [value]) {
          if (typeof scalar !== 'string') continue;
          for (const name of placeholderNames(scalar)) named.add(name);
          pinGrowth += filledJsonTextBytes(scalar, samples) - jsonTextBytes(scalar);
        }
      }
    }
  }
  const displayTemplate = manifest.display_name ?? manifest.name;
  for (const name of placeholderNames(displayTemplate)) named.add(name);
  for (const name of placeholderNames(body)) named.add(name);

  const record = agentRecord({
    name: fillText(displayTemplate, samples),
    description: manifest.description,
    model: manifest.model,
    effort: manifest.effort,
    budgetPerRunUsd: manifest.budget?.per_run_usd,
    learning: manifest.learning,
    approvals: manifest.approvals ?? 'ask',
    tools: manifest.tools ?? [],
    toolSettings,
  });
  const bytes = agentBodyBytes({ record, body, values: samples, filesJsonBytes }) + pinGrowth;
  return { bytes, named };
}
