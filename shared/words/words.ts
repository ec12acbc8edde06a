/**
 * How the app says things to people: one vocabulary for action families, tools, MCP transports,
 * trigger types, trigger and delivery states, agent programs and how a webhook call is signed.
 * Every screen and the CLI's text read their words here, so a thing is said one way everywhere
 * ("shell" runs commands on this computer in Settings and in the consent form alike). Raw forms
 * (`pkg:quiet-notes/tidy`, `streamable-http`, a status number) are only ever secondary text beside
 * these words, never the words themselves. Pure: no DOM, no Node.
 */
import type { ActionFamily, McpTransport } from '../manifests/apollia-manifest';
import { apolliaNativeTool, reachesOutside, templateTool } from '../manifests/catalogues';
import { RUN_CAUSE_WORDS } from '../triggers/run-queue';

// ---- Action families (spec "Action families") ----

/** What each family lets a package do, as a sentence's start ("Reads your personal data — …"). */
export const FAMILY_WORDS: Record<ActionFamily, string> = {
  execute_code: 'Runs code on this computer',
  send_external: 'Can send things outside this computer',
  write_or_delete: 'Can write or delete things',
  read_personal: 'Reads your personal data',
  read: 'Reads data that is not personal',
};

/** What a family lets a package do, after "can" ("can now run programs on this computer"). */
export const FAMILY_ABILITY: Record<ActionFamily, string> = {
  execute_code: 'run programs on this computer',
  send_external: 'send things outside this computer',
  write_or_delete: 'write or delete things',
  read_personal: 'read your personal data',
  read: 'read data that is not personal',
};

/** A short label for a family badge. */
export const FAMILY_LABELS: Record<ActionFamily, string> = {
  execute_code: 'Runs code',
  send_external: 'Sends outside',
  write_or_delete: 'Writes or deletes',
  read_personal: 'Reads personal data',
  read: 'Reads',
};

/** The badge of a tool whose family this app cannot know before it runs (an MCP tool, an unknown name). */
export const UNKNOWN_FAMILY_LABEL = 'Not known before it runs';

/**
 * The badge beside "Reads" on a built-in tool that reaches the internet although its family is
 * `read` (`web_search`, `web_fetch`): what it looks up leaves this computer. The verdict counts the
 * same tools as reaching outside (`reachesOutside` in `shared/manifests/catalogues.ts`), so a row and the
 * verdict above it never disagree.
 */
export const REACHES_OUTSIDE_LABEL = 'Sends what it looks up outside';

/** The same, as a sentence, for the badge's title and the CLI. */
export const REACHES_OUTSIDE_WORDS =
  'It only reads, but what it searches for or fetches is sent outside this computer (a query can carry personal data).';

/** An agent's autonomy tier in words (spec `[agents.defaults]` autonomy). */
export const AUTONOMY_WORDS: Record<string, string> = {
  assisted: 'Assisted: it suggests, and you do each step',
  supervised: 'Supervised: it acts, and checks in with you at each step',
  bounded_autonomous: 'Works on its own within limits, and checks in when it reaches one',
  long_autonomous: 'Works for a long time on its own without checking in',
};

/** An agent's planning setting in words (spec `[agents.defaults]` planning). */
export const PLANNING_WORDS: Record<string, string> = {
  never: 'Acts at once, without writing a plan first',
  auto: 'Writes a plan first when a task looks long',
  always: 'Writes a plan before acting on every task',
};

/** How a granted tool runs (an agent's `permission`), as its badge says it. */
export const PERMISSION_WORDS: Record<'allow' | 'ask' | 'deny', string> = {
  allow: 'Runs without asking',
  ask: 'Asks you first',
  deny: 'Not allowed',
};

/**
 * An agent's tool on the dashboard, said as its state: granted or not first, then how a granted one runs. The same
 * badge never sits beside opposite buttons ("Asks you first [Grant]" beside "Asks you first [Revoke]"): a tool not
 * granted says so, whatever it would do once granted.
 */
