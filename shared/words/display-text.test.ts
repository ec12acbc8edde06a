import { describe, expect, it } from 'vitest';
import {
  revealInvisibles,
  safeDisplayText,
  scriptWarnings,
  textSafetyReport,
  truncateForDisplay,
} from './display-text';

describe('revealInvisibles', () => {
  it('marks a right-to-left override where it stands', () => {
    const result = revealInvisibles('invoice\u202Efdp.exe');
    expect(result.text).toBe('invoice⟨U+202E⟩fdp.exe');
    expect(result.found).toEqual([{ codePoint: 'U+202E', index: 7, name: 'right-to-left override', category: 'bidi' }]);
  });

  it('marks isolates, marks and the Arabic letter mark', () => {
    expect(revealInvisibles('a\u2066b\u2069c\u200Fd\u061C').text).toBe('a⟨U+2066⟩b⟨U+2069⟩c⟨U+200F⟩d⟨U+061C⟩');
  });

  it('marks a zero-width joiner between letters', () => {
    const result = revealInvisibles('pay\u200Dpal');
    expect(result.text).toBe('pay⟨U+200D⟩pal');
    expect(result.found[0]).toEqual({
      codePoint: 'U+200D',
      index: 3,
      name: 'zero-width joiner',
      category: 'invisible',
    });
  });

  it('marks NUL, DEL and C1 controls, and tab/newline in a one-line field only', () => {
    expect(revealInvisibles('a\u0000b\u007Fc\u0085d').text).toBe('a⟨U+0000⟩b⟨U+007F⟩c⟨U+0085⟩d');
    expect(revealInvisibles('one\ntwo\tthree').text).toBe('one⟨U+000A⟩two⟨U+0009⟩three');
    expect(revealInvisibles('one\r\ntwo\tthree\rfour', { multiline: true }).text).toBe('one\r\ntwo\tthree⟨U+000D⟩four');
  });

  it('marks zero-width space, BOM, soft hyphen, word joiner and Hangul filler', () => {
    expect(revealInvisibles('a\u200Bb\uFEFFc\u00ADd\u2060e\u3164').text).toBe(
      'a⟨U+200B⟩b⟨U+FEFF⟩c⟨U+00AD⟩d⟨U+2060⟩e⟨U+3164⟩',
    );
  });

  it('marks tag characters used to smuggle text', () => {
    const smuggled = `ok${String.fromCodePoint(0xe0069, 0xe0067, 0xe006e)}`;
    expect(revealInvisibles(smuggled).text).toBe('ok⟨U+E0069⟩⟨U+E0067⟩⟨U+E006E⟩');
  });

  it('marks variation selectors that follow ordinary letters and lone surrogates', () => {
    expect(revealInvisibles(`a\uFE0F${String.fromCodePoint(0xe0100)}`).text).toBe('a⟨U+FE0F⟩⟨U+E0100⟩');
    expect(revealInvisibles('x\uD800y').text).toBe('x⟨U+D800⟩y');
  });

  it('leaves emoji whole: ZWJ sequences, VS16, skin tones, keycaps and subdivision flags', () => {
    const emoji = ['👩‍💻', '❤️', '👍🏽', '👨🏽‍🚀', '1️⃣', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '🇫🇷'];
    for (const e of emoji) expect(revealInvisibles(`hi ${e}`)).toEqual({ text: `hi ${e}`, found: [] });
  });

  it('leaves ordinary text in any script alone', () => {
    expect(revealInvisibles('Café Ünïcode — 東京 — مرحبا — Привет').found).toEqual([]);
  });
});

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

describe('truncateForDisplay', () => {
  it('keeps short text whole', () => {
    expect(truncateForDisplay('short', 10)).toEqual({ shown: 'short', truncated: false, full: 'short' });
  });

  it('cuts a long text to max characters plus an ellipsis, keeping the whole', () => {
    const long = 'x'.repeat(100_000);
    const result = truncateForDisplay(long, 80);
    expect(result.shown).toBe(`${'x'.repeat(80)}…`);
    expect(result.truncated).toBe(true);
    expect(result.full).toBe(long);
  });

  it('never splits an emoji or an accent', () => {
    expect(truncateForDisplay('👩‍💻👩‍💻👩‍💻', 2).shown).toBe('👩‍💻👩‍💻…');
    expect(truncateForDisplay('e\u0301e\u0301e\u0301', 1).shown).toBe('e\u0301…');
  });
});

