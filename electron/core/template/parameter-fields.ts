/**
 * agent.md `parameters` (spec: agentrun-template-packages.md, agent.md `parameters`): a map of
 * name → {type, description, required?, pattern?, enum?, default?}. A `pattern` is a package
 * pattern (shared/manifests/package-pattern.ts), and every enum choice and the default must fit the type and
 * the pattern.
 */
import { setOwn } from '../../../shared/base/own-data';
import {
  MAX_PATTERNED_VALUE_LENGTH,
  packagePatternProblem,
  testPackagePattern,
} from '../../../shared/manifests/package-pattern';
import type { TemplateParameter } from '../../../shared/manifests/template-manifest';
import { type FrontMatterFields, isObject, show } from './front-matter-fields';

/** A parameter name, as `${parameters.<name>}` names it. */
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * Checks agent.md's `parameters` map into `check`'s problems and returns the parameters accepted
 * whole: the triggers' check fills schedules with their defaults, so a refused one is left out.
 */
export function checkParameters(check: FrontMatterFields, value: unknown): Record<string, TemplateParameter> {
  const accepted: Record<string, TemplateParameter> = {};
  if (!isObject(value)) {
    check.fail(
      'template.invalid_field',
      'parameters',
      `\`parameters\` must be a map of name → {type, description, ...}, not ${show(value)}`,
    );
    return accepted;
  }
  for (const [name, def] of Object.entries(value)) {
    const path = `parameters.${name}`;
    if (!PARAMETER_NAME.test(name)) {
      check.fail(
        'template.invalid_field',
        path,
        `\`${path}\`: ${show(name)} is not a parameter name (a letter or _, then letters, digits or _)`,
      );
      continue;
    }
    if (!isObject(def)) {
      check.fail(
        'template.invalid_field',
        path,
        `\`${path}\` must be {type, description, required?, pattern?, enum?, default?}, not ${show(def)}`,
      );
      continue;
    }
    const before = check.errors.length;
    check.keys(def, ['type', 'required', 'pattern', 'enum', 'default', 'description'], `${path}.`);
    const type = def.type;
    if (type === undefined) check.missing(`${path}.type`, 'string, number, integer or boolean');
    else check.oneOf(type, `${path}.type`, ['string', 'number', 'integer', 'boolean']);
    if (def.required !== undefined) check.bool(def.required, `${path}.required`);
    let pattern: string | undefined;
    if (def.pattern !== undefined) {
      if (type !== 'string')
        check.fail('template.invalid_field', `${path}.pattern`, `\`${path}.pattern\` is for string parameters only`);
      else if (typeof def.pattern !== 'string')
        check.fail('template.invalid_field', `${path}.pattern`, `\`${path}.pattern\` must be text`);
      else {
        // One engine for package patterns, linear in the value (shared/manifests/package-pattern.ts says
        // which ECMAScript features are refused and why).
        const why = packagePatternProblem(def.pattern);
        if (why === null) pattern = def.pattern;
        else check.fail('template.pattern', `${path}.pattern`, `\`${path}.pattern\` ${why}`);
      }
    }
    const fits = (v: unknown, where: string): boolean => {
      const typeOk =
        type === 'string'
          ? typeof v === 'string'
          : type === 'number'
            ? typeof v === 'number' && Number.isFinite(v)
            : type === 'integer'
              ? typeof v === 'number' && Number.isInteger(v)
              : type === 'boolean'
                ? typeof v === 'boolean'
                : true;
      if (!typeOk) {
        check.fail('template.invalid_field', where, `\`${where}\` ${show(v)} is not a ${String(type)}`);
        return false;
      }
      const tested = pattern !== undefined && typeof v === 'string' ? testPackagePattern(pattern, v) : 'match';
      if (tested === 'too_long') {
        check.fail(
          'template.invalid_field',
          where,
          `\`${where}\` is longer than ${MAX_PATTERNED_VALUE_LENGTH} characters, the most checked against \`${path}.pattern\``,
        );
        return false;
      }
      if (tested !== 'match') {
        check.fail('template.invalid_field', where, `\`${where}\` ${show(v)} does not match \`${path}.pattern\``);
        return false;
      }
      return true;
    };
    let choices: unknown[] | undefined;
    if (def.enum !== undefined) {
      if (!Array.isArray(def.enum) || def.enum.length === 0) {
        check.fail('template.invalid_field', `${path}.enum`, `\`${path}.enum\` must be a non-empty list of choices`);
      } else {
        choices = def.enum;
        const seen = new Set<string>();
        def.enum.forEach((choice, i) => {
          const where = `${path}.enum[${i}]`;
          if (!fits(choice, where)) return;
          if (seen.has(JSON.stringify(choice)))
            check.fail('template.duplicate', where, `\`${where}\` repeats ${show(choice)}`);
          seen.add(JSON.stringify(choice));
        });
      }
    }
    if (
      def.default !== undefined &&
      fits(def.default, `${path}.default`) &&
      choices &&
      !choices.some((c) => c === def.default)
    ) {
      check.fail(
        'template.invalid_field',
        `${path}.default`,
        `\`${path}.default\` ${show(def.default)} is not one of \`${path}.enum\``,
      );
    }
    if (def.description === undefined)
      check.missing(
        `${path}.description`,
        'what a person reads beside the field (say the format there, never the pattern)',
      );
    else check.text(def.description, `${path}.description`, { max: 500 });
    if (check.errors.length === before) setOwn(accepted, name, def as unknown as TemplateParameter);
  }
  return accepted;
}
