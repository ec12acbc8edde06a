/**
 * The strict JSON Schemas of the organization's policy file, versions 1 and 2 (DESIGN.md "Managed policy"),
 * defined once with TypeBox: the schema `scripts/compile-schemas.ts` compiles ahead of time
 * (`generated/policy-validator.js`) and, as its static type, the {@link PolicyDocument} the core
 * reads. Every object refuses keys it does not know (`additionalProperties: false`), so a misspelt
 * key is a policy that fails closed, never a restriction silently ignored. Its parts (a publisher key, an allowed
 * package, a provided MCP server, the values of the other keys) are those of the policy in force as the Api answers
 * it, defined once in `shared/contract/api-replies.ts`. Loaded only by the schema compiler and tests: the reader runs the
 * compiled validator and imports only the type.
 */
import { Type } from 'typebox';
import {
  RequireSignatureSchema,
  PolicyTemplatesSchema,
  PolicyNameSchema,
  PolicyMcpServerSchema,
  PolicyKeySchema,
  BlockedToolSchema,
  AllowedPackageSchema,
  McpServerMatchSchema,
  ToolRuleSchema,
  InstallSourcesSchema,
  PolicyUpdatesSchema,
  FeedPrefixSchema,
} from '../../../shared/policy/policy-in-force-schema';
import { ACTION_FAMILIES } from '../../../shared/manifests/apollia-manifest';
import { POLICY_TRIGGER_KINDS, type PolicyTriggerKind } from '../../../shared/policy/policy';
import { closed, oneOf, type Static } from '../../../shared/base/schema-kit';
import { MAX_POLICY_KEYS, MAX_POLICY_LIST } from './policy-format';

/** Whether each kind of trigger may be armed; a kind left out is allowed. */
const triggers = Type.Unsafe<Partial<Record<PolicyTriggerKind, boolean>>>(
  closed(Object.fromEntries(POLICY_TRIGGER_KINDS.map((kind) => [kind, Type.Optional(Type.Boolean())]))),
);

/** The keys versions 1 and 2 share, with the same meaning. */
const SHARED_KEYS = {
  $schema: Type.Optional(Type.String()),
  organization: Type.Optional(PolicyNameSchema),
  trustedPublishers: Type.Optional(Type.Array(PolicyKeySchema, { maxItems: MAX_POLICY_KEYS })),
  requireSignature: Type.Optional(RequireSignatureSchema),
  allowUserTrustedKeys: Type.Optional(Type.Boolean()),
  allowedPackages: Type.Optional(Type.Array(AllowedPackageSchema, { maxItems: MAX_POLICY_LIST })),
  blockedActionFamilies: Type.Optional(Type.Array(oneOf(ACTION_FAMILIES))),
  blockedTools: Type.Optional(Type.Array(BlockedToolSchema, { maxItems: MAX_POLICY_LIST })),
  templates: Type.Optional(PolicyTemplatesSchema),
  triggers: Type.Optional(triggers),
  webhookPort: Type.Optional(Type.Integer({ minimum: 1024, maximum: 65535 })),
  unattended: Type.Optional(Type.Boolean()),
};

const providedServers = Type.Array(PolicyMcpServerSchema, { maxItems: MAX_POLICY_KEYS });
const exportFile = Type.String({ minLength: 1, maxLength: 4096 });

/** The policy file's schema, version 1. */
export const POLICY_SCHEMA = closed({
  ...SHARED_KEYS,
  version: oneOf([1]),
  mcpServers: Type.Optional(providedServers),
  activityExport: Type.Optional(exportFile),
});

/** A policy file as the schema admits it (version 1). */
export type PolicyDocument = Static<typeof POLICY_SCHEMA>;

const serverList = Type.Array(McpServerMatchSchema, { maxItems: MAX_POLICY_LIST });

/**
 * The policy file's schema, version 2: version 1's keys, with `mcpServers` an object (the servers the organization
 * `provided`, as version 1's list, and those `allowed` and `denied`), `activityExport` a `file` or an `otlp` address
 * (`https://`, or `http://` to this computer's loopback: decisions are not sent in the clear), and `toolRules`,
 * `installSources`, `feeds` and `updates`.
 */
export const POLICY_V2_SCHEMA = closed({
  ...SHARED_KEYS,
  version: oneOf([2]),
  mcpServers: Type.Optional(
    closed({
      provided: Type.Optional(providedServers),
      allowed: Type.Optional(serverList),
      denied: Type.Optional(serverList),
    }),
  ),
  toolRules: Type.Optional(Type.Array(ToolRuleSchema, { maxItems: MAX_POLICY_LIST })),
  installSources: Type.Optional(InstallSourcesSchema),
  feeds: Type.Optional(closed({ allowed: Type.Optional(Type.Array(FeedPrefixSchema, { maxItems: MAX_POLICY_KEYS })) })),
  updates: Type.Optional(PolicyUpdatesSchema),
  activityExport: Type.Optional(
    closed(
      {
        file: Type.Optional(exportFile),
        // https, or plain http to this computer's loopback (a local collector); activity/otlp-export.ts checks the rest.
        otlp: Type.Optional(
          Type.String({
            pattern: '^(https://[^/?#\\s]+|http://(127\\.0\\.0\\.1|localhost|\\[::1\\])(:[0-9]{1,5})?([/?#]|$))',
            maxLength: 4096,
          }),
        ),
      },
      { minProperties: 1, maxProperties: 1 },
    ),
  ),
});

/** A policy file as the schema admits it (version 2). */
export type PolicyDocumentV2 = Static<typeof POLICY_V2_SCHEMA>;

/** A policy file of either version. */
export type AnyPolicyDocument = PolicyDocument | PolicyDocumentV2;
