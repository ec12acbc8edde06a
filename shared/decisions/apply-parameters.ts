/**
 * A template's parameters checked for its apply: each value against its definition (the form checks the same on
 * every keystroke), the value apply uses, and the preview's parameter rows and problems.
 */
import { setOwn } from '../base/own-data';
import { andList } from '../base/word-lists';
import {
  MAX_PATTERNED_VALUE_LENGTH,
  isAnchoredPattern,
  packagePatternProblem,
  testPackagePattern,
} from '../manifests/package-pattern';
import { pinnedParameters, type ParameterValue, type TemplateParameter } from '../manifests/template-manifest';
import type { PreviewContext } from './apply-context';
import type { PreviewParameter } from './apply-preview-schema';

/**
 * A number as JSON writes it (decimal digits, an optional fraction and exponent). Decision where the
 * spec is silent: a number parameter given as text (the form, `--param`) is read only in
 * this form, never as JavaScript's `Number()` reads text, which takes `0x10` as 16, `0b11` as 3 and
 * `1e3` alike: `--param max_items=0x10` is refused, not applied as 16.
 */
const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** The value a parameter field holds, read from a form (numbers and booleans may arrive as text). */
function coerce(def: TemplateParameter, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if ((def.type === 'number' || def.type === 'integer') && JSON_NUMBER.test(text) && Number.isFinite(Number(text)))
    return Number(text);
  if (def.type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return value;
}

/** Whether a field counts as not given: absent, null, or empty text. */
function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * Checks one parameter value against its definition; returns the sentence the form shows, or
 * null when it fits. The description is the hint, never the pattern (spec: agent.md `parameters`).
 * A blank value is only a problem for a required parameter with no default.
 */
export function checkParameter(def: TemplateParameter, value: unknown): string | null {
  if (isBlank(value)) {
    return def.required && def.default === undefined ? `Required: ${def.description}` : null;
  }
  const v = coerce(def, value);
  switch (def.type) {
    case 'string':
      if (typeof v !== 'string') return `Must be text: ${def.description}`;
      break;
    case 'number':
      if (typeof v !== 'number' || !Number.isFinite(v)) return `Must be a number: ${def.description}`;
      break;
    case 'integer':
      if (typeof v !== 'number' || !Number.isInteger(v)) return `Must be a whole number: ${def.description}`;
      break;
    case 'boolean':
      if (typeof v !== 'boolean') return `Must be true or false: ${def.description}`;
      break;
  }
  if (def.enum && !def.enum.some((choice) => choice === v)) {
    return `Must be one of ${def.enum.map((choice) => JSON.stringify(choice)).join(', ')}`;
  }
  if (def.pattern !== undefined && typeof v === 'string') {
    // RE2, never a backtracking engine: the form checks this on every keystroke.
    switch (testPackagePattern(def.pattern, v)) {
      case 'refused_pattern':
        return `Cannot be checked: the template's pattern ${packagePatternProblem(def.pattern) ?? 'is refused'}`;
      case 'too_long':
        return `Too long: at most ${MAX_PATTERNED_VALUE_LENGTH} characters`;
      case 'no_match':
        return `Not in the expected form: ${def.description}`;
      case 'match':
        break;
    }
  }
  return null;
}

/**
 * The value apply uses for a parameter: the given one (coerced from form text), else its default,
 * else null (not given).
 */
export function parameterValue(def: TemplateParameter, value: unknown): ParameterValue | null {
  if (isBlank(value)) return def.default ?? null;
  const v = coerce(def, value);
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;
}

/** What the form says of a pinned parameter whose pattern is unanchored. */
export function unanchoredPinnedWords(name: string, pattern: string, tools: string[]): string {
  const shown = tools.slice(0, 3).map((tool) => `\`${tool}\``);
  const more = tools.length > 3 ? ` and ${tools.length - 3} more` : '';
  return `\`${name}\` is checked by the pattern \`${pattern}\`, which is not anchored (no ^ … $): any value that contains a match passes, and ${andList(shown)}${more} will be pinned to the whole value you give. Check it is exactly the destination you mean`;
}

/**
 * Each parameter checked, with the value apply uses; a value not declared is refused under its own name. Text
 * (instructions, inputs) reads a parameter not given as empty (`textValues`), never as a raw placeholder.
 */
export function previewParameters(ctx: PreviewContext): {
  parameters: Record<string, PreviewParameter>;
  values: Record<string, ParameterValue>;
  textValues: Record<string, ParameterValue>;
} {
  const { manifest, request, blockers, warnings } = ctx;
  const defs = manifest.parameters ?? {};
  const parameters: Record<string, PreviewParameter> = {};
  const values: Record<string, ParameterValue> = {};
  for (const [name, def] of Object.entries(defs)) {
    // Own keys only, set as own keys: a parameter may be named `constructor` or `__proto__`.
    const given = Object.hasOwn(request.parameters, name) ? request.parameters[name] : undefined;
    const error = checkParameter(def, given);
    const value = error === null ? parameterValue(def, given) : null;
    setOwn(parameters, name, error === null ? { value } : { value, error });
    if (error !== null)
      blockers.push({ code: 'apply.parameter', path: `parameters.${name}`, message: `\`${name}\`: ${error}` });
    else if (value !== null) setOwn(values, name, value);
  }
  // A pin's destination checked by an unanchored pattern (a decision where the spec is
  // silent): the pattern is searched anywhere in the value, as JSON Schema's `pattern` is, so the
  // form says that any value containing a match passes; the pin then holds exactly that value.
  for (const [name, tools] of pinnedParameters(manifest.mcp)) {
    const def = Object.hasOwn(defs, name) ? defs[name] : undefined;
    if (def?.pattern === undefined || isAnchoredPattern(def.pattern)) continue;
    warnings.push({
      code: `pattern.${name}`,
      path: `parameters.${name}`,
      message: unanchoredPinnedWords(name, def.pattern, [...tools]),
    });
  }
  const textValues: Record<string, ParameterValue> = {};
  for (const name of Object.keys(defs))
    setOwn(textValues, name, Object.hasOwn(values, name) ? (values[name] as ParameterValue) : '');
  for (const name of Object.keys(request.parameters)) {
    if (!Object.hasOwn(defs, name)) {
      blockers.push({
        code: 'apply.unknown_parameter',
        path: `parameters.${name}`,
        message: `\`${name}\` is not a parameter of ${manifest.name}`,
      });
    }
  }
  return { parameters, values, textValues };
}
