/**
 * What an MCP server's name may be: one definition for the template check (agent.md `mcp[].server`),
 * the Api's `saveMcpServer` request schema, the Settings form and the owner's denied-tools list.
 *
 * A template names a server "by the name a server saves them under (Settings → MCP servers)"
 * (template spec, agent.md `mcp`), so the template check and Settings must accept exactly the same
 * names, or a template passes inspection and can never be applied. The package spec fixes the
 * charset: "Server name, [a-z0-9_-]+. Prefix of its tools: mcp:<name>/<tool>" (apollia spec
 * `[[mcp_servers]]`); 64 characters at most, as the gate name `mcp:<server>/<tool>` bounds it.
 */

/** The longest MCP server name. */
export const MAX_MCP_SERVER_NAME = 64;

/** The pattern's source, for JSON Schemas (`pattern`) and for building the gate-name pattern. */
export const MCP_SERVER_NAME_SOURCE = `[a-z0-9_-]{1,${MAX_MCP_SERVER_NAME}}`;

/** An MCP server name, whole: lower-case letters, digits, `_` and `-`, 1 to 64 of them. */
export const MCP_SERVER_NAME = new RegExp(`^${MCP_SERVER_NAME_SOURCE}$`);

/** The rule in words, for hints and refusal messages. */
export const MCP_SERVER_NAME_RULE = `lower-case letters, digits, _ and -, at most ${MAX_MCP_SERVER_NAME}`;

/** Whether `name` is a name an MCP server can be saved and named under. */
export function isMcpServerName(name: string): boolean {
  return MCP_SERVER_NAME.test(name);
}

/** The most environment variables a server saved in Settings may be given. */
export const MAX_MCP_ENV = 64;

/**
 * An environment variable's name, for a server saved in Settings (its tokens): a letter or `_`, then letters, digits
 * and `_`, what a shell can set; one rule for the Api's request schema and the Settings form.
 */
export const ENV_VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
