/**
 * The spec's "Validation" rules, in the spec's table order, with its exact messages
 * (apollia-package-manifest.md, "Validation"). They run on a manifest the strict schema accepted.
 *
 * Where the spec is silent, these decisions hold (see README.md in this folder):
 * - Rule 2 checks `package.name`, `agents[].id`, `tools[].name`, `workflows[].name`,
 *   `triggers[].id` (every key the spec calls an identifier) and `mcp_servers[].name`.
 * - Rule 5: agents, tools and workflows share one namespace; trigger ids are unique among
 *   triggers and MCP server names among servers, each namespace separate from the others.
 * - Rule 6: any `pkg:` entry must name a tool of THIS package, so `pkg:other/x` is refused too
 *   (spec "[agents.defaults]": "A pkg: entry must name a tool of this package"); a workflow's
 *   name is not a tool, and a `pkg:` entry without `/` names no tool.
 * - Rule 7: a trigger's target is an agent id or a workflow name; a tool is not a target.
 */
import type { ApolliaManifest } from '../../../shared/manifests/apollia-manifest';
import type { Problem } from '../../../shared/manifests/inspection';
import { cargoRequirementToRange, isSemver } from './sdk-requirement';

const IDENTIFIER = /^[a-z0-9_-]+$/;

/** Every rule broken, first rule first; within a rule, in document (table) order. */
export function checkManifestRules(manifest: ApolliaManifest): Problem[] {
  const problems: Problem[] = [];
  const agents = manifest.agents ?? [];
  const tools = manifest.tools ?? [];
  const workflows = manifest.workflows ?? [];
  const servers = manifest.mcp_servers ?? [];
  const triggers = manifest.triggers ?? [];
  const pkg = manifest.package;

  // Rule 1: at least one agent, workflow or tool.
  if (agents.length + tools.length + workflows.length === 0) {
    problems.push({
      code: 'manifest.empty_package',
      message: 'the package declares no agent, no workflow and no tool',
    });
  }

  // Rule 2: names and identifiers match [a-z0-9_-]+.
  const identifiers: [string, string][] = [
    ['package.name', pkg.name],
    ...agents.map((a, i): [string, string] => [`agents[${i}].id`, a.id]),
    ...tools.map((t, i): [string, string] => [`tools[${i}].name`, t.name]),
    ...workflows.map((w, i): [string, string] => [`workflows[${i}].name`, w.name]),
  ];
  for (const [field, value] of identifiers) {
    if (!IDENTIFIER.test(value)) {
      problems.push({
        code: 'manifest.bad_identifier',
        message: `\`${field}\` value \`${value}\` must match [a-z0-9_-]+`,
        path: field,
      });
    }
  }
  servers.forEach((server, i) => {
    if (!IDENTIFIER.test(server.name)) {
      problems.push({
        code: 'manifest.bad_identifier',
        message: `MCP server name \`${server.name}\` must match [a-z0-9_-]+`,
        path: `mcp_servers[${i}].name`,
      });
    }
  });
  triggers.forEach((trigger, i) => {
    if (!IDENTIFIER.test(trigger.id)) {
      problems.push({
        code: 'manifest.bad_identifier',
        message: `\`triggers[${i}].id\` value \`${trigger.id}\` must match [a-z0-9_-]+`,
        path: `triggers[${i}].id`,
      });
    }
  });

  // Rule 3: version is semver.
  if (!isSemver(pkg.version)) {
    problems.push({
      code: 'manifest.bad_version',
      message: `package version \`${pkg.version}\` is not semver`,
      path: 'package.version',
    });
  }

  // Rule 4: sdk is a semver requirement (Cargo-style).
  if (cargoRequirementToRange(pkg.sdk) === null) {
    problems.push({
      code: 'manifest.bad_sdk_requirement',
      message: `sdk requirement \`${pkg.sdk}\` is not a semver requirement`,
      path: 'package.sdk',
    });
  }

  // Rule 5: no duplicate in the agent/tool/workflow namespace, among triggers, among MCP servers.
  const duplicates = (entries: [string, string][]) => {
    const seen = new Set<string>();
    const reported = new Set<string>();
    for (const [path, id] of entries) {
      if (seen.has(id) && !reported.has(id)) {
        reported.add(id);
        problems.push({
          code: 'manifest.duplicate_identifier',
          message: `identifier \`${id}\` is declared more than once`,
          path,
        });
      }
      seen.add(id);
    }
  };
  duplicates(identifiers.slice(1));
  duplicates(triggers.map((t, i): [string, string] => [`triggers[${i}].id`, t.id]));
  duplicates(servers.map((s, i): [string, string] => [`mcp_servers[${i}].name`, s.name]));

  // Rule 6: a default access pkg:<package>/<tool> names a tool of this package.
  const toolNames = new Set(tools.map((t) => t.name));
  agents.forEach((agent, i) => {
    (agent.defaults?.access ?? []).forEach((access, j) => {
      if (!access.startsWith('pkg:')) return;
      const rest = access.slice('pkg:'.length);
      const slash = rest.indexOf('/');
      const named = slash < 0 ? null : { pkg: rest.slice(0, slash), tool: rest.slice(slash + 1) };
      if (named && named.pkg === pkg.name && toolNames.has(named.tool)) return;
      problems.push({
        code: 'manifest.unknown_package_tool',
        message: `agent \`${agent.id}\` grants \`${access}\`, which is not a tool of package \`${pkg.name}\``,
        path: `agents[${i}].defaults.access[${j}]`,
      });
    });
  });

  // Rule 7: a trigger targets an agent or a workflow of this package.
  const targets = new Set([...agents.map((a) => a.id), ...workflows.map((w) => w.name)]);
  triggers.forEach((trigger, i) => {
    if (!targets.has(trigger.target)) {
      problems.push({
        code: 'manifest.unknown_trigger_target',
        message: `trigger \`${trigger.id}\` targets \`${trigger.target}\`, which is no agent or workflow of the package`,
        path: `triggers[${i}].target`,
      });
    }
  });

  return problems;
}
