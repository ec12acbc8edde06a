/**
 * The one decision function (DESIGN.md "Consent, install, apply"): from the manifest, what is
 * installed of it (or nothing), the signature verdict, the owner's own limits and the person's
 * answers, the decisions the core applies. The consent form calls it to show what Install will do,
 * the CLI calls it to print what it did, and the core calls it — with what the store holds, never
 * what a caller claims is installed — to decide what it writes. Nothing else builds decisions.
 *
 * The rules, each written here once:
 * - An untouched answer means "keep" (an update) or "the default" (a first install). The request
 *   carries only what the person changed, so a form that was clicked through changes nothing.
 * - A first install proposes every `defaults.access` entry ticked (a package never grants itself
 *   anything: the person can untick) and arms nothing (spec: installing does not arm triggers).
 * - How a granted entry runs: a tool the app knows to only read runs without asking; every other
 *   family asks before each call (spec: "Every family except read makes the access sensitive").
 *   A package's own Python tool or workflow is its author's word: declaring `read` makes it run
 *   without asking only when a publisher key the person trusts signed the package ("its verified
 *   publisher says it only reads"); otherwise it asks, unless the person chooses "runs without
 *   asking" for that entry. A tool whose family cannot be known before it runs (an MCP tool,
 *   another agent) asks unless the person chooses otherwise. A sensitive family always asks.
 * - An update keeps every answer for an entry offered before whose family did not change, and
 *   every trigger that did not change with its arming, folder and secret. A new entry, or one whose
 *   family changed, starts ungranted; a new or changed trigger starts off, and one that was armed
 *   is turned off and said so (with its old → new words), until the person arms it again.
 * - A secret is never replaced unless the answer asks for it (`webhookSecret`); a folder is kept
 *   unless another one is picked.
 * - A tool on the owner's "never allow" list is never granted; a kept grant of one is withdrawn.
 * - The organization's policy (`policy.ts`) applies on top of the person's decisions, never in
 *   place of them: a tool it blocks is decided `deny` (reason `policy`) and a trigger kind it does
 *   not allow is off, and an answer asking for either is refused (`policy.*`); a kept grant or an
 *   armed trigger it blocks is withheld but still what the store records (`stored`, `held`), so
 *   lifting the block restores what the person had decided.
 */
import type { InstalledDecisions } from './update-diff-schema';
import type { WebhookSecretChoice } from '../triggers/webhook-secret-schema';
import type { TriggerAnswer, ConsentAnswers, AccessAnswer } from './consent-answers-schema';
import {
  type ActionFamily,
  type AgentEntry,
  type ApolliaManifest,
  type TriggerEntry,
  type TriggerSource,
  isSensitive,
} from '../manifests/apollia-manifest';
import { apolliaNativeTool } from '../manifests/catalogues';
import { accessFamilies, firstByName, type Permission } from './consent';
import { describeCron } from '../words/cron-words';
import { describeInterval } from '../triggers/cron';
import { ownRecord } from '../base/own-data';
import { FAMILY_ABILITY } from '../words/words';
import {
  type EffectivePolicy,
  effectivePermission,
  POLICY_REFUSAL,
  toolBlockedBy,
  triggerKindAllowed,
  triggerKindWords,
} from '../policy/policy';

export type { Permission } from './consent';

// The person's answers are an Api request's: defined once with their schema (shared/contract/api-requests.ts).
export type { TriggerAnswer, ConsentAnswers, AccessAnswer } from './consent-answers-schema';

// What is installed of the package now (its manifest and what the store holds of the person's decisions) is defined
// once with its schema (shared/contract/api-replies.ts): the Api answers it in `inspect`.
export type { InstalledDecisions } from './update-diff-schema';

/** The signature verdict as the decision needs it: whether a publisher key the person trusts signed the package. */
export interface DecisionTrust {
  verifiedPublisher: string | null;
}

/** The decision's view of a signature verdict: only a key the person trusts makes a declared family a default. */
export function decisionTrust(
  signature: { state: string; signer: string | null; key_id: string | null } | null | undefined,
): DecisionTrust {
  return { verifiedPublisher: signature?.state === 'verified' ? (signature.signer ?? signature.key_id ?? '') : null };
}

/** Everything a decision is made from. */
export interface DecisionInput {
  manifest: ApolliaManifest;
  installed: InstalledDecisions | null;
  trust: DecisionTrust;
  /** The owner's "Tools you never allow" (Settings). */
  deniedTools: readonly string[];
  /** The organization's policy in force (evaluated by the core), or none. */
  policy?: EffectivePolicy | null;
  answers: ConsentAnswers;
}

