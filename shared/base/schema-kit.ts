/**
 * The few shapes TypeBox does not write the way this app's schemas want them, each once: a closed
 * object, a JSON `type` list with `null` (one keyword, not an `anyOf`, so ajv names the field in
 * one message), an `enum` of literals, and a map with a bounded count and bounded key names. Each
 * gives both the JSON Schema (draft 2020-12) that ajv compiles ahead of time
 * (`scripts/compile-schemas.ts`) and the static type (`Static<typeof schema>`), so the two cannot drift.
 */
import { type Static, type TProperties, type TSchema, Type } from 'typebox';

export type { Static, TSchema } from 'typebox';

/** An object with exactly these properties: every other key is refused (`additionalProperties: false`). */
export function closed<P extends TProperties>(properties: P, options: Record<string, unknown> = {}) {
  return Type.Object(properties, { additionalProperties: false, ...options });
}

/** One of these literal values, written as a plain `enum` (the `const` of a single value as `const`). */
export function oneOf<const V extends readonly (string | number | boolean | null)[]>(values: V) {
  return Type.Unsafe<V[number]>({ enum: [...values] });
}

/** Exactly this value, written as a plain `const` (no `type` beside it). */
export function exactly<const V extends string | number | boolean>(value: V) {
  return Type.Unsafe<V>({ const: value });
}

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array';
type JsonTypeOf<T extends JsonType> = T extends 'string'
  ? string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'array'
        ? unknown[]
        : Record<string, unknown>;

/** A value of this JSON type or `null`, with more keywords (`{ type: [type, 'null'], … }`). */
export function orNull<T extends JsonType>(type: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<JsonTypeOf<T> | null>({ type: [type, 'null'], ...options });
}

/** Like {@link orNull}, with the static type given (an array's items, an object's shape). */
export function orNullAs<V>(type: JsonType, options: Record<string, unknown> = {}) {
  return Type.Unsafe<V | null>({ type: [type, 'null'], ...options });
}

/** A value of the static type `V` whose schema is written by hand (a JSON `type` list, a bare `type: object`). */
export function shaped<V>(schema: object) {
  return Type.Unsafe<V>(schema);
}

/**
 * A map by name: `additionalProperties` is each value's schema; `keys` bounds the names
 * (`propertyNames`) and `options` the count (`maxProperties`).
 */
export function mapOf<S extends TSchema>(value: S, keys?: object, options: Record<string, unknown> = {}) {
  return Type.Unsafe<Record<string, Static<S>>>({
    type: 'object',
    ...options,
    ...(keys ? { propertyNames: keys } : {}),
    additionalProperties: value,
  });
}

/** Exactly one of these schemas (`oneOf`), typed as the union of theirs. */
export function exactlyOne<S extends readonly TSchema[]>(...schemas: S) {
  return Type.Unsafe<Static<S[number]>>({ oneOf: [...schemas] });
}
