/**
 * The strict JSON Schema of the organization's policy file, version 1 (DESIGN.md "Managed policy"),
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
} from '../../../shared/policy/policy-in-force-schema';
import { ACTION_FAMILIES } from '../../../shared/manifests/apollia-manifest';
import { POLICY_TRIGGER_KINDS, type PolicyTriggerKind } from '../../../shared/policy/policy';
import { closed, oneOf, type Static } from '../../../shared/base/schema-kit';
import { MAX_POLICY_KEYS, MAX_POLICY_LIST, POLICY_VERSIONS } from './policy-format';

/** Whether each kind of trigger may be armed; a kind left out is allowed. */
const triggers = Type.Unsafe<Partial<Record<PolicyTriggerKind, boolean>>>(
  closed(Object.fromEntries(POLICY_TRIGGER_KINDS.map((kind) => [kind, Type.Optional(Type.Boolean())]))),
);

/** The policy file's schema, version 1. */
export const POLICY_SCHEMA = closed({
  $schema: Type.Optional(Type.String()),
  version: oneOf(POLICY_VERSIONS),
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
  mcpServers: Type.Optional(Type.Array(PolicyMcpServerSchema, { maxItems: MAX_POLICY_KEYS })),
  activityExport: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
});

/** A policy file as the schema admits it (version 1). */
export type PolicyDocument = Static<typeof POLICY_SCHEMA>;