/** Why an entry runs the way it does, in a few words the form and the CLI show beside it. */
export type PermissionReason =
  | 'answer'
  | 'kept'
  | 'new'
  | 'family_changed'
  | 'denied_by_owner'
  | 'reads'
  | 'sensitive'
  | 'unknown_family'
  | 'package_code'
  | 'verified_reads'
  | 'policy';

/** One access entry as decided. */
export interface AccessDecided {
  permission: Permission;
  family: ActionFamily | null;
  /** Why: the person's answer, kept from the installed version, or a default with its reason. */
  reason: PermissionReason;
  /** The permission a grant of it gets when the person does not choose: what a tick means. */
  grantedAs: Exclude<Permission, 'deny'>;
  /** Whether the person may choose "runs without asking" for it (never for a sensitive family). */
  canAllow: boolean;
  /** Whether the owner never allows it (Settings): it cannot be granted. */
  ownerDenied: boolean;
  /** New in this version, or its family changed: asked again. */
  asked: 'new' | 'family_changed' | null;
  /** Why the organization's policy withholds it or keeps it asking, in words; null when it does not. */
  policy: string | null;
  /**
   * What the store records: the person's kept decision even while the policy withholds it (lifting the block restores
   * it).
   */
  stored: Permission;
}

/** One trigger as decided. */
export interface TriggerDecided {
  armed: boolean;
  /** The folder it watches: the installed one kept, one picked now (its id), or none. */
  folder: { kind: 'keep'; shown: string } | { kind: 'picked'; folderId: string } | null;
  /** Its secret: the installed one kept, a new one made or given now, or none. */
  secret: { kind: 'keep'; origin: 'made' | 'given' } | { kind: 'new'; choice: WebhookSecretChoice } | null;
  /** How it stands to the installed version. */
  status: 'first' | 'unchanged' | 'changed' | 'new';
  /** For a changed trigger: what it was and what it is now, in words ("08:00 … → every 10 minutes"). */
  change: { from: string; to: string } | null;
  /** Armed in the installed version and off after this update without the person saying so: why. */
  turnedOff: string | null;
  /** Why the organization's policy keeps it off, in words; null when it does not. */
  policy: string | null;
  /**
   * Armed by the person and kept so in the store while the policy keeps it off (with its folder and secret): it fires
   * again once the policy allows it.
   */
  held: boolean;
}

/** A problem with an answer: the answer cannot be carried out (the core refuses it as a whole). */
export interface DecisionProblem {
  code: DecisionProblemCode;
  message: string;
  path: string;
}

export type DecisionProblemCode =
  | 'install.unknown_agent'
  | 'install.unknown_access'
  | 'install.denied_tool'
  | 'install.cannot_allow'
  | 'install.unknown_trigger'
  | 'trigger.secret_not_needed'
  | 'trigger.folder_not_needed'
  | 'trigger.needs_folder'
  | 'policy.blocked_tool'
  | 'policy.unattended'
  | 'policy.trigger_kind';

/** What the core applies: every offered entry and every trigger of the manifest, decided. */
export interface Decisions {
  agents: Record<string, Record<string, AccessDecided>>;
  triggers: Record<string, TriggerDecided>;
  problems: DecisionProblem[];
}

/** A trigger's source in words, as the form and the update panel say it. */
export function triggerSourceWords(source: TriggerSource): string {
  // Words in the middle of a sentence: "every hour", not "Every hour".
  const inSentence = (words: string) => `${words.charAt(0).toLowerCase()}${words.slice(1)}`;
  switch (source.type) {
    case 'cron':
      try {
        return inSentence(describeCron(source.schedule, { dayRule: 'and' }));
      } catch {
        return `the schedule \`${source.schedule}\``;
      }
    case 'interval':
      return inSentence(describeInterval(source.every));
    case 'file_watch':
      return source.recursive
        ? 'when anything in the watched folder or its subfolders changes'
        : 'when a file in the watched folder changes';
    case 'webhook':
      return 'when another program calls its web address';
  }
}

/** A trigger in words: when it fires, and what it starts. */
function triggerWords(trigger: TriggerEntry): string {
  const input = trigger.input ? ` with “${trigger.input}”` : '';
  return `${triggerSourceWords(trigger.source)}, starting ${trigger.target}${input}`;
}

function sameSource(a: TriggerSource, b: TriggerSource): boolean {
  return JSON.stringify(a, Object.keys(a).sort()) === JSON.stringify(b, Object.keys(b).sort());
}

