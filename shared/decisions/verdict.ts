/**
 * The verdict at the top of the `.apo` consent form: one headline of the worst a package could do,
 * a level, and the two or three facts behind it, and the line between what a
 * package declares and what Apollia enforces.
 *
 * Honesty rule: a Python tool or workflow is code that runs with the person's rights whatever
 * action family its author declares (spec `[[tools]]`: the family is written by the author), and an
 * MCP server with a command is a program on this computer. Nothing here says a package "cannot" do
 * something unless Apollia itself stops it. Pure: no DOM, no Node.
 */
import type { SignatureSummary } from '../manifests/inspection';
import { signatureVerdictOf, signatureVerdictWords, type SignatureWords } from '../trust/signature-verdict';
import {
  type ActionFamily,
  type ApolliaManifest,
  type McpServerEntry,
  mcpCommandLine,
  isPinnedRequirement,
} from '../manifests/apollia-manifest';
import { type NativeTool, reachesOutside } from '../manifests/catalogues';
import { someNames } from '../base/word-lists';

/** How much care a package needs: `low` (reads what is not personal), `care`, `high`. */
export type VerdictLevel = 'low' | 'care' | 'high';

/** The verdict a person reads first. */
export interface Verdict {
  level: VerdictLevel;
  /** One sentence: the worst this package could do. */
  headline: string;
  /** Two or three facts behind the headline, worst first (one when there is little to say). */
  facts: string[];
}

/** Launchers that fetch a program from a registry at run time (`npx`, `uvx`, …). */
const LAUNCHERS: ReadonlySet<string> = new Set(['npx', 'uvx', 'bunx', 'pnpx', 'pipx']);

/** Flags of a launcher whose value is the package spec (`npx -p pkg@1 cmd`, `uvx --from pkg==1 cmd`). */
const SPEC_FLAGS: ReadonlySet<string> = new Set(['-p', '--package', '--from']);

/** The last path segment of a command, without a Windows `.cmd`/`.exe` suffix. */
function commandName(command: string): string {
  const base = command.split(/[\\/]/).pop() ?? command;
  return base.replace(/\.(cmd|exe|bat)$/i, '').toLowerCase();
}

/**
 * Whether a package spec names one version: `pkg@1.2.3`, `@scope/pkg@1.2.3`, `pkg==1.2.3`; `@latest`, ranges and tags
 * are not.
 */
export function isPinnedSpec(spec: string): boolean {
  if (isPinnedRequirement(spec)) return true;
  const at = spec.lastIndexOf('@');
  if (at <= 0) return false;
  const version = spec.slice(at + 1);
  return /^v?\d+(\.\d+)*([-+][0-9A-Za-z.-]+)?$/.test(version);
}

/**
 * When a server's command fetches its program at run time (`npx`, `uvx`, `pipx run`, …) without a
 * pinned version, the package spec it fetches (`ledger-mcp`, `pkg@latest`); else null. Such a
 * program can change after the person consents.
 */
export function unpinnedLaunch(server: Pick<McpServerEntry, 'command' | 'args'>): string | null {
  const name = commandName(server.command ?? '');
  if (!LAUNCHERS.has(name)) return null;
  const args = [...(server.args ?? [])];
  if (name === 'pipx' && args[0] === 'run') args.shift();
  let spec: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (SPEC_FLAGS.has(arg)) {
      spec = args[i + 1];
      break;
    }
    const eq = /^(--package|--from)=(.+)$/.exec(arg);
    if (eq) {
      spec = eq[2];
      break;
    }
    if (!arg.startsWith('-')) {
      spec = arg;
      break;
    }
  }
  if (spec === undefined || spec === '') return `${name} (no program named)`;
  return isPinnedSpec(spec) ? null : spec;
}

/** What a manifest adds up to: the parts the verdict and the Overview's two lists are made of. */
export interface PackageReach {
  /** Python tools and workflows: code that runs with the person's rights. */
  pythonCode: string[];
  /** MCP servers with a command: their command lines. */
  programs: { name: string; commandLine: string }[];
  /** Built-in tools that run code (`shell`, `python`). */
  nativeCode: string[];
  /** What declares it reads personal data: tools, workflows, built-in tools, the profile source. */
  personal: string[];
  /** What reaches outside: `send_external` declarations, web tools, network MCP servers. */
  outward: string[];
  /** What declares it writes or deletes. */
  writes: string[];
  /** Programs fetched at run time without a pinned version (their package specs). */
  unpinnedPrograms: string[];
  /** pip requirements not pinned to one version. */
  unpinnedPip: string[];
  /** Number of proposed triggers. */
  triggers: number;
}

