/**
 * The template form's answers, pure (no React): the starting values, the values the preview request
 * sends, each field's problem as the person types, the notes beside pinned fields, and the agent's
 * name as the values make it.
 */
import { unanchoredPinnedWords, parameterValue, checkParameter } from '../../../../shared/decisions/apply-parameters';
import { isAnchoredPattern } from '../../../../shared/manifests/package-pattern';
import { cronProblem, isTimeZone } from '../../../../shared/triggers/cron';
import {
  fillText,
  pinnedParameters,
  soloPlaceholder,
  type ParameterValue,
  type TemplateManifest,
  type TemplateParameter,
} from '../../../../shared/manifests/template-manifest';
import type { ApplyDraft, FieldValue } from '../../stores/apply-store';

/** The form's starting values: each default filled (text as typed, a switch for a boolean). */
export function initialValues(parameters: Record<string, TemplateParameter>): Record<string, FieldValue> {
  return Object.fromEntries(
    Object.entries(parameters).map(([name, def]) => [
      name,
      def.type === 'boolean' && !def.enum ? def.default === true : def.default === undefined ? '' : String(def.default),
    ]),
  );
}

/** The request values: blank text left out (apply takes the default), numbers as numbers when they read as one. */
export function requestValues(
  parameters: Record<string, TemplateParameter>,
  values: Record<string, FieldValue>,
): Record<string, ParameterValue> {
  const out: Record<string, ParameterValue> = {};
  for (const [name, def] of Object.entries(parameters)) {
    const value = values[name];
    if (value === undefined) continue;
    if (typeof value === 'boolean') out[name] = value;
    else if (value.trim() === '') continue;
    else if ((def.type === 'number' || def.type === 'integer') && Number.isFinite(Number(value.trim())))
      out[name] = Number(value.trim());
    else if (def.type === 'boolean' && (value === 'true' || value === 'false')) out[name] = value === 'true';
    else out[name] = value;
  }
  return out;
}

type TemplateTrigger = NonNullable<TemplateManifest['triggers']>[number];

/**
 * The schedule triggers that use a parameter as their whole `cron` or `timezone`, by parameter, in
 * the manifest's order: found once per manifest, not once per parameter and keystroke (a template
 * may hold thousands of each; linear, DESIGN.md).
 */
export function schedulesByParameter(manifest: TemplateManifest | undefined): Map<string, TemplateTrigger[]> {
  const uses = new Map<string, TemplateTrigger[]>();
  for (const trigger of manifest?.triggers ?? []) {
    if (trigger.type !== 'schedule') continue;
    const names = new Set([
      soloPlaceholder(trigger.cron),
      trigger.timezone === undefined ? null : soloPlaceholder(trigger.timezone),
    ]);
    for (const name of names) {
      if (name === null) continue;
      const list = uses.get(name);
      if (list) list.push(trigger);
      else uses.set(name, [trigger]);
    }
  }
  return uses;
}

/**
 * A parameter that a schedule uses as its whole `cron` or `timezone` is checked as one while the
 * person types (spec agent.md `parameters`: "apply checks every trigger with the parameters given").
 * `triggers`: those that use it ({@link schedulesByParameter}).
 */
function scheduleProblem(
  triggers: readonly TemplateTrigger[],
  name: string,
  value: ParameterValue | null,
): string | null {
  if (typeof value !== 'string') return null;
  for (const trigger of triggers) {
    if (trigger.type !== 'schedule') continue;
    if (soloPlaceholder(trigger.cron) === name) {
      const problem = cronProblem(value);
      if (problem) return `Not a schedule this app can read: ${problem}`;
    }
    if (trigger.timezone !== undefined && soloPlaceholder(trigger.timezone) === name && !isTimeZone(value)) {
      return `\`${value}\` is not a time zone this app knows (an IANA name like Europe/Paris)`;
    }
  }
  return null;
}

/** For each pinned parameter whose pattern is unanchored, what the form says beside its field. */
export function patternNotesOf(manifest: TemplateManifest | undefined): Map<string, string> {
  const notes = new Map<string, string>();
  for (const [param, tools] of pinnedParameters(manifest?.mcp)) {
    const pattern = manifest?.parameters?.[param]?.pattern;
    if (pattern !== undefined && Object.hasOwn(manifest?.parameters ?? {}, param) && !isAnchoredPattern(pattern))
      notes.set(param, unanchoredPinnedWords(param, pattern, [...tools]));
  }
  return notes;
}

/** Each field's problem as the person types (its own check, then the schedules that use it whole), or null. */
export function parameterErrors(
  parameters: Record<string, TemplateParameter>,
  values: Record<string, FieldValue>,
  schedules: Map<string, TemplateTrigger[]>,
): Record<string, string | null> {
  return Object.fromEntries(
    Object.entries(parameters).map(([param, def]) => {
      const raw = values[param] === false && def.type !== 'boolean' ? '' : values[param];
      return [
        param,
        checkParameter(def, raw) ?? scheduleProblem(schedules.get(param) ?? [], param, parameterValue(def, raw)),
      ];
    }),
  );
}

/** The agent's name as the values typed so far make it; a parameter not given shows as `[name]`. */
export function liveNameOf(
  manifest: TemplateManifest,
  parameters: Record<string, TemplateParameter>,
  values: Record<string, FieldValue>,
): string {
  const filledValues = Object.fromEntries(
    Object.entries(parameters).map(([n, def]) => [n, parameterValue(def, values[n]) ?? undefined]),
  );
  return fillText(manifest.display_name ?? manifest.name, filledValues).replace(/\$\{parameters\.([^}]*)\}/g, '[$1]');
}

/** Whether the person chose anything: a field changed from how it started, or anything granted, withheld or armed. */
export function somethingChosen(
  chosen: {
    grants: string[];
    arm: string[];
    withhold: string[];
    approvals: ApplyDraft['approvals'] | null;
    values: Record<string, FieldValue>;
  },
  start: Record<string, FieldValue>,
): boolean {
  return (
    chosen.grants.length > 0 ||
    chosen.arm.length > 0 ||
    chosen.withhold.length > 0 ||
    chosen.approvals !== null ||
    Object.entries(chosen.values).some(([param, value]) => value !== start[param])
  );
}
