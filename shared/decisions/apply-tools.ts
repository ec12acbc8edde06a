/**
 * The tools a template's apply gives its agent: the grants checked, each MCP tool at the owner's setting with its
 * pin filled, the built-in tools kept or withheld, and the agent's tool settings made from them.
 */
import { setOwn } from '../base/own-data';
import { andList } from '../base/word-lists';
import { type AgentToolSetting, filledJsonTextBytes } from '../manifests/agent-body';
import {
  canonicalPinList,
  fillText,
  mcpGateName,
  placeholderNames,
  soloPlaceholder,
  type ParameterValue,
  type PinScalar,
  type PinValue,
  type TemplateDetails,
} from '../manifests/template-manifest';
import type { PreviewContext, ToolSetting } from './apply-context';
import type { PreviewMcpServer, PreviewMcpTool } from './apply-preview-schema';

/** Fills one pin value; `missing` collects parameters that had no value. */
function fillPinScalar(value: PinScalar, values: Record<string, ParameterValue>, missing: Set<string>): PinScalar {
  if (typeof value !== 'string') return value;
  const own = (name: string) => (Object.hasOwn(values, name) ? values[name] : undefined);
  for (const name of placeholderNames(value)) if (own(name) === undefined) missing.add(name);
  const solo = soloPlaceholder(value);
  if (solo !== null) return own(solo) ?? null;
  return fillText(value, values);
}

function code(value: PinScalar): string {
  return value === null ? 'left out' : `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
}

/** The pin in one sentence: "`slack_send_message` can post only to channel_id `C0123ABCD`". */
function pinSentence(tool: string, pin: Record<string, PinValue>): string {
  const fixed: string[] = [];
  const omitted: string[] = [];
  for (const [arg, value] of Object.entries(pin)) {
    if (value === null) omitted.push(arg);
    else if (Array.isArray(value)) {
      fixed.push(`${arg} ${value.map(code).join(' or ')}`);
    } else fixed.push(`${arg} ${code(value)}`);
  }
  const verb = /send|post|message|mail/i.test(tool) ? 'can post only to' : 'can run only with';
  const head = fixed.length > 0 ? `\`${tool}\` ${verb} ${andList(fixed)}` : `\`${tool}\` can run only`;
  return omitted.length > 0 ? `${head}, with ${andList(omitted)} left out` : head;
}

/** The grants that name one of the package's MCP tools (by gate name); any other is a blocker. */
export function checkedGrants(ctx: PreviewContext): Set<string> {
  const { manifest } = ctx;
  const packageTools = new Set(
    (manifest.mcp ?? []).flatMap((entry) => entry.tools.map((tool) => mcpGateName(entry.server, tool))),
  );
  const grants = new Set<string>();
  ctx.request.grants.forEach((grant, i) => {
    if (!packageTools.has(grant)) {
      ctx.blockers.push({
        code: 'apply.grant_unknown',
        path: `grants[${i}]`,
        message: `\`${grant}\` is not one of ${manifest.name}'s MCP tools (a grant names one as mcp:<server>/<tool>)`,
      });
    } else grants.add(grant);
  });
  return grants;
}

/** The bytes every pin's text takes once filled, counted without building it. */
export function pinTextBytes(manifest: TemplateDetails['manifest'], values: Record<string, ParameterValue>): number {
  let bytes = 0;
  for (const entry of manifest.mcp ?? []) {
    for (const args of Object.values(entry.pin ?? {})) {
      for (const value of Object.values(args)) {
        for (const scalar of Array.isArray(value) ? value : [value])
          if (typeof scalar === 'string') bytes += filledJsonTextBytes(scalar, values);
      }
    }
  }
  return bytes;
}

type McpEntry = NonNullable<TemplateDetails['manifest']['mcp']>[number];

/** What every MCP tool of a preview is set from. */
export interface McpInputs {
  grants: ReadonlySet<string>;
  values: Record<string, ParameterValue>;
  pinsTooLarge: boolean;
}

/** One MCP server: a required one not saved is a blocker, another one not saved is skipped with a warning. */
export function previewMcpServer(ctx: PreviewContext, entry: McpEntry, i: number, inputs: McpInputs): PreviewMcpServer {
  const { manifest } = ctx;
  const saved = ctx.machine.savedMcpServers.includes(entry.server);
  const required = entry.required === true;
  if (!saved && required) {
    ctx.blockers.push({
      code: 'apply.mcp_server_missing',
      path: `mcp[${i}]`,
      message: `${manifest.name} needs the MCP server \`${entry.server}\`: save it in Settings → MCP servers first`,
    });
  } else if (!saved) {
    ctx.warnings.push({
      code: `mcp.${entry.server}`,
      message: `No MCP server \`${entry.server}\` is saved in Settings → MCP servers: its tools are skipped (${entry.tools.join(', ')})`,
    });
  }
  const allowed = new Set(entry.allow ?? []); // a set: both lists may hold thousands of names
  const tools = entry.tools.map((tool) => previewMcpTool(ctx, entry, tool, { saved, asks: allowed.has(tool) }, inputs));
  return { server: entry.server, saved, required, tools };
}