describe('textSafetyReport', () => {
  it('explains a right-to-left override in the publisher name', () => {
    expect(textSafetyReport([{ label: 'publisher name', text: 'Example\u202E Corp', kind: 'name' }])).toEqual([
      {
        code: 'text.bidi_control',
        field: 'publisher name',
        message: 'The publisher name contains a right-to-left override (U+202E) that can disguise text',
      },
    ]);
  });

  it('explains lookalike letters and mixed scripts', () => {
    expect(textSafetyReport([{ label: 'publisher name', text: 'Ex\u0430mple', kind: 'name' }])).toEqual([
      {
        code: 'text.mixed_scripts',
        field: 'publisher name',
        message: 'The publisher name mixes Cyrillic and Latin letters, which can make it look like a different name',
      },
      {
        code: 'text.confusable',
        field: 'publisher name',
        message: 'The publisher name uses lookalike characters: Cyrillic "а" (U+0430) looks like "a"',
      },
    ]);
  });

  it('groups repeats and names controls and invisibles', () => {
    expect(textSafetyReport([{ label: 'tool name', text: 'a\u200Bb\u200Bc\u0000', kind: 'identifier' }])).toEqual([
      {
        code: 'text.invisible',
        field: 'tool name',
        message: 'The tool name contains 2 × zero-width space (U+200B), which is invisible',
      },
      {
        code: 'text.control',
        field: 'tool name',
        message: 'The tool name contains a null character (U+0000), a control character that does not print',
      },
    ]);
  });

  it('lets prose keep newlines and mix scripts, but not hide characters', () => {
    expect(
      textSafetyReport([{ label: 'description', text: 'Works with Яндекс and Google.\nSecond line.', kind: 'prose' }]),
    ).toEqual([]);
    expect(
      textSafetyReport([{ label: 'description', text: 'Fine\u2067 text', kind: 'prose' }]).map((w) => w.code),
    ).toEqual(['text.bidi_control']);
  });

  it('says nothing about clean text', () => {
    expect(
      textSafetyReport([
        { label: 'publisher name', text: 'Acme Integrations Team', kind: 'name' },
        { label: 'command', text: 'npx -y @acme/mcp --port 8080', kind: 'command' },
        { label: 'name', text: 'Rocket 🚀', kind: 'name' },
      ]),
    ).toEqual([]);
  });
});

describe('safeDisplayText', () => {
  it('reveals before truncating, so the marker cannot be cut away unseen', () => {
    const result = safeDisplayText('ab\u202Ecd', { max: 40 });
    expect(result.shown).toBe('ab⟨U+202E⟩cd');
    expect(result.full).toBe('ab⟨U+202E⟩cd');
    expect(result.found.map((f) => f.codePoint)).toEqual(['U+202E']);
  });
});

describe('compareNames', () => {
  it('finds digits for letters, other scripts and case as lookalikes', async () => {
    const { compareNames, nameSkeleton } = await import('./display-text');
    expect(compareNames('Example Accounting', 'Example Accounting')).toBe('same');
    expect(compareNames('Example Accounting', 'Example Acc0unting')).toBe('lookalike');
    expect(compareNames('Apple', 'App1e')).toBe('lookalike');
    expect(compareNames('Example', 'Exаmple')).toBe('lookalike');
    expect(compareNames('Modern Tools', 'Modem Tools')).toBe('lookalike');
    expect(compareNames('Example Accounting', 'Other Accounting')).toBe('different');
    expect(nameSkeleton('Release 10')).toBe('release10');
    const { nameDifferences } = await import('./display-text');
    expect(nameDifferences('Example Accounting', 'Example Acc0unting')).toEqual([{ index: 11, was: 'o', now: '0' }]);
    expect(nameDifferences('Modern', 'Modem')).toEqual([]);
  });
});
