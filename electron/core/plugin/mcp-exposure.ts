/**
 * The plugin manifest's MCP exposure (spec "MCP exposure"): its own MCP server (`mcp`) and a
 * remote MCP server it connects to (`remote_mcp`), read with the field reader.
 */
import type { McpTransport, PluginMcpView, PluginRemoteMcpView } from '../../../shared/manifests/plugin-manifest';
import { has, type JsonObject, type Reader } from './field-reader';

/** Spec "MCP exposure": STDIO, SSE or HTTP; port required for HTTP/SSE. */
export function readMcp(r: Reader, root: JsonObject): PluginMcpView | null {
  if (!has(root, 'mcp') || root.mcp === null) return null;
  const obj = r.object(root.mcp, 'mcp');
  if (!obj) return null;
  r.unknownFields(obj, 'mcp', ['transport', 'port', 'host', 'path']);
  const before = r.errors.length;
  const raw = r.string(obj, 'transport', 'mcp');
  let transport: McpTransport | null = null;
  if (raw !== null) {
    const upper = raw.toUpperCase();
    if (upper === 'STDIO' || upper === 'SSE' || upper === 'HTTP') transport = upper;
    else r.error('plugin.invalid_value', 'mcp.transport', `must be \`STDIO\`, \`SSE\` or \`HTTP\`, not \`${raw}\``);
  }
  let port: number | null = null;
  if (has(obj, 'port') && obj.port !== null) {
    const value = obj.port;
    if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65535) port = value;
    else
      r.error(
        'plugin.invalid_value',
        'mcp.port',
        `must be a whole number from 1 to 65535, not ${JSON.stringify(value)}`,
      );
  } else if (transport === 'HTTP' || transport === 'SSE') {
    r.error('plugin.mcp_port_missing', 'mcp.port', `is required when \`mcp.transport\` is \`${transport}\``);
  }
  const host = r.string(obj, 'host', 'mcp', { optional: true });
  const path = r.string(obj, 'path', 'mcp', { optional: true });
  if (r.errors.length > before || transport === null) return null;
  return { transport, port, host, path };
}

/**
 * Reads `remote_mcp`: its URL template, placeholders, credential keys and allowed tools.
 *
 * The template must be an http(s) URL once its `{name}` placeholders are filled; plain http is a
 * warning (`plugin.remote_mcp_insecure`), since credentials rendered into it would cross the network unencrypted.
 */
export function readRemoteMcp(r: Reader, root: JsonObject): PluginRemoteMcpView | null {
  if (!has(root, 'remote_mcp') || root.remote_mcp === null) return null;
  const obj = r.object(root.remote_mcp, 'remote_mcp');
  if (!obj) return null;
  r.unknownFields(obj, 'remote_mcp', ['url_template', 'name', 'description', 'credential_keys', 'allowed_tools']);
  const before = r.errors.length;
  const template = r.string(obj, 'url_template', 'remote_mcp', { nonEmpty: true });
  const name = r.string(obj, 'name', 'remote_mcp', { optional: true });
  const description = r.string(obj, 'description', 'remote_mcp', { optional: true });
  const credentialKeys = r.stringList(obj, 'credential_keys', 'remote_mcp');
  const allowedTools = r.stringList(obj, 'allowed_tools', 'remote_mcp');
  if (template === null || r.errors.length > before) return null;
  const placeholders = [
    ...new Set([...template.matchAll(/\{\{?\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}?\}/g)].map((m) => m[1] ?? '')),
  ];
  const sample = template.replace(/\{\{?\s*[A-Za-z_][A-Za-z0-9_.-]*\s*\}?\}/g, 'x');
  let protocol = '';
  try {
    protocol = new URL(sample).protocol;
  } catch {
    r.error('plugin.invalid_url', 'remote_mcp.url_template', 'is not a URL once its placeholders are filled');
    return null;
  }
  if (protocol === 'http:')
    r.warn(
      'plugin.remote_mcp_insecure',
      'remote_mcp.url_template',
      'uses plain http: credentials rendered into it would cross the network unencrypted',
    );
  else if (protocol !== 'https:') {
    r.error('plugin.invalid_url', 'remote_mcp.url_template', `must be an http or https URL, not \`${protocol}\``);
    return null;
  }
  return {
    url_template: template,
    placeholders,
    name,
    description,
    credential_keys: credentialKeys,
    allowed_tools: allowedTools,
  };
}
