/**
 * A package's JSON Schema file as draft 2020-12 (spec: agent.md `output`, graders' `schema`): it
 * must be UTF-8 JSON and a schema that would compile. The check reads it as data only
 * (electron/core/schema/json-schema-check.ts): nothing from the package is turned into code, and no remote
 * `$ref` is followed.
 */
import { jsonSchemaProblem } from '../schema/json-schema-check';

/** Why the bytes are not a usable JSON Schema 2020-12, or null when they are one. */
export function jsonSchemaFileProblem(bytes: Uint8Array): string | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return 'is not UTF-8 text';
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    return `is not JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  const problem = jsonSchemaProblem(schema);
  return problem === null ? null : `does not compile as JSON Schema 2020-12: ${problem}`;
}
