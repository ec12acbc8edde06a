/**
 * agent.md `mcp` (spec: agentrun-template-packages.md, agent.md `mcp` and `pin`): each entry names
 * a server saved in Settings → MCP servers, the tools of it the agent uses (each by name, never
 * `*`), which of them run without asking (`allow`), and the arguments pinned per tool. A pin list
 * is kept in the spec's canonical order, whatever order the author wrote.
 */
import type { Problem } from '../../../shared/manifests/inspection';
import { MCP_SERVER_NAME, MCP_SERVER_NAME_RULE } from '../../../shared/manifests/mcp-server-name';
import { isCanonicalPinList, canonicalPinList, type PinScalar } from '../../../shared/manifests/template-manifest';
import { type FrontMatterFields, isObject, type Json, show } from './front-matter-fields';

/** An MCP tool or pinned argument name (spec: `mcp`, "`A-Z a-z 0-9 _ . -`; never `*`"). */
const TOOL_NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * Checks agent.md's `mcp` list into `check`'s problems: each entry's saved server, its named tools,
 * `allow` within them and its pins; a pin list given out of its kept order is normalised in place
 * and a `template.pin_normalised` warning goes to `warnings`.
 */
export function checkMcp(check: FrontMatterFields, value: unknown, warnings: Problem[]): void {
  if (!Array.isArray(value)) {
    check.fail(
      'template.invalid_field',
      'mcp',
      `\`mcp\` must be a list of {server, tools, required?, allow?, pin?}, not ${show(value)}`,
    );
    return;
  }
  const servers = new Set<string>();
  value.forEach((entry, i) => {
    const path = `mcp[${i}]`;
    if (!isObject(entry)) {
      check.fail(
        'template.invalid_field',
        path,
        `\`${path}\` must be {server, tools, required?, allow?, pin?}, not ${show(entry)}`,
      );
      return;
    }
    check.keys(entry, ['server', 'tools', 'required', 'allow', 'pin'], `${path}.`);
    if (entry.server === undefined)
      check.missing(`${path}.server`, 'the name the MCP server is saved under in Settings → MCP servers');
    else {
      const server = check.text(entry.server, `${path}.server`, {
        pattern: MCP_SERVER_NAME,
        form: `a saved MCP server's name (${MCP_SERVER_NAME_RULE})`,
      });
      if (server !== undefined) {
        if (servers.has(server))
          check.fail(
            'template.duplicate',
            `${path}.server`,
            `\`${path}.server\` repeats ${show(server)}: list each server once`,
          );
        servers.add(server);
      }
    }
    let tools: string[] = [];
    if (entry.tools === undefined)
      check.missing(`${path}.tools`, 'the tools of the server the agent uses, each by its name');
    else {
      tools = check.list(
        entry.tools,
        `${path}.tools`,
        (item, itemPath) => {
          if (item.includes('*'))
            check.fail('template.mcp_wildcard', itemPath, `\`${itemPath}\` ${show(item)}: name each tool, never \`*\``);
          else if (!TOOL_NAME.test(item))
            check.fail(
              'template.invalid_field',
              itemPath,
              `\`${itemPath}\` ${show(item)} is not a tool name (A-Z a-z 0-9 _ . -)`,
            );
        },
        { nonEmpty: true },
      );
    }
    if (entry.required !== undefined) check.bool(entry.required, `${path}.required`);
    // A set: both lists may run to thousands of names, and no package text costs more than linear time.
    const known = new Set(tools);
    if (entry.allow !== undefined) {
      check.list(entry.allow, `${path}.allow`, (item, itemPath) => {
        if (!known.has(item))
          check.fail('template.mcp_allow', itemPath, `\`${itemPath}\` ${show(item)} is not one of \`${path}.tools\``);
      });
    }
    if (entry.pin !== undefined) checkPin(check, entry.pin, `${path}.pin`, known, warnings);
  });
}

/** `pin`: `{<tool>: {<argument>: <value>}}` (spec: agent.md `mcp`). */
function checkPin(
  check: FrontMatterFields,
  value: unknown,
  path: string,
  tools: ReadonlySet<string>,
  warnings: Problem[],
): void {
  if (!isObject(value)) {
    check.fail('template.pin', path, `\`${path}\` must be {<tool>: {<argument>: <value>}}, not ${show(value)}`);
    return;
  }
  for (const [tool, args] of Object.entries(value)) {
    if (!tools.has(tool)) {
      check.fail('template.pin', path, `\`${path}\` pins ${show(tool)}, which is not one of this entry's tools`);
      continue;
    }
    const toolPath = `${path}.${tool}`;
    if (!isObject(args) || Object.keys(args).length < 1 || Object.keys(args).length > 8) {
      check.fail(
        'template.pin',
        toolPath,
        `\`${toolPath}\` must pin 1 to 8 top-level arguments, as {<argument>: <value>}`,
      );
      continue;
    }
    for (const [arg, pinned] of Object.entries(args)) {
      const argPath = `${toolPath}.${arg}`;
      if (!TOOL_NAME.test(arg)) {
        check.fail('template.pin', argPath, `\`${argPath}\`: ${show(arg)} is not an argument name (A-Z a-z 0-9 _ . -)`);
        continue;
      }
      if (Array.isArray(pinned)) {
        if (!pinned.every((item) => pinScalar(check, item, argPath))) continue;
        // The spec says how a pin list is KEPT ("each value once, null first, then by its JSON
        // text"), not an order the author must write: any order and repeats are accepted, the
        // normalised list is what is kept and shown, and a warning shows it.
        const scalars = pinned as PinScalar[];
        const canonical = canonicalPinList(scalars);
        if (canonical.length < 1 || canonical.length > 16) {
          check.fail(
            'template.pin',
            argPath,
            `\`${argPath}\` must list 1 to 16 distinct values, not ${canonical.length}`,
          );
          continue;
        }
        if (!isCanonicalPinList(scalars)) {
          (args as Json)[arg] = canonical;
          warnings.push({
            code: 'template.pin_normalised',
            path: argPath,
            message: `agent.md: \`${argPath}\` is kept as ${JSON.stringify(canonical)} (each value once, null first, then by JSON text)`,
          });
        }
      } else pinScalar(check, pinned, argPath);
    }
  }
}

/** One pinned value, or one item of a pinned list: text, a finite number, true/false or null. */
function pinScalar(check: FrontMatterFields, value: unknown, path: string): boolean {
  const ok =
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value));
  if (!ok)
    check.fail(
      'template.pin',
      path,
      `\`${path}\` ${show(value)} must be text, a number, true/false or null (a list holds only these)`,
    );
  return ok;
}
