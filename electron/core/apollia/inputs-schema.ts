/**
 * A tool's or workflow's `inputs` must itself be a JSON Schema (spec "[[tools]]", "[[workflows]]":
 * "JSON Schema of the inputs"). It is checked as draft 2020-12 without being compiled into code
 * (electron/core/schema/json-schema-check.ts), strictly, so an unknown keyword (`typ`) is refused like an
 * unknown key; `x-order`, which the spec names (the order the launch form follows), is the one
 * extension allowed and must list property names.
 */
import { jsonSchemaProblem } from '../schema/json-schema-check';

const X_ORDER = {
  'x-order': (value: unknown) =>
    Array.isArray(value) && value.every((name) => typeof name === 'string') ? null : 'must be a list of property names',
};

/** Why `schema` is not a usable JSON Schema, or null when it is one. */
export function inputsSchemaProblem(schema: unknown): string | null {
  return jsonSchemaProblem(schema, X_ORDER, 'inputs');
}
