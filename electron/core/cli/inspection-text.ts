/**
 * An inspection in words, for a person at a terminal (`inspect` without `--json`, and `install`
 * without `--yes` before it asks). What the package is and who published it come first, then what
 * it can do, worst first (DESIGN.md "Consent, install, apply"), then the verdict.
 */
import { APP_DOWNLOAD_PAGE } from '../../../shared/base/app-links';
import { refusalAdviceFor } from '../../../shared/contract/refusal-actor';
import {
  type ActionFamily,
  type ApolliaManifest,
  isSensitive,
  mcpCommandLine,
  isPinnedRequirement,
} from '../../../shared/manifests/apollia-manifest';
import { CONNECTION_TYPES } from '../../../shared/manifests/catalogues';
import { describeInterval, nextCronTimes, nextIntervalTimes } from '../../../shared/triggers/cron';
import { describeCron, fireTimeWords } from '../../../shared/words/cron-words';
import type {
  ApoDetails,
  ApoSummary,
  Inspection,
  Problem,
  SignatureSummary,
} from '../../../shared/manifests/inspection';
import { VERDICT_LABELS } from '../../../shared/decisions/verdict';
import {
  signatureVerdictOf,
  signatureVerdictWords,
  type SignatureVerdict,
} from '../../../shared/trust/signature-verdict';
import type { TemplateDetails } from '../../../shared/manifests/template-manifest';
import { templateVerdict } from '../../../shared/decisions/template-verdict';
import { transportWords } from '../../../shared/words/words';
import { textSafetyReport } from '../../../shared/words/display-text';
import { manifestTextFields } from '../../../shared/words/manifest-text-fields';
import { checkManifestSchema } from '../apollia/manifest-parse';
import type { InspectionPolicy, PolicyWithheld } from '../policy/inspection-policy';
import { capabilityLines } from './capability-lines';

/** Options of {@link formatInspection}. */
export interface InspectionTextOptions {
  /** "Now", for the next fire times of triggers (tests pass a fixed date). */
  now?: Date;
  /** The inspection's signature verdict (with its update story); without it, the summary's signature alone. */
  verdict?: SignatureVerdict | null;
  /** What the organization's policy would do to it (`inspect`); without it, or with no policy, nothing is said. */
  policy?: InspectionPolicy | null;
  /** "Managed by …" of the policy in force. */
  managedBy?: string | null;
  /** How it stands to the installed package of its name (`installedLine`), said after the signature; none: nothing. */
  installed?: string | null;
  /** The input is a plain folder (no agent.md, no apollia.toml): said so, not "template folder". */
  plainFolder?: boolean;
}

const KIND_WORDS: Record<Inspection['kind'], string> = {
  apo: '.apo package',
  template: 'template folder',
  plugin: 'plugin manifest',
};

function bytes(count: number): string {
  if (count < 1024) return `${count} B`;
  if (count < 1024 * 1024) return `${(count / 1024).toFixed(1)} KiB`;
  return `${(count / 1024 / 1024).toFixed(1)} MiB`;
}

function problemLine(problem: Problem): string {
  return problem.path && !problem.message.includes(problem.path)
    ? `${problem.message} (at ${problem.path})`
    : problem.message;
}

/** The verdict block: "Accepted." or "Refused: <first problem>", the others, then warnings. */
function verdict(inspection: Inspection): string[] {
  const lines: string[] = [];
  const [first, ...others] = inspection.errors;
  if (inspection.ok || !first) lines.push('Accepted.');
  else {
    lines.push(`Refused: ${problemLine(first)}`);
    // A refusal a newer app fixes says where the newer app is.
    // A zip renamed .apo: what to do with it.
    if (first.code === 'archive.unsupported_format' && first.message.startsWith('zip'))
      lines.push(
        'A .apo is a tar archive, not a zip: unzip it into a folder, then `apollia-desktop pack FOLDER` writes the .apo.',
      );
    if (refusalAdviceFor(inspection.errors).updateApp)
      lines.push(`Update the app: get the newest Apollia Desktop at ${APP_DOWNLOAD_PAGE}, then inspect it again.`);
    if (others.length > 0) {
      lines.push('Further problems:');
      for (const problem of others) lines.push(`  - ${problemLine(problem)}`);
    }
  }
  if (inspection.warnings.length > 0) {
    lines.push('Warnings:');
    for (const warning of inspection.warnings) lines.push(`  - ${problemLine(warning)}`);
  }
  return lines;
}

