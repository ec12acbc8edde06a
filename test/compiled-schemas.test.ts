/**
 * The app's own schemas are compiled to ajv standalone code at build time
 * (`scripts/compile-schemas.ts` → `electron/core/generated/`). The checked-in files must be exactly
 * what the live schemas compile to today, so they cannot drift; and they must run no generated code
 * at run time (`eval`, `new Function`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_DIR, generatedValidators } from '../scripts/compile-schemas';

describe('compiled schemas (electron/core/generated)', () => {
  const generated = generatedValidators();

  it('are exactly what the live schemas compile to (run `npm run compile-schemas` after changing a schema)', () => {
    expect([...generated.keys()].sort()).toEqual(readdirSync(GENERATED_DIR).sort());
    for (const [name, text] of generated)
      expect(readFileSync(join(GENERATED_DIR, name), 'utf8'), `${name} is stale: run npm run compile-schemas`).toBe(
        text,
      );
  });

  it('never build code at run time', () => {
    for (const [name, text] of generated) {
      if (!name.endsWith('.js')) continue;
      expect(text, name).not.toMatch(/\beval\(|new Function\b|\brequire\(/);
    }
  });
});
