/**
 * The policy file's versions and bounds (DESIGN.md "Managed policy"): what the reader checks before
 * it parses, and the caps the schema (`policy-schema.ts`, loaded only to compile it) takes.
 */

/** The policy versions this app reads. */
export const POLICY_VERSIONS = [1, 2] as const;

/** Largest policy file read, in bytes: a policy is a few kilobytes. */
export const MAX_POLICY_BYTES = 1024 * 1024;

/** Most trusted publishers and provided MCP servers one policy lists. */
export const MAX_POLICY_KEYS = 256;

/** Most allowed packages and blocked tools one policy lists. */
export const MAX_POLICY_LIST = 10_000;