/**
 * One MCP tool at the owner's setting: `allow` only when granted; `deny` when its pin cannot be filled (a parameter
 * not given, or over the body limit) or the owner or the policy denies it.
 */
function previewMcpTool(
  ctx: PreviewContext,
  entry: McpEntry,
  tool: string,
  server: { saved: boolean; asks: boolean },
  inputs: McpInputs,
): PreviewMcpTool {
  const gateName = mcpGateName(entry.server, tool);
  let setting: ToolSetting = inputs.grants.has(gateName) ? 'allow' : 'ask';
  const result: PreviewMcpTool = { name: tool, gateName, asks: server.asks ? 'allow' : 'ask', setting, pin: null };
  const pinDef = entry.pin?.[tool];
  if (pinDef) {
    const missing = new Set<string>();
    const pinnedBy = new Set<string>();
    const filled: Record<string, PinValue> = {};
    for (const [arg, value] of Object.entries(pinDef)) {
      const scalars = Array.isArray(value) ? value : [value];
      for (const scalar of scalars)
        if (typeof scalar === 'string') placeholderNames(scalar).forEach((n) => pinnedBy.add(n));
      filled[arg] = Array.isArray(value)
        ? canonicalPinList(value.map((s) => fillPinScalar(s, inputs.values, missing)))
        : fillPinScalar(value, inputs.values, missing);
    }
    if (pinnedBy.size > 0) result.pinnedBy = [...pinnedBy];
    if (inputs.pinsTooLarge) {
      // Not filled: the agent is over its 1 MiB body, a blocker below; nothing is made.
      setting = 'deny';
      result.pinText = `\`${tool}\` is denied: its pin, filled, is over the agent's 1 MiB limit`;
    } else if (missing.size > 0) {
      // Spec "Apply": a pin whose parameter was not given sets the tool to deny, granted or not.
      const names = [...missing].map((n) => `\`${n}\``).join(', ');
      setting = 'deny';
      result.pinText = `\`${tool}\` is denied: give ${names} to let it run`;
      if (server.saved)
        ctx.warnings.push({
          code: `pins.${gateName}`,
          message: `\`${tool}\` is set to deny because its pin needs ${names}: give ${missing.size === 1 ? 'it' : 'them'} to let it run`,
        });
    } else {
      result.pin = filled;
      result.pinText = pinSentence(tool, filled);
    }
  }
  if (ctx.denied(gateName)) {
    if (inputs.grants.has(gateName) && server.saved) {
      ctx.warnings.push({
        code: `grants.${gateName}`,
        message: `You allowed \`${tool}\`, but \`${gateName}\` is ${ctx.deniedWhere(gateName)}: it stays denied`,
      });
    }
    setting = 'deny';
    result.ownerDenied = true;
  }
  result.setting = setting;
  return result;
}

/** Native tools: the owner's and the policy's denied ones are left out; those the owner unticked are withheld. */
export function previewNativeTools(ctx: PreviewContext): { tools: string[]; withheld: string[] } {
  const { manifest } = ctx;
  const templateTools = manifest.tools ?? [];
  const templateToolSet = new Set(templateTools);
  const withhold = new Set<string>();
  (ctx.request.withhold ?? []).forEach((tool, i) => {
    if (!templateToolSet.has(tool)) {
      ctx.blockers.push({
        code: 'apply.withhold_unknown',
        path: `withhold[${i}]`,
        message: `\`${tool}\` is not one of ${manifest.name}'s built-in tools, so it cannot be left out`,
      });
    } else withhold.add(tool);
  });
  const tools: string[] = [];
  const withheld: string[] = [];
  for (const tool of templateTools) {
    if (ctx.denied(tool))
      ctx.warnings.push({
        code: `grants.${tool}`,
        message: `The template gives its agent \`${tool}\`, but it is ${ctx.deniedWhere(tool)}: the agent does not get it`,
      });
    else if (withhold.has(tool)) withheld.push(tool);
    else tools.push(tool);
  }
  return { tools, withheld };
}

/** The agent's tool settings: every tool of a saved MCP server, and each withheld native tool as `deny`. */
export function agentToolSettings(mcp: PreviewMcpServer[], withheld: string[]): Record<string, AgentToolSetting> {
  const toolSettings: Record<string, AgentToolSetting> = {};
  for (const server of mcp) {
    if (!server.saved) continue;
    for (const tool of server.tools)
      setOwn(
        toolSettings,
        tool.gateName,
        tool.pin === null ? { permission: tool.setting } : { permission: tool.setting, pin: tool.pin },
      );
  }
  for (const tool of withheld) setOwn(toolSettings, tool, { permission: 'deny' });
  return toolSettings;
}
