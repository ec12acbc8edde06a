/**
 * Template folders (spec: agentrun-template-packages.md): read without following links, checked
 * whole, never run (DESIGN.md "Reading without running", "Validation contract").
 *
 * Order of the check, so the first error is the first thing to fix: the walk (links, special
 * files, limits), the folders, agent.md (every field of the spec's table), skills, rules, evals,
 * then the root files.
 */
import type { Inspection, Problem } from '../../../shared/manifests/inspection';
import type { TemplateDetails, TemplateInspection, TemplateSummary } from '../../../shared/manifests/template-manifest';
import { packCommand } from '../../../shared/contract/refusal-actor';
import { checkAgentMd } from './agent-md';
import { clashProblem, planAgentFiles, planJsonBytes } from './agent-files';
import { checkAgentSize } from './agent-size';
import { unanchoredPinWarnings } from './pin-patterns';
import { PackageParts } from './package-parts';
import { utf8 } from './part-reader';
import { walkTemplateFolder } from './walk';

export { builtinTemplateDir, listBuiltinTemplates, type BuiltinTemplateCard } from './builtin';
export { checkAgentMd, checkAgentManifest, type AgentMdResult, type PackageContext } from './agent-md';
export { TEMPLATE_LIMITS } from './walk';

function folderName(dir: string): string {
  const parts = dir.replace(/[\\/]+$/, '').split(/[\\/]/);
  return parts[parts.length - 1] ?? '';
}

function refused(
  errors: Problem[],
  summary: TemplateSummary | null = null,
  warnings: Problem[] = [],
): TemplateInspection {
  return { kind: 'template', ok: false, errors, warnings, summary, details: null };
}

/** agent.md fields the eval cases and the root-file check are checked against. */
const FIELDS_LATER_CHECKS_READ = ['parameters', 'mcp', 'tools', 'output'];

/** Reads and checks a template folder whole, without following links. Never throws for a bad folder. */
export async function inspectTemplateFolder(dir: string): Promise<Inspection> {
  return inspectTemplate(dir);
}

/**
 * A template folder read once: the check's answer and the very bytes it checked (apply copies these, never the folder
 * again).
 */
export interface TemplateRead {
  inspection: TemplateInspection;
  /** Every file the walk read, by `/`-separated path; empty when the walk itself was refused. */
  files: ReadonlyMap<string, Uint8Array>;
}

/** {@link inspectTemplate}, keeping the bytes that were checked. */
export async function readTemplateFolder(dir: string): Promise<TemplateRead> {
  let files: ReadonlyMap<string, Uint8Array> = new Map();
  const inspection = await inspectTemplate(dir, (read) => (files = read));
  return { inspection, files };
}

/**
 * {@link inspectTemplateFolder}, typed: summary and details as shared/manifests/template-manifest.ts declares them. `onRead`
 * receives the bytes the walk read.
 */
export async function inspectTemplate(
  dir: string,
  onRead?: (files: ReadonlyMap<string, Uint8Array>) => void,
): Promise<TemplateInspection> {
  let walked;
  try {
    walked = await walkTemplateFolder(dir);
  } catch (error) {
    return refused([
      {
        code: 'template.unreadable',
        path: '.',
        message: `${dir} could not be read: ${error instanceof Error ? error.message : String(error)}`,
      },
    ]);
  }
  if (!walked.ok) return refused([walked.problem]);
  const { files, directories } = walked.tree;
  onRead?.(files);

  // A package folder not yet packed: say what it is, and how its author builds it.
  if (files.has('apollia.toml') && !files.has('agent.md')) {
    const name = folderName(dir);
    return refused([
      {
        code: 'template.unbuilt_apo',
        path: 'apollia.toml',
        message: `${name} is not a template: it is the folder of an .apo package, not yet packed (it holds apollia.toml, not agent.md). Pack it with \`${packCommand(name)}\`, then open the .apo file it writes.`,
      },
    ]);
  }
  const errors: Problem[] = [];
  const layout = new PackageParts(files, directories, null);
  layout.folders();
  if (layout.errors.length > 0) return refused(layout.errors);

  const agentBytes = files.get('agent.md');
  if (!agentBytes)
    return refused([
      {
        code: 'template.agent_md_missing',
        path: 'agent.md',
        message: 'agent.md is missing: a template folder holds agent.md at its root',
      },
    ]);
  const agentText = utf8(agentBytes);
  if (agentText === null)
    return refused([{ code: 'template.encoding', path: 'agent.md', message: 'agent.md: is not UTF-8 text' }]);
  const agent = checkAgentMd(agentText, { folderName: folderName(dir), files });
  errors.push(...agent.errors);

  // Later checks run against what agent.md said, less any refused field; when a field they read
  // was refused (or the front matter did not parse) they are skipped rather than run against
  // nothing, which would claim declared servers and parameters are not declared.
  const parts = new PackageParts(files, directories, agent.read);
  parts.checkSkills();
  parts.checkRules();
  if (agent.read !== null && !FIELDS_LATER_CHECKS_READ.some((field) => agent.refusedFields.has(field))) {
    parts.checkEvals();
    parts.rootFiles();
  }
  errors.push(...parts.errors);

  // The agent's files and its size: a skill file's path clash and an agent over
  // `POST /v2/agents`' 1 MiB are refused here, not at apply (spec "agent.md", last paragraph).
  const warnings = [...agent.warnings];
  const planned = planAgentFiles(
    files,
    parts.skills.map((skill) => skill.name),
    parts.rules.map((rule) => rule.file),
    agent.refusedFields.has('output') ? undefined : agent.read?.output?.schema,
  );
  errors.push(...planned.clashes.map(clashProblem));
  const agentFilesJsonBytes = planJsonBytes(planned.plan, files);
  if (agent.manifest) {
    const size = checkAgentSize(agent.manifest, agent.body, agentFilesJsonBytes);
    errors.push(...size.errors);
    warnings.push(...size.warnings, ...unanchoredPinWarnings(agent.manifest));
  }

  const manifest = agent.manifest;
  const summary: TemplateSummary | null = manifest
    ? {
        name: manifest.name,
        version: manifest.version,
        publisher: manifest.author?.name ?? null,
        mcp_servers: (manifest.mcp ?? []).map((entry) => entry.server),
        parameters: Object.keys(manifest.parameters ?? {}),
        triggers: (manifest.triggers ?? []).map((trigger) => ({
          id: trigger.name,
          type: trigger.type,
          needs: trigger.type === 'webhook' ? 'secret' : null,
        })),
      }
    : null;
  if (errors.length > 0 || !manifest) return refused(errors, summary, warnings);
  const details: TemplateDetails = {
    manifest,
    body: agent.body,
    skills: parts.skills,
    rules: parts.rules,
    evals: parts.evals,
    files: [...files.entries()]
      .map(([path, bytes]) => ({ path, size: bytes.length }))
      .sort((a, b) => (a.path < b.path ? -1 : 1)),
    agentFilesJsonBytes,
  };
  return { kind: 'template', ok: true, errors: [], warnings, summary, details };
}
