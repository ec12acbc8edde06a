import { describe, expect, it } from 'vitest';
import { checkParameter } from '../decisions/apply-parameters';
import {
  MAX_PATTERN_LENGTH,
  MAX_PATTERNED_VALUE_LENGTH,
  isAnchoredPattern,
  packagePatternProblem,
  testPackagePattern,
} from './package-pattern';

const CATASTROPHIC = '^(\\w+\\s?)+$';

describe('package patterns run on RE2, linear in the value', () => {
  // A backtracking engine takes minutes (or far longer) on these; RE2 answers inside the default
  // test timeout, which is what makes these tests fail on a backtracking engine.
  it('answers a catastrophic pattern on the longest checked value', () => {
    expect(testPackagePattern(CATASTROPHIC, `${'a'.repeat(MAX_PATTERNED_VALUE_LENGTH - 1)}!`)).toBe('no_match');
    expect(testPackagePattern(CATASTROPHIC, `${'a'.repeat(30)}!`)).toBe('no_match');
    expect(testPackagePattern(CATASTROPHIC, 'hello world')).toBe('match');
  });

  it('does not check a value over the cap', () => {
    expect(testPackagePattern(CATASTROPHIC, 'a'.repeat(100_000))).toBe('too_long');
  });

  it('searches anywhere unless anchored, as ECMAScript `test` does, and reads ECMAScript spellings', () => {
    expect(testPackagePattern('C[0-9A-Z]{8}', 'xx C0123ABCD yy')).toBe('match');
    expect(testPackagePattern('^C[0-9A-Z]{8}$', 'xx C0123ABCD')).toBe('no_match');
    expect(testPackagePattern('^\\u0041(?<rest>b)$', 'Ab')).toBe('match');
    expect(testPackagePattern('^\\p{L}+$', 'café')).toBe('match');
  });

  it('refuses what cannot run in linear time, saying why', () => {
    expect(packagePatternProblem(CATASTROPHIC)).toBeNull();
    expect(packagePatternProblem('(a)\\1')).toBe('uses a backreference, which cannot be checked in linear time');
    expect(packagePatternProblem('(?<n>a)\\k<n>')).toBe('uses a backreference, which cannot be checked in linear time');
    expect(packagePatternProblem('^(?=a)a')).toBe(
      'uses a lookahead or lookbehind, which cannot be checked in linear time',
    );
    expect(packagePatternProblem('(?<!a)b')).toBe(
      'uses a lookahead or lookbehind, which cannot be checked in linear time',
    );
    expect(packagePatternProblem('((a{100}){100}){100}')).toMatch(
      /^cannot be checked in linear time \(RE2: invalid repeat count/,
    );
    expect(packagePatternProblem('a'.repeat(MAX_PATTERN_LENGTH + 1))).toBe(
      `is longer than ${MAX_PATTERN_LENGTH} characters`,
    );
    expect(packagePatternProblem('(?P<n>a)')).toMatch(/^does not compile: Invalid regular expression/);
    expect(packagePatternProblem('(')).toMatch(/^does not compile: Invalid regular expression/);
    expect(testPackagePattern('(a)\\1', 'aa')).toBe('refused_pattern');
  });
});

describe("checkParameter: the form's check (renderer and previewApply) stays responsive", () => {
  const def = { type: 'string' as const, pattern: CATASTROPHIC, description: 'Words.' };
  it('answers a value typed against a catastrophic pattern', () => {
    expect(checkParameter(def, `${'a'.repeat(30)}!`)).toBe('Not in the expected form: Words.');
    expect(checkParameter(def, `${'a'.repeat(MAX_PATTERNED_VALUE_LENGTH - 1)}!`)).toBe(
      'Not in the expected form: Words.',
    );
    expect(checkParameter(def, 'a'.repeat(100_000))).toBe(`Too long: at most ${MAX_PATTERNED_VALUE_LENGTH} characters`);
    expect(checkParameter(def, 'two words')).toBeNull();
  });

  it('says a refused pattern cannot be checked', () => {
    expect(checkParameter({ ...def, pattern: '(a)\\1' }, 'aa')).toBe(
      "Cannot be checked: the template's pattern uses a backreference, which cannot be checked in linear time",
    );
  });
});

describe('package patterns: what is not a backreference or a lookaround is not taken for one', () => {
  it('reads an escaped backslash, a class and a named group as themselves', () => {
    expect(packagePatternProblem('^\\\\1$')).toBeNull();
    expect(testPackagePattern('^\\\\1$', '\\1')).toBe('match');
    expect(packagePatternProblem('^[(?=]+$')).toBeNull();
    expect(testPackagePattern('^[(?=]+$', '(?=')).toBe('match');
    expect(packagePatternProblem('^(?<word>\\w+)$')).toBeNull();
  });
});

describe('isAnchoredPattern (an unanchored pinned pattern is said)', () => {
  it('holds only whole values when every top-level alternative is ^…$', () => {
    for (const p of ['^C[0-9]+$', '^(?:a|b)$', '^a$|^b$', '^[$]x$', '^a\\\\$'])
      expect([p, isAnchoredPattern(p)]).toEqual([p, true]);
    for (const p of ['C[0-9]+', '^C[0-9]+', 'C[0-9]+$', '^a|b$', '^a\\$', '^[|]$|x', '(?:^a|^b)$'])
      expect([p, isAnchoredPattern(p)]).toEqual([p, false]);
  });
});