/** One thing the policy withholds, in words. */
function withheldLine(item: PolicyWithheld): string {
  if (item.kind === 'trigger') return `trigger ${item.name} cannot be armed: ${item.why}`;
  const what = item.agent !== null ? `agent ${item.agent}: ${item.name}` : item.name;
  return item.effect === 'asks_first' ? `${what} asks you first: ${item.why}` : `${what} is not granted: ${item.why}`;
}

/**
 * What the organization's policy would do if it were installed (an `.apo`) or applied (a template), as install and
 * apply behave: refused (each reason with its code), or allowed with what it withholds rather than refuses. Nothing
 * without a policy; an unreadable one refuses everything until it is fixed (fail closed).
 */
function policyLines(kind: Inspection['kind'], options: InspectionTextOptions): string[] {
  const policy = options.policy;
  if (!policy || policy.state === 'none') return [];
  if (policy.state === 'unreadable')
    return [
      `policy: your organization's policy file ${policy.problem?.path ?? ''} cannot be used: ${policy.problem?.message ?? 'it is not valid'}. Until it is fixed, installing, applying, granting and arming are refused (inspection still works); your administrator can act.`,
    ];
  if (policy.outcome === null) return [];
  const doing = kind === 'apo' ? 'installing' : 'applying';
  const who = options.managedBy ? ` (${options.managedBy})` : '';
  const lines: string[] = [];
  if (policy.outcome === 'refused') {
    lines.push(`policy: ${doing} it would be refused by your organization's policy${who}:`);
    for (const refusal of policy.refusals) lines.push(`  - ${refusal.message} (${refusal.code})`);
  } else lines.push(`policy: your organization's policy${who} allows ${doing} it.`);
  if (policy.withheld.length > 0) {
    lines.push(
      policy.outcome === 'refused'
        ? '  It would also withhold, were it allowed (withheld, not refused):'
        : `  It withholds, rather than refuses (${doing} goes ahead without them):`,
    );
    for (const item of policy.withheld) lines.push(`  - ${withheldLine(item)}`);
  }
  return lines;
}

