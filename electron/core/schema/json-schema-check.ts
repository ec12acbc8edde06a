/**
 * Checking a package's JSON Schema (a tool's `inputs`, a template's `output.schema`, a grader's
 * `schema`) as draft 2020-12 WITHOUT compiling it.
 *
 * Compiling a schema with ajv generates JavaScript from the schema's text; ajv's own security notes
 * treat schemas as trusted code. A package's schema is not trusted (DESIGN.md "Reading without
 * running": nothing from a package is evaluated), so this check does what compiling would catch,
 * with data-only steps: the schema is validated against the 2020-12 meta-schema (ajv runs only the
 * app's own compiled meta-schema), then walked to refuse unknown keywords (as ajv's strict mode
 * would), patterns that are not valid regular expressions, and `$ref`s that do not resolve inside
 * the schema (a remote `$ref` would be fetched by nobody: it is refused). Size and depth are bounded.
 */
import { validateJsonSchema2020 } from '../generated/json-schema-meta-validator';

/** A keyword this app allows beyond 2020-12 (e.g. the `.apo` spec's `x-order`), with its own check. */
export type ExtraKeywordCheck = (value: unknown, schemaObject: Record<string, unknown>) => string | null;

/** Limits on a schema's shape: a package schema is small; a huge or deep one is an attack. */
const MAX_DEPTH = 64;
const MAX_NODES = 20_000;

/** Keywords of the 2020-12 vocabularies (core, applicator, unevaluated, validation, meta-data, format, content). */
const KNOWN_KEYWORDS = new Set([
  '$schema',
  '$id',
  '$ref',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$vocabulary',
  '$comment',
  '$defs',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'dependentSchemas',
  'prefixItems',
  'items',
  'contains',
  'properties',
  'patternProperties',
  'additionalProperties',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'type',
  'const',
  'enum',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxContains',
  'minContains',
  'maxProperties',
  'minProperties',
  'required',
  'dependentRequired',
  'title',
  'description',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'examples',
  'format',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
  // Draft 2019-09 / 7 spellings ajv's 2020 dialect still reads.
  'definitions',
  'dependencies',
]);

/** Keywords whose value is one subschema, a map of subschemas, or a list of subschemas. */
const ONE_SUBSCHEMA = [
  'not',
  'if',
  'then',
  'else',
  'items',
  'contains',
  'additionalProperties',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
];
const MAP_OF_SUBSCHEMAS = ['$defs', 'definitions', 'properties', 'patternProperties', 'dependentSchemas'];
const LIST_OF_SUBSCHEMAS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

/**
 * The schema against the 2020-12 meta-schema, compiled at build time (scripts/compile-schemas.ts):
 * the first error in ajv's `errorsText` words (`inputs/type must be …`), or null.
 */
function metaSchemaProblem(schema: unknown, name: string): string | null {
  if (validateJsonSchema2020(schema)) return null;
  const error = validateJsonSchema2020.errors?.[0];
  return error ? `${name}${error.instancePath} ${error.message}` : `${name} is not a valid JSON Schema`;
}

function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Why `schema` is not a usable JSON Schema 2020-12, or null when it is one.
 * The answer names the place in the schema (`/properties/path/pattern`); meta-schema errors start
 * with `name` (`inputs/type must be …`).
 */
export function jsonSchemaProblem(
  schema: unknown,
  extraKeywords: Readonly<Record<string, ExtraKeywordCheck>> = {},
  name = 'schema',
): string | null {
  if (typeof schema === 'boolean') return null;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    return 'is not a JSON Schema (an object or a boolean)';

  // Walk first: bounded depth and size before anything else reads it.
  const pointers = new Set<string>(['']);
  const anchors = new Set<string>();
  const refs: { ref: string; at: string }[] = [];
  let nodes = 0;
  let problem: string | null = null;

  const walk = (node: unknown, at: string, depth: number): void => {
    if (problem) return;
    if (++nodes > MAX_NODES) {
      problem = `is too large (over ${MAX_NODES} subschemas)`;
      return;
    }
    if (depth > MAX_DEPTH) {
      problem = `is nested too deeply (over ${MAX_DEPTH} levels) at \`${at}\``;
      return;
    }
    if (typeof node === 'boolean') return;
    if (typeof node !== 'object' || node === null || Array.isArray(node)) {
      problem = `has \`${at || '/'}\`, which is not a schema (an object or a boolean)`;
      return;
    }
    pointers.add(at);
    const object = node as Record<string, unknown>;
    for (const [keyword, value] of Object.entries(object)) {
      const here = `${at}/${escapePointer(keyword)}`;
      // Own keys only: a keyword `__proto__` or `constructor` must not find Object's own.
      const extra = Object.hasOwn(extraKeywords, keyword) ? extraKeywords[keyword] : undefined;
      if (extra) {
        const extraProblem = extra(value, object);
        if (extraProblem) {
          problem = `\`${here}\`: ${extraProblem}`;
          return;
        }
        continue;
      }
      if (!KNOWN_KEYWORDS.has(keyword)) {
        problem = `has the unknown keyword \`${keyword}\` at \`${at || '/'}\``;
        return;
      }
      if (keyword === 'pattern' && typeof value === 'string' && !regexCompiles(value)) {
        problem = `\`${here}\` is not a valid regular expression: \`${value}\``;
        return;
      }
      if ((keyword === '$anchor' || keyword === '$dynamicAnchor') && typeof value === 'string') anchors.add(value);
      if ((keyword === '$ref' || keyword === '$dynamicRef') && typeof value === 'string')
        refs.push({ ref: value, at: here });
      if (ONE_SUBSCHEMA.includes(keyword)) walk(value, here, depth + 1);
      else if (LIST_OF_SUBSCHEMAS.includes(keyword) && Array.isArray(value))
        value.forEach((item, i) => walk(item, `${here}/${i}`, depth + 1));
      else if (
        MAP_OF_SUBSCHEMAS.includes(keyword) &&
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value)
      ) {
        for (const [name, sub] of Object.entries(value)) {
          if (keyword === 'patternProperties' && !regexCompiles(name)) {
            problem = `\`${here}\` has a property pattern that is not a valid regular expression: \`${name}\``;
            return;
          }
          walk(sub, `${here}/${escapePointer(name)}`, depth + 1);
        }
      }
    }
  };
  walk(schema, '', 0);
  if (problem) return problem;

  const meta = metaSchemaProblem(schema, name);
  if (meta) return meta;

  for (const { ref, at } of refs) {
    if (!ref.startsWith('#'))
      return `\`${at}\` refers to \`${ref}\`, outside this schema: only references inside the schema are allowed`;
    // A malformed percent-escape (`#%E0%A4%A`) is the package's mistake, named like any other,
    // never a URIError thrown out of the check.
    const fragment = decodedFragment(ref.slice(1));
    if (fragment === null)
      return `\`${at}\` refers to \`${ref}\`, which is not a valid URI fragment (a malformed %-escape)`;
    const resolves = fragment === '' || (fragment.startsWith('/') ? pointers.has(fragment) : anchors.has(fragment));
    if (!resolves) return `\`${at}\` refers to \`${ref}\`, which is not in the schema`;
  }
  return null;
}

function decodedFragment(fragment: string): string | null {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return null;
  }
}

function regexCompiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}
