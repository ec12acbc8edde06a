import { describe, expect, it } from 'vitest';
import { revealInvisibles } from './hidden-characters';

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
