/**
 * `apollia-desktop inspect PATH [--json]` (DESIGN.md "Validation contract"): the headless form of
 * the app's own check. Exit 0 accepted, 1 refused (any problem with the input, including an
 * unreadable archive), 2 usage error (unknown flag, missing or extra argument, no such path).
 * It also says what this machine's organization policy would do to it (DESIGN.md "Managed policy"),
 * from the evaluation install and apply make (`policy/inspection-policy.ts`); that never changes the
 * exit status, which is about the input against the spec.
 */
import { terminalJson } from './terminal-text';
import { realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ApoDetails, ApoSummary, Inspection } from '../../../shared/manifests/inspection';
import { checkManifestSchema } from '../apollia/manifest-parse';
import { capabilityLines } from './capability-lines';
import {
  type SignatureVerdict,
  signatureUpdateJson,
  signatureVerdictOf,
} from '../../../shared/trust/signature-verdict';
import { own } from '../../../shared/base/own';
import type { InstalledRelation } from '../../../shared/contract/api';
import { identityRelation } from '../app/package-identity';
import { managedBy } from '../../../shared/policy/policy';
import { pinnedKeysOf, signatureUpdateOf } from '../trust/stored-keys';
import { InputNotFoundError, inspectPath } from '../app/inspect';
import { verificationKeys } from '../policy/index';
import { type InspectionPolicy, inspectionUnderPolicy } from '../policy/inspection-policy';
import { policyLocations, readPolicy } from '../policy/read-policy';
import { installedDecisions } from '../store/records';
import { withSignatureState } from '../trust/signature-state';
import { cliResourcesDir, cliTrustedKeys, refused } from './cli-data';
import { type CliIo, EXIT } from './cli-io';
import { isPlainFolder, templateArgument } from './template-name';
import { PROGRAM, usageError } from './usage';

/** Usage of this command. */
export const INSPECT_USAGE = [
  `Usage: ${PROGRAM} [--data-dir DIR] inspect PATH|NAME [--json]`,
  '',
  'PATH is a .apo file, a template folder or a plugin manifest (JSON); NAME a built-in template',
  '(code-review, kyb, …), always, even where a folder of that name is here (give it as ./NAME). Nothing is run.',
  "A .apo's signature (PATH.minisig beside it) is checked against the keys you trust (`trust add`).",
  '  --json  Print one JSON object: kind, ok, errors, warnings, summary, details, policy',
  '',
  "It also says what your organization's policy on this computer would refuse or withhold if you",
  'installed or applied it (policy: the policy file and APOLLIA_POLICY_FILE); nothing when there is none.',
  '',
  'Exit status: 0 accepted, 1 refused, 2 usage error. It is about the input against the spec, never the',
  "policy: a package your organization's policy refuses still exits 0 when the spec accepts it.",
  '',
].join('\n');

/**
 * The `--json` object, keys in the contract's order. An `.apo`'s summary gains, after `signature`, the rest of its one
 * signature verdict: `publisher_names` (verified only: how the name you trust the key as compares with the package's
 * publisher field) and `signature_update` (how it stands to the key pinned for the installed package of its name), and
 * `capabilities`: what it can do, worst first, the same lines as the text, and `installed` (the installed package of
 * its name: version, SHA-256, and `relation`, `other_bytes` for the same version with other bytes).
 */
export function inspectionJson(
  inspection: Inspection,
  verdict: SignatureVerdict | null = null,
  installedVersion: string | null = null,
  policy: InspectionPolicy | null = null,
  installed: InstalledRelation | null = null,
): string {
  const { kind, ok, warnings, details } = inspection;
  // Every refusal names its field, null when it is about the whole input (DESIGN.md "The command line").
  const errors = inspection.errors.map((error) => ({ ...error, path: error.path ?? null }));
  // What it can do, worst first: the very lines the text prints (`capability-lines.ts`), for a manifest the schema
  // accepted (the text says nothing more of a refused one either).
  const manifest = kind === 'apo' ? (details as ApoDetails | null)?.manifest : undefined;
  const capabilities =
    manifest && checkManifestSchema(manifest as never).length === 0 ? capabilityLines(manifest) : null;
  const summary =
    verdict && inspection.summary
      ? {
          ...inspection.summary,
          publisher_names: verdict.names,
          signature_update: signatureUpdateJson(verdict.update, installedVersion),
          ...(capabilities ? { capabilities } : {}),
          ...(installed ? { installed } : {}),
        }
      : inspection.summary;
  // `policy` is added last, and only by `inspect` itself: the keys before it keep their order.
  const object = { kind, ok, errors, warnings, summary, details, ...(policy ? { policy } : {}) };
  return `${terminalJson(object)}\n`;
}