/** Whether a trigger is the same in both versions (source, target and input). */
export function sameTrigger(a: TriggerEntry, b: TriggerEntry): boolean {
  return a.target === b.target && (a.input ?? '') === (b.input ?? '') && sameSource(a.source, b.source);
}

/** How one entry runs when granted and the person does not choose, and why. */
function defaultGrant(
  entry: string,
  family: ActionFamily | null,
  ownCode: boolean,
  trust: DecisionTrust,
): { as: 'allow' | 'ask'; reason: PermissionReason } {
  if (family !== null && isSensitive(family)) return { as: 'ask', reason: 'sensitive' };
  if (family === null) return { as: 'ask', reason: 'unknown_family' };
  if (ownCode)
    return trust.verifiedPublisher !== null
      ? { as: 'allow', reason: 'verified_reads' }
      : { as: 'ask', reason: 'package_code' };
  return apolliaNativeTool(entry) ? { as: 'allow', reason: 'reads' } : { as: 'ask', reason: 'unknown_family' };
}

/** Whether an entry names the package's own Python code (a tool or workflow of this package). */
function isOwnCode(entry: string, packageName: string): boolean {
  return entry.startsWith(`pkg:${packageName}/`) || entry.startsWith(`workflow:${packageName}/`);
}

/** The permission an answer gives, or a problem. */
function answered(answer: AccessAnswer, grantedAs: 'allow' | 'ask', canAllow: boolean): Permission | 'cannot_allow' {
  if (answer === false) return 'deny';
  if (answer === true) return grantedAs;
  if (answer === 'allow' && !canAllow) return 'cannot_allow';
  return answer;
}

/** What every decision of one manifest is made against, its lookups built once (a manifest may offer thousands). */
export interface DecisionContext {
  readonly input: Omit<DecisionInput, 'answers'>;
  readonly familyOf: (entry: string) => ActionFamily | null;
  readonly familyBefore: ((entry: string) => ActionFamily | null) | null;
  readonly agentsBefore: ReadonlyMap<string, AgentEntry>;
  readonly triggersBefore: ReadonlyMap<string, TriggerEntry>;
  readonly denied: ReadonlySet<string>;
}

/** The context of {@link decideAgent} and {@link decideTrigger} for one manifest and what is installed of it. */
export function decisionContext(input: Omit<DecisionInput, 'answers'>): DecisionContext {
  return {
    input,
    familyOf: accessFamilies(input.manifest),
    familyBefore: input.installed ? accessFamilies(input.installed.manifest) : null,
    agentsBefore: firstByName(input.installed?.manifest.agents, (a) => a.id),
    triggersBefore: firstByName(input.installed?.manifest.triggers, (t) => t.id),
    denied: new Set(input.deniedTools),
  };
}

/**
 * Decides one agent's access entries from the person's answers for it (`answer`: entry → answer,
 * only those touched). Problems with an answer are added to `problems`.
 */
