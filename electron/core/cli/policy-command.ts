/**
 * `apollia-desktop policy [--json]`: the organization's policy in force on this machine, and which
 * source each part came from — a registry key, a plist, a file (DESIGN.md "Managed policy"). Reads the policy sources only: no store,
 * no Api. An unreadable policy is printed with its file and what is wrong, and exits 1: everything
 * it guards is refused until it is fixed.
 */
import type { PolicyView } from '../../../shared/policy/policy';
import { policyHeading } from '../../../shared/policy/policy-words';
import { EFFECTIVE_KEY, type PolicyKeys } from '../policy/policy-sources';
import { policyLocations, readPolicy } from '../policy/read-policy';
import { type CliIo, EXIT } from './cli-io';
import { terminalJson } from './terminal-text';
import { PROGRAM, usageError } from './usage';

/** Usage of this command. */
export const POLICY_USAGE = `Usage: ${PROGRAM} policy [--json]\n\nShows the policy your organization set for this computer (the registry or managed preferences, the machine's policy file, and APOLLIA_POLICY_FILE), and which source each part came from.\n`;

/** The policy as `policy` prints it without --json. */
export function policyText(view: PolicyView): string {
  const lines: string[] = [];
  for (const source of view.sources)
    lines.push(
      `${source.role === 'machine' ? 'Machine policy' : source.role === 'user' ? 'User policy' : 'APOLLIA_POLICY_FILE'}: ${source.path} (${source.state === 'absent' ? 'not present' : source.state === 'read' ? 'read' : `cannot be used: ${source.problem}`})`,
    );
  if (view.state === 'none')
    return `${lines.join('\n')}\nNo policy: nothing is managed by an organization on this computer.\n`;
  if (view.state === 'unreadable')
    return `${lines.join('\n')}\nThe policy cannot be used: ${view.problem?.path}: ${view.problem?.message}.\nUntil it is fixed nothing can be installed, applied, granted or armed, and triggers are paused. Your administrator can act.\n`;
  // A policy read from APOLLIA_POLICY_FILE alone is a trial policy, said so (DESIGN.md "Managed policy").
  lines.push(`${policyHeading(view)}.`);
  const effective = view.effective;
  if (effective) {
    // Each rule in force by the key its sources set (`mcpServers.denied`), with the sources it came from.
    for (const [key, from] of Object.entries(view.origin)) {
      const value = Object.hasOwn(EFFECTIVE_KEY, key) ? effective[EFFECTIVE_KEY[key as keyof PolicyKeys]] : undefined;
      lines.push(`  ${key}: ${JSON.stringify(value)}  (from ${from.join(', ')})`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Runs `policy` with the arguments after the command name. */
export async function run(args: string[], io: CliIo): Promise<number> {
  let json = false;
  for (const arg of args) {
    if (arg === '--json') json = true;
    else if (arg === '-h' || arg === '--help') {
      io.stdout(POLICY_USAGE);
      return EXIT.accepted;
    } else
      return usageError(
        io,
        arg.startsWith('-') ? `unknown option \`${arg}\` for policy` : 'policy takes no argument',
        POLICY_USAGE,
      );
  }
  const view = readPolicy(policyLocations(io.env));
  // With the one contract's `ok` and `errors` (DESIGN.md "The command line"): an unreadable policy is the problem.
  const errors =
    view.state === 'unreadable'
      ? [
          {
            code: 'policy.unreadable',
            message: `the policy ${view.problem?.path ?? ''} cannot be used: ${view.problem?.message ?? 'unreadable'}`,
            path: null,
          },
        ]
      : [];
  io.stdout(json ? `${terminalJson({ ok: errors.length === 0, errors, ...view })}\n` : policyText(view));
  return view.state === 'unreadable' ? EXIT.refused : EXIT.accepted;
}
