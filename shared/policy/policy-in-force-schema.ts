/**
 * The organization's policy in force as every Api answer carries it (DESIGN.md "Managed policy"), once with
 * TypeBox; `policy.ts` re-exports the types and the policy file's schema (electron/core/policy/policy-schema.ts) is
 * built of the same parts. Loaded only by tests and tools.
 */
import { type Static, Type } from 'typebox';
import { closed, mapOf, oneOf, orNull } from '../base/schema-kit';
import { ACTION_FAMILIES, MCP_TRANSPORTS } from '../manifests/apollia-vocabulary';
import { MAX_MCP_SERVER_NAME, MCP_SERVER_NAME } from '../manifests/mcp-server-name';
import { POLICY_TRIGGER_KINDS, type PolicyTriggerKind } from './policy-trigger-kinds';

const str = Type.String();
const nstr = orNull('string');

// The policy file's schema (electron/core/policy/policy-schema.ts) is built of the same parts.

/** A name in a policy file (an organization, a publisher, a package, a program). */
export const PolicyNameSchema = Type.String({ minLength: 1, maxLength: 200 });
/** A minisign public key's base64 line (`RWQ…`), checked again by the minisign parser. */
const policyPublicKey = Type.String({ pattern: '^RW[A-Za-z0-9+/]{54}$' });

/** A publisher key the organization trusts, or a package it allows: by name and the key that must sign it. */
export const PolicyKeySchema = closed({ name: PolicyNameSchema, key: policyPublicKey });

/** One package the organization allows: by name and the key that must sign it, or by its archive's SHA-256. */
export const AllowedPackageSchema = Type.Unsafe<Static<typeof PolicyKeySchema> | { sha256: string }>({
  oneOf: [PolicyKeySchema, closed({ sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }) })],
});
export type AllowedPackage = Static<typeof AllowedPackageSchema>;

/** An MCP server the organization provides (Settings shows it locked). */
export const PolicyMcpServerSchema = closed({
  name: Type.String({ pattern: MCP_SERVER_NAME.source, maxLength: MAX_MCP_SERVER_NAME }),
  transport: oneOf(MCP_TRANSPORTS),
  command: Type.Optional(PolicyNameSchema),
  args: Type.Optional(Type.Array(str)),
  url: Type.Optional(Type.String({ minLength: 1 })),
});
export type PolicyMcpServer = Static<typeof PolicyMcpServerSchema>;

/**
 * `none`: unsigned packages may be installed; `any`: a signature is needed; `trusted`: a key trusted here must have
 * signed it.
 */
export const RequireSignatureSchema = oneOf(['none', 'any', 'trusted']);
/** Which templates may be applied: any, only those shipped with the app, or none. */
export const PolicyTemplatesSchema = oneOf(['any', 'builtin', 'none']);
/** A blocked tool: an exact tool name, or a pattern where `*` stands for any run of characters except `/`. */
export const BlockedToolSchema = Type.String({ minLength: 1, maxLength: 300 });

/**
 * An MCP server the organization allows or denies (version 2's `mcpServers.allowed` / `.denied`): every field given
 * must match, `*` standing for any run of characters; `args` matches each argument in turn, and as many of them.
 */
export const McpServerMatchSchema = closed(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
    command: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
    args: Type.Optional(Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 256 })),
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
  },
  { minProperties: 1 },
);
export type McpServerMatch = Static<typeof McpServerMatchSchema>;

/** What a tool rule does: nothing stricter (`allow`), ask before each call (`ask`), or withhold it (`block`). */
export const ToolRulePermissionSchema = oneOf(['allow', 'ask', 'block']);
/** A tool rule (version 2's `toolRules`): the tools it matches (a blocked-tools pattern) and what it does to them. */
export const ToolRuleSchema = closed({ match: BlockedToolSchema, permission: ToolRulePermissionSchema });
export type ToolRule = Static<typeof ToolRuleSchema>;

/** Where packages may be installed from: `any` place, or only `feeds` (no local files). */
export const InstallSourcesSchema = oneOf(['any', 'feeds']);
/** How updates are applied: the person chooses (`person`), or the organization fixes `notify`, `auto` or `hold`. */
export const PolicyUpdatesSchema = oneOf(['notify', 'auto', 'hold', 'person']);
/** A feed address prefix the organization trusts (`feeds.allowed`). */
export const FeedPrefixSchema = Type.String({ minLength: 1, maxLength: 4096 });