export function decideAgent(
  ctx: DecisionContext,
  agent: AgentEntry,
  answer: Record<string, AccessAnswer> | undefined,
  problems: DecisionProblem[] = [],
): Record<string, AccessDecided> {
  const { manifest, installed, trust } = ctx.input;
  const name = manifest.package.name;
  const decided = ownRecord<AccessDecided>();
  const kept = installed && Object.hasOwn(installed.access, agent.id) ? installed.access[agent.id] : undefined;
  const offeredBefore = new Set(ctx.agentsBefore.get(agent.id)?.defaults?.access ?? []);
  for (const entry of agent.defaults?.access ?? []) {
    if (Object.hasOwn(decided, entry)) continue;
    const family = ctx.familyOf(entry);
    const policy = ctx.input.policy ?? null;
    const blocked = toolBlockedBy(policy, entry, family);
    const unattendedOff = policy?.unattended === false;
    const byDefault = defaultGrant(entry, family, isOwnCode(entry, name), trust);
    // The policy may forbid "runs without asking": a grant then asks first.
    const grantedAs = unattendedOff ? 'ask' : byDefault.as;
    const grantReason = unattendedOff && byDefault.as === 'allow' ? 'policy' : byDefault.reason;
    const canAllow = (family === null || !isSensitive(family)) && !unattendedOff;
    const ownerDenied = ctx.denied.has(entry);
    let asked: AccessDecided['asked'] = null;
    if (installed) {
      if (!offeredBefore.has(entry)) asked = 'new';
      else if (ctx.familyBefore?.(entry) !== family) asked = 'family_changed';
    }
    let permission: Permission;
    let reason: PermissionReason;
    let keptDecision = false;
    const given = answer && Object.hasOwn(answer, entry) ? answer[entry] : undefined;
    if (given !== undefined) {
      const result = answered(given, grantedAs, canAllow);
      if (result === 'cannot_allow' && unattendedOff) {
        problems.push({
          code: 'policy.unattended',
          message: `agent \`${agent.id}\` of ${name}: \`${entry}\` cannot run without asking: ${POLICY_REFUSAL}`,
          path: `decisions.agents.${agent.id}.access.${entry}`,
        });
        permission = grantedAs;
      } else if (result === 'cannot_allow') {
        problems.push({
          code: 'install.cannot_allow',
          message: `agent \`${agent.id}\` of ${name}: \`${entry}\` can ${family ? FAMILY_ABILITY[family] : 'act'}, so it asks you before each call: it cannot run without asking`,
          path: `decisions.agents.${agent.id}.access.${entry}`,
        });
        permission = grantedAs;
      } else permission = result;
      reason = 'answer';
      if (permission !== 'deny' && blocked !== null) {
        problems.push({
          code: 'policy.blocked_tool',
          message: `agent \`${agent.id}\` of ${name} cannot be granted \`${entry}\`: ${blocked}; ${POLICY_REFUSAL}`,
          path: `decisions.agents.${agent.id}.access.${entry}`,
        });
      }
      if (permission !== 'deny' && ownerDenied) {
        problems.push({
          code: 'install.denied_tool',
          message: `agent \`${agent.id}\` of ${name} cannot be granted \`${entry}\`: it is on your list of tools you never allow (Settings)`,
          path: `decisions.agents.${agent.id}.access.${entry}`,
        });
      }
    } else if (installed && asked === null && kept && Object.hasOwn(kept, entry)) {
      permission = kept[entry] as Permission;
      reason = 'kept';
      keptDecision = true;
    } else if (installed && asked !== null) {
      permission = 'deny';
      reason = asked;
    } else {
      permission = grantedAs;
      reason = grantReason;
    }
    // A kept or default grant of a tool the owner has since denied is not kept (Settings holds for every install).
    if (ownerDenied && permission !== 'deny' && reason !== 'answer') {
      permission = 'deny';
      reason = 'denied_by_owner';
    }
    // The policy on top: a kept decision stays what the store records; anything else the person
    // could not have chosen otherwise is recorded as the policy leaves it.
    const decidedByPerson = permission;
    const effective = effectivePermission(policy, entry, family, permission);
    const policyWords =
      blocked ??
      (unattendedOff && (permission === 'allow' || byDefault.as === 'allow')
        ? 'your organization does not allow tools to run without asking'
        : null);
    if (effective !== permission) {
      permission = effective;
      reason = 'policy';
    } else if (blocked !== null && reason !== 'answer') reason = 'policy';
    const stored = keptDecision && reason !== 'denied_by_owner' ? decidedByPerson : permission;
    decided[entry] = {
      permission,
      family,
      reason,
      grantedAs,
      canAllow,
      ownerDenied,
      asked,
      policy: policyWords,
      stored,
    };
  }
  return decided;
}

/**
 * Decides one trigger from the person's answer for it (absent: untouched). Problems are added to
 * `problems`. A kind of trigger the organization's policy does not allow is off: an answer arming
 * it is refused (`policy.trigger_kind`); one the person had armed is held (kept armed in the store
 * with its folder and secret) and fires again once the policy allows it.
 */
export function decideTrigger(
  ctx: DecisionContext,
  trigger: TriggerEntry,
  answer: TriggerAnswer | undefined,
  problems: DecisionProblem[] = [],
): TriggerDecided {
  const byPerson = decideTriggerByPerson(ctx, trigger, answer, problems);
  if (triggerKindAllowed(ctx.input.policy, trigger.source.type)) return byPerson;
  const words = `your organization does not allow ${triggerKindWords(trigger.source.type)} triggers`;
  if (answer?.armed === true)
    problems.push({
      code: 'policy.trigger_kind',
      message: `trigger \`${trigger.id}\` cannot be armed: ${words}; ${POLICY_REFUSAL}`,
      path: `decisions.triggers.${trigger.id}`,
    });
  const held = answer === undefined && byPerson.armed;
  return {
    ...byPerson,
    armed: false,
    folder: held ? byPerson.folder : null,
    secret: held ? byPerson.secret : null,
    policy: words,
    held,
  };
}

