/**
 * The size of the agent an apply makes, as `POST /v2/agents` would receive it (template spec,
 * "Apply" step 2: the agent is made through `POST /v2/agents`' own function, "its body held to
 * `POST /v2/agents`' 1 MiB limit (`413`), its instructions the body with the parameters filled in,
 * its skills and rules as its skill files"; "agent.md", last paragraph: "the agent body ... checked
 * as `POST /v2/agents` checks theirs").
 *
 * The body is measured as the UTF-8 bytes of one JSON record: the agent's name, description, model,
 * tools and tool settings (pins filled), its instructions filled, and its files by path (each
 * skill's files, each rule and the output schema beside each SKILL.md). The instructions and the
 * files are measured without being built: a body naming a long parameter a thousand times is
 * counted, segment by segment, in time linear in the body and the values, and never filled when
 * it is over ("without unbounded work").
 *
 * Pure: no `node:`, no DOM; the check (electron/core/template) and the preview (apply-preview.ts)
 * measure the same way.
 */

/** `POST /v2/agents`' body limit: 1 MiB, 1,048,576 bytes (its `413`). */
export const AGENT_BODY_LIMIT = 1_048_576;

/** The UTF-8 bytes of `JSON.stringify(text)` without its two quotes, counted without building it. */
export function jsonTextBytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 || c === 0x5c || c === 0x08 || c === 0x0c || c === 0x0a || c === 0x0d || c === 0x09) bytes += 2;
    else if (c < 0x20) bytes += 6;
    else if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 6; // a lone surrogate: JSON.stringify writes it as \udxxx
    } else if (c >= 0xdc00 && c <= 0xdfff) bytes += 6;
    else bytes += 3;
  }
  return bytes;
}

/** The UTF-8 bytes of `text` (a lone surrogate as the 3 bytes of U+FFFD, as an encoder writes it). */
function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

// The placeholder as shared/manifests/template-manifest.ts reads it (a name stops at `}` or `$`).
const PLACEHOLDER = /\$\{parameters\.([^}$]*)\}/g;

/**
 * The bytes of `JSON.stringify(fillText(text, values))` without its quotes, counted without
 * filling: each literal segment once, each value's bytes once per name. A name without a value
 * stays as written, as `fillText` leaves it. Linear in `text` and the values.
 */
export function filledJsonTextBytes(
  text: string,
  values: Readonly<Record<string, string | number | boolean | undefined>>,
): number {
  const valueBytes = new Map<string, number>();
  let bytes = 0;
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    const at = match.index ?? 0;
    bytes += jsonTextBytes(text.slice(last, at));
    last = at + match[0].length;
    let size = valueBytes.get(name);
    if (size === undefined) {
      const value = Object.hasOwn(values, name) ? values[name] : undefined;
      size = jsonTextBytes(value === undefined ? match[0] : String(value));
      valueBytes.set(name, size);
    }
    bytes += size;
  }
  return bytes + jsonTextBytes(text.slice(last));
}

/** One file of the agent: where it lands (`skills/<name>/...`) and the bytes it holds. */
export interface AgentFileSize {
  path: string;
  /** Its bytes in the JSON body: the text's JSON bytes (UTF-8 text), else its base64 length. */
  jsonBytes: number;
}

/** The bytes a file's content takes as a JSON string: its text when UTF-8, else base64 (4 per 3 bytes). */
export function fileJsonBytes(text: string | null, byteLength: number): number {
  return text === null ? Math.ceil(byteLength / 3) * 4 : jsonTextBytes(text);
}

/** The bytes the `files` member adds to the body: `{"<path>":"<content>",...}` less the `{}` already counted. */
export function agentFilesJsonBytes(files: Iterable<AgentFileSize>): number {
  let bytes = 0;
  let count = 0;
  for (const file of files) {
    // "path":"content" and a comma between entries.
    bytes += jsonTextBytes(file.path) + 2 + 1 + file.jsonBytes + 2;
    count++;
  }
  return bytes + Math.max(0, count - 1);
}

/** What the agent's body holds, as the check and the preview know it. */
export interface AgentBodyParts {
  /** Everything but the instructions and the files, as plain JSON (small, already bounded). */
  record: Record<string, unknown>;
  /** agent.md's body, unfilled. */
  body: string;
  /** The values the body is filled with. */
  values: Readonly<Record<string, string | number | boolean | undefined>>;
  /** {@link agentFilesJsonBytes} of the agent's files. */
  filesJsonBytes: number;
}

/**
 * The bytes of `JSON.stringify({...record, instructions, files})`, the instructions filled, counted
 * without filling them or building the files.
 */
export function agentBodyBytes(parts: AgentBodyParts): number {
  // Every character of the shell is already JSON: `"` and `\` count once here, as written.
  const shell = JSON.stringify({ ...parts.record, instructions: '', files: {} });
  return utf8Bytes(shell) + filledJsonTextBytes(parts.body, parts.values) + parts.filesJsonBytes;
}

/** The refusal's words, the same at the check and at apply. */
export function agentTooLargeMessage(bytes: number, where: string): string {
  return `the agent ${where} would be ${bytes.toLocaleString('en-US')} bytes as \`POST /v2/agents\` receives it (its instructions filled, its skill files beside each SKILL.md), over its 1 MiB limit of ${AGENT_BODY_LIMIT.toLocaleString('en-US')} bytes (\`413\`)`;
}

/** A tool's setting in the agent's body (`definition.tool_settings`). */
export interface AgentToolSetting {
  permission: 'allow' | 'ask' | 'deny';
  pin?: unknown;
}

/** What of the manifest and the apply's choices the agent's body holds besides its instructions and files. */
export interface AgentRecordFields {
  name: string;
  description: string;
  model?: unknown;
  effort?: string;
  budgetPerRunUsd?: number;
  learning?: boolean;
  approvals: string;
  tools: string[];
  toolSettings: Record<string, AgentToolSetting>;
}

/**
 * The agent's `POST /v2/agents` record but its instructions and files (spec "Apply" step 2: its name, description,
 * tools, settings, model, thinking, cap).
 */
export function agentRecord(fields: AgentRecordFields): Record<string, unknown> {
  return {
    name: fields.name,
    description: fields.description,
    ...(fields.model !== undefined ? { model: fields.model } : {}),
    ...(fields.effort !== undefined ? { thinking: fields.effort } : {}),
    ...(fields.budgetPerRunUsd !== undefined ? { max_cost_usd: fields.budgetPerRunUsd } : {}),
    ...(fields.learning !== undefined ? { learning: fields.learning } : {}),
    approvals: fields.approvals,
    tools: fields.tools,
    tool_settings: fields.toolSettings,
  };
}
