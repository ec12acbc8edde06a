import { describe, expect, it } from 'vitest';
import { compareNames, nameDifferences, nameSkeleton } from './name-comparison';

describe('compareNames', () => {
  it('finds digits for letters, other scripts and case as lookalikes', () => {
    expect(compareNames('Example Accounting', 'Example Accounting')).toBe('same');
    expect(compareNames('Example Accounting', 'Example Acc0unting')).toBe('lookalike');
    expect(compareNames('Apple', 'App1e')).toBe('lookalike');
    expect(compareNames('Example', 'Exаmple')).toBe('lookalike');
    expect(compareNames('Modern Tools', 'Modem Tools')).toBe('lookalike');
    expect(compareNames('Example Accounting', 'Other Accounting')).toBe('different');
    expect(nameSkeleton('Release 10')).toBe('release10');
    expect(nameDifferences('Example Accounting', 'Example Acc0unting')).toEqual([{ index: 11, was: 'o', now: '0' }]);
    expect(nameDifferences('Modern', 'Modem')).toEqual([]);
  });
});