export function accessStateWords(granted: boolean, permission: 'allow' | 'ask' | 'deny'): string {
  if (!granted) return 'Not granted';
  if (permission === 'allow') return 'Granted · runs without asking';
  if (permission === 'ask') return 'Granted · asks you first';
  return 'Granted · withheld';
}

// ---- Tools ----

/** A tool as a person reads it: words first, the id it goes by beside them (small, muted). */
export interface ToolWords {
  /** What it does, in words: the label. */
  words: string;
  /** Its id (`file_read`, `mcp:ledger/lookup`, `pkg:invoices/extract_totals`): secondary text only. */
  id: string;
  /** Whether it reaches outside this computer although it only reads (a web tool). */
  outward: boolean;
}

/**
 * A tool named by its id, in words: a built-in tool by the catalogue's description (`.apo` tools
 * first, then template tools), an MCP tool as a tool of that program, a package's tool or workflow
 * by its name and package, another agent by its id. `describe` gives a package's own description
 * when the caller has its manifest.
 */
export function toolWords(id: string, describe?: (id: string) => string | undefined): ToolWords {
  const given = describe?.(id);
  const outward = reachesOutside(id);
  if (given !== undefined) return { words: given, id, outward };
  if (id.startsWith('mcp:')) return { words: mcpToolWords(id), id, outward };
  if (id.startsWith('pkg:')) {
    const [pkg = '', name = ''] = id.slice(4).split('/');
    return { words: `The tool “${name}” of the package ${pkg}`, id, outward };
  }
  if (id.startsWith('workflow:')) {
    const [pkg = '', name = ''] = id.slice(9).split('/');
    return { words: `The workflow “${name}” of the package ${pkg}`, id, outward };
  }
  if (id.startsWith('agent:')) return { words: `Hand work to the agent ${id.slice(6)}`, id, outward };
  const native = apolliaNativeTool(id) ?? templateTool(id);
  return { words: native?.description ?? UNKNOWN_TOOL_WORDS, id, outward };
}

/**
 * A tool's short name for a line of text that lists several (the activity record's "allowed …"): a built-in tool by
 * its name, a package's own tool or workflow, an MCP tool with its program, another agent; never a raw id.
 */
export function toolShortName(id: string): string {
  const [owner = '', name = ''] = id.slice(id.indexOf(':') + 1).split('/');
  if (id.startsWith('pkg:')) return `its tool “${name}”`;
  if (id.startsWith('workflow:')) return `its workflow “${name}”`;
  if (id.startsWith('mcp:')) return `“${name}” of the program ${owner}`;
  if (id.startsWith('agent:')) return `the agent ${id.slice(6)}`;
  return id;
}

/** A built-in tool name no catalogue of this app lists. */
export const UNKNOWN_TOOL_WORDS = 'A built-in tool this app does not know';

/** An MCP tool (`mcp:server/tool`) in words. */
export function mcpToolWords(id: string): string {
  const [server = '', name = ''] = id.slice(4).split('/');
  return `Use “${name}”, a tool of the program ${server} (what it does is known only when it runs)`;
}

// ---- MCP transports (spec `[[mcp_servers]]` transport; Settings → MCP servers) ----

/** How an MCP server is reached, in words; the raw transport follows in parentheses where it helps. */
export const TRANSPORT_WORDS: Record<McpTransport, string> = {
  stdio: 'a program on this computer',
  'streamable-http': 'over the network (HTTP)',
  sse: 'over the network (an event stream)',
};

export { PLUGIN_TRANSPORT_WORDS } from '../manifests/plugin-manifest';

/** A transport as a choice in Settings → MCP servers: what kind of server it is, in words. */
export function transportChoiceWords(transport: McpTransport): string {
  return transport === 'stdio' ? 'A program on this computer' : `A server ${TRANSPORT_WORDS[transport]}`;
}

