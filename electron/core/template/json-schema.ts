/**
 * Compiling a package's JSON Schema file as draft 2020-12 (spec: agent.md `output`, graders'
 * `schema`), with `format` known. Compiling reads the schema as data: no remote `$ref` is fetched
 * (Ajv's synchronous compile never loads one; an unresolved `$ref` is a compile error).
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** Why the bytes are not a JSON Schema 2020-12 that compiles, or null when they are one. */
export function jsonSchemaProblem(bytes: Uint8Array): string | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return 'is not UTF-8 text';
  }
  const known = answers.get(text);
  if (known !== undefined) return known;
  const answer = compileProblem(text);
  if (answers.size >= 64) answers.delete(answers.keys().next().value as string);
  answers.set(text, answer);
  return answer;
}

/** Answers by schema text: a package's schema is often checked twice (output and a grader), and again on every inspect. */
const answers = new Map<string, string | null>();

function compileProblem(text: string): string | null {
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    return `is not JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (typeof schema !== 'boolean' && (typeof schema !== 'object' || schema === null || Array.isArray(schema))) {
    return 'is not a JSON Schema (an object or a boolean)';
  }
  const ajv = compiler();
  try {
    ajv.compile(schema as object);
  } catch (error) {
    return `does not compile as JSON Schema 2020-12: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    // One compiler for every check (making one costs far more than a compile); each schema is
    // forgotten after, so two packages' schemas with the same `$id` never meet.
    try {
      ajv.removeSchema(schema as object);
      if (typeof schema === 'object' && schema !== null && typeof (schema as { $id?: unknown }).$id === 'string') ajv.removeSchema((schema as { $id: string }).$id);
    } catch {
      shared = null;
    }
  }
  return null;
}

let shared: Ajv2020 | null = null;

function compiler(): Ajv2020 {
  if (!shared) {
    shared = new Ajv2020({ strict: false, allErrors: false, validateSchema: true });
    addFormats(shared);
  }
  return shared;
}