/** The "what it can do" lines of a manifest the schema accepted. */
function apoBody(manifest: ApolliaManifest, now: Date): string[] {
  const lines: string[] = [];
  const tools = manifest.tools ?? [];
  const workflows = manifest.workflows ?? [];
  const section = (title: string, body: string[]) => {
    if (body.length === 0) return;
    lines.push('', title, ...body.map((line) => `  ${line}`));
  };

  section('What it can do (sensitive first):', capabilityLines(manifest));

  section(
    'Agents (default access is a proposal: you decide what is granted):',
    (manifest.agents ?? []).flatMap((agent) => {
      const access = agent.defaults?.access ?? [];
      return [
        `${agent.id} (${agent.name}): ${agent.mission}`,
        `  default access: ${access.length > 0 ? access.join(', ') : 'nothing'}`,
      ];
    }),
  );

  const family = (f: ActionFamily) => (isSensitive(f) ? `${f}, sensitive` : f);
  section('Tools and workflows:', [
    ...tools.map((t) => `tool ${t.name} [${family(t.action)}] (${t.module}): ${t.description}`),
    ...workflows.map(
      (w) =>
        `workflow ${w.name} [${family(w.action)}] (${w.module}): ${w.description}${w.steps?.length ? ` Steps: ${w.steps.join(' → ')}.` : ''}`,
    ),
  ]);

  section(
    'Connections it needs:',
    (manifest.requires ?? []).map((r) => {
      const label = CONNECTION_TYPES.find((c) => c.type === r.type)?.label;
      return `${r.type}${label ? ` (${label})` : ''}${r.reason ? `: ${r.reason}` : ''}`;
    }),
  );

  section(
    'MCP servers it brings:',
    (manifest.mcp_servers ?? []).flatMap((server) => {
      const out = [
        server.command
          ? `${server.name}: runs \`${mcpCommandLine(server)}\``
          : `${server.name}: connects to ${server.url ?? '(no URL)'}, ${transportWords(server.transport)} (${server.transport ?? 'stdio'})`,
      ];
      const env = Object.keys(server.env ?? {});
      if (env.length > 0) out.push(`  environment: ${env.join(', ')}`);
      return out;
    }),
  );

  section(
    'Python packages:',
    (manifest.pip?.packages ?? []).map((p) => (isPinnedRequirement(p) ? p : `${p} (not pinned to one version)`)),
  );

  section(
    'Triggers it proposes (none is armed unless you arm it):',
    (manifest.triggers ?? []).flatMap((trigger) => {
      const source = trigger.source;
      const head = `${trigger.id} → ${trigger.target}`;
      switch (source.type) {
        case 'cron': {
          const next = nextCronTimes(source.schedule, { dayRule: 'and' }, now, 3);
          return [
            `${head}: ${describeCron(source.schedule, { dayRule: 'and' })} [${source.schedule}]`,
            `  next: ${next.map(fireTimeWords).join(', ')}`,
          ];
        }
        case 'interval': {
          const next = nextIntervalTimes(source.every, now, 3);
          return [
            `${head}: ${describeInterval(source.every)} once armed`,
            `  next if armed now: ${next.map(fireTimeWords).join(', ')}`,
          ];
        }
        case 'file_watch':
          return [
            `${head}: when a folder changes${source.recursive ? ' (including subfolders)' : ''}; needs a folder picked when armed`,
          ];
        case 'webhook':
          return [`${head}: on an HTTP call; a secret is made on this computer when armed`];
      }
    }),
  );
  return lines;
}

/** An `.apo` inspection in words. */
function formatApo(
  summary: ApoSummary | null,
  details: ApoDetails | null,
  now: Date,
  verdict: SignatureVerdict | null,
  policy: string[],
): string[] {
  const lines: string[] = [];
  if (summary) {
    const description =
      details && typeof details.manifest.package?.description === 'string' ? details.manifest.package.description : '';
    lines.push(`${summary.name || '(unnamed)'} ${summary.version}${description ? ` — ${description}` : ''}`);
    // The one signature verdict's words (shared/trust/signature-verdict.ts), as every screen shows them.
    const words = signatureVerdictWords(verdict ?? signatureVerdictOf(summary.signature, summary.publisher));
    lines.push(`publisher: ${summary.publisher || '(none)'} (${words.label})`);
    lines.push(`signature: ${words.explanation}`);
    if (words.namesNote) lines.push(`  ! ${words.namesNote}`);
    if (words.updateNote) lines.push(`update: ${words.updateNote}`);
  } else {
    lines.push('.apo package (could not be read far enough to say what it is)');
  }
  lines.push(...policy);
  if (details) {
    lines.push(
      `archive: ${details.files.length} ${details.files.length === 1 ? 'file' : 'files'}, ${bytes(details.totalBytes)}${summary?.sha256 ? `, sha256 ${summary.sha256}` : ''}`,
    );
    const sdk = typeof details.manifest.package?.sdk === 'string' ? details.manifest.package.sdk : '?';
    lines.push(
      `SDK: needs ${sdk}; this app serves ${details.sdkVersion} (${details.sdkSupported ? 'supported' : 'not supported'})`,
    );
    // Only a manifest the strict schema accepted is typed data; a refused one is summarised above only.
    if (checkManifestSchema(details.manifest as never).length === 0) {
      const misleading = textSafetyReport(manifestTextFields(details.manifest));
      if (misleading.length > 0) {
        lines.push('', 'Text that could mislead you:');
        for (const warning of misleading) lines.push(`  ! ${warning.message}`);
      }
      lines.push(...apoBody(details.manifest, now));
    }
  }
  return lines;
}

