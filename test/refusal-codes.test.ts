/**
 * The refusal codes are listed once (shared/contract/refusal-codes.ts): the list is exactly the codes the
 * readers' source names, so a code added to a reader without its row fails here, and a row left for a
 * code no reader answers any more fails too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceFiles } from './helpers/source-files';
import { describe, expect, it } from 'vitest';
import { REFUSAL_ROWS } from '../shared/contract/refusal-actor';
import { isRefusalCode, REFUSAL_CODES } from '../shared/contract/refusal-codes';

const ROOT = new URL('..', import.meta.url).pathname;
const CODE = /'((?:archive|manifest|template|plugin|input|signature|source)\.[a-z_0-9]+)'/g;

describe('refusal codes', () => {
  it('are exactly the codes the readers and the refused screen name', () => {
    const named = new Set<string>();
    for (const file of ['electron', 'shared', 'renderer/src'].flatMap(sourceFiles)) {
      if (file === 'shared/contract/refusal-codes.ts') continue;
      for (const match of readFileSync(join(ROOT, file), 'utf8').matchAll(CODE)) named.add(match[1] as string);
    }
    expect([...named].sort()).toEqual([...REFUSAL_CODES].sort());
  });

  it('are each listed once, and key every row of who acts', () => {
    expect(new Set(REFUSAL_CODES).size).toBe(REFUSAL_CODES.length);
    for (const code of REFUSAL_ROWS.keys()) expect(isRefusalCode(code), code).toBe(true);
    expect(isRefusalCode('__proto__')).toBe(false);
    expect(isRefusalCode('archive.emtpy')).toBe(false);
  });
});
