/**
 * What the CLI prints holds package text, and a package is written by whoever made it: an escape
 * sequence (`ESC [2J`), a right-to-left override or a zero-width character in a publisher name must
 * be shown, not obeyed by the terminal. Text output is passed through `revealInvisibles` (each hidden
 * character becomes a visible `⟨U+202E⟩`); JSON output keeps the exact data but writes each hidden
 * character as a `\u` escape, so nothing in it acts on a terminal either.
 */
import { revealInvisibles } from '../../../shared/words/hidden-characters';

/** Text a terminal shows as it is: hidden and control characters made visible where they stand. */
export function terminalSafe(text: string): string {
  return revealInvisibles(text, { multiline: true }).text;
}

/** One line a terminal shows as it is: a line break in it is shown too, never obeyed (a record's entry is one line). */
export function terminalLine(text: string): string {
  return revealInvisibles(text).text;
}

function jsonEscape(codePoint: number): string {
  const units = codePoint > 0xffff ? String.fromCodePoint(codePoint).split('') : [String.fromCharCode(codePoint)];
  return units.map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
}

/** `JSON.stringify(value, null, 2)` with every hidden character written as a `\u` escape (the same data). */
export function terminalJson(value: unknown): string {
  const json = JSON.stringify(value, null, 2);
  const { found } = revealInvisibles(json, { multiline: true });
  if (found.length === 0) return json;
  let out = '';
  let at = 0;
  for (const hidden of found) {
    const codePoint = json.codePointAt(hidden.index) ?? 0;
    out += json.slice(at, hidden.index) + jsonEscape(codePoint);
    at = hidden.index + (codePoint > 0xffff ? 2 : 1);
  }
  return out + json.slice(at);
}

/** `1 agent`, `2 agents`: a count with its noun, never `agent(s)`. */
export function plural(count: number, noun: string): string {
  return `${count} ${count === 1 ? noun : `${noun}s`}`;
}
