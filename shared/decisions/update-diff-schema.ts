/**
 * What an update changes and what it starts from (`update-diff.ts` and `decisions.ts` re-export the types), once
 * with TypeBox. Loaded only by tests and tools.
 */
import { type Static, Type } from 'typebox';
import { closed, mapOf, oneOf, orNull } from '../base/schema-kit';
import { ApolliaManifestSchema } from '../manifests/apollia-manifest-schema';
import { ACTION_FAMILIES } from '../manifests/apollia-vocabulary';
import { NAME_COMPARISONS } from '../words/name-comparison';

const str = Type.String();
const nstr = orNull('string');

const added = Type.Array(str);
const removed = Type.Array(str);

/** A tool or workflow whose action family changed. */
export const FamilyChangeSchema = closed({ name: str, from: oneOf(ACTION_FAMILIES), to: oneOf(ACTION_FAMILIES) });
export type FamilyChange = Static<typeof FamilyChangeSchema>;

/** Tools or workflows added, removed, or with another family. */
export const CapabilityDiffSchema = closed({ added, removed, familyChanged: Type.Array(FamilyChangeSchema) });
export type CapabilityDiff = Static<typeof CapabilityDiffSchema>;

/** An MCP server whose launch changed: which of command, args, url, transport, env keys. */
export const McpServerChangeSchema = closed({
  name: str,
  changed: Type.Array(oneOf(['command', 'args', 'url', 'transport', 'env'])),
});
export type McpServerChange = Static<typeof McpServerChangeSchema>;

/** One agent's default access: entries added to or removed from its proposal. */
export const AgentAccessDiffSchema = closed({ agentId: str, added, removed });
export type AgentAccessDiff = Static<typeof AgentAccessDiffSchema>;

/**
 * How much one sentence of an update's changes weighs, for its colour and its word: `high` (a program to run, code,
 * sending outside, a plain-http:// or raw-IP server, a lookalike publisher), `sensitive` (other new or wider asks),
 * `notice` (what it no longer has).
 */
export const UPDATE_CHANGE_LEVELS = ['high', 'sensitive', 'notice'] as const;
/** One of {@link UPDATE_CHANGE_LEVELS}. */
export type UpdateChangeLevel = (typeof UPDATE_CHANGE_LEVELS)[number];

/** What changed between two versions of a package, and the decisions the update starts from. */
export const UpdateDiffSchema = closed({
  fromVersion: str,
  toVersion: str,
  tools: CapabilityDiffSchema,
  workflows: CapabilityDiffSchema,
  connections: closed({ added, removed }),
  mcpServers: closed({ added, removed, changed: Type.Array(McpServerChangeSchema) }),
  triggers: closed({ added, removed, changed: Type.Array(str) }),
  agents: closed({ added, removed, access: Type.Array(AgentAccessDiffSchema) }),
  /** The same, as sentences a person reads, most sensitive first; empty when nothing it asks changed. */
  changes: Type.Array(str),
  /** The level of each sentence of `changes`, in the same order (`updateChangeLines` zips them). */
  changeLevels: Type.Array(oneOf(UPDATE_CHANGE_LEVELS)),
  /** True when the new version asks for anything the old one did not. */
  asksMore: Type.Boolean(),
  /** Per agent, the entries new in this version or whose family changed: asked again, unticked. */
  proposedAccess: mapOf(Type.Array(str)),
  /** The publisher's old and new names when they differ, compared with the lookalike check. */
  publisher: Type.Union([closed({ from: str, to: str, comparison: oneOf(NAME_COMPARISONS) }), Type.Null()]),
});
export type UpdateDiff = Static<typeof UpdateDiffSchema>;

/**
 * What is installed of the package now: its manifest (the manifest's one schema) and what the store holds of the
 * person's decisions.
 */
export const InstalledDecisionsSchema = closed({
  manifest: ApolliaManifestSchema,
  /** agent id → entry → how it runs, as the store records it. */
  access: mapOf(mapOf(oneOf(['allow', 'ask', 'deny']))),
  /** trigger id → whether it is armed, and whether it keeps a folder (shown as its path) or a secret. */
  triggers: mapOf(closed({ armed: Type.Boolean(), folder: nstr, secret: oneOf(['made', 'given', null]) })),
});
export type InstalledDecisions = Static<typeof InstalledDecisionsSchema>;
