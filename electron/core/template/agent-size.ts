/**
 * The agent's 1 MiB limit at the check (template spec, "agent.md" last paragraph: "the package is
 * compiled with a sample of each parameter, and the agent body ... checked as `POST /v2/agents`
 * checks theirs"; "Apply" step 2: "its body held to `POST /v2/agents`' 1 MiB limit (`413`), its
 * instructions the body with the parameters filled in").
 *
 * The sample of each parameter (a decision where the spec is silent, written down in README.md):
 * its `default`; else the longest value its definition allows: an `enum`'s longest choice, a
 * `pattern`'s longest checked value (`MAX_PATTERNED_VALUE_LENGTH` characters), a number's longest
 * text, `false`. A string with none of these has no bound the package states: it is measured
 * empty, and where the agent's body names it (its instructions, its display name, a pin) the check
 * warns that it is unbounded; apply measures the value given and refuses over the limit.
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

/** A parameter's sample for the size check, or null when nothing bounds it (see the module's comment). */
export function sizeSample(def: TemplateParameter): ParameterValue | null {
  if (def.default !== undefined) return def.default;
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
  const unbounded = new Set<string>();
  for (const [name, def] of Object.entries(defs)) {
    const sample = sizeSample(def);
    if (sample === null) {
      unbounded.add(name);
      setOwn(samples, name, '');
    } else setOwn(samples, name, sample);
  }

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

  const errors: Problem[] = [];
  if (bytes > AGENT_BODY_LIMIT) {
    errors.push({
      code: 'template.agent_too_large',
      path: 'agent.md',
      message: `agent.md: ${agentTooLargeMessage(bytes, 'an apply makes')}, with each parameter at its default or its longest allowed value: shorten the body, the skills or the rules (each rule is copied beside every SKILL.md), or bound the parameters it names`,
    });
  }
  const warnings: Problem[] = [];
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
