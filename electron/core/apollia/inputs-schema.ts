/**
 * A tool's or workflow's `inputs` must itself be a JSON Schema (spec "[[tools]]", "[[workflows]]":
 * "JSON Schema of the inputs"). It is compiled with ajv's 2020-12 dialect in strict mode, so an
 * unknown keyword (`typ`) is refused like an unknown key; `x-order`, which the spec names (the
 * order the launch form follows), is the one extension allowed and must list property names.
 * Compiling reads the schema as data: nothing of the package runs.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** Why `schema` is not a usable JSON Schema, or null when it compiles. */
export function inputsSchemaProblem(schema: unknown): string | null {
  const ajv = new Ajv2020({ strict: true, strictTypes: false, strictTuples: false, strictRequired: false, allErrors: false, addUsedSchema: false, loadSchema: undefined });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'x-order', schemaType: 'array', metaSchema: { type: 'array', items: { type: 'string' } } });
  try {
    if (!ajv.validateSchema(schema as object)) return ajv.errorsText(ajv.errors?.slice(0, 1), { dataVar: 'inputs', separator: '; ' });
    ajv.compile(schema as object);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
