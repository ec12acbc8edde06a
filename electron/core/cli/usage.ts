/**
 * The CLI's usage text and usage errors (exit 2, DESIGN.md "Validation contract").
 */
import { type CliIo, EXIT } from './cli-io';

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

/**
 * Prints a usage error on one line and returns the usage exit code (2; DESIGN.md "The command line": one line and a
 * hint, not the whole usage): the problem, then a line saying where the usage is. An unknown option or command gets "did you mean …?" with the nearest one the usage
 * names (`commands`: the program's commands, for an unknown command).
 */
export function usageError(io: CliIo, problem: string, usage: string, commands: readonly string[] = []): number {
  const typed = /unknown (option|command) `([^`]+)`/.exec(problem);
  const nearest =
    typed?.[2] === undefined
      ? null
      : closest(typed[2].split('=')[0] as string, typed[1] === 'option' ? usageOptions(usage) : commands);
  const command = usageCommand(usage);
  const help = `${PROGRAM}${command ? ` ${command}` : ''} --help`;
  io.stderr(`${PROGRAM}: ${problem}${nearest ? `: did you mean ${nearest}?` : ''}\n${USAGE_HINT(help)}`);
  return EXIT.usage;
}