/**
 * A summary field in words: a list joined (`none` when empty), a template's parameters each marked required or with
 * its default, a trigger by its id and type; anything else as JSON.
 */
function summaryWords(key: string, value: unknown, inspection: Inspection): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return JSON.stringify(value);
  if (value.length === 0) return 'none';
  const manifest =
    inspection.kind === 'template' ? (inspection.details as TemplateDetails | null)?.manifest : undefined;
  const defs: Record<string, { required?: boolean; default?: unknown }> = manifest?.parameters ?? {};
  return value
    .map((item) => {
      if (typeof item === 'string' && key === 'parameters' && Object.hasOwn(defs, item)) {
        const def = defs[item];
        if (def?.required) return `${item} (required)`;
        return def?.default !== undefined ? `${item} (default ${JSON.stringify(def.default)})` : `${item} (optional)`;
      }
      if (typeof item === 'string') return item;
      if (item && typeof item === 'object' && 'id' in item) return `${String(item.id)} (${String(item.type ?? '')})`;
      if (item && typeof item === 'object' && 'name' in item)
        return `${String(item.name)} (${String(item.type ?? '')})`;
      return JSON.stringify(item);
    })
    .join(', ');
}

/**
 * Any other kind: its summary's fields, one per line; an accepted template then its verdict, as the app shows it first.
 */
function formatOther(inspection: Inspection, policy: string[], plain: boolean): string[] {
  // A package folder not yet packed is refused as a template, but it is no template: say what it is.
  const unpacked = inspection.errors[0]?.code === 'template.unbuilt_apo';
  const lines = [
    plain
      ? 'plain folder: neither a template (agent.md at its root) nor a package folder (apollia.toml at its root)'
      : unpacked
        ? 'package folder, not yet packed (apollia.toml at its root)'
        : KIND_WORDS[inspection.kind],
  ];
  if (inspection.summary && typeof inspection.summary === 'object') {
    const summary = inspection.summary as Record<string, unknown>;
    // Who it is from, in the one signature verdict's words (shipped with the app, or not signed), as the app says it.
    const signature = summary['signature'] as SignatureSummary | undefined;
    const words = signature ? signatureVerdictWords(signatureVerdictOf(signature, null)) : null;
    for (const [key, value] of Object.entries(summary)) {
      if (key === 'signature' && words) lines.push(`signature: ${words.explanation}`);
      else if (key === 'publisher' && words) lines.push(`publisher: ${String(value) || '(none)'} (${words.label})`);
      else lines.push(`${key.replaceAll('_', ' ')}: ${summaryWords(key, value, inspection)}`);
    }
  }
  lines.push(...policy);
  const manifest =
    inspection.kind === 'template' && inspection.ok
      ? (inspection.details as TemplateDetails | null)?.manifest
      : undefined;
  if (manifest) {
    const verdict = templateVerdict(manifest);
    lines.push(
      '',
      `${VERDICT_LABELS[verdict.level]}: ${verdict.headline}`,
      ...verdict.facts.map((fact) => `  - ${fact}`),
    );
  }
  return lines;
}

/**
 * The human text of an inspection, ending with a newline: what it is, who published it, what it
 * can do (sensitive families first, in plain words), connections, MCP servers with their exact
 * command line, triggers with their schedule in words and next three fire times, then
 * "Accepted." or "Refused: <first problem>" with any further problems and the warnings.
 */
export function formatInspection(inspection: Inspection, options: InspectionTextOptions = {}): string {
  const now = options.now ?? new Date();
  const policy = [...(options.installed ? [options.installed] : []), ...policyLines(inspection.kind, options)];
  const body =
    inspection.kind === 'apo'
      ? formatApo(
          inspection.summary as ApoSummary | null,
          inspection.details as ApoDetails | null,
          now,
          options.verdict ?? null,
          policy,
        )
      : formatOther(inspection, policy, options.plainFolder === true);
  return `${[...body, '', ...verdict(inspection)].join('\n')}\n`;
}