/** The policy in force: both files combined, every key with its value (absent keys take the permissive default). */
export const EffectivePolicySchema = closed({
  /** Shown as "Managed by …"; null when no file names one. */
  organization: nstr,
  /** Publisher keys the organization trusts (locked in Settings). */
  trustedPublishers: Type.Array(PolicyKeySchema),
  requireSignature: RequireSignatureSchema,
  /** Whether the person's own trusted keys count (and whether they may add one). */
  allowUserTrustedKeys: Type.Boolean(),
  /** The only packages that may be installed; null means any. */
  allowedPackages: Type.Union([Type.Array(AllowedPackageSchema), Type.Null()]),
  blockedActionFamilies: Type.Array(oneOf(ACTION_FAMILIES)),
  blockedTools: Type.Array(BlockedToolSchema),
  templates: PolicyTemplatesSchema,
  /** Whether each kind of trigger may be armed (and fires). */
  triggers: Type.Unsafe<Record<PolicyTriggerKind, boolean>>(
    closed(Object.fromEntries(POLICY_TRIGGER_KINDS.map((kind) => [kind, Type.Boolean()]))),
  ),
  /** The webhook listener's port, fixed by the organization; null leaves it to Settings. */
  webhookPort: orNull('integer'),
  /** Whether "runs without asking" may be chosen. */
  unattended: Type.Boolean(),
  mcpServers: Type.Array(PolicyMcpServerSchema),
  /** A file where the person's decisions are also appended as JSON lines; null for none. */
  activityExport: nstr,
  /** An OTLP address (`https://…`) the person's decisions are also sent to (version 2); null for none. */
  activityExportOtlp: nstr,
  /** The allowlists of MCP servers, one per source that sets one: a server must be on each; empty: any. */
  mcpServersAllowed: Type.Array(Type.Array(McpServerMatchSchema)),
  /** MCP servers denied, from every source: deny wins over any allowlist. */
  mcpServersDenied: Type.Array(McpServerMatchSchema),
  /** Tool rules from every source: the strictest rule matching a tool wins. */
  toolRules: Type.Array(ToolRuleSchema),
  installSources: InstallSourcesSchema,
  /** The allowlists of feed address prefixes, one per source that sets one: a feed must be on each; empty: any. */
  feedsAllowed: Type.Array(Type.Array(FeedPrefixSchema)),
  updates: PolicyUpdatesSchema,
});
export type EffectivePolicy = Static<typeof EffectivePolicySchema>;

/** One policy file as it was read. */
export const PolicySourceSchema = closed({
  /**
   * `machine`: a source that decides (the machine's registry key, managed preferences or file); `user`: the
   * per-user registry key or managed preferences, and `env`: the file `APOLLIA_POLICY_FILE` names, which only add
   * restrictions while a machine source exists.
   */
  role: oneOf(['machine', 'user', 'env']),
  /** Where it is: a file's path, a registry key (`HKLM\SOFTWARE\Policies\Apollia Desktop`) or a plist's path. */
  path: str,
  state: oneOf(['absent', 'read', 'invalid']),
  /** What is wrong with it (`invalid`), naming the key. */
  problem: nstr,
});
export type PolicySource = Static<typeof PolicySourceSchema>;

/** The policy as the core evaluated it: none, in force, or unreadable (fail closed). */
export const PolicyViewSchema = closed({
  state: oneOf(['none', 'applied', 'unreadable']),
  /** The combined policy; null when there is none or it is unreadable. */
  effective: Type.Union([EffectivePolicySchema, Type.Null()]),
  sources: Type.Array(PolicySourceSchema),
  /** Which file each key in force came from (a key both files restrict names both). */
  origin: mapOf(Type.Array(str)),
  /** For `unreadable`: the file and what is wrong with it. */
  problem: Type.Union([closed({ path: str, message: str }), Type.Null()]),
});
export type PolicyView = Static<typeof PolicyViewSchema>;
