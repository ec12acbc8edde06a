/**
 * No function over 120 lines of code, JSX counted. Biome's `noExcessiveLinesPerFunction` (biome.json) counts the
 * lines of a function's statements but not the lines of a JSX element (a component that returns 200 lines of markup
 * passes it), so this counts what Biome leaves out, for the top-level functions and components of every source file:
 * the lines from its first to its closing `}` at column 0, blank lines and comment lines left out.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceFiles } from './helpers/source-files';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;
const MAX_LINES = 120;

const START =
  /^(?:export )?(?:default )?(?:async )?function\*? ?(\w+)|^(?:export )?const (\w+) = (?:memo\()?(?:async )?(?:function|\()/;
const END = /^\}\)*;?$/;
const CODE = (line: string) => line.trim() !== '' && !/^\s*(\/\/|\/\*|\*)/.test(line);

/** The top-level functions of a formatted file, with their lines of code. */
export function functionLengths(text: string): { name: string; line: number; lines: number }[] {
  const lines = text.split('\n');
  const found: { name: string; line: number; lines: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const start = START.exec(line);
    // A function on one line (`const padding = (size) => …;`) ends where it starts.
    if (!start || !/[{(]$/.test(line)) continue;
    let end = i + 1;
    while (end < lines.length && !END.test(lines[end] as string)) end++;
    found.push({ name: start[1] ?? start[2] ?? '?', line: i + 1, lines: lines.slice(i, end + 1).filter(CODE).length });
    i = end;
  }
  return found;
}

describe('function length', () => {
  it('counts a component’s JSX lines, and leaves out blank lines, comments and one-line functions', () => {
    const jsx = [
      'export function Big() {',
      '  // why',
      '',
      '  return (',
      '    <div>',
      '      <p />',
      '    </div>',
      '  );',
      '}',
    ];
    expect(functionLengths([...jsx, 'const one = (n: number) => n + 1;'].join('\n'))).toEqual([
      { name: 'Big', line: 1, lines: 7 },
    ]);
  });

  it(`no function in shared/, electron/ or renderer/ is over ${MAX_LINES} lines of code, JSX counted`, () => {
    const long = ['shared', 'electron', 'renderer'].flatMap((dir) =>
      sourceFiles(dir).flatMap((file) => {
        const path = join(ROOT, file);
        return functionLengths(readFileSync(path, 'utf8'))
          .filter((f) => f.lines > MAX_LINES)
          .map((f) => `${file}:${f.line} ${f.name} (${f.lines} lines)`);
      }),
    );
    expect(long).toEqual([]);
  });
});
