/**
 * Comments, docs and test names say the rule or the behaviour, never the tracker entry that asked for it: a
 * reader of the repository has no tracker. Every tracked source and document file (and every tracked path) is
 * scanned for an issue or finding number, also when a comment wraps between the word and the number.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;

/** The text files people read: code, docs, configuration. */
const SCANNED = /\.(?:ts|tsx|mts|cts|js|mjs|cjs|md|json|ya?ml|toml|html|css)$/;

/**
 * The word issue or finding (either case, singular or plural) followed by a number, with or without `#`, also
 * wrapped onto the next comment line. The words alone ("the issue", "finding one file") pass: the probes below.
 */
const TRACKER_REF = /\b(?:issues?|findings?)[ \t]*(?:\r?\n[ \t]*(?:(?:\*|\/\/|#|-)[ \t]*)?)?[-_#]?\d+/gi;
/** A file named after a tracker entry: the word with a number glued on, or joined by `-` or `_`. */
const TRACKER_PATH = /issue[-_ ]?#?\d|finding[-_ ]?\d/i;

/** Each tracker reference in a text, as `line: excerpt`. */
export function trackerRefs(text: string): string[] {
  return [...text.matchAll(TRACKER_REF)].map((match) => {
    const line = text.slice(0, match.index).split('\n').length;
    return `${line}: ${match[0].replace(/\s+/g, ' ')}`;
  });
}

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter((path) => path !== '');
}

describe('no tracker numbers in the repository', () => {
  it('finds the references it is for, wrapped or not, and passes plain words', () => {
    // Built from parts, so this file holds no reference itself.
    const word = (w: string, rest: string) => `${w}${rest}`;
    expect(trackerRefs(`// see (${word('iss', 'ue')} 13 point 5)`)).toHaveLength(1);
    expect(trackerRefs(` * ${word('Iss', 'ue')} 12, ${word('find', 'ing')} 4: why`)).toHaveLength(2);
    expect(trackerRefs(`// ${word('iss', 'ue')} 30's classes`)).toHaveLength(1);
    expect(trackerRefs(`(${word('iss', 'ue')} #7)`)).toHaveLength(1);
    expect(trackerRefs(`${word('iss', 'ues')} 13 and 14`)).toHaveLength(1);
    expect(trackerRefs(` * the app (${word('iss', 'ue')}\n * 30). Each`)).toEqual(['1: issue * 30']);
    expect(trackerRefs('// the issue "thousands of tools"; an issue triage agent; finding one file')).toEqual([]);
    expect(trackerRefs('// Electron security checklist item 17; step 2 of 4; point of no return')).toEqual([]);
    expect(TRACKER_PATH.test(`test/api-${word('iss', 'ue')}13.test.ts`)).toBe(true);
    expect(TRACKER_PATH.test('e2e/fixtures/templates/issue-triage/agent.md')).toBe(false);
  });

  it('no tracked path is named after a tracker entry', () => {
    expect(trackedFiles().filter((path) => TRACKER_PATH.test(path))).toEqual([]);
  });

  it('no tracked source or document cites a tracker entry', () => {
    const hits = trackedFiles()
      .filter((path) => SCANNED.test(path))
      .flatMap((path) => trackerRefs(readFileSync(join(ROOT, path), 'utf8')).map((hit) => `${path}:${hit}`));
    expect(hits).toEqual([]);
  });
});