/** The transport of a server in words, an absent one being `stdio` (the spec's default). */
export function transportWords(transport: McpTransport | undefined): string {
  return TRANSPORT_WORDS[transport ?? 'stdio'];
}

// ---- Triggers ----

/** Every type a trigger may have: an `.apo` source's, or a template trigger's. */
export type TriggerType = 'cron' | 'interval' | 'file_watch' | 'webhook' | 'schedule' | 'at';

/** What starts a trigger, by its type: said in parentheses beside its name ("first-monday (on a schedule)"). */
export const TRIGGER_TYPE_WORDS: Record<TriggerType, string> = {
  cron: 'on a schedule',
  schedule: 'on a schedule',
  interval: 'every so often',
  at: 'once, at a set time',
  file_watch: 'when files change in a folder',
  webhook: 'when another program calls it',
};

/** A trigger's live state (`TriggerLiveView.state`), as its badge says it. */
export const TRIGGER_STATE_WORDS: Record<'listening' | 'watching' | 'scheduled' | 'problem' | 'done', string> = {
  listening: 'Listening',
  watching: 'Watching',
  scheduled: 'Scheduled',
  done: 'Done: it fired once',
  problem: 'Problem',
};

/**
 * What caused a fire (`lastFire.cause`, a run request's cause), in words: the Runs view's words
 * (`RUN_CAUSE_WORDS`), the manifest's own trigger types said the same way.
 */
export const FIRE_CAUSE_WORDS: Record<string, string> = {
  ...RUN_CAUSE_WORDS,
  cron: RUN_CAUSE_WORDS.schedule,
  interval: RUN_CAUSE_WORDS.schedule,
};

/** A fire's cause in words; an unknown cause is shown as it is. */
export function fireCauseWords(cause: string): string {
  return FIRE_CAUSE_WORDS[cause] ?? cause;
}

/**
 * What an answer to a webhook call meant, in words: the HTTP status is the sender's business, the
 * person reads whether the call was taken.
 */
export function deliveryWords(status: number): string {
  if (status === 202) return 'Accepted';
  if (status === 200) return 'Ignored';
  if (status === 401) return 'Refused: not signed right';
  if (status === 408) return 'Refused: too slow';
  if (status === 409) return 'Refused: a replay';
  if (status === 413) return 'Refused: too large';
  if (status === 429) return 'Not queued: too many runs waiting (the sender retries)';
  if (status === 503) return 'Not queued: try again (the sender retries)';
  return 'Refused';
}

/**
 * How a sender signs a webhook call, in words: the scheme's name is what the sender's developer
 * looks up; the algorithm is theirs to read in the details, not the person's headline.
 */
export const WEBHOOK_SIGNING_WORDS =
  'The sender signs each call with the secret, the Standard Webhooks way (a library does it in one line).';

// ---- Where the trigger host runs ----

/**
 * The detail of the trigger host's start and stop in the activity record (after "Triggers went
 * live" / "Triggers stopped"): what it means for armed triggers, never the host's process id alone.
 */
export function triggerHostWords(event: 'started' | 'stopped', origin?: string | null): string {
  return event === 'started'
    ? `webhooks are received on ${origin ?? 'this computer'}, folders watched and schedules kept`
    : 'nothing receives webhooks, watches folders or keeps schedules';
}

// ---- Agent programs (template spec agent.md `harness`) ----

/**
 * A template's agent program preference in words (spec: "apply takes the first this server runs,
 * else the first"): `Runs on pi, or claude-agent where pi is not available`.
 */
export function harnessWords(harness: readonly string[]): string {
  const [first, ...rest] = harness;
  if (first === undefined) return 'Runs on the agent program your runtime uses by default';
  if (rest.length === 0) return `Runs on the agent program ${first}`;
  return `Runs on the agent program ${first}, or ${rest.join(', or ')} where ${first} is not available`;
}
