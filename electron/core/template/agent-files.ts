/**
 * The agent's files an apply writes, decided once for the check and for apply (template spec
 * "Apply" step 2: "its skills and rules as its skill files"; agent.md `output`: the schema "ships
 * beside each SKILL.md, as a rule does"): for each skill, every file of its folder, then each rule
 * and the output schema beside its SKILL.md.
 *
 * Two different files landing on one path (a rule copy or the output schema onto a file the skill
 * already holds) is refused at the check, naming both, as the spec asks: "a tool the server does
 * not bind, a trigger field or schedule it refuses, or a skill file's path is refused here, not at
 * apply". Apply plans the same way and refuses the same clash, should one ever
 * reach it. The same bytes landing twice are one file, not a clash (a decision where the spec is
 * silent: nothing the agent reads differs).
 */
import type { Problem } from '../../../shared/manifests/inspection';
import { type AgentFileSize, agentFilesJsonBytes, fileJsonBytes } from '../../../shared/manifests/agent-body';
import { utf8 } from './part-reader';

/** Where one agent file comes from: its path in the package. */
export type AgentFilePlan = Map<string, string>;

/** Two package files that would be the same agent file. */
export interface AgentFileClash {
  /** The agent's file both would be. */
  target: string;
  /** The file that lands second (a rule or the output schema). */
  from: string;
  /** The file already there (usually the skill's own). */
  other: string;
}

/** The agent files of a checked package, by target path, and the clashes found. */
export function planAgentFiles(
  files: ReadonlyMap<string, Uint8Array>,
  skills: readonly string[],
  rules: readonly string[],
  outputSchema: string | undefined,
): { plan: AgentFilePlan; clashes: AgentFileClash[] } {
  const plan: AgentFilePlan = new Map();
  const clashes: AgentFileClash[] = [];
  const sorted = [...files.keys()].sort();
  const same = (a: string, b: string) => {
    const x = files.get(a);
    const y = files.get(b);
    return x !== undefined && y !== undefined && x.length === y.length && Buffer.from(x).equals(Buffer.from(y));
  };
  const put = (target: string, from: string) => {
    const other = plan.get(target);
    if (other !== undefined && other !== from && !same(other, from)) {
      clashes.push({ target, from, other });
      return;
    }
    if (other === undefined) plan.set(target, from);
  };
  for (const skill of skills) {
    const dir = `skills/${skill}/`;
    for (const path of sorted) if (path.startsWith(dir)) put(path, path);
    for (const rule of rules) put(`${dir}${rule}`, `rules/${rule}`);
    if (outputSchema !== undefined) put(`${dir}${outputSchema.slice(outputSchema.lastIndexOf('/') + 1)}`, outputSchema);
  }
  return { plan, clashes };
}

/** A clash as the check reports it: under the file that lands second, naming both paths. */
export function clashProblem(clash: AgentFileClash): Problem {
  const what = clash.from.startsWith('rules/')
    ? 'apply copies this rule beside each SKILL.md'
    : 'apply puts the output schema beside each SKILL.md';
  return {
    code: 'template.file_collision',
    path: clash.from,
    message: `${clash.from}: ${what}, as \`${clash.target}\`, where the skill already holds \`${clash.other}\`: a skill file's path is refused at the check, not at apply; rename one of them`,
  };
}

/**
 * The bytes the planned files take in the agent's `POST /v2/agents` body (shared/manifests/agent-body.ts); each source read once.
 */
export function planJsonBytes(plan: AgentFilePlan, files: ReadonlyMap<string, Uint8Array>): number {
  const bySource = new Map<string, number>();
  const sizes: AgentFileSize[] = [];
  for (const [target, from] of plan) {
    let jsonBytes = bySource.get(from);
    if (jsonBytes === undefined) {
      const bytes = files.get(from) ?? new Uint8Array();
      jsonBytes = fileJsonBytes(utf8(bytes), bytes.length);
      bySource.set(from, jsonBytes);
    }
    sizes.push({ path: target, jsonBytes });
  }
  return agentFilesJsonBytes(sizes);
}
