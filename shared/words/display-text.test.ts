import { describe, expect, it } from 'vitest';
import { safeDisplayText, textSafetyReport, truncateForDisplay } from './display-text';

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
