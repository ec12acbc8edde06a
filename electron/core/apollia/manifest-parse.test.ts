/**
 * `parseManifestText`: a TOML syntax error gives the parser's real cause with its line and column
 * (an unterminated string was reported as "control characters are not allowed").
 */
import { describe, expect, test } from 'vitest';
import { parseManifestText } from './manifest-parse';

const syntax = (text: string) => {
  const result = parseManifestText(text);
  if (result.ok) throw new Error('expected a syntax error');
  expect(result.error.code).toBe('manifest.syntax');
  return result.error.message;
};

const UNTERMINATED =
  'unterminated string: a quoted string must close on the line it opens (use """ or \'\'\' for text over several lines)';

describe('TOML syntax errors say what is wrong, where', () => {
  test('a basic string left open at the end of its line', () => {
    expect(syntax('[package]\nname = "abc\nversion = "1.0.0"\n')).toBe(
      `apollia.toml: TOML syntax error at line 2, column 12: ${UNTERMINATED}`,
    );
  });

  test('a literal string left open, with CRLF line ends', () => {
    expect(syntax("[package]\r\nname = 'abc\r\nversion = '1.0.0'\r\n")).toBe(
      `apollia.toml: TOML syntax error at line 2, column 12: ${UNTERMINATED}`,
    );
  });

  test("a string left open at the end of the file keeps smol-toml's own words", () => {
    expect(syntax('name = "abc')).toBe('apollia.toml: TOML syntax error at line 1, column 8: unfinished string');
  });

  test('a real control character is named by its code point', () => {
    expect(syntax('name = "a\u0001b"\n')).toBe(
      'apollia.toml: TOML syntax error at line 1, column 10: control character U+0001 is not allowed in a string (write it as \\u0001)',
    );
  });

  test("other errors are smol-toml's first line", () => {
    expect(syntax('[package]\nname = "x"\nversion = = "1"\n')).toBe(
      'apollia.toml: TOML syntax error at line 3, column 11: invalid value',
    );
  });
});
