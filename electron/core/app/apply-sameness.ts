/**
 * Whether an apply was already done (DESIGN.md "Commit points": a command run again "completes or says it is already
 * done"): a live agent of the same template and version holds exactly what this apply would make — the same preview
 * (parameters, instructions, built-in tools and what is left out, approvals, MCP servers and their tools' settings and
 * pins, triggers, secrets), the same settings now (tools, approvals, model: a grant, revoke or approvals change since
 * makes it another), the same triggers armed, and the same files, byte for byte. The next fire times a preview
 * shows are left out: they move with the clock, not with the apply.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { ApplyReceipt } from '../../../shared/contract/api';
import type { ApplyPreview } from '../../../shared/decisions/apply-preview';
import { own } from '../../../shared/base/own';
import type { StoreState, TemplateAgentRecord } from '../store/state';

/** What an apply made, in the words two applies are compared by. */
function madeOf(preview: ApplyPreview) {
  return {
    displayName: preview.displayName,
    instructions: preview.instructions,
    parameters: preview.parameters,
    tools: preview.tools,
    withheld: preview.withheld,
    approvals: preview.approvals.chosen,
    mcp: preview.mcp,
    triggers: preview.triggers.map(({ next: _moves, ...trigger }) => trigger),
    secrets: preview.secrets,
  };
}

/** What an agent holds now that an apply set: its tools' settings (a grant or revoke since changes them), approvals… */
function settingsOf(agent: TemplateAgentRecord) {
  const {
    id: _id,
    dir: _dir,
    files: _files,
    requestId: _request,
    createdAt: _at,
    archived: _archived,
    preview,
    ...held
  } = agent;
  // As the state file holds it: a key left undefined in a plan is no key once written.
  return JSON.parse(JSON.stringify({ ...held, made: madeOf(preview) })) as unknown;
}

/** The names of `agent`'s triggers armed now. */
function armedNames(state: StoreState, agentId: string): string[] {
  return Object.values(state.triggers)
    .filter((t) => t.agentId === agentId && t.armed)
    .map((t) => t.name)
    .sort();
}

/** Whether the files in the agent's folder are `files`, the same paths and the same bytes. */
async function sameFiles(dataDir: string, agent: TemplateAgentRecord, files: ReadonlyMap<string, Uint8Array>) {
  if (!isDeepStrictEqual([...agent.files].sort(), [...files.keys()].sort())) return false;
  for (const [rel, bytes] of files) {
    const held = await readFile(join(dataDir, agent.dir, rel)).catch(() => null);
    if (held === null || !Buffer.from(bytes).equals(held)) return false;
  }
  return true;
}

/** What would be applied now: the template, its preview, its files and the triggers ticked to arm. */
export interface ApplyAsked {
  /** The agent record the apply would write (its plan's). */
  agent: TemplateAgentRecord;
  files: ReadonlyMap<string, Uint8Array>;
  arm: readonly string[];
}

/**
 * The receipt of the live agent that already holds what `asked` would make (marked `alreadyApplied`), or undefined:
 * an archived agent, another version of the template, other parameters, tools, approvals, MCP settings, triggers armed
 * or files are another apply.
 */
export async function alreadyApplied(
  dataDir: string,
  state: StoreState,
  asked: ApplyAsked,
): Promise<ApplyReceipt | undefined> {
  const wanted = settingsOf(asked.agent);
  const arm = [...new Set(asked.arm)].sort();
  for (const agent of Object.values(state.agents)) {
    if (agent.origin !== 'template' || agent.archived) continue;
    if (!isDeepStrictEqual(settingsOf(agent), wanted)) continue;
    if (!isDeepStrictEqual(armedNames(state, agent.id), arm)) continue;
    if (!(await sameFiles(dataDir, agent, asked.files))) continue;
    const earlier = own(state.applies, agent.requestId);
    const receipt: ApplyReceipt = earlier
      ? {
          agentId: earlier.agentId,
          displayName: earlier.displayName,
          createdAt: earlier.createdAt,
          triggers: earlier.triggers,
          preview: earlier.preview,
        }
      : {
          agentId: agent.id,
          displayName: agent.displayName,
          createdAt: agent.createdAt,
          triggers: Object.values(state.triggers)
            .filter((t) => t.agentId === agent.id)
            .map((t) => t.id),
          preview: agent.preview,
        };
    return { ...receipt, alreadyApplied: true };
  }
  return undefined;
}
