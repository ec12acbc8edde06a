/**
 * Compiling a package's JSON Schema file as draft 2020-12 (spec: agent.md `output`, graders'
 * `schema`), with `format` known. Compiling reads the schema as data: no remote `$ref` is fetched
 * (Ajv's synchronous compile never loads one; an unresolved `$ref` is a compile error).
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** Why the bytes are not a JSON Schema 2020-12 that compiles, or null when they are one. */
export function jsonSchemaProblem(bytes: Uint8Array): string | null {
  let schema: unknown;
  try {
    schema = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (error) {
    return `is not JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (typeof schema !== 'boolean' && (typeof schema !== 'object' || schema === null || Array.isArray(schema))) {
    return 'is not a JSON Schema (an object or a boolean)';
  }
  try {
    const ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: true });
    addFormats(ajv);
    ajv.compile(schema as object);
  } catch (error) {
    return `does not compile as JSON Schema 2020-12: ${error instanceof Error ? error.message : String(error)}`;
  }
  return null;
}
