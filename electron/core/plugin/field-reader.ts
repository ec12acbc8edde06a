/**
 * The plugin manifest's field reader: typed reads of one JSON object's fields, each problem named
 * by its full path (`tools[2].capability`), collected as errors and warnings. Every section
 * reader (identity-and-auth.ts, capabilities-tools-resources.ts, connections-and-profiles.ts,
 * mcp-exposure.ts, query-surface.ts) reads its part of the spec with it.
 */
import type { Problem } from '../../../shared/manifests/inspection';
import { unknownKeys } from '../schema/strict-fields';
import { jsonSchemaProblem } from '../schema/json-schema-check';
import { childPath, type JsonValue } from './strict-json';
import type { RefusalCode } from '../../../shared/contract/refusal-codes';

const JSON_SCHEMA_2020 = 'https://json-schema.org/draft/2020-12/schema';

/** A parsed JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** Whether a JSON value is an object (not an array, not null). */
export function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON value's type in words, for messages (`a string`, `an array`). */
export function typeName(value: JsonValue | undefined): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'a number';
  return 'a boolean';
}

/** Whether `obj` has `key` as its own property (never an inherited one). */
export function has(obj: JsonObject, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** Collects problems while reading; every message names the field by its full path. */
export class Reader {
  readonly errors: Problem[] = [];
  readonly warnings: Problem[] = [];

  error(code: RefusalCode, path: string, what: string): void {
    this.errors.push({ code, path, message: `plugin manifest: \`${path}\` ${what}` });
  }

  warn(code: RefusalCode, path: string, what: string): void {
    this.warnings.push({ code, path, message: `plugin manifest: \`${path}\` ${what}` });
  }

  /** Spec: fields this app does not know are listed, not guessed at. */
  unknownFields(obj: JsonObject, path: string, known: Iterable<string>): void {
    for (const key of unknownKeys(obj, known))
      this.warn('plugin.unknown_field', childPath(path, key), 'is a field this app does not know; it is not shown');
  }

  object(value: JsonValue | undefined, path: string): JsonObject | null {
    if (isObject(value)) return value;
    this.error('plugin.invalid_type', path, `must be an object, not ${typeName(value)}`);
    return null;
  }

  /** A required (or optional when `optional`) string; null when absent, null-valued or wrong. */
  string(
    obj: JsonObject,
    key: string,
    path: string,
    opts: { optional?: boolean; nonEmpty?: boolean } = {},
  ): string | null {
    const fieldPath = childPath(path, key);
    const value = obj[key];
    if (!has(obj, key) || (value === null && opts.optional)) {
      if (!opts.optional) this.error('plugin.missing_field', fieldPath, 'is required');
      return null;
    }
    if (typeof value !== 'string') {
      this.error('plugin.invalid_type', fieldPath, `must be a string, not ${typeName(value)}`);
      return null;
    }
    if (opts.nonEmpty && value.trim() === '') {
      this.error('plugin.empty_field', fieldPath, 'must not be empty');
      return null;
    }
    return value;
  }

  boolean(obj: JsonObject, key: string, path: string): boolean | undefined {
    if (!has(obj, key)) return undefined;
    const value = obj[key];
    if (typeof value === 'boolean') return value;
    this.error('plugin.invalid_type', childPath(path, key), `must be true or false, not ${typeName(value)}`);
    return undefined;
  }

  stringList(obj: JsonObject, key: string, path: string, opts: { acceptString?: boolean } = {}): string[] {
    const fieldPath = childPath(path, key);
    if (!has(obj, key) || obj[key] === null) return [];
    const value = obj[key];
    if (opts.acceptString && typeof value === 'string') return [value];
    if (!Array.isArray(value)) {
      this.error('plugin.invalid_type', fieldPath, `must be a list of strings, not ${typeName(value)}`);
      return [];
    }
    const out: string[] = [];
    value.forEach((item, i) => {
      if (typeof item === 'string') out.push(item);
      else this.error('plugin.invalid_type', childPath(fieldPath, i), `must be a string, not ${typeName(item)}`);
    });
    return out;
  }

  list(obj: JsonObject, key: string, path: string): JsonValue[] {
    if (!has(obj, key) || obj[key] === null) return [];
    const value = obj[key];
    if (Array.isArray(value)) return value;
    this.error('plugin.invalid_type', childPath(path, key), `must be a list, not ${typeName(value)}`);
    return [];
  }

  /**
   * A JSON Schema, checked as every package schema is (`json-schema-check.ts`): as data, never
   * compiled (compiling generates code from package data).
   */
  jsonSchema(obj: JsonObject, key: string, path: string): Record<string, unknown> | null {
    if (!has(obj, key) || obj[key] === null) return null;
    const fieldPath = childPath(path, key);
    const value = obj[key];
    if (typeof value === 'boolean') return value ? {} : { not: {} };
    if (!isObject(value)) {
      this.error('plugin.invalid_type', fieldPath, `must be a JSON Schema object, not ${typeName(value)}`);
      return null;
    }
    const dialect = value.$schema;
    if (dialect !== undefined && dialect !== JSON_SCHEMA_2020 && dialect !== `${JSON_SCHEMA_2020}#`) {
      this.warn(
        'plugin.schema_dialect',
        childPath(fieldPath, '$schema'),
        `names the dialect \`${String(dialect)}\`; only JSON Schema 2020-12 is checked, so this schema is shown unchecked`,
      );
      return value;
    }
    // The same data-only check as every other package schema (json-schema-check.ts): the 2020-12
    // meta-schema, unknown keywords, patterns that do not compile, `$ref`s that do not resolve.
    const problem = jsonSchemaProblem(value, {}, fieldPath);
    if (problem !== null) {
      this.error('plugin.invalid_schema', fieldPath, `is not a valid JSON Schema: ${problem}`);
      return null;
    }
    return value;
  }
}
