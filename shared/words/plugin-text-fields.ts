/**
 * Every piece of plugin manifest text a person reads, labelled and placed, for `textSafetyReport`
 * (shared/words/display-text.ts). One list for the CLI's `inspect` warnings (plugin/manifest-reader.ts)
 * and the plugin screen (PluginView.tsx), so both mark the same hidden or lookalike characters.
 */
import type { DisplayTextField } from './display-text';
import type { PluginManifestView } from '../manifests/plugin-manifest';

/** A text field with the manifest path it was read from, for a warning's `path`. */
export type PluginTextField = DisplayTextField & { path: string };

/** The plugin's text fields, in the order the plugin screen shows them. */
export function pluginTextFields(view: PluginManifestView): PluginTextField[] {
  const id = view.identity;
  return [
    { label: 'plugin name', path: 'name', text: id.name, kind: 'identifier' },
    { label: 'display name', path: 'display_name', text: id.display_name, kind: 'name' },
    { label: 'owner', path: 'owner', text: id.owner, kind: 'name' },
    { label: 'version', path: 'version', text: id.version, kind: 'identifier' },
    { label: 'description', path: 'description', text: id.description, kind: 'prose' },
    ...(id.homepage ? [{ label: 'homepage', path: 'homepage', text: id.homepage, kind: 'command' as const }] : []),
    ...(view.auth
      ? [{ label: 'credential shape', path: 'auth_shape', text: view.auth.type, kind: 'identifier' as const }]
      : []),
    ...view.capabilities.flatMap((c, i): PluginTextField[] => [
      { label: `capability name \`${c.name}\``, path: `capabilities[${i}].name`, text: c.name, kind: 'identifier' },
      {
        label: `description of capability \`${c.name}\``,
        path: `capabilities[${i}].description`,
        text: [c.description, ...c.routing_hints, ...c.routing_examples].join('\n'),
        kind: 'prose',
      },
    ]),
    ...view.tools.flatMap((t, i): PluginTextField[] => [
      { label: `tool name \`${t.name}\``, path: `tools[${i}].name`, text: t.name, kind: 'identifier' },
      {
        label: `description of tool \`${t.name}\``,
        path: `tools[${i}].description`,
        text: t.description,
        kind: 'prose',
      },
    ]),
    ...(view.remote_mcp
      ? [
          {
            label: 'remote MCP URL',
            path: 'remote_mcp.url_template',
            text: view.remote_mcp.url_template,
            kind: 'command' as const,
          },
        ]
      : []),
  ];
}
