/**
 * The strict JSON Schema of the organization's policy file, version 1 (DESIGN.md "Managed policy").
 * Every object refuses keys it does not know (`additionalProperties: false`), so a misspelt key is
 * a policy that fails closed, never a restriction silently ignored. Compiled ahead of time by
 * `scripts/compile-schemas.ts` (`generated/policy-validator.js`).
 */
import { ACTION_FAMILIES, MCP_TRANSPORTS } from '../../../shared/apollia-manifest';
import { MAX_MCP_SERVER_NAME, MCP_SERVER_NAME } from '../../../shared/mcp-server-name';
import { POLICY_TRIGGER_KINDS } from '../../../shared/policy';

/** The policy versions this app reads. */
export const POLICY_VERSIONS = [1] as const;

/** Largest policy file read, in bytes: a policy is a few kilobytes. */
export const MAX_POLICY_BYTES = 1024 * 1024;

const name = { type: 'string', minLength: 1, maxLength: 200 } as const;
/** A minisign public key's base64 line (`RWQ…`), checked again by the minisign parser. */
const publicKey = { type: 'string', pattern: '^RW[A-Za-z0-9+/]{54}$' } as const;
const sha256 = { type: 'string', pattern: '^[0-9a-f]{64}$' } as const;
const strict = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

/** The policy file's schema, version 1. */
export const POLICY_SCHEMA = strict(
  {
    $schema: { type: 'string' },
    version: { enum: [...POLICY_VERSIONS] },
    organization: name,
    trustedPublishers: { type: 'array', maxItems: 256, items: strict({ name, key: publicKey }, ['name', 'key']) },
    requireSignature: { enum: ['none', 'any', 'trusted'] },
    allowUserTrustedKeys: { type: 'boolean' },
    allowedPackages: {
      type: 'array',
      maxItems: 10_000,
      items: { oneOf: [strict({ name, key: publicKey }, ['name', 'key']), strict({ sha256 }, ['sha256'])] },
    },
    blockedActionFamilies: { type: 'array', items: { enum: [...ACTION_FAMILIES] } },
    blockedTools: { type: 'array', maxItems: 10_000, items: { type: 'string', minLength: 1, maxLength: 300 } },
    templates: { enum: ['any', 'builtin', 'none'] },
    triggers: strict(Object.fromEntries(POLICY_TRIGGER_KINDS.map((kind) => [kind, { type: 'boolean' }]))),
    webhookPort: { type: 'integer', minimum: 1024, maximum: 65535 },
    unattended: { type: 'boolean' },
    mcpServers: {
      type: 'array',
      maxItems: 256,
      items: strict(
        {
          name: { type: 'string', pattern: MCP_SERVER_NAME.source, maxLength: MAX_MCP_SERVER_NAME },
          transport: { enum: [...MCP_TRANSPORTS] },
          command: name,
          args: { type: 'array', items: { type: 'string' } },
          url: { type: 'string', minLength: 1 },
        },
        ['name', 'transport'],
      ),
    },
    activityExport: { type: 'string', minLength: 1, maxLength: 4096 },
  },
  ['version'],
);
