/**
 * Reading `apollia.toml` into plain data and checking it against the strict schema, with every
 * refusal phrased as the spec and DESIGN.md "Validation contract" ask: `apollia.toml: ` first, the
 * field named by its full path in backticks (`agents[0].defaults.model.temprature`).
 */
import type { ErrorObject } from 'ajv';
import { parse, TomlError } from 'smol-toml';
import { cronProblem } from '../../../shared/triggers/cron';
import type { Problem } from '../../../shared/manifests/inspection';
import { setOwn } from '../../../shared/base/own-data';
import { validateManifest } from '../generated/manifest-validator';
import { TRIGGER_SOURCE_TYPES } from '../../../shared/manifests/apollia-manifest';

/** A TOML value after parsing: plain objects and arrays, dates kept as `Date`. */
export type TomlValue = string | number | boolean | Date | TomlValue[] | { [key: string]: TomlValue };

/** The outcome of parsing: the data, or the syntax error as a problem. */
export type ManifestParse = { ok: true; data: Record<string, TomlValue> } | { ok: false; error: Problem };

/**
 * Parses the text with smol-toml. A syntax error names the line and column, as the contract asks:
 * `apollia.toml: TOML syntax error at line L, column C: <what>`.
 */
export function parseManifestText(text: string): ManifestParse {
  try {
    return { ok: true, data: plain(parse(text)) as Record<string, TomlValue> };
  } catch (error) {
    if (error instanceof TomlError) {
      const what = syntaxCause(text, error);
      return {
        ok: false,
        error: {
          code: 'manifest.syntax',
          message: `apollia.toml: TOML syntax error at line ${error.line}, column ${error.column}: ${what}`,
        },
      };
    }
    const what = error instanceof Error ? error.message : String(error);
    return { ok: false, error: { code: 'manifest.syntax', message: `apollia.toml: TOML could not be read: ${what}` } };
  }
}

/**
 * The real cause of a smol-toml syntax error. smol-toml reports a quoted string left open at the
 * end of its line as "control characters are not allowed in strings" (the line break is the
 * control character it meets); that case is told for what it is, and a real control character
 * is named by its code point. Other messages are smol-toml's own first line.
 */
function syntaxCause(text: string, error: TomlError): string {
  const what = error.message.split('\n')[0]?.replace(/^Invalid TOML document:\s*/, '') ?? 'invalid TOML';
  if (!what.startsWith('control characters are not allowed in strings')) return what;
  const line = text.split('\n')[error.line - 1];
  const char = line === undefined || error.column - 1 >= line.length ? '\n' : line[error.column - 1];
  if (char === '\n' || char === '\r' || char === undefined) {
    return `unterminated string: a quoted string must close on the line it opens (use """ or ''' for text over several lines)`;
  }
  const code = (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return `control character U+${code} is not allowed in a string (write it as \\u${code})`;
}

/**
 * A copy of what smol-toml returns, keeping key (document) order, every key of a table an own data
 * property (`setOwn`: an ordinary object, so messages can still print it).
 * Assigning `out[key]` on an ordinary object made a
 * `[agents.__proto__.defaults]` table the agent's prototype: its `access` reached the text output
 * but not the strict schema, the JSON or the consent form (DESIGN.md "Parsed
 * package data is plain own-property data"). Now `__proto__` is an unknown key like any other.
 */
function plain(value: unknown): TomlValue {
  if (value instanceof Date) return value;
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, TomlValue> = {};
    for (const [key, inner] of Object.entries(value)) setOwn(out, key, plain(inner));
    return out;
  }
  if (typeof value === 'bigint') return Number(value);
  return value as TomlValue;
}

/**
 * `/agents/0/defaults` → `agents[0].defaults` (the spec's way of naming a field). With `data`, an
 * index is only written `[n]` when it indexes an array (a table key `"0"` stays a key); a key that
 * is not a TOML bare key is quoted, as TOML would write it.
 */
export function pointerToPath(pointer: string, data?: unknown): string {
  if (pointer === '') return '';
  let out = '';
  let current: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const isIndex = data === undefined ? /^(0|[1-9][0-9]*)$/.test(part) : Array.isArray(current);
    if (isIndex) out += `[${part}]`;
    else {
      const key = /^[A-Za-z0-9_-]+$/.test(part) ? part : JSON.stringify(part);
      out += out === '' ? key : `.${key}`;
    }
    current = current !== null && typeof current === 'object' ? (current as Record<string, unknown>)[part] : undefined;
  }
  return out;
}

