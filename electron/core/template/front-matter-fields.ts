/**
 * Typed reads of agent.md's front matter fields, each problem collected with its path and a
 * `template.*` code (template spec, agent.md table: a wrong type, an empty text, an unknown field
 * or a repeated list item refuses the package). `AgentMdCheck` (agent-md.ts) reads each field of
 * the spec with these, as do `checkMcp` (mcp-fields.ts), `checkParameters` (parameter-fields.ts)
 * and `checkTriggers` (trigger-fields.ts).
 */
import type { Problem } from '../../../shared/manifests/inspection';
import { unknownKeys } from '../schema/strict-fields';
import type { RefusalCode } from '../../../shared/contract/refusal-codes';

/** RFC 3339 date-time (its form only; the date itself is checked by `isRfc3339`). */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

/** Whether `text` is an RFC 3339 date-time that names a real instant (its form only: a past one passes here). */
export function isRfc3339(text: string): boolean {
  const m = RFC3339.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 60) return false;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > days) return false;
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false;
  return Number.isFinite(Date.parse(text.replace('t', 'T').replace('z', 'Z')));
}

/** A parsed YAML map. */
export type Json = Record<string, unknown>;

/** Whether a parsed value is a map (not a list, not null). */
export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value as a message shows it: JSON, cut at 60 characters. */
export function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The field checks agent.md's reader is built on; problems collect in `errors`, in order. */
export class FrontMatterFields {
  readonly errors: Problem[] = [];

  fail(code: RefusalCode, path: string, message: string): void {
    this.errors.push({ code, path, message: `agent.md: ${message}` });
  }

  /** Refuses keys outside `allowed` (DESIGN.md: an unknown front matter field is refused). */
  keys(object: Json, allowed: readonly string[], prefix: string): void {
    for (const key of unknownKeys(object, allowed))
      this.fail('template.unknown_field', `${prefix}${key}`, `unknown field \`${prefix}${key}\``);
  }

  missing(path: string, what: string): void {
    this.fail('template.missing_field', path, `\`${path}\` is required: ${what}`);
  }

  /** A string field: type, non-empty, optional pattern. Returns it when it is fine. */
  text(
    value: unknown,
    path: string,
    rule?: { pattern?: { test(value: string): boolean; source?: string }; form?: string; max?: number },
  ): string | undefined {
    if (typeof value !== 'string' || value.trim() === '') {
      this.fail('template.invalid_field', path, `\`${path}\` must be non-empty text, not ${show(value)}`);
      return undefined;
    }
    if (rule?.max !== undefined && value.length > rule.max) {
      this.fail('template.invalid_field', path, `\`${path}\` is longer than ${rule.max} characters`);
      return undefined;
    }
    if (rule?.pattern && !rule.pattern.test(value)) {
      this.fail(
        'template.invalid_field',
        path,
        `\`${path}\` ${show(value)} must be ${rule.form ?? `of the form ${rule.pattern.source ?? 'asked'}`}`,
      );
      return undefined;
    }
    return value;
  }

  bool(value: unknown, path: string): void {
    if (typeof value !== 'boolean')
      this.fail('template.invalid_field', path, `\`${path}\` must be true or false, not ${show(value)}`);
  }

  oneOf(value: unknown, path: string, choices: readonly string[]): void {
    if (typeof value !== 'string' || !choices.includes(value)) {
      this.fail('template.invalid_field', path, `\`${path}\` must be one of ${choices.join(', ')}, not ${show(value)}`);
    }
  }

  /** A list of unique strings, each checked by `each`. */
  list(
    value: unknown,
    path: string,
    each: (item: string, itemPath: string) => void,
    options: { nonEmpty?: boolean } = {},
  ): string[] {
    if (!Array.isArray(value)) {
      this.fail('template.invalid_field', path, `\`${path}\` must be a list, not ${show(value)}`);
      return [];
    }
    if (options.nonEmpty && value.length === 0)
      this.fail('template.invalid_field', path, `\`${path}\` must not be empty`);
    const seen = new Set<string>();
    const items: string[] = [];
    value.forEach((item, i) => {
      const itemPath = `${path}[${i}]`;
      if (typeof item !== 'string' || item === '') {
        this.fail('template.invalid_field', itemPath, `\`${itemPath}\` must be non-empty text, not ${show(item)}`);
        return;
      }
      if (seen.has(item)) {
        this.fail('template.duplicate', itemPath, `\`${itemPath}\` repeats ${show(item)}`);
        return;
      }
      seen.add(item);
      items.push(item);
      each(item, itemPath);
    });
    return items;
  }
}
