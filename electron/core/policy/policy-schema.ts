/**
 * The strict JSON Schema of the organization's policy file, version 1 (DESIGN.md "Managed policy"),
 * defined once with TypeBox: the schema `scripts/compile-schemas.ts` compiles ahead of time
 * (`generated/policy-validator.js`) and, as its static type, the {@link PolicyDocument} the core
 * reads. Every object refuses keys it does not know (`additionalProperties: false`), so a misspelt
 * key is a policy that fails closed, never a restriction silently ignored. Loaded only by the schema
 * compiler and tests: the reader runs the compiled validator and imports only the type.
 */
import { type Static, Type } from 'typebox';
import { ACTION_FAMILIES, MCP_TRANSPORTS } from '../../../shared/apollia-manifest';
import { MAX_MCP_SERVER_NAME, MCP_SERVER_NAME } from '../../../shared/mcp-server-name';
import { POLICY_TRIGGER_KINDS, type PolicyTriggerKind } from '../../../shared/policy';
import { closed, oneOf } from '../../../shared/schema-kit';
import { MAX_POLICY_KEYS, MAX_POLICY_LIST, POLICY_VERSIONS } from './policy-format';

const name = Type.String({ minLength: 1, maxLength: 200 });
/** A minisign public key's base64 line (`RWQ…`), checked again by the minisign parser. */
const publicKey = Type.String({ pattern: '^RW[A-Za-z0-9+/]{54}$' });
const sha256 = Type.String({ pattern: '^[0-9a-f]{64}$' });
const keyedPackage = closed({ name, key: publicKey });

/** One package the organization allows: by name and the key that must sign it, or by its archive's SHA-256. */
export const AllowedPackageSchema = Type.Unsafe<Static<typeof keyedPackage> | { sha256: string }>({
  oneOf: [keyedPackage, closed({ sha256 })],
});

/** An MCP server the organization provides (Settings shows it locked). */
export const PolicyMcpServerSchema = closed({
  name: Type.String({ pattern: MCP_SERVER_NAME.source, maxLength: MAX_MCP_SERVER_NAME }),
  transport: oneOf(MCP_TRANSPORTS),
  command: Type.Optional(name),
  args: Type.Optional(Type.Array(Type.String())),
  url: Type.Optional(Type.String({ minLength: 1 })),
});

/** Whether each kind of trigger may be armed; a kind left out is allowed. */
const triggers = Type.Unsafe<Partial<Record<PolicyTriggerKind, boolean>>>(
  closed(Object.fromEntries(POLICY_TRIGGER_KINDS.map((kind) => [kind, Type.Optional(Type.Boolean())]))),
);

/** The policy file's schema, version 1. */
export const POLICY_SCHEMA = closed({
  $schema: Type.Optional(Type.String()),
  version: oneOf(POLICY_VERSIONS),
  organization: Type.Optional(name),
  trustedPublishers: Type.Optional(Type.Array(keyedPackage, { maxItems: MAX_POLICY_KEYS })),
  requireSignature: Type.Optional(oneOf(['none', 'any', 'trusted'])),
  allowUserTrustedKeys: Type.Optional(Type.Boolean()),
  allowedPackages: Type.Optional(Type.Array(AllowedPackageSchema, { maxItems: MAX_POLICY_LIST })),
  blockedActionFamilies: Type.Optional(Type.Array(oneOf(ACTION_FAMILIES))),
  blockedTools: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { maxItems: MAX_POLICY_LIST })),
  templates: Type.Optional(oneOf(['any', 'builtin', 'none'])),
  triggers: Type.Optional(triggers),
  webhookPort: Type.Optional(Type.Integer({ minimum: 1024, maximum: 65535 })),
  unattended: Type.Optional(Type.Boolean()),
  mcpServers: Type.Optional(Type.Array(PolicyMcpServerSchema, { maxItems: MAX_POLICY_KEYS })),
  activityExport: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
});

/** A policy file as the schema admits it (version 1). */
export type PolicyDocument = Static<typeof POLICY_SCHEMA>;