function joinPointer(pointer: string, key: string): string {
  return `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** What TOML calls a value's type, for "must be a string, not an integer". */
function tomlType(value: unknown): string {
  if (value instanceof Date) return 'a date-time';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a float';
  if (typeof value === 'boolean') return 'a boolean';
  if (typeof value === 'string') return 'a string';
  if (value !== null && typeof value === 'object') return 'a table';
  return 'nothing';
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'a table',
  array: 'an array',
};

function valueAt(data: unknown, pointer: string): unknown {
  let current: unknown = data;
  if (pointer === '') return current;
  for (const raw of pointer.slice(1).split('/')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/**
 * Document order of every value: a pre-order walk of the parsed data, whose keys keep the order
 * smol-toml met them in. A missing key is placed just after the last value of its table (the table
 * was read whole before the key was found missing).
 */
function documentOrder(data: unknown): { at: Map<string, number>; end: Map<string, number> } {
  const at = new Map<string, number>();
  const end = new Map<string, number>();
  let counter = 0;
  const walk = (value: unknown, pointer: string) => {
    at.set(pointer, counter++);
    if (value instanceof Date) {
      // a leaf
    } else if (Array.isArray(value)) {
      value.forEach((inner, i) => walk(inner, `${pointer}/${i}`));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) walk(inner, joinPointer(pointer, key));
    }
    end.set(pointer, counter - 0.5);
  };
  walk(data, '');
  return { at, end };
}

/** Where an ajv error sits: its pointer, its path in words, the value there, and how to place and name a pointer. */
interface ErrorSite {
  here: string;
  where: string;
  value: unknown;
  position: (pointer: string) => number;
  name: (pointer: string) => string;
}

type Translated = { problem: Problem; position: number } | null;

/** A value of the wrong type: a table, an array of tables, or the words of the type expected. */
function wrongType(error: ErrorObject, at: ErrorSite): Translated {
  const { here, where, value, position } = at;
  const expected = String((error.params as { type: string | string[] }).type);
  const words = TYPE_WORDS[expected] ?? expected;
  const message =
    here.endsWith('/source') ||
    /^\/(agents|tools|workflows|requires|mcp_servers|triggers)\/\d+$/.test(here) ||
    here === '/package' ||
    here === '/pip'
      ? `apollia.toml: \`${where}\` must be a table, not ${tomlType(value)}`
      : /^\/(agents|tools|workflows|requires|mcp_servers|triggers)$/.test(here)
        ? `apollia.toml: \`${where}\` must be an array of tables ([[${where}]]), not ${tomlType(value)}`
        : `apollia.toml: \`${where}\` must be ${words}, not ${tomlType(value)}`;
  return { problem: { code: 'manifest.wrong_type', message, path: where }, position: position(here) };
}

/** A trigger's `source.type` that is not a string or not one of the known kinds (a missing one is `required`'s). */
function triggerSourceType(error: ErrorObject, data: unknown, at: ErrorSite): Translated {
  const { here, position, name } = at;
  const params = error.params as { error: 'tag' | 'mapping'; tag: string; tagValue: unknown };
  const pointer = joinPointer(here, params.tag);
  const path = name(pointer);
  const tagValue = valueAt(data, pointer);
  // A missing tag is already reported by `required`.
  if (tagValue === undefined) return null;
  const message =
    params.error === 'tag' && typeof tagValue !== 'string'
      ? `apollia.toml: \`${path}\` must be a string, not ${tomlType(tagValue)}`
      : `apollia.toml: \`${path}\` value \`${String(tagValue)}\` must be one of ${TRIGGER_SOURCE_TYPES.join(', ')}`;
  return {
    problem: { code: typeof tagValue === 'string' ? 'manifest.bad_value' : 'manifest.wrong_type', message, path },
    position: position(pointer),
  };
}

/** A cron expression that cannot be read, or an interval not in the form 30m, 1h or 1d. */
function badFormat(error: ErrorObject, at: ErrorSite): Translated {
  const { here, where, value, position } = at;
  const format = (error.params as { format: string }).format;
  if (format === 'cron') {
    const why = cronProblem(String(value)) ?? 'is not a valid cron expression';
    return {
      problem: { code: 'manifest.bad_cron', message: `apollia.toml: \`${where}\`: ${why}`, path: where },
      position: position(here),
    };
  }
  return {
    problem: {
      code: 'manifest.bad_interval',
      message: `apollia.toml: \`${where}\` value \`${String(value)}\` is not an interval such as 30m, 1h or 1d (a whole number, then s, m, h or d)`,
      path: where,
    },
    position: position(here),
  };
}