/** Sorts what a manifest declares into what it could reach (see {@link PackageReach}). */
export function packageReach(manifest: ApolliaManifest, catalogue: readonly NativeTool[]): PackageReach {
  const reach: PackageReach = {
    pythonCode: [],
    programs: [],
    nativeCode: [],
    personal: [],
    outward: [],
    writes: [],
    unpinnedPrograms: [],
    unpinnedPip: [],
    triggers: manifest.triggers?.length ?? 0,
  };
  const byFamily = (family: ActionFamily, name: string) => {
    if (family === 'read_personal') reach.personal.push(name);
    else if (family === 'send_external') reach.outward.push(name);
    else if (family === 'write_or_delete') reach.writes.push(name);
  };
  for (const item of [...(manifest.tools ?? []), ...(manifest.workflows ?? [])]) {
    reach.pythonCode.push(item.name);
    byFamily(item.action, item.name);
  }
  const natives = new Set<string>();
  let profile = false;
  for (const agent of manifest.agents ?? []) {
    for (const entry of agent.defaults?.access ?? []) if (!entry.includes(':')) natives.add(entry);
    if (agent.defaults?.sources?.includes('profile')) profile = true;
  }
  for (const name of natives) {
    const tool = catalogue.find((t) => t.name === name);
    if (!tool) continue;
    if (tool.family === 'execute_code') reach.nativeCode.push(name);
    if (reachesOutside(name)) reach.outward.push(name);
    byFamily(tool.family, name);
  }
  if (profile) reach.personal.push('your profile');
  for (const server of manifest.mcp_servers ?? []) {
    const commandLine = mcpCommandLine(server);
    if (commandLine !== '') {
      reach.programs.push({ name: server.name, commandLine });
      const unpinned = unpinnedLaunch(server);
      if (unpinned !== null) reach.unpinnedPrograms.push(unpinned);
    } else if (server.url !== undefined) {
      reach.outward.push(server.url);
    }
  }
  reach.unpinnedPip = (manifest.pip?.packages ?? []).filter((requirement) => !isPinnedRequirement(requirement));
  return reach;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * The verdict of a manifest. `high`: code runs with the person's rights, or
 * personal data can leave the computer, or a program can change after consent. `care`: it reads
 * personal data, writes, or reaches outside. `low`: it only reads what is not personal.
 */
export function packageVerdict(manifest: ApolliaManifest, catalogue: readonly NativeTool[]): Verdict {
  const reach = packageReach(manifest, catalogue);
  const runsCode = reach.pythonCode.length + reach.programs.length + reach.nativeCode.length > 0;
  const leaks = reach.personal.length > 0 && (reach.outward.length > 0 || runsCode);
  const changes = reach.unpinnedPrograms.length + reach.unpinnedPip.length > 0;

  let headline: string;
  if (runsCode) {
    const and =
      reach.outward.length > 0
        ? ' and send your data out'
        : reach.personal.length > 0
          ? ' that read your personal data'
          : reach.writes.length > 0
            ? ' that change or delete your files'
            : '';
    headline = `Can run programs on this computer${and}`;
  } else if (leaks) headline = 'Can read your personal data and send it out';
  else if (reach.outward.length > 0) headline = 'Can send things outside this computer';
  else if (reach.personal.length > 0) headline = 'Can read your personal data';
  else if (reach.writes.length > 0) headline = 'Can change or delete your files';
  else headline = 'Only reads things that are not personal';

  const facts: string[] = [];
  if (reach.programs.length > 0) {
    facts.push(
      `Starts ${plural(reach.programs.length, 'program')} on this computer: ${someNames(
        reach.programs.map((p) => p.commandLine),
        2,
      )}.`,
    );
  }
  if (reach.pythonCode.length > 0) {
    facts.push(
      `Its Python code (${someNames(reach.pythonCode)}) runs with your permissions; what it says each part does is its author's word.`,
    );
  }
  if (reach.nativeCode.length > 0)
    facts.push(`Its agents may use ${someNames(reach.nativeCode)}, which run any command you could.`);
  if (changes) {
    const what = [...reach.unpinnedPrograms, ...reach.unpinnedPip];
    facts.push(`Not pinned to one version (${someNames(what)}): that code can change after you consent.`);
  }
  if (reach.personal.length > 0 && reach.outward.length > 0) {
    facts.push(
      `Reads your personal data (${someNames(reach.personal)}) and can reach outside (${someNames(reach.outward)}): together they could leak it.`,
    );
  } else if (reach.outward.length > 0) facts.push(`Can reach outside this computer: ${someNames(reach.outward)}.`);
  else if (reach.personal.length > 0) facts.push(`Reads your personal data: ${someNames(reach.personal)}.`);
  if (reach.writes.length > 0) facts.push(`Can write or delete: ${someNames(reach.writes)}.`);
  if (facts.length < 2 && reach.triggers > 0)
    facts.push(
      `Proposes ${plural(reach.triggers, 'trigger')}, off until you arm ${reach.triggers === 1 ? 'it' : 'them'}.`,
    );
  if (facts.length === 0) facts.push('Every tool it asks for only reads, and runs no code of its own.');

  const level: VerdictLevel =
    runsCode || leaks || changes
      ? 'high'
      : reach.personal.length + reach.outward.length + reach.writes.length > 0
        ? 'care'
        : 'low';
  return { level, headline, facts: facts.slice(0, 3) };
}

/** Words for each level, as the badge shows them. */
export const VERDICT_LABELS: Record<VerdictLevel, string> = {
  low: 'Low risk',
  care: 'Needs care',
  high: 'High risk',
};

/**
 * What Apollia itself enforces for an installed `.apo` package, true for every package (DESIGN.md
 * "Consent, install, apply"; `shared/decisions/consent.ts`). The list names only rules the app applies, so
 * a person can tell them from what the package merely declares.
 */
export function enforcedRules(manifest: ApolliaManifest): string[] {
  const rules = ['Its agents are offered only the tools you tick; nothing else it lists is given to them.'];
  rules.push(
    'A call to a tool that is not read-only asks you first (a tool whose kind is not known here always asks).',
  );
  if ((manifest.triggers?.length ?? 0) > 0) rules.push('No trigger starts anything until you arm it.');
  if ((manifest.tools?.length ?? 0) + (manifest.workflows?.length ?? 0) + (manifest.mcp_servers?.length ?? 0) > 0) {
    rules.push('Once a tool or program runs, Apollia does not limit what its code does.');
  }
  return rules;
}

/**
 * The publisher line for a package whose signature reads `signature`, naming `publisher` (its
 * `package.publisher`, so a verified key whose name differs is said): the words of the one
 * signature verdict (`shared/trust/signature-verdict.ts`), for surfaces that have a stored summary
 * rather than an inspection's verdict (the dashboard, `list`, `install`).
 */
export function publisherStatus(signature: SignatureSummary, publisher: string | null = null): SignatureWords {
  return signatureVerdictWords(signatureVerdictOf(signature, publisher));
}

/**
 * The manifest as the person's decisions grant it: each agent's default access holds only the entries it is granted.
 * The verdict a Review shows is computed from this, so unticking `shell` takes "Its agents may use shell" away; the
 * package's own code, programs and servers stay, since install writes them whatever is granted.
 */
export function grantedManifest(
  manifest: ApolliaManifest,
  agents: Readonly<Record<string, Readonly<Record<string, { permission: 'allow' | 'ask' | 'deny' }>>>>,
): ApolliaManifest {
  return {
    ...manifest,
    agents: (manifest.agents ?? []).map((agent) => {
      const decided = Object.hasOwn(agents, agent.id) ? agents[agent.id] : undefined;
      const access = agent.defaults?.access;
      if (access === undefined) return agent;
      const granted = access.filter(
        (entry) => decided !== undefined && Object.hasOwn(decided, entry) && decided[entry]?.permission !== 'deny',
      );
      return { ...agent, defaults: { ...agent.defaults, access: granted } };
    }),
  };
}
