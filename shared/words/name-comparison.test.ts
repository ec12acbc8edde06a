import { describe, expect, it } from 'vitest';
import {
  compareNames,
  editBudget,
  editDistance,
  nameDifferences,
  nameLikeness,
  nameSkeleton,
  nameWordSkeletons,
} from './name-comparison';

describe('nameSkeleton', () => {
  it('folds case, other scripts, compatibility forms and digits that touch a letter; drops spaces and punctuation', () => {
    expect(nameSkeleton('Example Acc0unting')).toBe('exampleaccounting');
    expect(nameSkeleton('Exаmple')).toBe('example'); // Cyrillic а
    expect(nameSkeleton('Ｅxample')).toBe('example'); // full-width Ｅ
    expect(nameSkeleton('L3dg3r Co.')).toBe('ledgerco');
    expect(nameSkeleton('Modern')).toBe('modem');
    // A number standing alone is a number, not a word in disguise.
    expect(nameSkeleton('Release 10')).toBe('release10');
    expect(nameWordSkeletons('The Example-Acc0unting Group')).toEqual(['the', 'example', 'accounting', 'group']);
  });
});

describe('editDistance', () => {
  it('counts inserts, deletes, replacements and a swap of neighbours as one edit each', () => {
    expect(editDistance('example', 'example')).toBe(0);
    expect(editDistance('example', 'exampel')).toBe(1);
    expect(editDistance('example', 'exmple')).toBe(1);
    expect(editDistance('example', 'examples')).toBe(1);
    expect(editDistance('example', 'exanple')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    // Stops past the limit and says only that it is past it.
    expect(editDistance('kitten', 'sitting', 1)).toBe(2);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
  });

  it('gives short names a smaller budget', () => {
    expect(editBudget('bob')).toBe(0);
    expect(editBudget('acme')).toBe(1);
    expect(editBudget('example')).toBe(1);
    expect(editBudget('exampleaccounting')).toBe(2);
  });
});

describe('compareNames', () => {
  it('finds digits for letters, other scripts and case as lookalikes (the same skeleton)', () => {
    expect(compareNames('Example Accounting', 'Example Accounting')).toBe('same');
    expect(compareNames('Example Accounting', 'Example Acc0unting')).toBe('lookalike');
    expect(compareNames('Apple', 'App1e')).toBe('lookalike');
    expect(compareNames('Example', 'Exаmple')).toBe('lookalike');
    expect(compareNames('Modern Tools', 'Modem Tools')).toBe('lookalike');
    expect(compareNames('Example Accounting', 'EXAMPLE ACCOUNTING')).toBe('lookalike');
    expect(nameLikeness('Example Accounting', 'Example Acc0unting')).toBe('same_look');
  });

  it('finds a name at most two edits away as a lookalike, fewer for a short one', () => {
    expect(nameLikeness('Example Accounting', 'Exampel Acounting')).toBe('near');
    expect(nameLikeness('Example Accounting', 'Examp1e Acc0unt1ng Ltd')).toBe('contains');
    expect(compareNames('Example Accounting', 'Example Accountants')).toBe('lookalike');
    expect(compareNames('Acme', 'Acne')).toBe('lookalike');
    // Three edits, or two on a short name: another name.
    expect(compareNames('Example Accounting', 'Example Acquaintance')).toBe('different');
    expect(compareNames('Acme', 'Acorn')).toBe('different');
    expect(compareNames('Bob', 'Rob')).toBe('different');
  });

  it('finds the old name inside a longer new one, as whole words or as its start', () => {
    expect(nameLikeness('Example Accounting', 'Example Acc0unting Partners')).toBe('contains');
    expect(nameLikeness('Example Accounting', 'The Example Accounting Group')).toBe('contains');
    expect(nameLikeness('Example Accounting', 'ExampleAccountingPartners')).toBe('contains');
    expect(nameLikeness('Example Accounting', 'Official Exаmple Accountng')).toBe('contains');
    // A shared word is not the old name.
    expect(compareNames('Example Accounting', 'Other Accounting')).toBe('different');
    expect(compareNames('Example Accounting', 'Accounting Partners')).toBe('different');
    expect(compareNames('Example Accounting', 'Example Bookkeeping')).toBe('different');
    // A short old name hidden inside a longer word is not a lookalike: only whole words or the start count.
    expect(compareNames('Acme', 'Academy Press')).toBe('different');
  });
});

describe('nameDifferences', () => {
  it('points at the characters that differ, on the old name’s length when the new one adds words after it', () => {
    expect(nameDifferences('Example Accounting', 'Example Acc0unting')).toEqual([{ index: 11, was: 'o', now: '0' }]);
    expect(nameDifferences('Example Accounting', 'Example Acc0unting Partners')).toEqual([
      { index: 11, was: 'o', now: '0' },
    ]);
    expect(nameDifferences('Modern', 'Modem')).toEqual([]);
    expect(nameDifferences('Example Accounting', 'Other Accountingxx')).toEqual([]);
  });
});