/** One ajv error in the spec's words, with where it sits in the document. */
function translate(
  error: ErrorObject,
  data: unknown,
  order: ReturnType<typeof documentOrder>,
): { problem: Problem; position: number } | null {
  const here = error.instancePath;
  const position = (pointer: string) => order.at.get(pointer) ?? order.end.get('') ?? 0;
  const name = (pointer: string) => pointerToPath(pointer, data);
  const value = valueAt(data, here);
  const where = name(here);
  const at: ErrorSite = { here, where, value, position, name };
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = (error.params as { additionalProperty: string }).additionalProperty;
      const pointer = joinPointer(here, key);
      return {
        problem: {
          code: 'manifest.unknown_key',
          message: `apollia.toml: unknown key \`${name(pointer)}\``,
          path: name(pointer),
        },
        position: position(pointer),
      };
    }
    case 'required': {
      const key = (error.params as { missingProperty: string }).missingProperty;
      const pointer = joinPointer(here, key);
      return {
        problem: {
          code: 'manifest.missing_key',
          message: `apollia.toml: missing required key \`${name(pointer)}\``,
          path: name(pointer),
        },
        position: order.end.get(here) ?? position(here),
      };
    }
    case 'type':
      return wrongType(error, at);
    case 'enum': {
      const allowed = (error.params as { allowedValues: unknown[] }).allowedValues.map(String).join(', ');
      return {
        problem: {
          code: 'manifest.bad_value',
          message: `apollia.toml: \`${where}\` value \`${String(value)}\` must be one of ${allowed}`,
          path: where,
        },
        position: position(here),
      };
    }
    case 'discriminator':
      return triggerSourceType(error, data, at);
    case 'format':
      return badFormat(error, at);
    case 'minLength':
      return {
        problem: { code: 'manifest.bad_value', message: `apollia.toml: \`${where}\` must not be empty`, path: where },
        position: position(here),
      };
    case 'maxItems': {
      // One source for the limit (shared/base/limits.ts): the Api's requests are capped by the same number, so what is
      // accepted here installs.
      const limit = (error.params as { limit: number }).limit;
      const count = Array.isArray(value) ? value.length : 0;
      return {
        problem: {
          code: 'manifest.too_many',
          message: `apollia.toml: \`${where}\` lists ${count.toLocaleString('en-US')} entries; at most ${limit.toLocaleString('en-US')} are allowed`,
          path: where,
        },
        position: position(here),
      };
    }
    case 'minimum':
    case 'maximum': {
      const limit = (error.params as { limit: number }).limit;
      const relation = error.keyword === 'minimum' ? 'at least' : 'at most';
      return {
        problem: {
          code: 'manifest.bad_value',
          message: `apollia.toml: \`${where}\` value \`${String(value)}\` must be ${relation} ${limit}`,
          path: where,
        },
        position: position(here),
      };
    }
    case 'const':
    case 'oneOf':
      // The discriminator reports the tag; these are its echoes.
      return null;
    default:
      return {
        problem: {
          code: 'manifest.bad_value',
          message: `apollia.toml: \`${where}\` ${error.message ?? 'is not valid'}`,
          path: where,
        },
        position: position(here),
      };
  }
}

/**
 * Checks parsed data against the strict schema. Returns every schema problem, the first in
 * document order first (ties keep ajv's order), so the report is the same on every run.
 */
export function checkManifestSchema(data: Record<string, TomlValue>): Problem[] {
  // Compiled at build time from MANIFEST_SCHEMA (scripts/compile-schemas.ts): no code generation at run time.
  const validate = validateManifest;
  if (validate(data)) return [];
  const order = documentOrder(data);
  const seen = new Set<string>();
  const found: { problem: Problem; position: number; index: number }[] = [];
  (validate.errors ?? []).forEach((error, index) => {
    const translated = translate(error, data, order);
    if (!translated || seen.has(translated.problem.message)) return;
    seen.add(translated.problem.message);
    found.push({ ...translated, index });
  });
  found.sort((a, b) => a.position - b.position || a.index - b.index);
  return found.map((entry) => entry.problem);
}