function decideTriggerByPerson(
  ctx: DecisionContext,
  trigger: TriggerEntry,
  answer: TriggerAnswer | undefined,
  problems: DecisionProblem[],
): TriggerDecided {
  const { installed } = ctx.input;
  const before = ctx.triggersBefore.get(trigger.id);
  const status: TriggerDecided['status'] = !installed
    ? 'first'
    : !before
      ? 'new'
      : sameTrigger(before, trigger)
        ? 'unchanged'
        : 'changed';
  const change = status === 'changed' && before ? { from: triggerWords(before), to: triggerWords(trigger) } : null;
  const had =
    installed && before && Object.hasOwn(installed.triggers, trigger.id) ? installed.triggers[trigger.id] : undefined;
  const keptFolder =
    trigger.source.type === 'file_watch' && had?.folder ? { kind: 'keep' as const, shown: had.folder } : null;
  const keptSecret =
    trigger.source.type === 'webhook' && had?.secret ? { kind: 'keep' as const, origin: had.secret } : null;
  if (answer === undefined) {
    const keep = status === 'unchanged' && had?.armed === true;
    const turnedOff =
      status === 'changed' && had?.armed === true && change
        ? `it changed in this version (${change.from} → ${change.to})`
        : null;
    // An armed watched folder whose folder is gone from the record cannot stay armed.
    if (keep && trigger.source.type === 'file_watch' && !keptFolder)
      return {
        armed: false,
        folder: null,
        secret: null,
        status,
        change,
        turnedOff: 'its folder is no longer recorded: choose it again',
        policy: null,
        held: false,
      };
    return {
      armed: keep,
      folder: keep ? keptFolder : null,
      secret: keep ? keptSecret : null,
      status,
      change,
      turnedOff,
      policy: null,
      held: false,
    };
  }
  if (!answer.armed)
    return { armed: false, folder: null, secret: null, status, change, turnedOff: null, policy: null, held: false };
  let folder: TriggerDecided['folder'] = null;
  if (trigger.source.type === 'file_watch') {
    if (answer.folderId !== undefined) folder = { kind: 'picked', folderId: answer.folderId };
    else if (keptFolder) folder = keptFolder;
    else
      problems.push({
        code: 'trigger.needs_folder',
        message: `trigger \`${trigger.id}\` watches a folder: pick one to arm it`,
        path: `decisions.triggers.${trigger.id}`,
      });
  }
  let secret: TriggerDecided['secret'] = null;
  if (trigger.source.type === 'webhook')
    secret =
      answer.webhookSecret !== undefined
        ? { kind: 'new', choice: answer.webhookSecret }
        : (keptSecret ?? { kind: 'new', choice: { kind: 'make' } });
  return { armed: true, folder, secret, status, change, turnedOff: null, policy: null, held: false };
}

/**
 * Decides every access entry and trigger of `input.manifest` (pure; linear in the manifest and
 * the answers: lookups are built once, DESIGN.md "no package text costs more than linear time").
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

/** The permission of every entry, by agent: what the store records (the person's decisions, under any policy). */
export function permissionsOf(decisions: Decisions): Record<string, Record<string, Permission>> {
  const out = ownRecord<Record<string, Permission>>();
  for (const [agentId, entries] of Object.entries(decisions.agents))
    out[agentId] = ownRecord(Object.entries(entries).map(([entry, d]) => [entry, d.stored]));
  return out;
}

/** What "how it runs" means, in words, for a permission and its reason. */
export function permissionWords(decided: AccessDecided): string {
  if (decided.reason === 'policy' && decided.policy !== null)
    return decided.permission === 'deny' ? `Not allowed: ${decided.policy}` : `Asks you first: ${decided.policy}`;
  if (decided.permission === 'deny') {
    if (decided.reason === 'denied_by_owner') return 'Not allowed: on your list of tools you never allow';
    if (decided.reason === 'new') return 'Not allowed: new in this version, tick it to allow';
    if (decided.reason === 'family_changed') return 'Not allowed: it now does something else, tick it to allow';
    return 'Not allowed';
  }
  if (decided.permission === 'allow') {
    if (decided.reason === 'verified_reads') return 'Runs without asking: its verified publisher says it only reads';
    if (decided.reason === 'answer') return 'Runs without asking: you chose it';
    return 'Runs without asking';
  }
  if (decided.reason === 'package_code')
    return "Asks you first: the package's own code, and only its author says it only reads";
  if (decided.reason === 'unknown_family') return 'Asks you first: what it does is known only when it runs';
  return 'Asks you first';
}