/** How an inspected package stands to the installed one of its name, in words (`installed here: …`). */
export function installedLine(summary: ApoSummary, installed: InstalledRelation): string {
  if (installed.relation === 'other_bytes')
    return `installed here: ${summary.name} ${installed.version} with other bytes (sha256 ${installed.sha256} installed, ${summary.sha256} here): this is another package; installing it is an update, and what changed is asked again`;
  if (installed.relation === 'same') return `installed here: ${summary.name} ${installed.version}, this very package`;
  return `installed here: ${summary.name} ${installed.version} (this one is ${installed.relation})`;
}

/** Whether `path` is one of the templates that ship with the app (`resources/templates/<name>`). */
async function isBuiltinTemplate(io: CliIo, path: string): Promise<boolean> {
  const templates = join(cliResourcesDir(io), 'templates');
  const [real, root] = await Promise.all([realpath(path).catch(() => path), realpath(templates).catch(() => null)]);
  return root !== null && dirname(real) === root;
}

/** Runs `inspect` with the arguments after the command name. */
export async function run(args: string[], io: CliIo): Promise<number> {
  let json = false;
  const paths: string[] = [];
  let flagsDone = false;
  for (const arg of args) {
    if (!flagsDone && arg === '--') flagsDone = true;
    else if (!flagsDone && (arg === '-h' || arg === '--help')) {
      io.stdout(INSPECT_USAGE);
      return EXIT.accepted;
    } else if (!flagsDone && arg === '--json') json = true;
    else if (!flagsDone && arg.startsWith('-') && arg !== '-')
      return usageError(io, `unknown option \`${arg}\` for inspect`, INSPECT_USAGE);
    else paths.push(arg);
  }
  if (paths.length === 0) return usageError(io, 'inspect needs a PATH', INSPECT_USAGE);
  if (paths.length > 1) return usageError(io, `inspect takes one PATH, got ${paths.length}`, INSPECT_USAGE);
  const given = paths[0] as string;
  // A bare name of a built-in template is that template (DESIGN.md "The command line"); anything else a path.
  const argument = templateArgument(io, given);
  if (argument.kind === 'builtin' && argument.note) io.stderr(`${PROGRAM}: note: ${argument.note}\n`);
  const path = argument.path;

  // The user's trusted keys (the store of --data-dir, else the app's): a package signed by one is `verified`.
  const keys = await cliTrustedKeys(io);
  if (!keys.ok) return refused(io, keys.error);
  // The organization's policy, read as install reads it: its keys count, and the person's only when it allows them.
  const view = readPolicy(policyLocations(io.env));
  const trusted = verificationKeys(view.effective, keys.value);
  let inspection: Inspection;
  let builtin: boolean;
  try {
    builtin = await isBuiltinTemplate(io, path);
    inspection = withSignatureState(await inspectPath(path, trusted, pinnedKeysOf(keys.state, trusted)), builtin);
  } catch (error) {
    if (error instanceof InputNotFoundError) return usageError(io, `no such file or folder: ${given}`, INSPECT_USAGE);
    throw error;
  }
  // The text form is loaded only when asked for (it pulls in the cron and schema helpers).
  // The one signature verdict, with how it stands to an installed package of the same name.
  const summary = inspection.kind === 'apo' ? (inspection.summary as ApoSummary | null) : null;
  const verdict = summary
    ? signatureVerdictOf(
        summary.signature,
        summary.publisher,
        signatureUpdateOf(keys.state, summary.name, summary.signature),
      )
    : null;
  const installed = summary ? own(keys.state.packages, summary.name) : undefined;
  // A package is its archive's SHA-256 (DESIGN.md "Trust after install"): the same name and version with other bytes
  // is said to be another package.
  const identity =
    installed && summary && inspection.ok
      ? {
          version: installed.version,
          sha256: installed.sha256,
          relation: identityRelation(installed, summary.version, summary.sha256),
        }
      : null;
  const policy = await inspectionUnderPolicy(view, inspection, {
    keys: trusted,
    builtin,
    installed: installed ? installedDecisions(keys.state, installed.name) : null,
    now: new Date(),
  });
  io.stdout(
    json
      ? inspectionJson(inspection, verdict, installed?.version ?? null, policy, identity)
      : (await import('./inspection-text')).formatInspection(inspection, {
          verdict,
          policy,
          // "Managed by …" only when the policy names its organization.
          managedBy: view.effective?.organization ? managedBy(view) : null,
          installed: identity && summary ? installedLine(summary, identity) : null,
          plainFolder: isPlainFolder(path),
        }),
  );
  return inspection.ok ? EXIT.accepted : EXIT.refused;
}
