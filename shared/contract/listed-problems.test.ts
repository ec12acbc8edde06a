/**
 * `listedProblems` (shared/manifests/inspection.ts): a package that breaks one rule thousands of times gets
 * a list a person can read, and no kind of problem is hidden behind the others.
 */
import { describe, expect, it } from 'vitest';
import {
  listedProblems,
  MAX_LISTED_PROBLEMS,
  MORE_PROBLEMS_CODE,
  type Problem,
  withListedProblems,
} from '../manifests/inspection';
import { refusalAdviceFor } from './refusal-actor';

const many = (count: number, code: string, from = 0): Problem[] =>
  Array.from({ length: count }, (_, i) => ({ code, message: `problem ${from + i}`, path: `tools[${from + i}]` }));

describe('listedProblems', () => {
  it('lists up to the limit unchanged', () => {
    const problems = many(MAX_LISTED_PROBLEMS, 'manifest.module_missing');
    expect(listedProblems(problems, 'errors')).toEqual(problems);
    expect(listedProblems([], 'warnings')).toEqual([]);
  });

  it('lists the first ones in order and counts the rest in one last entry', () => {
    const listed = listedProblems(many(60_000, 'manifest.undescribed_function'), 'errors');
    expect(listed).toHaveLength(MAX_LISTED_PROBLEMS);
    expect(listed.slice(0, -1).map((problem) => problem.message)).toEqual(
      many(MAX_LISTED_PROBLEMS - 1, 'x').map((problem) => problem.message),
    );
    expect(listed.at(-1)).toEqual({
      code: MORE_PROBLEMS_CODE,
      message: '59,901 more errors are not listed: fix the ones above, then inspect the package again to see them',
    });
  });

  it('still lists the first problem of each kind past the limit, so a hidden tool is never left out', () => {
    const problems = [
      ...many(150, 'manifest.module_missing'),
      ...many(3, 'manifest.undescribed_function', 150),
      ...many(10, 'manifest.module_missing', 153),
    ];
    const listed = listedProblems(problems, 'errors');
    expect(listed.map((problem) => problem.message)).toEqual([
      ...many(MAX_LISTED_PROBLEMS - 1, 'x').map((problem) => problem.message),
      'problem 150',
      '63 more errors are not listed: fix the ones above, then inspect the package again to see them',
    ]);
    // The refused screen asks who must act from the listed problems: still "don't install this".
    expect(refusalAdviceFor(listed).actor).toBe('nobody');
  });

  it('adds no count when every problem past the limit is the first of its kind', () => {
    const problems = [...many(MAX_LISTED_PROBLEMS - 1, 'manifest.module_missing'), ...many(1, 'a'), ...many(1, 'b')];
    expect(listedProblems(problems, 'warnings')).toEqual(problems);
  });

  it('lists the errors and the warnings of an inspection, each on its own', () => {
    const inspection = {
      kind: 'apo' as const,
      ok: false,
      errors: many(500, 'e'),
      warnings: many(120, 'w'),
      summary: null,
      details: null,
    };
    const listed = withListedProblems(inspection);
    expect(listed.errors).toHaveLength(MAX_LISTED_PROBLEMS);
    expect(listed.warnings.at(-1)?.message).toBe(
      '21 more warnings are not listed: fix the ones above, then inspect the package again to see them',
    );
    expect(listed.ok).toBe(false);
  });
});
