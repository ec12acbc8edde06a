/**
 * The CLI's usage text and usage errors (exit 2, DESIGN.md "Validation contract").
 */
import { type CliIo, EXIT } from './cli-io';
import { terminalJson } from './terminal-text';

/** The program name people type (package.json `bin`). */
export const PROGRAM = 'apollia-desktop';

/** The widest line a usage text prints: it reads in a terminal of 100 columns. */
export const USAGE_WIDTH = 100;

/**
 * `text` with every line longer than {@link USAGE_WIDTH} wrapped at spaces: an option's line goes
 * on under its description (the column after the option's two spaces), any other under its own
 * indent plus two. A word longer than the width stays whole. Every option stays listed.
 */
export function fitUsage(text: string): string {
  return text
    .split('\n')
    .flatMap((line) => {
      if (line.length <= USAGE_WIDTH) return [line];
      const described = /^(\s*-\S*(?: \S+)*?\s{2,})\S/.exec(line);
      const column = described?.[1]?.length ?? USAGE_WIDTH;
      const indent = ' '.repeat(column <= USAGE_WIDTH / 2 ? column : (/^\s*/.exec(line)?.[0].length ?? 0) + 2);
      const out: string[] = [];
      let current = '';
      for (const word of line.split(/(?<=\S) (?=\S)/)) {
        if (current !== '' && current.length + 1 + word.length > USAGE_WIDTH) {
          out.push(current);
          current = indent + word.trimStart();
        } else current = current === '' ? word : `${current} ${word}`;
      }
      out.push(current);
      return out;
    })
    .join('\n');
}

/** The edit distance of `a` and `b` (Levenshtein: insertions, deletions, substitutions). */
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(
        (row[j] as number) + 1,
        (next[j - 1] as number) + 1,
        (row[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    row = next;
  }
  return row[b.length] as number;
}

/** The candidate nearest `typed` by edit distance, when it is near enough to be what was meant; else null. */
export function closest(typed: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of new Set(candidates)) {
    const distance = editDistance(typed, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const bare = typed.replace(/^-+/, '');
  return best !== null && bestDistance > 0 && bestDistance <= Math.max(2, Math.floor(bare.length / 3)) ? best : null;
}

/** The options a usage text names (`--json`, `-o`). */
function usageOptions(usage: string): string[] {
  return [...usage.matchAll(/(?<![\w-])(--?[a-zA-Z][\w-]*)/g)].map((m) => m[1] as string);
}

/** The command a usage text is of (`Usage: apollia-desktop [--data-dir DIR] apply …`), or null for the program's. */
function usageCommand(usage: string): string | null {
  const first = usage.split('\n')[0] ?? '';
  return /^Usage: \S+ (?:\[--data-dir DIR\] )?([a-z]+)\b/.exec(first)?.[1] ?? null;
}

/** The line under a usage error: where the whole usage is. */
export const USAGE_HINT = (help: string): string => `(\`${help}\` shows the usage)\n`;

/** The codes of usage errors, as `--json` gives them (DESIGN.md "The command line": exit 2). */
export type UsageErrorCode = 'usage.unknown_option' | 'usage.unknown_command' | 'usage.missing_value' | 'usage.invalid';

/** What a usage error is about: its code, and the option it names (`--param`), or null. */
export function usageProblem(problem: string): { code: UsageErrorCode; path: string | null } {
  const unknown = /unknown (option|command) `([^`=]+)/.exec(problem);
  if (unknown?.[1] === 'option') return { code: 'usage.unknown_option', path: unknown[2] as string };
  if (unknown?.[1] === 'command') return { code: 'usage.unknown_command', path: null };
  const missing = /^(--?[a-zA-Z][\w-]*) needs /.exec(problem);
  if (missing) return { code: 'usage.missing_value', path: missing[1] as string };
  return { code: 'usage.invalid', path: null };
}

/**
 * Prints a usage error on one line and returns the usage exit code (2; DESIGN.md "The command line": one line and a
 * hint, not the whole usage): the problem, then a line saying where the usage is. An unknown option or command gets
 * "did you mean …?" with the nearest one the usage names (`commands`: the program's commands, for an unknown command).
 * With `--json` it is the one refusal document on standard output, `{ "ok": false, "errors": [{ code, message, path }] }`
 * (`usage.*` codes; `path` the option it is about), and nothing on standard error.
 */
export function usageError(io: CliIo, problem: string, usage: string, commands: readonly string[] = []): number {
  const typed = /unknown (option|command) `([^`]+)`/.exec(problem);
  const nearest =
    typed?.[2] === undefined
      ? null
      : closest(typed[2].split('=')[0] as string, typed[1] === 'option' ? usageOptions(usage) : commands);
  const command = usageCommand(usage);
  const help = `${PROGRAM}${command ? ` ${command}` : ''} --help`;
  const message = `${problem}${nearest ? `: did you mean ${nearest}?` : ''}`;
  if (io.json) {
    const error = { ...usageProblem(problem), message: `${message} (\`${help}\` shows the usage)` };
    io.stdout(
      `${terminalJson({ ok: false, errors: [{ code: error.code, message: error.message, path: error.path }] })}\n`,
    );
    return EXIT.usage;
  }
  io.stderr(`${PROGRAM}: ${message}\n${USAGE_HINT(help)}`);
  return EXIT.usage;
}
