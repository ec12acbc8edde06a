/**
 * Every piece of `.apo` manifest text the consent form and the CLI show, labelled, for
 * `textSafetyReport` (shared/words/display-text.ts): the Overview step and `inspect` warn about hidden or
 * lookalike characters in any of them.
 */
import { type ApolliaManifest, mcpCommandLine } from '../manifests/apollia-manifest';
import type { DisplayTextField } from './display-text';

/** The manifest's text fields a person reads, each with a label saying where it stands. */
export function manifestTextFields(manifest: ApolliaManifest): DisplayTextField[] {
  const fields: DisplayTextField[] = [
    { label: 'package name', text: manifest.package.name, kind: 'identifier' },
    { label: 'version', text: manifest.package.version, kind: 'identifier' },
    { label: 'publisher name', text: manifest.package.publisher, kind: 'name' },
  ];
  if (manifest.package.description)
    fields.push({ label: 'package description', text: manifest.package.description, kind: 'prose' });
  for (const agent of manifest.agents ?? []) {
    fields.push({ label: `name of agent ${agent.id}`, text: agent.name, kind: 'name' });
    fields.push({ label: `mission of agent ${agent.id}`, text: agent.mission, kind: 'prose' });
    (agent.examples ?? []).forEach((example, i) =>
      fields.push({ label: `example ${i + 1} of agent ${agent.id}`, text: example, kind: 'prose' }),
    );
    (agent.defaults?.access ?? []).forEach((entry) =>
      fields.push({ label: `access entry of agent ${agent.id}`, text: entry, kind: 'identifier' }),
    );
  }
  for (const tool of manifest.tools ?? []) {
    fields.push({ label: `description of tool ${tool.name}`, text: tool.description, kind: 'prose' });
    fields.push({ label: `module of tool ${tool.name}`, text: tool.module, kind: 'identifier' });
  }
  for (const workflow of manifest.workflows ?? []) {
    fields.push({ label: `description of workflow ${workflow.name}`, text: workflow.description, kind: 'prose' });
    (workflow.steps ?? []).forEach((step, i) =>
      fields.push({ label: `step ${i + 1} of workflow ${workflow.name}`, text: step, kind: 'name' }),
    );
  }
  for (const requirement of manifest.requires ?? []) {
    if (requirement.reason)
      fields.push({ label: `reason for connection ${requirement.type}`, text: requirement.reason, kind: 'prose' });
  }
  for (const server of manifest.mcp_servers ?? []) {
    const commandLine = mcpCommandLine(server);
    if (commandLine !== '')
      fields.push({ label: `command of MCP server ${server.name}`, text: commandLine, kind: 'command' });
    if (server.url) fields.push({ label: `URL of MCP server ${server.name}`, text: server.url, kind: 'command' });
    Object.keys(server.env ?? {}).forEach((key) =>
      fields.push({ label: `environment variable name of MCP server ${server.name}`, text: key, kind: 'identifier' }),
    );
  }
  (manifest.pip?.packages ?? []).forEach((requirement) =>
    fields.push({ label: 'pip requirement', text: requirement, kind: 'command' }),
  );
  for (const trigger of manifest.triggers ?? []) {
    if (trigger.input) fields.push({ label: `message of trigger ${trigger.id}`, text: trigger.input, kind: 'prose' });
  }
  return fields;
}
