import { describe, expect, it } from 'vitest';
import { scriptWarnings } from './script-lookalikes';

describe('scriptWarnings', () => {
  it('flags Cyrillic а in Exаmple as mixed and confusable', () => {
    expect(scriptWarnings('Ex\u0430mple')).toEqual({
      mixedScripts: ['Cyrillic', 'Latin'],
      confusables: [{ char: 'а', looksLike: 'a', index: 2 }],
    });
  });

  it('flags a Greek omicron', () => {
    expect(scriptWarnings('G\u03BFogle')).toEqual({
      mixedScripts: ['Greek', 'Latin'],
      confusables: [{ char: 'ο', looksLike: 'o', index: 1 }],
    });
  });

  it('flags a whole-script spoof made only of lookalikes', () => {
    const result = scriptWarnings('\u0430\u0440\u0440\u04CF\u0435');
    expect(result.mixedScripts).toBeNull();
    expect(result.confusables.map((c) => c.looksLike).join('')).toBe('apple');
  });

  it('flags Cyrillic З standing for the digit 3', () => {
    expect(scriptWarnings('web\u04173').confusables).toEqual([{ char: 'З', looksLike: '3', index: 3 }]);
  });

  it('flags full-width and mathematical letters that fold to ASCII', () => {
    expect(scriptWarnings('\uFF25xample').confusables).toEqual([{ char: 'Ｅ', looksLike: 'E', index: 0 }]);
    expect(scriptWarnings('𝐄xample').confusables).toEqual([{ char: '𝐄', looksLike: 'E', index: 0 }]);
  });

  it('does not flag pure non-Latin names as mixed, nor their ordinary letters', () => {
    expect(scriptWarnings('Яндекс')).toEqual({ mixedScripts: null, confusables: [] });
    expect(scriptWarnings('Ελληνικά')).toEqual({ mixedScripts: null, confusables: [] });
    expect(scriptWarnings('東京ガス')).toEqual({ mixedScripts: null, confusables: [] });
    expect(scriptWarnings('שלום')).toEqual({ mixedScripts: null, confusables: [] });
  });

  it('allows the mixes a language needs, and digits and punctuation', () => {
    expect(scriptWarnings('Sony ソニー株式会社').mixedScripts).toBeNull();
    expect(scriptWarnings('LG 전자').mixedScripts).toBeNull();
    expect(scriptWarnings('acme-tools_2 (v3)').mixedScripts).toBeNull();
  });

  it('is fine with emoji and accents', () => {
    expect(scriptWarnings('Café 🚀 Tools')).toEqual({ mixedScripts: null, confusables: [] });
  });
});
