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

/** Prints `problem` and the usage to standard error; returns the usage exit code (2). */
export function usageError(io: CliIo, problem: string, usage: string): number {
  io.stderr(`${PROGRAM}: ${problem}\n\n${fitUsage(usage)}`);
  return EXIT.usage;
}
