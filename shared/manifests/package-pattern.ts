/**
 * The one engine for every pattern a package supplies (a template parameter's `pattern`): RE2, via
 * `re2js`, so checking a value costs time linear in the value whatever the pattern (DESIGN.md
 * "Untrusted input is checked in a bounded place": no package text or pattern costs more than
 * linear time anywhere, the renderer included). Inspection, `previewApply`, apply and the form's
 * as-you-type check all call `testPackagePattern`, so they cannot disagree.
 *
 * The dialect (spec agentrun-template-packages.md, agent.md `parameters`: `pattern?` for strings,
 * a JSON Schema style ECMAScript pattern, searched anywhere in the value unless anchored): a
 * pattern is accepted when it is valid ECMAScript with the `u` flag AND RE2 can express it. Not
 * accepted, because no engine can run them in linear time:
 * - backreferences (`\1`, `\k<name>`): matching them is NP-hard in general;
 * - lookahead and lookbehind (`(?=`, `(?!`, `(?<=`, `(?<!`): RE2 has no linear-time form of them.
 * RE2 also refuses nested counted repeats over 1000 (`(a{100}){100}`), which would blow up its
 * program. Where both engines read a pattern, RE2 reads `\s` as ASCII whitespace and `.` as any
 * character but `\n` (ECMAScript's are wider); since every check here uses RE2, they agree.
 * ECMAScript spellings RE2 lacks (`\uXXXX`, `\u{X}`, `(?<name>`) are translated by re2js.
 */
import { RE2JS } from 're2js';

/** The longest pattern accepted: a parameter's pattern is a short format; a huge one is an attack on compile time. */
export const MAX_PATTERN_LENGTH = 1000;
/** The longest value checked against a pattern: a patterned field holds an ID, a channel, an address. */
export const MAX_PATTERNED_VALUE_LENGTH = 10_000;

type Compiled = { ok: true; engine: RE2JS } | { ok: false; why: string };

/** Compiled patterns by source: the form checks on every keystroke. Bounded, oldest dropped first. */
const cache = new Map<string, Compiled>();
const CACHE_SIZE = 256;

/**
 * The feature of a pattern (valid ECMAScript with `u`) that no linear-time engine runs, or null.
 * Read before translating: re2js's translation (written for patterns without `u`) turns `\k<n>`
 * into the literal `k<n>`, which would silently change what the pattern means.
 */
function nonLinearFeature(source: string): string | null {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') {
      const next = source[i + 1] ?? '';
      // With `u`, `\1`…`\9` and `\k` are only ever backreferences.
      if ((next >= '1' && next <= '9') || next === 'k')
        return 'uses a backreference, which cannot be checked in linear time';
      i++;
    } else if (inClass) {
      if (ch === ']') inClass = false;
    } else if (ch === '[') {
      inClass = true;
    } else if (
      ch === '(' &&
      (source.startsWith('?=', i + 1) ||
        source.startsWith('?!', i + 1) ||
        source.startsWith('?<=', i + 1) ||
        source.startsWith('?<!', i + 1))
    ) {
      return 'uses a lookahead or lookbehind, which cannot be checked in linear time';
    }
  }
  return null;
}

function compile(source: string): Compiled {
  if (source.length > MAX_PATTERN_LENGTH) return { ok: false, why: `is longer than ${MAX_PATTERN_LENGTH} characters` };
  try {
    new RegExp(source, 'u');
  } catch (error) {
    return { ok: false, why: `does not compile: ${error instanceof Error ? error.message : String(error)}` };
  }
  const feature = nonLinearFeature(source);
  if (feature) return { ok: false, why: feature };
  try {
    return { ok: true, engine: RE2JS.compile(RE2JS.translateRegExp(source)) };
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^error parsing regexp:\s*/, '') : String(error);
    return { ok: false, why: `cannot be checked in linear time (RE2: ${detail})` };
  }
}

function compiled(source: string): Compiled {
  const known = cache.get(source);
  if (known) return known;
  const made = compile(source);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(source, made);
  return made;
}

/**
 * Why a package's pattern is refused (a phrase after the field's name: "is longer than…", "uses a
 * backreference…"), or null when it is accepted. Inspection refuses the package with it.
 */
export function packagePatternProblem(source: string): string | null {
  const made = compiled(source);
  return made.ok ? null : made.why;
}

/** What checking a value against a package's pattern gave. */
export type PatternTest = 'match' | 'no_match' | 'too_long' | 'refused_pattern';

/**
 * Whether `value` fits the pattern (found anywhere in it, as ECMAScript's `test` does), in time
 * linear in the value. A value over `MAX_PATTERNED_VALUE_LENGTH` is not checked (`too_long`); a
 * pattern inspection would refuse is `refused_pattern`.
 */
export function testPackagePattern(source: string, value: string): PatternTest {
  const made = compiled(source);
  if (!made.ok) return 'refused_pattern';
  if (value.length > MAX_PATTERNED_VALUE_LENGTH) return 'too_long';
  return made.engine.test(value) ? 'match' : 'no_match';
}

/**
 * Whether a pattern holds only whole values: every top-level alternative starts with `^` and ends
 * with an unescaped `$` (`^C[0-9]+$`, `^(?:a|b)$`). A parameter's `pattern` is searched anywhere in
 * the value, as JSON Schema defines it (`C[0-9]+` accepts `xC1y`): correct, and worth saying where
 * the value is a pin's destination. Conservative: a form it does not recognise
 * (`(?:^a|^b)$`) counts as not anchored, so at worst it warns needlessly. Linear in the pattern.
 */
export function isAnchoredPattern(source: string): boolean {
  const alternatives: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') i++;
    else if (inClass) {
      if (ch === ']') inClass = false;
    } else if (ch === '[') inClass = true;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === '|' && depth === 0) {
      alternatives.push(source.slice(start, i));
      start = i + 1;
    }
  }
  alternatives.push(source.slice(start));
  return alternatives.every((alternative) => {
    if (!alternative.startsWith('^') || !alternative.endsWith('$')) return false;
    let slashes = 0;
    for (let i = alternative.length - 2; i >= 0 && alternative[i] === '\\'; i--) slashes++;
    return slashes % 2 === 0;
  });
}
