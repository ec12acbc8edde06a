/**
 * The `summary` of an `.apo` inspection (DESIGN.md "Validation contract"), built from a manifest
 * that may have been refused: every read is defensive, so a summary exists whenever the TOML parsed.
 */
import {
  ACTION_FAMILIES,
  type ActionFamily,
  type ApolliaManifest,
  isSensitive,
} from '../../../shared/manifests/apollia-manifest';
import type { ApoSummary, SignatureSummary, TriggerSummary } from '../../../shared/manifests/inspection';

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function list(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value)
    ? value.filter((v): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v))
    : [];
}

function table(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * Sorted, unique families other than `read` among the package's tools and workflows, and `execute_code` when an MCP
 * server of it starts a program here (a `command`): a program is code execution, as the verdict and the text say
 * (DESIGN.md "Managed policy": `execute_code` covers the programs a package starts).
 */
export function sensitiveFamilies(manifest: ApolliaManifest): ActionFamily[] {
  const families = new Set<ActionFamily>();
  for (const entry of [...list(manifest.tools), ...list(manifest.workflows)]) {
    const family = entry.action as ActionFamily;
    if ((ACTION_FAMILIES as readonly string[]).includes(family) && isSensitive(family)) families.add(family);
  }
  if (list(manifest.mcp_servers).some((server) => text(server.command) !== '')) families.add('execute_code');
  return [...families].sort();
}

/** What arming a trigger of this source type needs from the user. */
export function triggerNeeds(type: string): TriggerSummary['needs'] {
  return type === 'file_watch' ? 'folder' : type === 'webhook' ? 'secret' : null;
}

/** The summary of a parsed manifest, with the archive's SHA-256 and its signature state (`invalid` when refused). */
export function summariseManifest(manifest: ApolliaManifest, sha256: string, signature: SignatureSummary): ApoSummary {
  const pkg = table(manifest.package);
  return {
    name: text(pkg.name),
    version: text(pkg.version),
    publisher: text(pkg.publisher),
    sensitive_families: sensitiveFamilies(manifest),
    connections: list(manifest.requires).map((r) => text(r.type)),
    mcp_servers: list(manifest.mcp_servers).map((s) => text(s.name)),
    triggers: list(manifest.triggers).map((t) => {
      const type = text(table(t.source).type);
      return { id: text(t.id), type, needs: triggerNeeds(type) };
    }),
    sha256,
    signature,
  };
}
