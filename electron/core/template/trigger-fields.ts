/**
 * agent.md `triggers` (DESIGN.md "Template triggers"; spec: agentrun-template-packages.md
 * "triggers"): each a `POST /v2/triggers` body without `agent_id` — a unique name, a type
 * (schedule | at | webhook) with that type's fields, and a `start_run` target. A schedule's cron
 * and zone are checked with the parameters' defaults filled in, so what inspection accepts is what
 * apply can arm.
 */
import { cronProblem, isTimeZone } from '../../../shared/triggers/cron';
import { setOwn } from '../../../shared/base/own-data';
import {
  fillText,
  placeholderNames,
  type ParameterValue,
  type TemplateParameter,
} from '../../../shared/manifests/template-manifest';
import { type FrontMatterFields, isObject, isRfc3339, type Json, show } from './front-matter-fields';

/** A trigger's name: unique in the package; an upgrade matches triggers by it. */
const TRIGGER_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/** A Standard Webhooks event type (`lead.submitted`). */
const EVENT_TYPE = /^[A-Za-z0-9_.:-]{1,128}$/;

/** Checks agent.md's `triggers` list into `check`'s problems. */
export function checkTriggers(
  check: FrontMatterFields,
  value: unknown,
  parameters: Record<string, TemplateParameter>,
): void {
  if (!Array.isArray(value)) {
    check.fail('template.invalid_field', 'triggers', `\`triggers\` must be a list, not ${show(value)}`);
    return;
  }
  const names = new Set<string>();
  const defaults: Record<string, ParameterValue> = {};
  for (const [name, def] of Object.entries(parameters))
    if (def.default !== undefined) setOwn(defaults, name, def.default);
  value.forEach((trigger, i) => {
    const path = `triggers[${i}]`;
    if (!isObject(trigger)) {
      check.fail(
        'template.invalid_field',
        path,
        `\`${path}\` must be a trigger {name, type, target, ...}, not ${show(trigger)}`,
      );
      return;
    }
    const type = trigger.type;
    const extra =
      type === 'schedule'
        ? ['cron', 'timezone']
        : type === 'at'
          ? ['at']
          : type === 'webhook'
            ? ['events', 'max_concurrent']
            : [];
    check.keys(trigger, ['name', 'type', 'target', ...extra], `${path}.`);
    if (trigger.name === undefined)
      check.missing(`${path}.name`, 'a name unique in the package (an upgrade matches triggers by it)');
    else {
      const name = check.text(trigger.name, `${path}.name`, {
        pattern: TRIGGER_NAME,
        form: 'lowercase letters, digits, _ and -',
      });
      if (name !== undefined) {
        if (names.has(name))
          check.fail(
            'template.duplicate',
            `${path}.name`,
            `\`${path}.name\` repeats ${show(name)}: trigger names are unique in the package`,
          );
        names.add(name);
      }
    }
    if (type === undefined) check.missing(`${path}.type`, 'schedule, at or webhook');
    else check.oneOf(type, `${path}.type`, ['schedule', 'at', 'webhook']);
    if (type === 'schedule') checkSchedule(check, trigger, path, parameters, defaults);
    if (type === 'at') {
      if (trigger.at === undefined) check.missing(`${path}.at`, 'an RFC 3339 date-time like 2027-03-01T09:00:00Z');
      else if (typeof trigger.at !== 'string' || !isRfc3339(trigger.at)) {
        check.fail(
          'template.at',
          `${path}.at`,
          `\`${path}.at\` ${show(trigger.at)} is not an RFC 3339 date-time like 2027-03-01T09:00:00Z`,
        );
      }
    }
    if (type === 'webhook') {
      if (trigger.events !== undefined) {
        check.list(
          trigger.events,
          `${path}.events`,
          (item, itemPath) => {
            if (!EVENT_TYPE.test(item))
              check.fail(
                'template.invalid_field',
                itemPath,
                `\`${itemPath}\` ${show(item)} is not an event type like lead.submitted`,
              );
          },
          { nonEmpty: true },
        );
      }
      const max = trigger.max_concurrent;
      if (max !== undefined && (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > 100)) {
        check.fail(
          'template.invalid_field',
          `${path}.max_concurrent`,
          `\`${path}.max_concurrent\` must be a whole number from 1 to 100, not ${show(max)}`,
        );
      }
    }
    const target = trigger.target;
    if (target === undefined) check.missing(`${path}.target`, '{type: start_run, input?}');
    else if (!isObject(target))
      check.fail(
        'template.invalid_field',
        `${path}.target`,
        `\`${path}.target\` must be {type: start_run, input?}, not ${show(target)}`,
      );
    else {
      check.keys(target, ['type', 'input'], `${path}.target.`);
      if (target.type === undefined) check.missing(`${path}.target.type`, 'start_run');
      else check.oneOf(target.type, `${path}.target.type`, ['start_run']);
      if (target.input !== undefined) check.text(target.input, `${path}.target.input`, { max: 65536 });
    }
  });
}

/** A schedule: its cron and zone are checked with the parameters' defaults filled in (spec: `parameters`). */
function checkSchedule(
  check: FrontMatterFields,
  trigger: Json,
  path: string,
  parameters: Record<string, TemplateParameter>,
  defaults: Record<string, ParameterValue>,
): void {
  const fields: ['cron' | 'timezone', unknown][] = [
    ['cron', trigger.cron],
    ['timezone', trigger.timezone],
  ];
  const filled: Record<string, string> = {};
  for (const [field, raw] of fields) {
    const where = `${path}.${field}`;
    if (raw === undefined) {
      if (field === 'cron') check.missing(where, 'a 5-field cron expression like "0 8 * * 1"');
      continue;
    }
    const text = check.text(raw, where);
    if (text === undefined) continue;
    let usable = true;
    for (const name of placeholderNames(text)) {
      if (!Object.hasOwn(parameters, name)) usable = false;
      else if (!Object.hasOwn(defaults, name)) {
        check.fail(
          'template.schedule_parameter',
          where,
          `\`${where}\` uses \`\${parameters.${name}}\`, which has no default: a parameter a schedule uses has one`,
        );
        usable = false;
      }
    }
    if (usable) filled[field] = fillText(text, defaults);
  }
  if (filled.cron !== undefined) {
    const problem = cronProblem(filled.cron);
    if (problem) check.fail('template.cron', `${path}.cron`, `\`${path}.cron\`: ${problem}`);
  }
  if (filled.timezone !== undefined && !isTimeZone(filled.timezone)) {
    check.fail(
      'template.timezone',
      `${path}.timezone`,
      `\`${path}.timezone\` \`${filled.timezone}\` is not an IANA time zone (like Europe/Paris or UTC)`,
    );
  }
}
