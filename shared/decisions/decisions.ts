/**
 * The one decision function (DESIGN.md "Consent, install, apply"): from the manifest, what is
 * installed of it (or nothing), the signature verdict, the owner's own limits and the person's
 * answers, the decisions the core applies. The consent form calls it to show what Install will do,
 * the CLI calls it to print what it did, and the core calls it — with what the store holds, never
 * what a caller claims is installed — to decide what it writes. Nothing else builds decisions.
 *
 * The rules, each written once: those of access entries in `access-decisions.ts`, those of triggers in
 * `trigger-decisions.ts`, and these, which hold for both:
 * - An untouched answer means "keep" (an update) or "the default" (a first install). The request
 *   carries only what the person changed, so a form that was clicked through changes nothing.
 * - An answer naming an agent, an entry or a trigger the package does not offer is refused, never dropped.
 * - The organization's policy (`policy.ts`) applies on top of the person's decisions, never in
 *   place of them: a tool it blocks is decided `deny` (reason `policy`) and a trigger kind it does
 *   not allow is off, and an answer asking for either is refused (`policy.*`); a kept grant or an
 *   armed trigger it blocks is withheld but still what the store records (`stored`, `held`), so
 *   lifting the block restores what the person had decided.
 */
import { firstByName, type Permission } from './consent';
import { ownRecord } from '../base/own-data';
import { type AccessDecided, decideAgent } from './access-decisions';
import { type TriggerDecided, decideTrigger } from './trigger-decisions';
import { type DecisionInput, decisionContext } from './decision-input';
import type { DecisionProblem } from './decision-problems';

export type { Permission } from './consent';

// The person's answers are an Api request's: defined once with their schema (shared/contract/api-requests.ts).
export type { TriggerAnswer, ConsentAnswers, AccessAnswer } from './consent-answers-schema';

// What is installed of the package now (its manifest and what the store holds of the person's decisions) is defined
// once with its schema (shared/contract/api-replies.ts): the Api answers it in `inspect`.
export type { InstalledDecisions } from './update-diff-schema';

/**
 * What the core applies: every offered entry and every trigger of the manifest, decided.
 *
 * The problems are part of it, so a caller cannot apply decisions and overlook an answer that was refused.
 */
export interface Decisions {
  agents: Record<string, Record<string, AccessDecided>>;
  triggers: Record<string, TriggerDecided>;
  problems: DecisionProblem[];
}

/**
 * Decides every access entry and trigger of `input.manifest`.
 *
 * Pure, and linear in the manifest and the answers: lookups are built once (DESIGN.md "no package text costs more
 * than linear time").
 */
export function decide(input: DecisionInput): Decisions {
  const { manifest, answers } = input;
  const name = manifest.package.name;
  const ctx = decisionContext(input);
  const problems: DecisionProblem[] = [];
  const agentsNow = firstByName(manifest.agents, (a) => a.id);
  const triggersNow = firstByName(manifest.triggers, (t) => t.id);

  // Answers naming what this package does not offer are refused, never dropped.
  for (const [agentId, answer] of Object.entries(answers.agents)) {
    const agent = agentsNow.get(agentId);
    if (!agent) {
      problems.push({
        code: 'install.unknown_agent',
        message: `${name} has no agent \`${agentId}\``,
        path: `decisions.agents.${agentId}`,
      });
      continue;
    }
    const offered = new Set(agent.defaults?.access ?? []);
    for (const entry of Object.keys(answer.access)) {
      if (!offered.has(entry))
        problems.push({
          code: 'install.unknown_access',
          message: `agent \`${agentId}\` of ${name} is not offered \`${entry}\`: only its defaults.access can be granted`,
          path: `decisions.agents.${agentId}.access`,
        });
    }
  }
  for (const [triggerId, answer] of Object.entries(answers.triggers)) {
    const entry = triggersNow.get(triggerId);
    const path = `decisions.triggers.${triggerId}`;
    if (!entry) {
      problems.push({ code: 'install.unknown_trigger', message: `${name} has no trigger \`${triggerId}\``, path });
      continue;
    }
    if (answer.webhookSecret !== undefined && entry.source.type !== 'webhook')
      problems.push({
        code: 'trigger.secret_not_needed',
        message: `trigger \`${triggerId}\` is not a webhook: it takes no secret`,
        path: `${path}.webhookSecret`,
      });
    if (answer.webhookSecret !== undefined && !answer.armed)
      problems.push({
        code: 'trigger.secret_not_needed',
        message: `trigger \`${triggerId}\` is not armed: a secret is set only when it is armed`,
        path: `${path}.webhookSecret`,
      });
    if (answer.folderId !== undefined && entry.source.type !== 'file_watch')
      problems.push({
        code: 'trigger.folder_not_needed',
        message: `trigger \`${triggerId}\` is not a file_watch trigger: it watches no folder`,
        path: `${path}.folderId`,
      });
  }

  const agents = ownRecord<Record<string, AccessDecided>>();
  for (const agent of manifest.agents ?? []) {
    if (Object.hasOwn(agents, agent.id)) continue;
    agents[agent.id] = decideAgent(
      ctx,
      agent,
      Object.hasOwn(answers.agents, agent.id) ? answers.agents[agent.id]?.access : undefined,
      problems,
    );
  }
  const triggers = ownRecord<TriggerDecided>();
  for (const trigger of manifest.triggers ?? []) {
    if (Object.hasOwn(triggers, trigger.id)) continue;
    triggers[trigger.id] = decideTrigger(
      ctx,
      trigger,
      Object.hasOwn(answers.triggers, trigger.id) ? answers.triggers[trigger.id] : undefined,
      problems,
    );
  }
  return { agents, triggers, problems };
}

/**
 * The permission of every entry, by agent: what the store records.
 *
 * It is the person's decisions under any policy, so lifting a policy's block restores them.
 */
export function permissionsOf(decisions: Decisions): Record<string, Record<string, Permission>> {
  const out = ownRecord<Record<string, Permission>>();
  for (const [agentId, entries] of Object.entries(decisions.agents))
    out[agentId] = ownRecord(Object.entries(entries).map(([entry, d]) => [entry, d.stored]));
  return out;
}
